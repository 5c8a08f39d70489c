"""The Castles of Burgundy's decision pictures mark the places the options name (issue 29
item 1): the estate's hexes a tile may be placed on, the tiles that may be taken or bought in
the depots, the depots a ship may empty, the stored tiles offered for discard; a ship's goods
are pictured with the depots they come from, a die's (or a castle's die's, or its action's)
tiles and hexes with the depots above the estate. Marks are rings in palette.MARK drawn on a
copy: the parts kept for the next picture are not drawn on, and a kind whose options are
everything its picture shows has none."""

from __future__ import annotations

import math
import random
from collections.abc import Callable, Iterator
from typing import Any

import pytest
from PIL import Image

from meeple_hall.games.burgundy import engine
from meeple_hall.games.core import Action, Decision
from meeple_hall.games.testing import random_choices
from meeple_hall.renderers import burgundy as table
from meeple_hall.renderers import phone
from meeple_hall.renderers.palette import MARK
from meeple_hall.renderers.phone import burgundy as burgundy_phone
from tests.renderers.legibility import MIN_TEXT_PX, PHONE_WIDTH, texts_on_phone

Found = tuple[Any, dict[str, Any], Decision]  # the state, the deciding seat's view, the decision


def _decisions(players: int, seed: int) -> Iterator[Found]:
    """Every decision of a seeded random game, with its state and its seat's view."""
    state, rng = engine.new(players, seed=seed), random.Random(seed)
    while pending := engine.decisions(state):
        for decision in pending:
            yield state, engine.view(state, decision.seat), decision
        decision = rng.choice(pending)
        state = engine.apply(state, Action(decision.seat, random_choices(decision, rng)))


def _first(kind: str, test: Callable[[Found], bool] = lambda found: True) -> Found:
    return next(
        found
        for players, seed in ((2, 1), (3, 1), (4, 1), (2, 2), (3, 2), (4, 2))
        for found in _decisions(players, seed)
        if found[2].kind == kind and test(found)
    )


def _fields(decision: Decision) -> list[dict[str, Any]]:
    return [dict(option.fields) for option in decision.options]


def _pictures(view: dict[str, Any], decision: Decision) -> tuple[Any, Image.Image, Image.Image]:
    """The decision's parts and marks, its picture without the marks and with them."""
    picture = phone.decision_picture("burgundy", view, decision.kind, _fields(decision))
    plain = phone.render_decision("burgundy", view, picture.parts)
    marked = phone.render_decision("burgundy", view, picture.parts, picture.marks)
    assert plain is not None and marked is not None
    return picture, plain, marked


