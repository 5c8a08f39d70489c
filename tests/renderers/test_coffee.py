"""The Coffee Traders table picture at points of random games (its words:
tests/bot/test_presenter_coffee.py), and the engine's labels it must agree with."""

from __future__ import annotations

import copy
import itertools
import random

import pytest
from PIL import Image, ImageChops, ImageDraw, ImageStat

from meeple_hall.games.coffee import engine
from meeple_hall.games.coffee.build import building_bonus
from meeple_hall.games.core import Action
from meeple_hall.games.core.catalogues import render
from meeple_hall.games.testing import random_choices
from meeple_hall.renderers import coffee
from tests.renderers.colour_vision import DEFICIENCIES, DEUTERANOPIA, seen_picture


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


def test_coffee_bars_are_named_by_number_as_the_picture_shows_them() -> None:
    """Option labels and the log say "Coffee Bar 3", never the bar's data id `b3`."""
    state = next(
        s
        for s, pending in snapshots(3, seed=7, every=1)
        if any(o.id.startswith("bar.") for d in pending for o in d.options)
    )
    decision = engine.decisions(state)[0]
    bars = [o for o in decision.options if o.id.startswith("bar.")]
    for option in bars:
        bar = option.id.split(".")[1]
        number = list(engine.view(state, None)["bar_spaces"]).index(bar) + 1
        assert str(option.label).startswith(f"Coffee Bar {number}")
    chosen = next(o for o in bars if o.id.split(".")[1] != "seoul")
    after = engine.apply(state, Action(decision.seat, (chosen.id,)))
    number = chosen.id.split(".")[1].removeprefix("b")
    assert any(str(line).endswith(f"delivers to Coffee Bar {number}") for line in after.log)


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


def test_the_printed_board_is_shared_but_never_drawn_on() -> None:
    """The empty board is drawn once per layout; a picture drawn on it must not show up
    under the next one."""
    snaps = [state for state, _ in snapshots(4, seed=6, every=200)]
    early, late = engine.view(snaps[0], None), engine.view(snaps[-1], None)
    first = coffee.render(early).tobytes()
    assert coffee.render(late).tobytes() != first
    assert coffee.render(early).tobytes() == first


def silhouette(image: Image.Image) -> Image.Image:
    """The pixels that stand out from the white paper, whatever their colour."""
    grey = ImageChops.difference(image, Image.new("RGB", image.size, coffee.WHITE)).convert("L")
    return grey.point(lambda v: 255 if v > 24 else 0)


@pytest.mark.parametrize("deficiency", sorted(DEFICIENCIES))
@pytest.mark.parametrize("size", [5, 10])
def test_every_coffee_kind_has_its_own_shape_for_colour_blind_players(
    deficiency: str, size: int
) -> None:
    """Orange, brown and green coffee (and pink and teal) look alike without red-green
    vision: each kind's token must still stand apart by its outline (two tokens of one
    shape differ in no pixel here; a circle and a square of one size in about a fifth)."""
    shapes = {}
    for kind in (*coffee.COFFEES, "kopi"):
        image = Image.new("RGB", (40, 40), coffee.WHITE)
        coffee.bean(ImageDraw.Draw(image), 20, 20, kind, size)
        shapes[kind] = silhouette(seen_picture(image, DEFICIENCIES[deficiency]))
    for one, other in itertools.combinations(shapes, 2):
        differ = ImageChops.logical_xor(shapes[one].convert("1"), shapes[other].convert("1"))
        union = ImageChops.logical_or(shapes[one].convert("1"), shapes[other].convert("1"))
        assert differ.histogram()[-1] >= 0.15 * union.histogram()[-1], (one, other)


def test_counters_of_different_coffees_differ_in_outline() -> None:
    """Arabica and Animal counters take their coffee's shape, not only its colour."""
    pictures = {}
    for token in ("arabica:gua", "arabica:eth", "animal:gua", "animal:eth"):
        image = Image.new("RGB", (40, 40), coffee.WHITE)
        coffee.counter(ImageDraw.Draw(image), 20, 20, token, 10)
        pictures[token] = silhouette(seen_picture(image, DEUTERANOPIA)).tobytes()
    assert pictures["arabica:gua"] != pictures["arabica:eth"]
    assert pictures["animal:gua"] != pictures["animal:eth"]


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


