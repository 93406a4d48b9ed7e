-- The announcements of migration 00017 go: no instance keeps sessions in
-- memory any more (each request reads its session's row), so nothing listens
-- on shipdesk_changes for them. Sign-out, disabling and a password reset end
-- the session in its row, and the next request anywhere sees that.

-- +goose Up
DROP TRIGGER users_announce ON users;
DROP TRIGGER staff_sessions_announce ON staff_sessions;
DROP FUNCTION announce_user_change();
DROP FUNCTION announce_session_change();

-- +goose Down
-- +goose StatementBegin
CREATE FUNCTION announce_session_change() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF TG_OP = 'DELETE' THEN
        PERFORM pg_notify('shipdesk_changes', 'session:' || encode(OLD.token_hash, 'hex'));
        RETURN OLD;
    END IF;
    PERFORM pg_notify('shipdesk_changes', 'session:' || encode(NEW.token_hash, 'hex'));
    IF NEW.token_hash IS DISTINCT FROM OLD.token_hash THEN
        PERFORM pg_notify('shipdesk_changes', 'session:' || encode(OLD.token_hash, 'hex'));
    END IF;
    RETURN NEW;
END
$$;
-- +goose StatementEnd

-- +goose StatementBegin
CREATE FUNCTION announce_user_change() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    PERFORM pg_notify('shipdesk_changes', 'user:' || OLD.id);
    RETURN NULL;
END
$$;
-- +goose StatementEnd

CREATE TRIGGER staff_sessions_announce
    AFTER UPDATE OF token_hash, user_id, expires_at, revoked_at OR DELETE ON staff_sessions
    FOR EACH ROW EXECUTE FUNCTION announce_session_change();

CREATE TRIGGER users_announce
    AFTER UPDATE OF id, username, role, lang, password_hash, disabled_at OR DELETE ON users
    FOR EACH ROW EXECUTE FUNCTION announce_user_change();
