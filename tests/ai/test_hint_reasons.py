"""`/hint`'s answer and reason (games/ai/reasons.py): seeded, the answer is exactly the
good level's (the strategies choose as they did), legal, and its reason is one the bot can
word in every language, in each of the four games."""

from __future__ import annotations

import random

import pytest

from meeple_hall import games
from meeple_hall.bot.hints import reason_text
from meeple_hall.games import Action
from meeple_hall.games.ai import levels
from meeple_hall.games.ai.reasons import Reason, advise

REAL_GAMES = ("burgundy", "coffee", "keyflower", "village")
KINDS = {"only", "points", "estimate", "plan"}
STEPS = 40


@pytest.mark.parametrize("game_id", REAL_GAMES)
def test_the_hint_is_the_good_levels_answer_with_a_reason(game_id):
    engine = games.get(game_id)
    state = engine.new(num_players=2, seed=17, options=None)
    rng = random.Random(game_id)
    seen: set[str] = set()
    for step in range(STEPS):
        pending = engine.decisions(state)
        if not pending:
            break
        decision = rng.choice(pending)
        seed = rng.getrandbits(63)
        advice = advise(engine, state, decision.seat, seed)
        assert advice.choices == levels.choose(engine, state, decision.seat, "good", seed)
        offered = {o.id for o in decision.options}
        assert set(advice.choices) <= offered, (step, advice)
        assert decision.min_choices <= len(advice.choices) <= decision.max_choices
        assert advice.reason.kind in KINDS
        if advice.reason.kind == "points":
            assert advice.reason.numbers["points"] > 0 and advice.reason.category is not None
        for lang in ("en", "zh-TW", "ja"):
            text = reason_text(lang, advice.reason)
            assert text and "{" not in text, (lang, text)
        seen.add(advice.reason.kind)
        state = engine.apply(state, Action(decision.seat, advice.choices))
    assert len(seen) >= 2, f"{game_id}: every hint gave the same kind of reason {seen}"


def test_a_decision_with_one_answer_says_so():
    engine = games.get("coffee")
    state = engine.new(num_players=2, seed=3, options=None)
    for _ in range(200):
        decision = engine.decisions(state)[0]
        if len(decision.options) == 1:
            advice = advise(engine, state, decision.seat, 1)
            assert advice.reason == Reason("only")
            return
        state = engine.apply(state, Action(decision.seat, (decision.options[0].id,)))
    pytest.skip("no decision with a single answer came up")
