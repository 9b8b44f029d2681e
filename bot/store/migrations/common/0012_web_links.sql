-- The web companion: each match's page is found by an unguessable token (random, written when
-- the match is opened; matches opened before this version have none, hence no page), and a
-- server may turn the links off (1: boards carry a link to the match's page).
ALTER TABLE matches ADD COLUMN web_token TEXT;
CREATE UNIQUE INDEX matches_web_token ON matches (web_token);
ALTER TABLE guild_settings ADD COLUMN web_links INTEGER NOT NULL DEFAULT 1;
