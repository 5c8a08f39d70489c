-- Languages chosen with /settings (issue 13): a user's for what only they read, a server's
-- for what everyone in its channels reads. NULL (or no row): follow Discord's locales.
ALTER TABLE user_prefs ADD COLUMN language TEXT;

CREATE TABLE guild_prefs (
    guild_id INTEGER PRIMARY KEY,
    language TEXT
);
