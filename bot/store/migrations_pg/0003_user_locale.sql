-- PostgreSQL twin of migrations/0003_user_locale.sql.
-- The language a user last used with the bot, so direct messages can be written in it.
ALTER TABLE user_prefs ADD COLUMN locale text;
