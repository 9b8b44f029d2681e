-- Puzzles from the first day (issue 52): each game's curated set (games.puzzles.curated) joins
-- the store at start, by its stable `key` (NULL for a puzzle found in an analysed match); a
-- curated puzzle belongs to no match (`match_id` NULL) and no server (`guild_id` 0). Every
-- puzzle states its `goal` (a key of games.puzzles.GOALS; '' for one found before: "the best
-- move"), its `line` (the solution and the plies that show its point, JSON), its
-- `refutations` (JSON {move: the line that shows it fails}), its `themes` (JSON ids), the
-- `turn` it comes from (two of one turn are never served in a row: `last_turn`) and, for the
-- goal "most", each move's `gains` (JSON {move: gain}).
-- Ratings become Glicko-2 (bot/glicko.py, as Lichess rates puzzles): the OpenSkill ones are
-- carried over as the same number shown (mu × 60), their uncertainty on the same scale
-- (sigma × 60, from the floor 45 to a newcomer's 350: OpenSkill's newcomer is Glicko's) and
-- the starting volatility (bot/glicko.py `from_openskill`).
-- The tables are rebuilt: SQLite cannot drop `match_id`'s NOT NULL in place.
CREATE TABLE puzzles_new (
    id BIGINT PRIMARY KEY,
    key TEXT UNIQUE,
    game TEXT NOT NULL,
    guild_id BIGINT NOT NULL DEFAULT 0,
    match_id BIGINT REFERENCES matches (id),
    ply INTEGER NOT NULL,
    seats INTEGER NOT NULL,
    options TEXT NOT NULL DEFAULT '{}',
    entries TEXT NOT NULL,
    seat INTEGER NOT NULL,
    solution TEXT NOT NULL,
    level TEXT NOT NULL,
    margin DOUBLE PRECISION NOT NULL DEFAULT 0,
    goal TEXT NOT NULL DEFAULT '',
    line TEXT NOT NULL DEFAULT '[]',
    refutations TEXT NOT NULL DEFAULT '{}',
    themes TEXT NOT NULL DEFAULT '[]',
    turn TEXT NOT NULL DEFAULT '',
    gains TEXT NOT NULL DEFAULT '{}',
    rating DOUBLE PRECISION NOT NULL,
    deviation DOUBLE PRECISION NOT NULL,
    volatility DOUBLE PRECISION NOT NULL,
    created_at DOUBLE PRECISION NOT NULL,
    UNIQUE (match_id, ply)
);
INSERT INTO puzzles_new (id, key, game, guild_id, match_id, ply, seats, options, entries, seat,
                         solution, level, margin, turn, rating, deviation, volatility,
                         created_at)
SELECT id, NULL, game, guild_id, match_id, ply, seats, options, entries, seat, solution, level,
       margin, 'match' || match_id || ':' || ply, mu * 60,
       CASE WHEN sigma * 60 > 350 THEN 350 WHEN sigma * 60 < 45 THEN 45 ELSE sigma * 60 END,
       0.09, created_at
FROM puzzles;
CREATE TABLE puzzle_attempts_new (
    puzzle_id BIGINT NOT NULL REFERENCES puzzles_new (id),
    user_id BIGINT NOT NULL,
    answer TEXT NOT NULL,
    solved INTEGER NOT NULL,
    at DOUBLE PRECISION NOT NULL,
    PRIMARY KEY (puzzle_id, user_id)
);
INSERT INTO puzzle_attempts_new (puzzle_id, user_id, answer, solved, at)
SELECT puzzle_id, user_id, answer, solved, at FROM puzzle_attempts;
CREATE TABLE puzzle_ratings_new (
    user_id BIGINT NOT NULL,
    game TEXT NOT NULL,
    rating DOUBLE PRECISION NOT NULL,
    deviation DOUBLE PRECISION NOT NULL,
    volatility DOUBLE PRECISION NOT NULL,
    solved INTEGER NOT NULL DEFAULT 0,
    failed INTEGER NOT NULL DEFAULT 0,
    last_turn TEXT NOT NULL DEFAULT '',
    PRIMARY KEY (user_id, game)
);
INSERT INTO puzzle_ratings_new (user_id, game, rating, deviation, volatility, solved, failed)
SELECT user_id, game, mu * 60,
       CASE WHEN sigma * 60 > 350 THEN 350 WHEN sigma * 60 < 45 THEN 45 ELSE sigma * 60 END,
       0.09, solved, failed
FROM puzzle_ratings;
DROP TABLE puzzle_attempts;
DROP TABLE puzzle_ratings;
DROP TABLE puzzles;
ALTER TABLE puzzles_new RENAME TO puzzles;
ALTER TABLE puzzle_attempts_new RENAME TO puzzle_attempts;
ALTER TABLE puzzle_ratings_new RENAME TO puzzle_ratings;
CREATE INDEX puzzles_game ON puzzles (game, guild_id);
