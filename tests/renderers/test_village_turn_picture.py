"""Village on the phone (issue 29 item 1, session 18's V): the turn's picture draws the action
spaces for the phone, each numbered as its panel lines' keycap emoji, their cubes twice the
table's size on a phone; the turn and a trip picture the farmyard without the customers
served under it, and a trip the map without the status above it: shorter pictures. More than
five travellers in a city stand in a strip under the phone's map, where they read."""

from __future__ import annotations

from functools import cache
from typing import Any

from meeple_hall.bot.presenters import village as presenter
from meeple_hall.games.core import Decision
from meeple_hall.games.village import engine
from meeple_hall.renderers import phone
from meeple_hall.renderers import village as table
from meeple_hall.renderers.palette import MARK
from meeple_hall.renderers.phone import village as pv
from tests.renderers.legibility import MIN_TEXT_PX, PHONE_WIDTH, texts_on_phone
from tests.renderers.moments import pending_decisions


@cache
def _first(kind: str) -> tuple[dict[str, Any], Decision]:
    """The first decision of `kind` (a trip: one that may leave home) in random games."""
    for players, seed in ((3, 1), (4, 1), (2, 2)):
        for view, decision in pending_decisions(engine, players, seed):
            if decision.kind != kind:
                continue
            if kind == "travel" and not any(
                o.fields.get("origin") == "village" for o in decision.options
            ):
                continue
            return view, decision
    raise AssertionError(kind)


def _fields(decision: Decision) -> list[dict[str, Any]]:
    return [dict(o.fields) for o in decision.options]


def _picture(kind: str) -> tuple[phone.DecisionPicture, Any]:
    view, decision = _first(kind)
    picture = phone.decision_picture("village", view, kind, _fields(decision))
    image = phone.render_decision("village", view, picture.parts, picture.marks)
    assert image is not None
    return picture, image


def test_the_turn_pictures_the_spaces_numbered_as_the_panel_s_keycaps() -> None:
    """The spaces' numbers 1-7 (the only text of the spaces' part) read on a phone, in the
    table's order, four over three; each take's panel line wears its space's number as a
    keycap emoji."""
    view, decision = _first("turn")
    picture = phone.decision_picture("village", view, "turn", _fields(decision))
    assert picture.parts == (pv.SPACES, pv.YARD)
    image, texts = texts_on_phone(lambda: phone.render_decision("village", view, (pv.SPACES,)))
    assert image.width >= PHONE_WIDTH
    ordered = sorted(texts, key=lambda t: (round(t.y), t.x))
    assert [t.text for t in ordered] == [str(n) for n in range(1, len(table.SPACES) + 1)]
    assert min(t.height for t in texts) >= MIN_TEXT_PX
    assert len({round(t.y) for t in texts}) == 2
    for option in decision.options:
        space = option.fields.get("space")
        if option.fields["how"] == "take" and space in table.SPACES:
            style = presenter.option_style(decision, option)
            assert style is not None
            number = table.SPACES.index(space) + 1
            assert style.emoji == f"{number}\ufe0f\u20e3", (space, style.emoji)


def test_the_turn_s_cubes_are_twice_the_table_s_on_a_phone() -> None:
    """A cube's own colour fills at least 250 px² of a phone (about 500 now; the table's
    cut, 768 px wide, showed them 13.5 px a side, about 175 px² of colour)."""
    view, _ = _first("turn")
    image = phone.render_decision("village", view, (pv.SPACES,))
    assert image is not None
    scale = PHONE_WIDTH / image.width
    colours = dict((c, n) for n, c in image.getcolors(1 << 24) or [])
    counted = 0
    for colour in ("orange", "green", "brown", "pink", "black"):
        cubes = sum(space.count(colour) for space in view["spaces"].values())
        if cubes:
            counted += cubes
            area = colours.get(table.CUBES[colour], 0) * scale * scale
            assert area >= 250 * cubes, (colour, cubes, area)
    assert counted


