"""The picture of a Trade decision in Coffee Traders (the seat's company board over the five
cooperatives' trading houses and building spaces, one under another) fits a phone: under
60 KiB as the bot sends it, and still legible at phone width (issue 29 item 5; it was
154 KiB, enlarged smoothly to 400 px)."""

from __future__ import annotations

import random

import pytest

from meeple_hall.bot.render import flat_png
from meeple_hall.games.coffee import engine
from meeple_hall.games.core import Action
from meeple_hall.games.testing import random_choices
from meeple_hall.renderers import phone
from tests.renderers.legibility import MIN_TEXT_PX, PHONE_WIDTH, texts_on_phone

MOST_KIB = 60


def last_trade_view(num_players: int, seed: int) -> dict:
    """The deciding seat's view at the last Trade decision of a seeded random game (the
    cooperatives at their fullest)."""
    rng, state, last = random.Random(seed), engine.new(num_players, seed), None
    while pending := engine.decisions(state):
        decision = rng.choice(pending)
        if decision.kind == "trade":
            last = engine.view(state, decision.seat)
        state = engine.apply(state, Action(decision.seat, random_choices(decision, rng)))
    assert last is not None
    return last


@pytest.mark.parametrize("num_players", [2, 3, 4, 5])
def test_the_cooperatives_of_a_trade_fit_a_phone(num_players: int) -> None:
    view = last_trade_view(num_players, seed=num_players)
    parts = phone.decision_parts("coffee", view, "trade")
    assert parts == ("company", "coops.house")
    image, texts = texts_on_phone(lambda: phone.render_decision("coffee", view, parts))
    assert image.width >= PHONE_WIDTH
    assert min(t.height for t in texts) >= MIN_TEXT_PX
    assert len(flat_png(image)) < MOST_KIB * 1024
    # the cooperatives' every pixel doubled: flat colours stay flat (none made by smoothing)
    coops = phone.render_decision("coffee", view, parts[1:])
    assert coops is not None and coops.width == image.width
    assert coops.width % 2 == 0 and coops.height % 2 == 0
    half = coops.resize((coops.width // 2, coops.height // 2), resample=0)
    assert half.resize(coops.size, resample=0).tobytes() == coops.tobytes()
