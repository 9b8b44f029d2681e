-- A private view that could not be sent by DM (the user's DMs are closed to the bot): the match
-- it was about, until the user is told so, once, privately, at their next interaction.
ALTER TABLE users ADD COLUMN dm_note_match BIGINT;
CREATE INDEX users_dm_note ON users (user_id) WHERE dm_note_match IS NOT NULL;
-- A live board posted as an interaction's follow-up keeps that interaction's token while it
-- lives (15 minutes): taking its buttons away through the token is not counted against the
-- bot's global rate limit, as an edit through the channel is.
ALTER TABLE live_messages ADD COLUMN token TEXT;
ALTER TABLE live_messages ADD COLUMN token_expires DOUBLE PRECISION;