def test_a_trip_and_a_turn_picture_the_farmyard_alone_and_read() -> None:
    """The farmyard without the customers served under it (the turn and a trip pay with its
    cubes, time and members), the trip's map without the status above it: on a phone, the
    trip's picture is under 520 px tall (the map and the whole own area were 807), the
    turn's under 520 (the table's spaces and market with the own area were 701); both read."""
    for kind in ("travel", "turn"):
        view, decision = _first(kind)
        picture = phone.decision_picture("village", view, kind, _fields(decision))
        assert pv.YARD in picture.parts and phone.OWN not in picture.parts
        image, texts = texts_on_phone(
            lambda v=view, p=picture: phone.render_decision("village", v, p.parts, p.marks)
        )
        assert image.height * PHONE_WIDTH / image.width < 520, (kind, image.size)
        assert min(t.height for t in texts) >= MIN_TEXT_PX, kind
    view, _ = _first("travel")
    yard = phone.render_decision("village", view, (pv.YARD,))
    own = phone.render_decision("village", view, (phone.OWN,))
    assert yard is not None and own is not None and yard.width == own.width
    # the farmyard is the own area's top, to the pixel
    assert own.crop((0, 0, yard.width, yard.height)).tobytes() == yard.tobytes()


def _overlap(a: tuple[float, ...], b: tuple[float, ...]) -> bool:
    return a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]


def test_more_than_five_travellers_to_a_city_read_in_a_strip_under_the_map() -> None:
    """Six or more travellers in a city (no city has room for them about it): in a strip
    under the phone's map, a row a city after its letter, each number read on a phone, none
    over another or over the map's places; the trip's picture rings them there."""
    view, _ = _first("travel")
    players = view["num_players"]
    cities = [c for c in table.CITY_XY if c != "village"]
    for many in (6, 9, 30):
        crowded = {
            **view,
            "travellers": [
                {"seat": k % players, "number": 1 + k // players % 4, "where": city}
                for city in cities
                for k in range(many)
            ],
        }
        for part in ("map", pv.ROUTES):
            _, texts = texts_on_phone(
                lambda c=crowded, p=part: (
                    phone.render_focus("village", c, p)
                    if p == "map"
                    else phone.render_decision("village", c, (p,))
                )
            )
            numbers = [t for t in texts if t.text.isdigit()]
            assert len(numbers) >= len(crowded["travellers"]), (many, part)
            assert min(t.height for t in texts) >= MIN_TEXT_PX, (many, part)
            letters = {t.text for t in texts if t.text.isalpha()}
            assert {table.CITY_LETTER[c] for c in cities} <= letters
        spots = table.roomy_traveller_spots(crowded)
        assert len(spots) == len(crowded["travellers"])
        places = table.travel_places(crowded, table.SIDE_X, table.MAP_Y)
        others = [b for key in ("cost", "reward", "visits", "city") for b in places[key]]
        pawns = [(x - r, y - r - 3, x + r, y + r + 2) for *_, x, y, r in spots]
        bottom = table.roomy_map_bottom(crowded)
        for k, pawn in enumerate(pawns):
            assert not any(_overlap(pawn, b) for b in others), (many, pawn)
            assert not any(_overlap(pawn, b) for b in pawns[k + 1 :]), (many, pawn)
            assert pawn[0] >= table.SIDE_X and pawn[2] <= table.SIDE_X + table.SIDE_W
            assert pawn[1] >= table.MAP_Y and pawn[3] <= bottom
    # a traveller moving on from a crowded city is ringed in the strip
    seat = view["you"]["seat"]
    crowded = {
        **view,
        "travellers": [
            {"seat": (seat + k) % players, "number": 1, "where": "lake"} for k in range(7)
        ],
    }
    fields = [{"origin": "lake", "city": "capital", "member": 0}]
    picture = phone.decision_picture("village", crowded, "travel", fields)
    assert ("map", list(table.CITY_XY).index("lake"), seat, 1) in picture.marks
    plain = phone.render_decision("village", crowded, (pv.ROUTES,))
    marked = phone.render_decision("village", crowded, (pv.ROUTES,), picture.marks)
    assert plain is not None and marked is not None
    place = pv._placement(pv.ROUTES, marked.width)
    for _, s, _, x, y, _ in table.roomy_traveller_spots(crowded):
        if s != seat:
            continue
        assert y > table.MAP_Y + table.MAP_H  # in the strip
        cx, cy, _ = place(x, y)
        ring = [
            (round(cx + dx), round(cy + dy))
            for dx in range(-30, 31)
            for dy in range(-30, 31)
            if 0 <= cx + dx < marked.width and 0 <= cy + dy < marked.height
        ]
        assert any(marked.getpixel(p) == MARK for p in ring)
