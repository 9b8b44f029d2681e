-- A board posted as a Components V2 message (text, picture and controls in one container)
-- keeps its text and picture when a newer board retires it: the components it keeps (Discord's
-- JSON) are stored with it. NULL: a classic message, whose components all go.
ALTER TABLE live_messages ADD COLUMN retired TEXT;
