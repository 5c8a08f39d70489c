-- PostgreSQL's side of 0009_languages (0009_languages.sqlite.sql is SQLite's).
-- Languages chosen with /settings (issue 13): a user's for what only they read, a server's
-- for what everyone in its channels reads. NULL (or no row): follow Discord's locales.
ALTER TABLE user_prefs ADD COLUMN language text;

CREATE TABLE guild_prefs (
    guild_id bigint PRIMARY KEY,
    language text
);
