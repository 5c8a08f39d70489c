-- PostgreSQL twin of migrations/0002_seat_resigned.sql.
-- A player who resigned: the AI plays the seat out, and it ranks below everyone.
ALTER TABLE seats ADD COLUMN resigned boolean NOT NULL DEFAULT false;
