"""The Coffee Traders table picture, option labels and private text at points of random games."""

from __future__ import annotations

import copy
import random

import pytest
from PIL import ImageStat

from games.coffee import engine
from games.core import Action
from games.testing import random_choices
from renderers import coffee


def snapshots(num_players: int, seed: int, every: int = 60):
    rng = random.Random(seed)
    state = engine.new(num_players, seed)
    step = 0
    while pending := engine.decisions(state):
        if step % every == 0:
            yield state, pending
        decision = rng.choice(pending)
        state = engine.apply(state, Action(decision.seat, random_choices(decision, rng)))
        step += 1
    yield state, []


@pytest.mark.parametrize("num_players", [2, 3, 4, 5])
def test_render_is_a_full_coloured_table(num_players: int) -> None:
    for state, _ in snapshots(num_players, seed=num_players, every=120):
        image = coffee.render(engine.view(state, None))
        assert image.size[0] == coffee.WIDTH
        stat = ImageStat.Stat(image.convert("L"))
        assert stat.stddev[0] > 20  # not blank
        assert len(image.getcolors(1 << 16) or []) > 30


@pytest.mark.parametrize("num_players", [2, 3, 4, 5])
def test_table_fits_discords_inline_box(num_players: int) -> None:
    """Discord shows an attachment inline at most about 550 x 350: a picture near that shape,
    and not much wider than 1400 px, keeps its large numbers readable there."""
    *_, (state, _) = snapshots(num_players, seed=num_players, every=1000)
    width, height = coffee.render(engine.view(state, None)).size
    assert 1100 <= width <= 1400
    assert 1.45 <= width / height <= 1.75
    # seat numbers and plantation levels: digits at least 9 px tall once scaled to 550 px
    _, top, _, bottom = coffee.font(coffee.BIG).getbbox("8")
    assert (bottom - top) * 550 / width >= 9


def test_the_acting_seat_is_marked_on_the_table() -> None:
    state = engine.new(4, seed=3)
    view = engine.view(state, None)
    first = coffee.render(dict(view, active=[0]))
    second = coffee.render(dict(view, active=[1]))
    header = (0, 0, coffee.WIDTH, coffee.HEADER_H + 10)
    assert first.crop(header).tobytes() != second.crop(header).tobytes()
    boards = (0, first.size[1] - coffee.PLAYER_H - 20, coffee.WIDTH, first.size[1])
    assert first.crop(boards).tobytes() != second.crop(boards).tobytes()


def test_every_option_gets_a_style() -> None:
    seen = set()
    for _, pending in snapshots(4, seed=9, every=7):
        for decision in pending:
            for option in decision.options:
                style = coffee.option_style(decision, option)
                assert style is not None and style.label
                assert len(style.label) <= 80
                assert style.description is None or len(style.description) <= 100
                seen.add(decision.kind)
    assert {"work", "trade", "sell"} <= seen


def test_private_text_shows_only_the_seats_company() -> None:
    state = engine.new(3, seed=2)
    text = coffee.private_text(engine.view(state, 1))
    assert "P2" in text and "coins" in text
    assert "watching" in coffee.private_text(engine.view(state, None))


def test_final_view_carries_the_scores_of_the_result() -> None:
    *_, (state, pending) = snapshots(3, seed=4, every=1000)
    assert pending == []
    view = engine.view(state, None)
    assert view["scores"] == list(engine.result(state).scores)
    assert coffee.render(view).size[0] == coffee.WIDTH


def test_private_picture_is_the_seats_own_board() -> None:
    for state, _ in snapshots(3, seed=5, every=150):
        assert coffee.render_private(engine.view(state, None)) is None
        image = coffee.render_private(engine.view(state, 1))
        assert image is not None and image.size[0] >= 1000
        assert ImageStat.Stat(image.convert("L")).stddev[0] > 20
    one = coffee.render_private(engine.view(state, 0))
    two = coffee.render_private(engine.view(state, 1))
    assert one.tobytes() != two.tobytes()  # each seat sees its own colour and company


def test_rules_text_is_short_and_names_the_reconstructed_parts() -> None:
    text = coffee.rules_text()
    assert len(text) < 1500
    assert "Coffee Traders" in text and "Reconstructed components" in text
    assert "André" in text and "vicious" in text


def test_the_printed_board_is_shared_but_never_drawn_on() -> None:
    """The empty board is drawn once per layout; a picture drawn on it must not show up
    under the next one."""
    snaps = [state for state, _ in snapshots(4, seed=6, every=200)]
    early, late = engine.view(snaps[0], None), engine.view(snaps[-1], None)
    first = coffee.render(early).tobytes()
    assert coffee.render(late).tobytes() != first
    assert coffee.render(early).tobytes() == first


def test_owners_read_without_colour(monkeypatch) -> None:
    """Seat numbers mark plantations, Arabica discs and Coffee Bar spaces, so a table drawn
    with one colour for every seat still tells whose they are."""
    monkeypatch.setattr(coffee, "SEAT_COLOURS", ((120, 120, 120),) * 6)
    state = engine.new(4, seed=8)
    view = engine.view(state, None)
    coop, row, index, plantation = next(
        (c, r, i, p)
        for c, info in view["coops"].items()
        for r, plantations in enumerate(info["rows"])
        for i, p in enumerate(plantations)
        if p is not None
    )
    other = copy.deepcopy(view)
    other["coops"][coop]["rows"][row][index]["owner"] = (plantation["owner"] + 1) % 4
    assert coffee.render(view).tobytes() != coffee.render(other).tobytes()
    swapped = copy.deepcopy(view)
    first, second = swapped["players"][0]["arabica"], swapped["players"][1]["arabica"]
    first["gua"], second["gua"] = 3, 1
    raised = copy.deepcopy(swapped)
    raised["players"][0]["arabica"]["gua"], raised["players"][1]["arabica"]["gua"] = 1, 3
    assert coffee.render(swapped).tobytes() != coffee.render(raised).tobytes()
    bar = next(iter(view["bars"]))
    delivered = [copy.deepcopy(view) for _ in range(2)]
    for seat, table in enumerate(delivered):
        table["bars"][bar][0] = seat
    assert coffee.render(delivered[0]).tobytes() != coffee.render(delivered[1]).tobytes()
