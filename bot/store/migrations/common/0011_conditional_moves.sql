-- Conditional moves: a player's queued replies in a two-player match without hidden
-- information or chance. `line` (JSON list of notations) is the moves expected from `base_ply`
-- on: the opponent's move(s) of a turn, then the player's reply, pair after pair (complete
-- pairs only); `draft` the plies of the pair being entered after them. The opponent's move at
-- `base_ply` either matches the line's head (the reply is played in the same transaction) or
-- clears the row; a takeback clears it.
CREATE TABLE conditional_moves (
    match_id BIGINT NOT NULL,
    user_id BIGINT NOT NULL,
    base_ply INTEGER NOT NULL,
    line TEXT NOT NULL,
    draft TEXT NOT NULL,
    updated_at DOUBLE PRECISION NOT NULL,
    PRIMARY KEY (match_id, user_id)
);