def _marked_at(image: Image.Image) -> list[tuple[int, int]]:
    width = image.width
    return [(i % width, i // width) for i, c in enumerate(image.get_flattened_data()) if c == MARK]


def _near(points: list[tuple[int, int]], centre: tuple[float, float], reach: float) -> int:
    cx, cy = centre
    return sum(1 for x, y in points if math.hypot(x - cx, y - cy) <= reach)


def _colours(image: Image.Image) -> set[Any]:
    return {c for _, c in image.getcolors(1 << 24)}


def _estate_centres(view: dict[str, Any], top: float = 0) -> dict[int, tuple[float, float]]:
    """Each estate hex's centre in the own area's picture (its top at `top`)."""
    ox, oy = table.estate_origin(table.MARGIN, table.MARGIN + top)
    return {
        h["id"]: table.hex_centre(h["q"], h["r"], table.ESTATE_R, ox, oy)
        for h in view["estate_board"]
    }


@pytest.mark.parametrize("kind", ["place", "townhall"])
def test_a_placement_rings_every_hex_an_option_names(kind: str) -> None:
    """ "Bank on building 3 (row 3, space 3)": a ring along the edge of each hex offered, on
    the seat's estate, and none elsewhere; the own area's kept parts are not drawn on."""
    _, view, decision = _first(
        kind,
        lambda f: (
            len({o.fields.get("hex") for o in f[2].options}) > 2
            and not any(o.fields.get("takes") for o in f[2].options)
        ),
    )
    picture, plain, marked = _pictures(view, decision)
    hexes = {o.fields["hex"] for o in decision.options if "hex" in o.fields}
    assert picture.parts == (burgundy_phone.ESTATE,)  # the estate, not the goods sold
    assert set(picture.marks) == {("hex", h) for h in hexes}
    assert marked.size == plain.size
    assert MARK not in _colours(plain)
    rings = _marked_at(marked)
    centres = _estate_centres(view)
    for h in hexes:  # a whole ring: its edge's length (6 x 28 px) at least, 5 px wide
        assert _near(rings, centres[h], table.ESTATE_R + 4) > 500, h
    others = [c for h, c in centres.items() if h not in hexes]
    assert not any(_near(rings, c, table.ESTATE_R * 0.7) for c in others)
    assert all(min(math.dist(p, centres[h]) for h in hexes) <= table.ESTATE_R + 4 for p in rings)
    again = phone.render_decision("burgundy", view, picture.parts)
    assert again is not None and again.tobytes() == plain.tobytes()


ROWS = burgundy_phone.DEPOT_OF_PART  # a depot's row: its depot (0: the black one)


def _rows(depots: set[int]) -> tuple[str, ...]:
    """The rows of these depots, in the picture's order (depots 1-6, then the black one)."""
    return tuple(part for part, depot in ROWS.items() if depot in depots)


def _tops(view: dict[str, Any], parts: tuple[str, ...]) -> dict[str, int]:
    """Where each part's picture begins in the decision's (one under another, 12 px apart,
    each as wide as the picture)."""
    tops, top = {}, 0
    for part in parts:
        tops[part] = top
        image = (
            burgundy_phone.render_own(view)
            if part == phone.OWN
            else burgundy_phone.render_focus(view, part)
        )
        assert image is not None and image.width == burgundy_phone.ROW_W
        top += image.height + 12
    return tops


def _depot_tile_centres(
    view: dict[str, Any], depot: int, top: float = 0
) -> dict[str, list[tuple[float, float]]]:
    """Where each face lies in a depot's row (0: the black depot's), the row's top at `top`."""
    out: dict[str, list[tuple[float, float]]] = {}
    if depot == 0:
        tiles = view["black"]
        across = table.black_spaces(len(tiles), burgundy_phone.ROW_W / 2)
        centres = [(x, burgundy_phone.BLACK_H / 2) for x in across]
    else:
        tiles = [space["tile"] for space in view["depots"][depot - 1]["spaces"]]
        centres = burgundy_phone.row_tile_centres(len(tiles))
    for (x, y), t in zip(centres, tiles, strict=True):
        if t:
            out.setdefault(t["face"], []).append((x, y + top))
    return out


def _depot_of(part: str) -> int:
    return ROWS[part]


@pytest.mark.parametrize("kind", ["take", "buy", "effect_take"])
def test_a_tile_to_take_is_ringed_in_its_depot(kind: str) -> None:
    """Taking with a die (the die's depot: the options name the tiles only), buying from the
    black depot, a market's or carpenter's take: a ring around each tile offered."""
    _, view, decision = _first(kind, lambda f: len(f[2].options) > 1)
    picture, plain, marked = _pictures(view, decision)
    if kind == "take":
        depot = view["pending"]["value"]
        offered = {(depot, o.fields["tile"]) for o in decision.options}
    else:
        offered = {
            (o.fields["depot"], o.fields["tile"]) for o in decision.options if "tile" in o.fields
        }
    assert picture.parts == _rows({d for d, _ in offered})  # the depots offering, alone
    rings_only = tuple(mark for mark in picture.marks if mark[0] != "key")  # black: numbered
    assert set(rings_only) == {("tile", d, face) for d, face in offered}
    assert MARK not in _colours(plain)
    marked = phone.render_decision("burgundy", view, picture.parts, rings_only)
    rings = _marked_at(marked)
    tops = _tops(view, picture.parts)
    ringed = []
    for depot, face in offered:
        (part,) = _rows({depot})
        for centre in _depot_tile_centres(view, depot, tops[part])[face]:
            assert _near(rings, centre, burgundy_phone.ROW_R + 4) > 400, (depot, face)
            ringed.append(centre)
    assert all(min(math.dist(p, c) for c in ringed) <= burgundy_phone.ROW_R + 4 for p in rings)


NUMBER_REACH = 34  # a depot number's ring from its centre: the die's half diagonal, and more


def _number_centre(top: float) -> tuple[float, float]:
    """The centre of a depot's number in its row, the row's top at `top`."""
    x, y, side = burgundy_phone.row_number_box()
    return x + side / 2, top + y + side / 2


def test_a_ship_pictures_the_depots_and_rings_those_it_may_empty() -> None:
    """A ship's options are depots 1-6 with their goods: the rows of the depots offered above
    the own area (the storage), a ring around each one's number."""
    _, view, decision = _first("ship", lambda f: any(not o.fields["depots"] for o in f[2].options))
    picture, plain, marked = _pictures(view, decision)
    named = {d for o in decision.options for d in o.fields["depots"]}
    assert picture.parts == (*_rows(named), phone.OWN)
    assert named and set(picture.marks) == {("depot", d) for d in named}
    tops = _tops(view, picture.parts)
    rings = _marked_at(marked)
    assert all(y < tops[phone.OWN] for _, y in rings)  # on the depots, not the own area
    for part in picture.parts[:-1]:
        assert _near(rings, _number_centre(tops[part]), NUMBER_REACH) > 400, part
    centres = [_number_centre(tops[part]) for part in picture.parts[:-1]]
    assert all(min(math.dist(p, c) for c in centres) <= NUMBER_REACH for p in rings)
    assert MARK not in _colours(plain)


def test_choosing_a_ship_s_goods_pictures_the_depot_they_come_from() -> None:
    """Too little room in the storage: choosing the goods kinds pictures the depot shipped
    (the options name it), ringed, and the own area (its storage)."""
    state, view, decision = _first("shipgoods")
    picture, plain, marked = _pictures(view, decision)
    shipped = state.stack[-1].depots
    assert picture.parts == (*_rows(set(shipped)), phone.OWN)
    assert picture.marks == tuple(("depot", d) for d in shipped)
    rings = _marked_at(marked)
    assert MARK not in _colours(plain)
    assert _near(rings, _number_centre(0), NUMBER_REACH) > 400
    assert len(rings) == _near(rings, _number_centre(0), NUMBER_REACH)
    image, texts = texts_on_phone(
        lambda: phone.render_decision("burgundy", view, picture.parts, picture.marks)
    )
    assert image.width >= PHONE_WIDTH
    assert min(t.height for t in texts) >= MIN_TEXT_PX


def test_the_goods_of_two_depots_shipped_mark_both() -> None:
    """The options name the depots shipped (their fields, from the engine), even where two
    depots hold the same goods or a ship takes two depots' goods (knowledge tile 5)."""
    fields = [{"goods": 3, "depots": [2, 3]}, {"goods": 5, "depots": [2, 3]}]
    assert burgundy_phone.marks({}, "shipgoods", fields) == (("depot", 2), ("depot", 3))
    assert burgundy_phone.marks({}, "shipgoods", [{"goods": 1}]) == ()


def _ringed_by_part(
    view: dict[str, Any], parts: tuple[str, ...], marked: Image.Image
) -> tuple[list[tuple[int, int]], list[tuple[int, int]]]:
    """The ring pixels on the depots' rows (in the picture's pixels) and on the own area at
    the picture's bottom (in its own pixels)."""
    top = _tops(view, parts)[parts[-1]]
    points = _marked_at(marked)
    return [p for p in points if p[1] < top], [(x, y - top) for x, y in points if y >= top]


def _tile_centres(
    view: dict[str, Any], parts: tuple[str, ...], tiles: set[tuple[str, int, str]]
) -> list[tuple[float, float]]:
    """Where the tiles marked lie in the picture of these parts."""
    tops = _tops(view, parts)
    return [
        c
        for part in parts[:-1]
        for _, d, face in tiles
        if d == _depot_of(part)
        for c in _depot_tile_centres(view, d, tops[part]).get(face, [])
    ]


def _stored_centres(view: dict[str, Any]) -> dict[str, list[tuple[float, float]]]:
    out: dict[str, list[tuple[float, float]]] = {}
    for i, t in enumerate(view["players"][view["you"]["seat"]]["storage"]):
        out.setdefault(t["face"], []).append(table.storage_centre(i, table.MARGIN, table.MARGIN))
    return out


def _check_rings(
    rings: list[tuple[int, int]], centres: list[tuple[float, float]], reach: float
) -> None:
    """A whole ring around each centre, and no ring pixel near none of them."""
    for centre in centres:
        assert _near(rings, centre, reach) > 300, centre
    assert all(min(math.dist(p, c) for c in centres) <= reach for p in rings)


def _legible(view: dict[str, Any], picture: Any) -> None:
    """The marked picture still reads at a phone's width."""
    image, texts = texts_on_phone(
        lambda: phone.render_decision("burgundy", view, picture.parts, picture.marks)
    )
    assert image.width >= PHONE_WIDTH
    assert min(t.height for t in texts) >= MIN_TEXT_PX


def _lines(state: Any, decision: Decision) -> tuple[set[int], set[int], set[tuple[int, str]]]:
    """What a die's (or a castle's) folded lines offer, by answering it: the depots taken
    from, the hexes placed on, the (depot, face) bought."""
    depots: set[int] = set()
    hexes: set[int] = set()
    bought: set[tuple[int, str]] = set()
    for option in decision.options:
        if option.id == "end":
            continue
        after = engine.decisions(engine.apply(state, Action(decision.seat, (option.id,))))
        step = after[0]
        if step.kind == "buy":
            bought |= {(o.fields["depot"], o.fields["tile"]) for o in step.options}
            continue
        assert step.kind == "action"
        for action in step.options:
            if action.fields["action"] == "take":
                depots.add(action.fields["depot"])
            elif action.fields["action"] == "place":
                chosen = engine.apply(
                    engine.apply(state, Action(decision.seat, (option.id,))),
                    Action(decision.seat, ("place",)),
                )
                (place,) = engine.decisions(chosen)
                hexes |= {o.fields["hex"] for o in place.options}
    return depots, hexes, bought


def _has_place_and_take(found: Found) -> bool:
    fields = _fields(found[2])
    return any("hexes" in f for f in fields) and any("takes_from" in f for f in fields)


@pytest.mark.parametrize("kind", ["die", "castle"])
def test_a_die_pictures_the_depots_ringing_the_tiles_and_hexes_its_lines_name(kind: str) -> None:
    """ "Die 4: Take Castle from depot 4", "Die 3 as 4: Place Bank on building 3": the die's
    picture (and a castle's die's) is the depots above the estate; each tile a line may take
    (every tile of each depot a die's value reaches) or buy is ringed in its depot, and each
    hex a line may place a tile on on the estate, as the lines themselves offer them."""
    state, view, decision = _first(kind, _has_place_and_take)
    picture, plain, marked = _pictures(view, decision)
    depots, hexes, bought = _lines(state, decision)
    assert depots and hexes
    tiles = {
        ("tile", d, t["face"]) for d in depots for t in burgundy_phone.depot_tiles(view, d)
    } | {("tile", d, face) for d, face in bought}
    assert set(picture.marks) == tiles | {("hex", h) for h in hexes}
    assert picture.parts == (*_rows(depots | {d for d, _ in bought}), phone.OWN)
    assert MARK not in _colours(plain)
    on_depots, on_own = _ringed_by_part(view, picture.parts, marked)
    _check_rings(on_depots, _tile_centres(view, picture.parts, tiles), burgundy_phone.ROW_R + 4)
    estate = _estate_centres(view)
    _check_rings(on_own, [estate[h] for h in hexes], table.ESTATE_R + 4)
    _legible(view, picture)


def test_an_action_rings_the_tiles_of_the_depot_it_takes_from() -> None:
    """ "Take a tile from depot 4": every tile of that depot ringed (the next step, `take`,
    offers each), and the hexes a placement may use on the estate."""
    _, view, decision = _first(
        "action", lambda f: {o.fields["action"] for o in f[2].options} >= {"take", "place"}
    )
    picture, _, marked = _pictures(view, decision)
    (depot,) = [o.fields["depot"] for o in decision.options if o.fields["action"] == "take"]
    (place,) = [o.fields for o in decision.options if o.fields["action"] == "place"]
    assert picture.parts == (*_rows({depot}), phone.OWN)
    faces = {t["face"] for t in burgundy_phone.depot_tiles(view, depot)}
    assert faces and place["hexes"]
    tiles = {("tile", depot, face) for face in faces}
    assert set(picture.marks) == tiles | {("hex", h) for h in place["hexes"]}
    on_depots, on_own = _ringed_by_part(view, picture.parts, marked)
    _check_rings(on_depots, _tile_centres(view, picture.parts, tiles), burgundy_phone.ROW_R + 4)
    estate = _estate_centres(view)
    _check_rings(on_own, [estate[h] for h in place["hexes"]], table.ESTATE_R + 4)
    _legible(view, picture)


def test_a_town_hall_s_church_pictures_the_depots_its_take_names() -> None:
    """ "Place Church on building 3 (row 3, space 3), then take Knowledge 17 from depot 2":
    a town hall's market, carpenter or church lines fold the tile its effect takes
    (bot/presenters/burgundy.py), so its picture is those depots (each tile offered ringed)
    above the estate (each hex ringed)."""
    _, view, decision = _first(
        "townhall", lambda f: any(o.fields.get("takes") for o in f[2].options)
    )
    picture, plain, marked = _pictures(view, decision)
    takes = {("tile", d, face) for o in decision.options for d, face in o.fields.get("takes", ())}
    hexes = {o.fields["hex"] for o in decision.options if "hex" in o.fields}
    depots = {d for _, d, _ in takes}
    assert picture.parts == (*_rows(depots), burgundy_phone.ESTATE)
    assert set(picture.marks) == takes | {("hex", h) for h in hexes}
    assert MARK not in _colours(plain)
    on_depots, on_own = _ringed_by_part(view, picture.parts, marked)
    _check_rings(on_depots, _tile_centres(view, picture.parts, takes), burgundy_phone.ROW_R + 4)
    estate = _estate_centres(view)
    _check_rings(on_own, [estate[h] for h in hexes], table.ESTATE_R + 4)


def test_a_town_hall_s_take_is_what_the_effect_offers() -> None:
    """Each town hall line's `takes` is what the effect's take offers once it is placed."""
    state, _, decision = _first(
        "townhall", lambda f: any(o.fields.get("takes") for o in f[2].options)
    )
    for option in decision.options:
        if not option.fields.get("takes"):
            continue
        (after,) = engine.decisions(engine.apply(state, Action(decision.seat, (option.id,))))
        assert after.kind == "effect_take"
        offered = [
            [o.fields["depot"], o.fields["tile"]] for o in after.options if "depot" in o.fields
        ]
        assert sorted(option.fields["takes"]) == sorted(offered)


def _key_centres(
    view: dict[str, Any], found: tuple[Any, ...]
) -> dict[int, list[tuple[float, float]]]:
    """Where each black-depot number's key lies in the black row alone, by number."""
    r = table.BLACK_R
    out: dict[int, list[tuple[float, float]]] = {}
    for face, centres in _depot_tile_centres(view, 0).items():
        for mark in found:
            if mark[0] == "key" and mark[2] == face:
                out.setdefault(mark[3], []).extend((x - 0.72 * r, y - 0.62 * r) for x, y in centres)
    return out


def test_the_black_depot_s_tiles_wear_their_lines_numbers() -> None:
    """The bank (a ◎ reading as a coin), the town hall and a ship ringed alike: each black
    tile on sale wears its buy line's number (the option's `mark`, the line's keycap) on a
    key at its upper left corner, numbered 1, 2, … in the options' order; the die's picture
    numbers them as the buy then does."""
    state, view, decision = _first(
        "die",
        lambda f: sum(1 for o in f[2].options for d, _ in o.fields.get("buys", ()) if d == 0) > 1,
    )
    (buy_option,) = [o for o in decision.options if o.fields.get("buys")]
    bought = engine.apply(state, Action(decision.seat, (buy_option.id,)))
    (buy,) = engine.decisions(bought)
    assert buy.kind == "buy"
    numbers = {o.fields["tile"]: o.fields["mark"] for o in buy.options if o.fields["depot"] == 0}
    assert sorted(set(numbers.values())) == list(range(1, len(set(numbers.values())) + 1))
    keys = {("key", 0, face, n) for face, n in numbers.items()}
    for view_of, found in ((view, decision), (engine.view(bought, buy.seat), buy)):
        picture = phone.decision_picture("burgundy", view_of, found.kind, _fields(found))
        assert {m for m in picture.marks if m[0] == "key"} == keys
    picture = phone.decision_picture("burgundy", view_of, buy.kind, _fields(buy))
    row = burgundy_phone.render_row(view_of, 0)
    drawn = burgundy_phone.marked(view_of, "black", row, picture.marks)
    ringed = burgundy_phone.marked(
        view_of, "black", row, tuple(m for m in picture.marks if m[0] != "key")
    )
    keyed = [
        (i % drawn.width, i // drawn.width)
        for i, (a, b) in enumerate(
            zip(drawn.get_flattened_data(), ringed.get_flattened_data(), strict=True)
        )
        if a != b
    ]
    for n, centres in _key_centres(view_of, picture.marks).items():
        for centre in centres:
            assert _near(keyed, centre, burgundy_phone.KEY_HALF + 3) > 200, n
    _legible(view_of, picture)


def test_a_discard_rings_the_stored_tiles_offered() -> None:
    """A full storage: each stored tile offered for discard ringed beside the estate."""
    _, view, decision = _first("discard")
    picture, plain, marked = _pictures(view, decision)
    assert picture.parts == (burgundy_phone.ESTATE,)
    faces = {o.fields["tile"] for o in decision.options}
    assert set(picture.marks) == {("stored", face) for face in faces}
    assert MARK not in _colours(plain)
    stored = _stored_centres(view)
    _check_rings(_marked_at(marked), [c for f in faces for c in stored[f]], table.STORAGE_R + 4)
    _legible(view, picture)


IN_DEPOTS = ("takes_from", "buys", "depot", "depots")  # a die's or an action's fields


def _names_nothing_in_the_depots(found: Found) -> bool:
    return not any(key in o.fields for o in found[2].options for key in IN_DEPOTS)


@pytest.mark.parametrize("kind", ["die", "action"])
def test_a_die_or_action_naming_nothing_in_the_depots_pictures_the_estate_only(kind: str) -> None:
    """Both dice used (only ending the turn, nothing to buy), or an action that only places,
    sells or takes workers: the depots would only make the picture taller."""
    _, view, decision = _first(kind, _names_nothing_in_the_depots)
    picture = phone.decision_picture("burgundy", view, kind, _fields(decision))
    assert picture.parts == (phone.OWN,)
    _, view, decision = _first(kind, lambda f: not _names_nothing_in_the_depots(f))
    picture = phone.decision_picture("burgundy", view, kind, _fields(decision))
    named = burgundy_phone.named_depots(view, _fields(decision))
    assert named and picture.parts == (*_rows(named), phone.OWN)


@pytest.mark.parametrize("kind", ["warehouse"])
def test_a_kind_whose_options_are_all_it_shows_marks_nothing(kind: str) -> None:
    _, view, decision = _first(kind)
    assert phone.decision_picture("burgundy", view, kind, _fields(decision)).marks == ()


def test_marks_are_drawn_on_a_copy_and_a_part_without_any_is_itself() -> None:
    """A part's picture may be one kept to paste (renderers/phone `marked`): the rings go on a
    copy; a part none of the marks lies on (the depots, for a placement) is returned as it is."""
    _, view, decision = _first("place")
    found = burgundy_phone.marks(view, "place", _fields(decision))
    own = burgundy_phone.render_own(view)
    assert own is not None
    drawn = own.tobytes()
    ringed = burgundy_phone.marked(view, phone.OWN, own, found)
    assert ringed is not own and own.tobytes() == drawn
    assert MARK in _colours(ringed)
    depots = burgundy_phone.render_focus(view, "depot1")
    assert burgundy_phone.marked(view, "depot1", depots, found) is depots
    assert burgundy_phone.marked(view, phone.OWN, own, ()) is own


def _longest_run(image: Image.Image, colour: tuple[int, int, int], bottom: int) -> int:
    """The longest row of pixels of `colour` above `bottom`."""
    width, data = image.width, image.get_flattened_data()
    longest = 0
    for y in range(bottom):
        run = 0
        for c in data[y * width : (y + 1) * width]:
            run = run + 1 if c == colour else 0
            longest = max(longest, run)
    return longest


def test_a_ship_s_goods_are_large_on_a_phone() -> None:
    """The goods a ship may take read on a phone (issue 29, session 17's B4: 20 px squares at
    400 px in the table's depots): each kind in the depots offered is a square at least 25 px
    wide once the picture is 400 px wide, its die number large enough to read."""
    _, view, decision = _first("ship", lambda f: len(f[2].options) > 2)
    picture, _, marked = _pictures(view, decision)
    own = burgundy_phone.render_own(view)
    assert own is not None
    bottom = marked.height - own.height  # the depots' rows, above the own area
    named = {d for o in decision.options for d in o.fields["depots"]}
    kinds = {g for d in named for g in view["depots"][d - 1]["goods"]}
    assert len(kinds) >= 2
    scale = PHONE_WIDTH / marked.width
    for kind in kinds:
        side = _longest_run(marked, table.GOODS_COLOURS[kind], bottom) * scale
        assert side >= 25, (kind, side)
    _legible(view, picture)


@pytest.mark.parametrize("kinds", [3, 6])
def test_a_depot_s_row_holds_its_goods_and_four_tiles(kinds: int) -> None:
    """The fullest rows (three or six kinds of goods, four of each, four tiles: a 4-player
    depot) stay inside the row: no goods tile or count on another, on the number or on the
    tiles; a stack's lower layers inside the picture."""
    b = burgundy_phone
    side, corners = b.row_goods({"goods": [k for k in range(1, kinds + 1) for _ in range(4)]})
    badge = max(8, side * 0.34)  # table.draw_goods' count disc
    boxes = []
    for x, y in corners:
        assert y - b.STACKED >= 0 and x + side + b.STACKED < b.TILES_LEFT  # the lower layers
        boxes += [(x, y, x + side, y + side)]  # the top tile, its die number
        boxes += [(x + side - badge, y + side - badge, x + side + badge, y + side + badge)]
    number_x, number_y, number = b.row_number_box()
    boxes.append((number_x, number_y, number_x + number, number_y + number))
    half = b.ROW_R * math.sqrt(3) / 2
    boxes += [(x - half, y - b.ROW_R, x + half, y + b.ROW_R) for x, y in b.row_tile_centres(4)]
    row = (table.MARGIN + 2, 0, b.ROW_W - table.MARGIN - 2, b.ROW_H)
    for i, (x0, y0, x1, y1) in enumerate(boxes):
        assert row[0] <= x0 and row[1] <= y0 and x1 <= row[2] and y1 <= row[3], i
        # a count's disc lies on its own tile (the box before it) only
        for u0, v0, u1, v1 in boxes[i + 1 + (i % 2 == 0 and i < 2 * len(corners)) :]:
            assert x1 <= u0 or u1 <= x0 or y1 <= v0 or v1 <= y0, (i, (x0, y0, x1, y1))
