"""Keyflower's picture, option labels and private text at several points of random games."""

from __future__ import annotations

import random
import time

from PIL import ImageStat

from games.core import Action
from games.keyflower import engine
from games.testing import random_choices
from renderers import OptionStyle
from renderers import keyflower as picture


def _snapshots(num_players: int, seed: int, every: int = 70):
    state = engine.new(num_players, seed)
    rng = random.Random(seed)
    step = 0
    while True:
        pending = engine.decisions(state)
        if step % every == 0 or not pending:
            yield state, pending
        if not pending:
            return
        d = rng.choice(pending)
        state = engine.apply(state, Action(d.seat, random_choices(d, rng)))
        step += 1


def test_table_pictures_are_sane_through_whole_games() -> None:
    for num_players, seed in ((2, 1), (6, 3)):
        for state, _ in _snapshots(num_players, seed):
            view = engine.view(state, None)
            start = time.perf_counter()
            img = picture.render(view)
            assert time.perf_counter() - start < 0.5
            assert 1000 <= img.width <= 1600 and 400 <= img.height <= 2000
            extrema = ImageStat.Stat(img.convert("L")).extrema[0]
            assert extrema[1] - extrema[0] > 100  # not blank


def test_every_offered_option_gets_a_style_or_the_default() -> None:
    kinds = set()
    for _state, pending in _snapshots(3, 5, every=3):
        for d in pending:
            kinds.add(d.kind)
            for o in d.options:
                style = picture.option_style(d, o)
                assert style is None or isinstance(style, OptionStyle)
                if style and style.label:
                    assert len(style.label) <= 80
    assert {"action", "location", "colour", "count", "boat", "winter"} <= kinds


def test_private_text_shows_only_the_seat_s_own_secrets() -> None:
    state = engine.new(3, seed=9)
    mine = picture.private_text(engine.view(state, 1))
    for colour, n in state.players[1].screen.items():
        assert f"{picture.EMOJI[colour]} {n}" in mine
    for tile in state.players[1].winter_hand:
        assert tile in mine
    for tile in state.players[0].winter_hand:
        if tile not in state.players[1].winter_hand:
            assert tile not in mine
    assert picture.private_text(engine.view(state, None)) == "You are watching."
