-- Tournaments (issue 32). A tournament is a row whose `data` is the pure engine's JSON
-- (bot/tournaments: players, paired rounds, results); the columns are what the bot looks up
-- (its server, its thread, what is due when). Its matches are ordinary matches, linked here.
-- The role whose members may create tournaments, besides the server's managers.
ALTER TABLE guild_settings ADD COLUMN organiser_role BIGINT;
CREATE TABLE tournaments (
    id BIGINT PRIMARY KEY,
    guild_id BIGINT NOT NULL,
    parent_channel_id BIGINT NOT NULL,
    channel_id BIGINT NOT NULL,
    organiser_id BIGINT NOT NULL,
    game TEXT NOT NULL,
    options TEXT NOT NULL,
    format TEXT NOT NULL,
    rated INTEGER NOT NULL,
    min_rating INTEGER,
    move_seconds BIGINT,
    round_seconds BIGINT NOT NULL,
    signup_until DOUBLE PRECISION NOT NULL,
    -- signup, running, finished, cancelled
    status TEXT NOT NULL,
    round_deadline DOUBLE PRECISION,
    data TEXT NOT NULL,
    -- the sign-up message (Join / Leave), once posted
    signup_message_id BIGINT,
    version INTEGER NOT NULL DEFAULT 0,
    created_at DOUBLE PRECISION NOT NULL,
    updated_at DOUBLE PRECISION NOT NULL
);
CREATE INDEX tournaments_guild ON tournaments (guild_id, status);
CREATE INDEX tournaments_channel ON tournaments (channel_id);
-- One row per paired round: its primary key is what makes a round paired once, whatever
-- restarts or races (the pairing transaction fails as a whole on a second insert).
CREATE TABLE tournament_rounds (
    tournament_id BIGINT NOT NULL REFERENCES tournaments (id),
    round INTEGER NOT NULL,
    paired_at DOUBLE PRECISION NOT NULL,
    PRIMARY KEY (tournament_id, round)
);
CREATE TABLE tournament_matches (
    match_id BIGINT PRIMARY KEY REFERENCES matches (id),
    tournament_id BIGINT NOT NULL REFERENCES tournaments (id),
    round INTEGER NOT NULL,
    game_index INTEGER NOT NULL,
    UNIQUE (tournament_id, round, game_index)
);
CREATE INDEX tournament_matches_of ON tournament_matches (tournament_id, round);
