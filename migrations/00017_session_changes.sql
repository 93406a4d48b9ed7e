-- Every change to what a session check answers is announced to the dashboard's
-- instances on the channel shipdesk_changes, in the transaction that makes it,
-- so the instances' caches of live sessions (staff/sessioncache.go) drop what
-- has changed. A session row: "session:<hex of the token hash>" (revoked,
-- expiry moved, deleted); a user row: "user:<id>" (disabled, password reset,
-- role, name or language changed, deleted). The last seen time (touched once a
-- minute) announces nothing: each instance keeps its own idle clock and asks
-- the database when it runs out.

-- +goose Up
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

-- +goose Down
DROP TRIGGER users_announce ON users;
DROP TRIGGER staff_sessions_announce ON staff_sessions;
DROP FUNCTION announce_user_change();
DROP FUNCTION announce_session_change();
