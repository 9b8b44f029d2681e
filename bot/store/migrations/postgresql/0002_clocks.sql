-- Clocks: time per move, a log with entry kinds, notices, offers, users, vacations.
ALTER TABLE matches ADD COLUMN move_seconds INTEGER;
ALTER TABLE matches ADD COLUMN turn_started_at DOUBLE PRECISION;
ALTER TABLE moves DROP CONSTRAINT moves_pkey;
ALTER TABLE moves ADD COLUMN seq INTEGER;
ALTER TABLE moves DISABLE TRIGGER moves_are_never_changed;
UPDATE moves SET seq = ply;
ALTER TABLE moves ENABLE TRIGGER moves_are_never_changed;
ALTER TABLE moves ALTER COLUMN seq SET NOT NULL;
ALTER TABLE moves ADD PRIMARY KEY (match_id, seq);
ALTER TABLE moves ADD COLUMN kind TEXT NOT NULL DEFAULT 'move'
    CHECK (kind IN ('move', 'takeback', 'skip'));
CREATE TABLE notices (
    match_id BIGINT NOT NULL REFERENCES matches (id),
    ply INTEGER NOT NULL,
    kind TEXT NOT NULL,
    sent_at DOUBLE PRECISION NOT NULL,
    PRIMARY KEY (match_id, ply, kind)
);
CREATE TABLE offers (
    id BIGSERIAL PRIMARY KEY,
    match_id BIGINT NOT NULL REFERENCES matches (id),
    kind TEXT NOT NULL CHECK (kind IN ('draw', 'takeback')),
    from_user BIGINT NOT NULL,
    version INTEGER NOT NULL,
    created_at DOUBLE PRECISION NOT NULL,
    status TEXT NOT NULL DEFAULT 'open'
        CHECK (status IN ('open', 'accepted', 'declined', 'void'))
);
CREATE TABLE users (
    user_id BIGINT PRIMARY KEY,
    reminders TEXT NOT NULL DEFAULT 'on' CHECK (reminders IN ('on', 'off', 'digest')),
    last_digest_at DOUBLE PRECISION
);
CREATE TABLE vacations (
    id BIGSERIAL PRIMARY KEY,
    user_id BIGINT NOT NULL,
    starts_at DOUBLE PRECISION NOT NULL,
    ends_at DOUBLE PRECISION NOT NULL
);
CREATE INDEX vacations_by_user ON vacations (user_id);
ALTER TABLE guild_settings ADD COLUMN move_seconds INTEGER;
ALTER TABLE guild_settings ADD COLUMN channels TEXT;
ALTER TABLE guild_settings ADD COLUMN spectators_talk INTEGER NOT NULL DEFAULT 1;
