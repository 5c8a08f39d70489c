-- The language a user last used with the bot, so direct messages can be written in it.
ALTER TABLE user_prefs ADD COLUMN locale TEXT;
