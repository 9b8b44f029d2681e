-- Matches, seats, the append-only move log and server settings.
CREATE TABLE matches (
    id INTEGER PRIMARY KEY,
    game TEXT NOT NULL,
    options TEXT NOT NULL DEFAULT '{}',
    seat_count INTEGER NOT NULL,
    guild_id INTEGER,
    channel_id INTEGER NOT NULL,
    in_thread INTEGER NOT NULL DEFAULT 0,
    host_id INTEGER NOT NULL,
    invited_id INTEGER,
    first_seat TEXT NOT NULL DEFAULT 'random',
    status TEXT NOT NULL CHECK (status IN ('open', 'invited', 'active', 'finished', 'aborted')),
    state TEXT,
    version INTEGER NOT NULL DEFAULT 0,
    result TEXT,
    created_at REAL NOT NULL,
    updated_at REAL NOT NULL
);
CREATE UNIQUE INDEX matches_one_live_per_channel
    ON matches (channel_id) WHERE status IN ('open', 'invited', 'active');
CREATE TABLE seats (
    match_id INTEGER NOT NULL REFERENCES matches (id),
    seat INTEGER NOT NULL,
    user_id INTEGER NOT NULL,
    name TEXT NOT NULL,
    joined_at REAL NOT NULL,
    PRIMARY KEY (match_id, user_id)
);
CREATE INDEX seats_by_user ON seats (user_id);
CREATE TABLE moves (
    match_id INTEGER NOT NULL REFERENCES matches (id),
    ply INTEGER NOT NULL,
    notation TEXT NOT NULL,
    actor_id INTEGER,
    played_at REAL NOT NULL,
    PRIMARY KEY (match_id, ply)
);
CREATE TRIGGER moves_are_never_changed BEFORE UPDATE ON moves
    BEGIN SELECT RAISE(ABORT, 'the move log is append-only'); END;
CREATE TRIGGER moves_are_never_deleted BEFORE DELETE ON moves
    BEGIN SELECT RAISE(ABORT, 'the move log is append-only'); END;
CREATE TABLE guild_settings (
    guild_id INTEGER PRIMARY KEY,
    use_threads INTEGER NOT NULL DEFAULT 0
);
