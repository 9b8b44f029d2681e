-- Ratings: whether a match was opened rated, each player's current OpenSkill rating per game,
-- the rating history (before and after, one row per player of each rated match, written in the
-- transaction that finished the match), and who played rated games in which server (for the
-- server leaderboard). Finished matches get the columns the profile statistics read.
ALTER TABLE matches ADD COLUMN rated INTEGER NOT NULL DEFAULT 0;
ALTER TABLE matches ADD COLUMN plies INTEGER;
-- matches finished before 0003 have no finish time: their last change is when they ended
UPDATE matches SET finished_at = updated_at WHERE status = 'finished' AND finished_at IS NULL;
CREATE INDEX matches_finished_by_game ON matches (game, finished_at) WHERE status = 'finished';
CREATE TABLE ratings (
    user_id BIGINT NOT NULL,
    game TEXT NOT NULL,
    name TEXT NOT NULL,
    mu DOUBLE PRECISION NOT NULL,
    sigma DOUBLE PRECISION NOT NULL,
    games INTEGER NOT NULL DEFAULT 0,
    last_played_at DOUBLE PRECISION NOT NULL,
    PRIMARY KEY (user_id, game)
);
-- the leaderboard and a player's rank are read from this index alone (covering)
CREATE INDEX ratings_leaderboard ON ratings (game, mu DESC, games, last_played_at);
CREATE TABLE rating_history (
    match_id BIGINT NOT NULL REFERENCES matches (id),
    user_id BIGINT NOT NULL,
    game TEXT NOT NULL,
    place INTEGER NOT NULL,
    mu_before DOUBLE PRECISION NOT NULL,
    sigma_before DOUBLE PRECISION NOT NULL,
    mu_after DOUBLE PRECISION NOT NULL,
    sigma_after DOUBLE PRECISION NOT NULL,
    rated_at DOUBLE PRECISION NOT NULL,
    seq INTEGER NOT NULL,  -- the order ratings changed in (replayed in this order)
    PRIMARY KEY (match_id, user_id)
);
CREATE INDEX rating_history_by_user ON rating_history (user_id, game, rated_at);
CREATE INDEX rating_history_by_seq ON rating_history (seq);
CREATE TABLE rating_members (
    guild_id BIGINT NOT NULL,
    game TEXT NOT NULL,
    user_id BIGINT NOT NULL,
    last_played_at DOUBLE PRECISION NOT NULL,
    PRIMARY KEY (guild_id, game, user_id)
);
