-- The page cache is gone: nothing listens for "data:<table>" any more, so the
-- statement triggers of 00035 that announced every change to what the cached
-- pages showed, and their function, go. The change feed keeps announcing
-- what the sessions' cache follows (00017).

-- +goose Up
-- +goose StatementBegin
DO $$
DECLARE
    t record;
    op text;
BEGIN
    FOR t IN SELECT * FROM (VALUES
        ('shipments'),
        ('tracking_events'),
        ('shipment_notes'),
        ('carriers'),
        ('parcel_points'),
        ('shipping_settings'),
        ('senders'),
        ('print_batches'),
        ('print_batch_shipments'),
        ('pickups'),
        ('attention_actions'),
        ('attention_notes'),
        ('commissions'),
        ('commission_activities'),
        ('withdrawals'),
        ('claims'),
        ('claim_messages')
    ) AS v(name) LOOP
        FOREACH op IN ARRAY ARRAY['insert', 'delete', 'update', 'truncate'] LOOP
            EXECUTE format('DROP TRIGGER %I ON %I', t.name || '_announce_' || op, t.name);
        END LOOP;
    END LOOP;
END
$$;
-- +goose StatementEnd
DROP FUNCTION announce_data();

-- +goose Down
-- +goose StatementBegin
CREATE FUNCTION announce_data() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
    ignored text[] := COALESCE(TG_ARGV::text[], '{}');
    changed boolean;
BEGIN
    -- Each branch reads only the transition tables its trigger declares.
    CASE TG_OP
    WHEN 'INSERT' THEN
        changed := EXISTS (SELECT 1 FROM new_rows);
    WHEN 'DELETE' THEN
        changed := EXISTS (SELECT 1 FROM old_rows);
    WHEN 'UPDATE' THEN
        changed := EXISTS (SELECT to_jsonb(n) - ignored FROM new_rows n
                           EXCEPT ALL
                           SELECT to_jsonb(o) - ignored FROM old_rows o);
    ELSE
        changed := true; -- TRUNCATE
    END CASE;
    IF changed THEN
        PERFORM pg_notify('shipdesk_changes', 'data:' || TG_TABLE_NAME);
    END IF;
    RETURN NULL;
END
$$;
-- +goose StatementEnd

-- +goose StatementBegin
DO $$
DECLARE
    t record;
BEGIN
    FOR t IN SELECT * FROM (VALUES
        ('shipments', '''claimed_until'', ''claimed_by'''),
        ('tracking_events', ''),
        ('shipment_notes', ''),
        ('carriers', ''),
        ('parcel_points', ''),
        ('shipping_settings', ''),
        ('senders', ''),
        ('print_batches', ''),
        ('print_batch_shipments', ''),
        ('pickups', ''),
        ('attention_actions', ''),
        ('attention_notes', ''),
        ('commissions', '''claimed_until'', ''claimed_by'''),
        ('commission_activities', ''),
        ('withdrawals', ''),
        ('claims', ''),
        ('claim_messages', '')
    ) AS v(name, ignored) LOOP
        EXECUTE format('CREATE TRIGGER %I AFTER INSERT ON %I REFERENCING NEW TABLE AS new_rows
            FOR EACH STATEMENT EXECUTE FUNCTION announce_data()', t.name || '_announce_insert', t.name);
        EXECUTE format('CREATE TRIGGER %I AFTER DELETE ON %I REFERENCING OLD TABLE AS old_rows
            FOR EACH STATEMENT EXECUTE FUNCTION announce_data()', t.name || '_announce_delete', t.name);
        EXECUTE format('CREATE TRIGGER %I AFTER UPDATE ON %I REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
            FOR EACH STATEMENT EXECUTE FUNCTION announce_data(%s)', t.name || '_announce_update', t.name, t.ignored);
        EXECUTE format('CREATE TRIGGER %I AFTER TRUNCATE ON %I
            FOR EACH STATEMENT EXECUTE FUNCTION announce_data()', t.name || '_announce_truncate', t.name);
    END LOOP;
END
$$;
-- +goose StatementEnd
