"""Village in its rulebook's words: games in 繁體中文 and 日本語 at two and three players,
played to the final scores through the real bot's panels (tests/bot/language_play.py), and
`/rules` whole in every language."""

from __future__ import annotations

import pytest

from tests.bot.language_play import (
    TABLES,
    check_rules,
    good_now_and_then,
    play_and_check,
    proper_names,
    rules_in_every_language,
)


@pytest.mark.parametrize(("server", "players"), TABLES)
async def test_village_to_the_final_scores_holds_no_english_word(simcord_env, server, players):
    """Half the answers are the good AI's: its families age and die sooner than random ones,
    so the chronicle and the graves fill in fewer moves."""
    played = await play_and_check(
        simcord_env,
        "village",
        server,
        players,
        good_now_and_then(0.5),
        seed=players * 13 + len(server),
    )
    assert len(played.seen.texts) > 1000
    logged = played.game.view(None)["log"]
    assert logged and all(isinstance(event, dict) for event in logged)  # messages, not text


async def test_village_rules_are_whole_in_every_language(simcord_env):
    check_rules(await rules_in_every_language(simcord_env, "village"), proper_names("village"))
