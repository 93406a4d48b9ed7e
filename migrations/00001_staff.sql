-- +goose Up
CREATE TABLE users (
    id            bigserial PRIMARY KEY,
    username      text NOT NULL,
    role          text NOT NULL CHECK (role IN ('clerk', 'agent', 'manager')),
    password_hash text NOT NULL,
    disabled_at   timestamptz,
    created_at    timestamptz NOT NULL DEFAULT now(),
    updated_at    timestamptz NOT NULL DEFAULT now(),
    CONSTRAINT username_shape CHECK (username ~ '^[a-z0-9][a-z0-9._-]{1,39}$')
);
CREATE UNIQUE INDEX users_username_key ON users (username);

-- A signed-in browser. The cookie carries a random token; only its SHA-256 is
-- stored, so a copy of the database does not let anyone sign in.
CREATE TABLE staff_sessions (
    token_hash   bytea PRIMARY KEY,
    user_id      bigint NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    created_at   timestamptz NOT NULL DEFAULT now(),
    last_seen_at timestamptz NOT NULL DEFAULT now(),
    expires_at   timestamptz NOT NULL,
    revoked_at   timestamptz,
    address      text NOT NULL DEFAULT '',
    user_agent   text NOT NULL DEFAULT ''
);
CREATE INDEX staff_sessions_user_idx ON staff_sessions (user_id);
CREATE INDEX staff_sessions_expires_idx ON staff_sessions (expires_at);

-- Failed sign-ins, kept for the throttle (per account and per address).
CREATE TABLE login_failures (
    id         bigserial PRIMARY KEY,
    username   text NOT NULL,
    address    text NOT NULL,
    at         timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX login_failures_username_idx ON login_failures (username, at);
CREATE INDEX login_failures_address_idx ON login_failures (address, at);

CREATE TABLE audit_log (
    id         bigserial PRIMARY KEY,
    at         timestamptz NOT NULL DEFAULT now(),
    actor_id   bigint REFERENCES users (id) ON DELETE SET NULL,
    actor_name text NOT NULL,
    action     text NOT NULL,
    target     text NOT NULL DEFAULT '',
    detail     jsonb NOT NULL DEFAULT '{}',
    address    text NOT NULL DEFAULT ''
);
CREATE INDEX audit_log_at_idx ON audit_log (at DESC, id DESC);
CREATE INDEX audit_log_target_idx ON audit_log (target, id DESC);
CREATE INDEX audit_log_actor_idx ON audit_log (actor_name, id DESC);

-- +goose Down
DROP TABLE audit_log;
DROP TABLE login_failures;
DROP TABLE staff_sessions;
DROP TABLE users;
