-- Puzzles from real games (issue 34): positions of finished, analysed matches where one move
-- is clearly best, confirmed by a search at a higher budget than the analysis's. `entries`:
-- the match's record up to the puzzle (JSON [[kind, notation], ...], the game's own notation)
-- with `seats` and `options`; `seat`: who is to move; `solution`: the move's notation. The
-- puzzle is rated as a player (`mu`, `sigma`, OpenSkill, as bot/ratings.py).
CREATE TABLE puzzles (
    id BIGINT PRIMARY KEY,
    game TEXT NOT NULL,
    guild_id BIGINT NOT NULL DEFAULT 0,
    match_id BIGINT NOT NULL REFERENCES matches (id),
    ply INTEGER NOT NULL,
    seats INTEGER NOT NULL,
    options TEXT NOT NULL DEFAULT '{}',
    entries TEXT NOT NULL,
    seat INTEGER NOT NULL,
    solution TEXT NOT NULL,
    level TEXT NOT NULL,
    margin DOUBLE PRECISION NOT NULL,
    mu DOUBLE PRECISION NOT NULL,
    sigma DOUBLE PRECISION NOT NULL,
    created_at DOUBLE PRECISION NOT NULL,
    UNIQUE (match_id, ply)
);
CREATE INDEX puzzles_game ON puzzles (game, guild_id);
-- One answer per player and puzzle (the first is the one rated; a puzzle is never offered
-- again to whoever answered it).
CREATE TABLE puzzle_attempts (
    puzzle_id BIGINT NOT NULL REFERENCES puzzles (id),
    user_id BIGINT NOT NULL,
    answer TEXT NOT NULL,
    solved INTEGER NOT NULL,
    at DOUBLE PRECISION NOT NULL,
    PRIMARY KEY (puzzle_id, user_id)
);
-- Each player's puzzle rating per game.
CREATE TABLE puzzle_ratings (
    user_id BIGINT NOT NULL,
    game TEXT NOT NULL,
    mu DOUBLE PRECISION NOT NULL,
    sigma DOUBLE PRECISION NOT NULL,
    solved INTEGER NOT NULL DEFAULT 0,
    failed INTEGER NOT NULL DEFAULT 0,
    PRIMARY KEY (user_id, game)
);