def test_traders_donkeys_buildings_and_civets_carry_their_seat_number(monkeypatch) -> None:
    """Traders on the trading houses, donkeys on the pathways, buildings on a cooperative and
    civets on Sumatra say whose they are in a table drawn with one colour for every seat."""
    monkeypatch.setattr(coffee, "SEAT_COLOURS", ((120, 120, 120),) * 6)
    view = engine.view(engine.new(4, seed=8), None)
    view["coops"]["gua"]["traders"] = [0]
    view["coops"]["gua"]["pathways"] = {"1.0.0": {"owner": 0, "donkeys": 1}}
    view["coops"]["gua"]["buildings"]["production"][0] = 0
    view["players"][0]["sumatra"] = 1
    base = coffee.render(view).tobytes()
    for change in (
        lambda v: v["coops"]["gua"]["traders"].__setitem__(0, 2),
        lambda v: v["coops"]["gua"]["pathways"]["1.0.0"].__setitem__("owner", 2),
        lambda v: v["coops"]["gua"]["buildings"]["production"].__setitem__(0, 2),
        lambda v: (
            v["players"][0].__setitem__("sumatra", 0) or v["players"][2].__setitem__("sumatra", 1)
        ),
    ):
        other = copy.deepcopy(view)
        change(other)
        assert coffee.render(other).tobytes() != base


def test_the_plantation_rows_name_their_cost_and_bonus() -> None:
    """Adding a plantation: each row's label gives the level, the cost above it and the bonus
    printed below its space on the player board, as something gained ("then a worker" read
    as a worker the plantation needs)."""
    state = engine.new(3, seed=1)
    work = engine.decisions(state)[0]
    state = engine.apply(state, Action(work.seat, ("plant",)))
    rows = engine.decisions(state)[0]
    assert rows.kind == "plant_row"
    labels = {o.id: str(o.label) for o in rows.options}
    assert labels == {
        "A": "Row A: level 1",
        "B": "Row B: level 1, gain a donkey",
        "C": "Row C: level 2 (1 coin), gain a worker",
    }


def test_a_building_option_names_the_bonus_of_the_topmost_building() -> None:
    state = engine.new(4, seed=1)
    assert render("en", building_bonus(state, 0, "warehouse")) == "1 coffee, trade 3:1, 1 VP"
    production = render("en", building_bonus(state, 0, "production"))
    assert production == "2 coffee of its cooperative, 1 VP"
    state.players[0].built["fairtrade"] = 1
    assert render("en", building_bonus(state, 0, "fairtrade")) == "an Arabica step, 2 VP"


# -- issue 14: what the menus name is drawn; scores, donkeys and the green seat ----------


def distinct_and_drawn(image: Image.Image, boxes: list[tuple[int, int, int, int]]) -> bool:
    """Each box holds something (not one flat colour) and no two hold the same."""
    crops = [image.crop(tuple(round(v) for v in b)) for b in boxes]
    return all(len(c.getcolors(1 << 16) or []) > 2 for c in crops) and len(
        {c.tobytes() for c in crops}
    ) == len(crops)


def test_the_places_the_menus_name_carry_their_numbers() -> None:
    """ "Coffee Bar 3", "row 2, space 4", "now column 5", "Brazil, space 2": each number is
    drawn on its place of the table."""
    view = engine.view(engine.new(4, seed=3), None)
    empty = copy.deepcopy(view)
    for coop in empty["coops"].values():
        coop["rows"] = [[None] * len(row) for row in coop["rows"]]
    image = coffee.render(empty)
    bars, _, _ = coffee.band_x(view)
    tabs = []
    for b in range(len(view["bar_spaces"])):
        x = bars + b * (coffee.BAR_W + coffee.BAR_GAP) + 30
        tabs.append((x, coffee.BAND_TOP + 2, x + 30, coffee.BAND_TOP + coffee.BAR_TAB))
    assert distinct_and_drawn(image, tabs)
    x0, y0 = coffee.coop_x(2), coffee.COOPS_TOP
    rows = [
        (x0 + coffee.COOP_W - 16, y0 + y + 2, x0 + coffee.COOP_W - 2, y0 + y + 22)
        for y in coffee.ROW_Y
    ]
    assert distinct_and_drawn(image, rows)
    half = coffee.SPACE / 2
    for row, plantations in enumerate(view["coops"]["bra"]["rows"], start=1):
        corners = []
        for index in range(len(plantations)):
            x, y = coffee.space_xy(x0, y0, row, index, len(plantations))
            corners.append((x - half + 2, y - half + 2, x - half + 14, y - half + 16))
        assert distinct_and_drawn(image, corners), row
    cell_w, cell_h = coffee.ARABICA_CELL
    bottom = coffee.BAND_TOP + coffee.ARABICA_TOP + 5 * cell_h
    columns = [
        (
            coffee.MARGIN + 34 + c * cell_w + 8,
            bottom,
            coffee.MARGIN + 34 + (c + 1) * cell_w - 8,
            coffee.BAND_TOP + coffee.BAND_H,
        )
        for c in range(7)
    ]
    assert distinct_and_drawn(image, columns)
    # the building sites of one kind: 1, 2, 3 under them
    numbers = image.crop(
        (x0 + 4, y0 + coffee.COOP_H - 18, x0 + coffee.COOP_W - 4, y0 + coffee.COOP_H - 4)
    )
    assert len(numbers.getcolors(1 << 16) or []) > 2


