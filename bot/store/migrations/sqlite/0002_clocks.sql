-- Clocks: time per move, a log with entry kinds, notices, offers, users, vacations.
ALTER TABLE matches ADD COLUMN move_seconds INTEGER;
ALTER TABLE matches ADD COLUMN turn_started_at REAL;
CREATE TABLE moves_v2 (
    match_id INTEGER NOT NULL REFERENCES matches (id),
    seq INTEGER NOT NULL,
    ply INTEGER NOT NULL,
    kind TEXT NOT NULL DEFAULT 'move' CHECK (kind IN ('move', 'takeback', 'skip')),
    notation TEXT NOT NULL,
    actor_id INTEGER,
    played_at REAL NOT NULL,
    PRIMARY KEY (match_id, seq)
);
INSERT INTO moves_v2 (match_id, seq, ply, kind, notation, actor_id, played_at)
    SELECT match_id, ply, ply, 'move', notation, actor_id, played_at FROM moves;
DROP TABLE moves;
ALTER TABLE moves_v2 RENAME TO moves;
CREATE TRIGGER moves_are_never_changed BEFORE UPDATE ON moves
    BEGIN SELECT RAISE(ABORT, 'the move log is append-only'); END;
CREATE TRIGGER moves_are_never_deleted BEFORE DELETE ON moves
    BEGIN SELECT RAISE(ABORT, 'the move log is append-only'); END;
CREATE TABLE notices (
    match_id INTEGER NOT NULL REFERENCES matches (id),
    ply INTEGER NOT NULL,
    kind TEXT NOT NULL,
    sent_at REAL NOT NULL,
    PRIMARY KEY (match_id, ply, kind)
);
CREATE TABLE offers (
    id INTEGER PRIMARY KEY,
    match_id INTEGER NOT NULL REFERENCES matches (id),
    kind TEXT NOT NULL CHECK (kind IN ('draw', 'takeback')),
    from_user INTEGER NOT NULL,
    version INTEGER NOT NULL,
    created_at REAL NOT NULL,
    status TEXT NOT NULL DEFAULT 'open'
        CHECK (status IN ('open', 'accepted', 'declined', 'void'))
);
CREATE TABLE users (
    user_id INTEGER PRIMARY KEY,
    reminders TEXT NOT NULL DEFAULT 'on' CHECK (reminders IN ('on', 'off', 'digest')),
    last_digest_at REAL
);
CREATE TABLE vacations (
    id INTEGER PRIMARY KEY,
    user_id INTEGER NOT NULL,
    starts_at REAL NOT NULL,
    ends_at REAL NOT NULL
);
CREATE INDEX vacations_by_user ON vacations (user_id);
ALTER TABLE guild_settings ADD COLUMN move_seconds INTEGER;
ALTER TABLE guild_settings ADD COLUMN channels TEXT;
ALTER TABLE guild_settings ADD COLUMN spectators_talk INTEGER NOT NULL DEFAULT 1;
