"""A tournament table's thread is named in the server's language, and found again under any
name it may have been given: in another language (the server's may have changed) or as
versions before names were translated wrote it (`R1 T2`), so a restart never opens a second
thread for the same table."""

from __future__ import annotations

from meeple_hall.bot.i18n import SUPPORTED, t
from meeple_hall.bot.store import Tournament
from meeple_hall.bot.tournaments import thread_name, thread_names

TOURNAMENT = Tournament(7, 1, 2, 3, "Autumn Cup", "village", "swiss", 3, 4, "48h")


def test_a_thread_is_named_in_each_language_and_found_under_every_name():
    names = thread_names(TOURNAMENT, 1, 2)
    for locale in SUPPORTED:
        name = thread_name(TOURNAMENT, 1, 2, locale)
        expected = t(locale, "tournament.thread", name="Autumn Cup", round=1, table=2, id=7)
        assert name == expected and name in names
    assert "Autumn Cup · R1 T2 · #7" in names  # a thread made before names were translated
    assert len({thread_name(TOURNAMENT, 1, 2, locale) for locale in SUPPORTED}) == 3
    assert not names & thread_names(TOURNAMENT, 1, 3)