def test_the_final_scores_leave_the_contracts_in_sight() -> None:
    *_, (state, _) = snapshots(4, seed=4, every=1000)
    ended = engine.view(state, None)
    assert "scores" in ended
    playing = {k: v for k, v in ended.items() if k != "scores"}
    with_scores, without = coffee.render(ended), coffee.render(playing)
    assert with_scores.tobytes() != without.tobytes()
    width = (coffee.WIDTH - 2 * coffee.MARGIN - 3 * 12) / 4
    for seat in range(4):
        x = coffee.MARGIN + seat * (width + 12)
        contracts = (round(x), coffee.PLAYERS_TOP + 166, round(x + width), coffee.PLAYERS_TOP + 222)
        assert with_scores.crop(contracts).tobytes() == without.crop(contracts).tobytes(), seat


def test_donkeys_on_pathways_are_large_and_over_the_plantations() -> None:
    view = engine.view(engine.new(4, seed=8), None)
    coop = view["coops"]["gua"]
    coop["rows"][0][0] = {"owner": 0, "level": 1, "staffed": False, "truck": False}
    coop["rows"][1][0] = {"owner": 1, "level": 2, "staffed": False, "truck": False}
    coop["pathways"] = {}
    without = coffee.render(view)
    coop["pathways"] = {"1.0.0": {"owner": 2, "donkeys": 1}}
    with_donkey = coffee.render(view)
    changed = ImageChops.difference(without, with_donkey).convert("L").point(lambda v: v > 30)
    box = changed.getbbox()
    assert box is not None
    # a donkey at least 18 px wide and tall, hundreds of pixels, not a speck under the tiles
    assert box[2] - box[0] >= 18 and box[3] - box[1] >= 18
    assert sum(changed.get_flattened_data()) >= 250


def test_the_green_seats_buildings_differ_from_ethiopias_coffee_by_more_than_colour(
    monkeypatch,
) -> None:
    """A fair trade post is a diamond, as is Ethiopia's coffee: on a player board the
    seat's number marks what it built, so a board drawn in Ethiopia's green still tells."""
    monkeypatch.setattr(coffee, "SEAT_COLOURS", (coffee.COFFEE_COLOURS["eth"],) * 6)
    view = engine.view(engine.new(4, seed=8), None)
    for seat in (0, 1):
        view["players"][seat]["built"] = {
            "warehouse": 1,
            "production": 1,
            "fairtrade": 1,
            "hospital": 0,
        }
    image = coffee.render(view)
    width = (coffee.WIDTH - 2 * coffee.MARGIN - 3 * 12) / 4
    rows = []
    for seat in (0, 1):
        x = coffee.MARGIN + seat * (width + 12)
        rows.append(
            (
                round(x + 112),
                coffee.PLAYERS_TOP + 108,
                round(x + width - 10),
                coffee.PLAYERS_TOP + 136,
            )
        )
    assert image.crop(rows[0]).tobytes() != image.crop(rows[1]).tobytes()


@pytest.mark.parametrize("num_players", [4, 5])
def test_the_action_markers_left_are_drawn(num_players: int) -> None:
    """The Work phase spends Action markers (EN Phase 1: "some actions require more than 1
    Action marker"): how many a company has left was not on its board (its text:
    tests/bot/test_presenter_coffee.py)."""
    state = engine.new(num_players, seed=2)
    table = engine.view(state, None)
    spent = copy.deepcopy(table)
    spent["players"][0]["markers"] -= 2
    width = (coffee.WIDTH - 2 * coffee.MARGIN - (num_players - 1) * 12) / num_players
    header = (
        coffee.MARGIN + 90,
        coffee.PLAYERS_TOP,
        round(coffee.MARGIN + width),
        coffee.PLAYERS_TOP + 46,
    )
    before, after = coffee.render(table).crop(header), coffee.render(spent).crop(header)
    assert before.tobytes() != after.tobytes()


def test_andre_s_plantation_stack_stays_on_his_board_in_the_phone_view() -> None:
    """Eight 40 px boxes ran past the right edge of his 330 px board in `/board focus:andre`."""
    from meeple_hall.renderers.palette import BACKGROUND
    from meeple_hall.renderers.phone import coffee as phone_coffee

    view = engine.view(engine.new(2, seed=3), None)
    assert len(view["andre"]["stack"]) == 8
    image = phone_coffee.render_focus(view, "andre")
    right = 10 + phone_coffee.COMPANY_W  # the board's right edge
    strip = image.crop((right + 2, 13 + 6, image.width, 13 + 40))
    assert set(strip.get_flattened_data()) == {BACKGROUND}
