-- Matches, seats, the append-only move log and server settings (PostgreSQL: 64-bit ids,
-- double precision times, and a trigger function that refuses changes to the move log).
CREATE TABLE matches (
    id BIGSERIAL PRIMARY KEY,
    game TEXT NOT NULL,
    options TEXT NOT NULL DEFAULT '{}',
    seat_count INTEGER NOT NULL,
    guild_id BIGINT,
    channel_id BIGINT NOT NULL,
    in_thread INTEGER NOT NULL DEFAULT 0,
    host_id BIGINT NOT NULL,
    invited_id BIGINT,
    first_seat TEXT NOT NULL DEFAULT 'random',
    status TEXT NOT NULL CHECK (status IN ('open', 'invited', 'active', 'finished', 'aborted')),
    state TEXT,
    version INTEGER NOT NULL DEFAULT 0,
    result TEXT,
    created_at DOUBLE PRECISION NOT NULL,
    updated_at DOUBLE PRECISION NOT NULL
);
CREATE UNIQUE INDEX matches_one_live_per_channel
    ON matches (channel_id) WHERE status IN ('open', 'invited', 'active');
CREATE TABLE seats (
    match_id BIGINT NOT NULL REFERENCES matches (id),
    seat INTEGER NOT NULL,
    user_id BIGINT NOT NULL,
    name TEXT NOT NULL,
    joined_at DOUBLE PRECISION NOT NULL,
    PRIMARY KEY (match_id, user_id)
);
CREATE INDEX seats_by_user ON seats (user_id);
CREATE TABLE moves (
    match_id BIGINT NOT NULL REFERENCES matches (id),
    ply INTEGER NOT NULL,
    notation TEXT NOT NULL,
    actor_id BIGINT,
    played_at DOUBLE PRECISION NOT NULL,
    PRIMARY KEY (match_id, ply)
);
CREATE FUNCTION moves_are_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    RAISE EXCEPTION 'the move log is append-only';
END;
$$;
CREATE TRIGGER moves_are_never_changed BEFORE UPDATE OR DELETE ON moves
    FOR EACH ROW EXECUTE FUNCTION moves_are_append_only();
CREATE TABLE guild_settings (
    guild_id BIGINT PRIMARY KEY,
    use_threads INTEGER NOT NULL DEFAULT 0
);
