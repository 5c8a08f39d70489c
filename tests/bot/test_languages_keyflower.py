"""Keyflower in its rulebooks' words: games in 繁體中文 and 日本語 at two and three players,
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
async def test_keyflower_to_the_final_scores_holds_no_english_word(simcord_env, server, players):
    """Half the answers are the good AI's, so tiles are won, upgraded and used for transport
    and winter tiles are placed (random answers mostly pass)."""
    played = await play_and_check(
        simcord_env,
        "keyflower",
        server,
        players,
        good_now_and_then(0.5),
        seed=players * 11 + len(server),
    )
    assert len(played.seen.texts) > 1000


async def test_keyflower_rules_are_whole_in_every_language(simcord_env):
    texts = await rules_in_every_language(simcord_env, "keyflower")
    check_rules(texts, proper_names("keyflower"))
