-- The private text each seat was last sent by DM (simulation finding 11's leftover): a
-- digest of its words in no language (bot/display.py `private_digest`). '' where none was
-- sent yet (every seat from now on starts so); NULL where it is not known, the seats of the
-- games in play when this ran, whose next bot takes their private text as sent (as every
-- bot did before) and writes its digest. Written once a DM carrying the text went out (or
-- the channel's note on closed DMs took its place, or it was given up); a bot loading a
-- game DMs a seat whose private text is not the one last sent, so a DM waiting for Discord
-- or for the player's quiet hours is not lost when the bot stops. The same SQL on both
-- backends.
ALTER TABLE seats ADD COLUMN private_dm_sent TEXT DEFAULT '';
UPDATE seats SET private_dm_sent = NULL
    WHERE table_id IN (SELECT id FROM tables WHERE status = 'active');
