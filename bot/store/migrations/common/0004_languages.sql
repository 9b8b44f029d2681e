-- Languages: a server's chosen language for channel messages (NULL: its preferred locale, as
-- Discord last reported it), and the language each user last used (for DMs and digests).
ALTER TABLE guild_settings ADD COLUMN language TEXT;
ALTER TABLE guild_settings ADD COLUMN preferred_language TEXT;
ALTER TABLE users ADD COLUMN language TEXT;
-- 1 when the user chose their language with /notify: their client's language no longer moves it
ALTER TABLE users ADD COLUMN language_chosen INTEGER NOT NULL DEFAULT 0;
