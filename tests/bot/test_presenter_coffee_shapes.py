"""Coffee Traders' cooperatives linked to the panel's lines by shape as well as colour (issue 29,
session 18): the emoji 🟧 and 🟩 (Guatemala, Ethiopia) are a red-green pair, alike to a
deuteranope. A line naming a cooperative pictured starts with its coffee's shape (● ■ ▲ ◆ ⧗,
the legend of /rules), and every cooperative the picture shows draws that shape: in its
trading house, or on its folded rows' strip."""

from __future__ import annotations

import pytest

from meeple_hall.bot.panel_clicks import model_game
from meeple_hall.bot.panels import build_panel
from meeple_hall.bot.presenters import coffee as presenter
from meeple_hall.games import get
from meeple_hall.games.coffee.data import COFFEES
from meeple_hall.renderers import coffee as table
from meeple_hall.renderers.phone import coffee as phone
from tests.renderers.colour_vision import DEUTERANOPIA, seen_colour


def _shape(coffee: str) -> str:
    return presenter.SHAPE_SYMBOLS[table.COFFEE_SHAPES[coffee]]


def test_the_red_green_pair_needs_a_second_cue_and_the_shapes_differ() -> None:
    gua, eth = (seen_colour(table.COFFEE_COLOURS[c], DEUTERANOPIA) for c in ("gua", "eth"))
    assert sum(abs(a - b) for a, b in zip(gua, eth, strict=True)) < 60  # alike to that eye
    assert len({_shape(c) for c in COFFEES}) == len(COFFEES)


@pytest.mark.parametrize("locale", ["en-US", "zh-TW", "ja"])
def test_each_send_line_starts_with_its_cooperative_s_shape(locale: str) -> None:
    coffee = get("coffee")
    game = model_game(coffee, coffee.new(3, 2), 3)
    decision = game.decisions()[0]
    assert decision.kind == "work"
    _, view = build_panel(game, decision.seat, decision, locale)
    lines = {
        option["value"]: option
        for row in view.to_components()
        for item in row.get("components", [])
        for option in item.get("options", [])
    }
    sends = [o for o in decision.options if o.fields.get("action") == "send"]
    assert len(sends) == len(COFFEES)
    for option in sends:
        line = next(v for k, v in lines.items() if k.split("|")[0] == option.id or k == option.id)
        assert line["label"].startswith(f"{_shape(option.fields['coffee'])} "), line["label"]
    others = [v for k, v in lines.items() if not k.startswith("send")]
    assert others and not any(v["label"][0] in "●■▲◆⧗" for v in others)


def test_every_cooperative_the_work_picture_folds_draws_its_shape() -> None:
    coffee = get("coffee")
    state = coffee.new(3, 2)
    view = coffee.view(state, 0)
    for coop, name in zip(phone.COOPS, COFFEES, strict=True):
        image = phone.folded(view, f"{coop}.rows")
        strip_h = (phone.TOWN[1] - phone.TOWN[0]) * 2
        colour = table.COFFEE_COLOURS[name]
        strip = image.crop((0, 0, image.width, strip_h))
        middle = strip.crop((2 * (phone.TOWN_GAP[0] + 4), 0, 2 * (phone.TOWN_GAP[1] + 4), strip_h))
        assert colour in {c[:3] for c in middle.getdata()}, coop


def test_a_cooperative_with_row_3_planted_draws_its_shape_left_of_row_2() -> None:
    coffee = get("coffee")
    view = coffee.view(coffee.new(3, 2), 0)
    planted = next(p for p in view["coops"]["eth"]["rows"][0] if p is not None)
    view["coops"]["eth"]["rows"][2][0] = dict(planted, level=3)
    assert phone._row_folds(view, "eth") == phone.FOLDS["rows"]
    image = phone.folded(view, "coop4.rows")
    x, y = phone.SHAPE_AT
    top = phone.FOLDS["rows"][0][0]
    box = (2 * (x + 4) - 20, 2 * (y - top) - 20, 2 * (x + 4) + 20, 2 * (y - top) + 20)
    seen = {c[:3] for c in image.crop(box).getdata()}
    assert table.COFFEE_COLOURS["eth"] in seen and table.WHITE in seen
