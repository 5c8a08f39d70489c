"""Coffee Traders in its rules' words: games in 繁體中文 and 日本語 at two players (against the
automaton André) and three, played to the final scores through the real bot's panels
(tests/bot/language_play.py), and `/rules` whole in every language."""

from __future__ import annotations

import pytest

from tests.bot.language_play import (
    TABLES,
    check_rules,
    play_and_check,
    proper_names,
    random_pick,
    rules_in_every_language,
)


@pytest.mark.parametrize(("server", "players"), TABLES)
async def test_coffee_to_the_final_scores_holds_no_english_word(simcord_env, server, players):
    """Random answers: the three periods are as long whatever is chosen, and random answers
    reach more of the game's decisions than the good AI's."""
    played = await play_and_check(
        simcord_env, "coffee", server, players, random_pick, seed=players * 17 + len(server)
    )
    assert len(played.seen.texts) > 1000


async def test_coffee_rules_are_whole_in_every_language(simcord_env):
    check_rules(await rules_in_every_language(simcord_env, "coffee"), proper_names("coffee"))
