-- /learn: where each player is in each game's lesson. `token` is drawn afresh each time the
-- lesson is shown: a component carries it, so a click on an older copy of the lesson, or on a
-- forged id, finds no row and changes nothing. `origin_channel` / `origin_guild`: where /learn
-- was asked (the match the lesson's last button opens is played there, even from a DM).
CREATE TABLE lesson_progress (
    user_id BIGINT NOT NULL,
    game TEXT NOT NULL,
    step INTEGER NOT NULL DEFAULT 0,
    tries INTEGER NOT NULL DEFAULT 0,
    mistakes INTEGER NOT NULL DEFAULT 0,
    token TEXT NOT NULL,
    origin_guild BIGINT,
    origin_channel BIGINT,
    updated_at DOUBLE PRECISION NOT NULL,
    PRIMARY KEY (user_id, game)
);
CREATE UNIQUE INDEX lesson_progress_token ON lesson_progress (user_id, token);
