-- PostgreSQL's side of 0002_seat_resigned (0002_seat_resigned.sqlite.sql is SQLite's).
-- A player who resigned: the AI plays the seat out, and it ranks below everyone.
ALTER TABLE seats ADD COLUMN resigned boolean NOT NULL DEFAULT false;
