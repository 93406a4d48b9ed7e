-- Every committed change to what the cached signed-in pages show (a
-- shipment's page, the lists, the home page's counts) is announced on
-- shipdesk_changes as "data:<table>", so each instance's page cache
-- (pagecache) drops its copies. The triggers are per statement: a statement
-- that touches many rows announces once, and PostgreSQL folds the same
-- announcement of one transaction into one. A statement that changes nothing
-- a page shows announces nothing: one that touches no row, and an update
-- whose rows are equal before and after but for the columns named in the
-- trigger's arguments (the pollers' claims, written on a schedule).
-- Tables no cached page reads (the outbox, uploads, sessions, …) announce
-- nothing here; a table a cached page comes to read needs its triggers here.

-- +goose Up
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

-- +goose Down
-- +goose StatementBegin
DO $$
DECLARE
    t record;
BEGIN
    FOR t IN SELECT tgname, tgrelid::regclass AS rel FROM pg_trigger
        WHERE tgname LIKE '%\_announce\_insert' OR tgname LIKE '%\_announce\_delete'
           OR tgname LIKE '%\_announce\_update' OR tgname LIKE '%\_announce\_truncate' LOOP
        EXECUTE format('DROP TRIGGER %I ON %s', t.tgname, t.rel);
    END LOOP;
END
$$;
-- +goose StatementEnd
DROP FUNCTION announce_data();
