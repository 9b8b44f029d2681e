-- Where the bot can reach a match's channel. 'channel': Corral is in the server (or it is the
-- bot's own DM) and posts there itself. 'interactions': a DM or group DM between users, or a
-- server that installed nothing (Corral is used there by its players' own installs): Discord
-- lets the app answer interactions only, so its messages go as answers and follow-ups while
-- an interaction's token lives, and by DM to the players otherwise.
ALTER TABLE matches ADD COLUMN reach TEXT NOT NULL DEFAULT 'channel';
