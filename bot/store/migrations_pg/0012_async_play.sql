-- PostgreSQL twin of migrations/0012_async_play.sql.
-- Issue 22 part A (reminders, stall notices, quiet hours, /resume, /away and /undo in the
-- four real games) needed no change to the schema: a move made for a seat by a timeout or
-- by the AI is already told apart by its NULL `actions.user_id`. This number was kept for
-- that work, so the migrations after it run without a gap; it changes nothing.
SELECT 1;
