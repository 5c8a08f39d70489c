"""Village's decision pictures show what is decided and what is paid (issue 29 item 1; H5's
audit): the own area beside the council, the church and the Mass (cubes, time, grain, coins,
the members sent), the black bag when buying members out of it, the action spaces when
choosing Karla's cube, and a death where the members who may die stand, ringed in
palette.MARK (as are the members to buy out of the bag, those who may move up in the
church or the council, those at home on the farmyard who may enter the council, go to church
or train, and the action space Karla's cube is taken from). The travel map's travellers read
on a phone however many share a city. Marks are drawn on a copy: the parts kept for the next
picture are not drawn on."""

from __future__ import annotations

import math
import random
from collections.abc import Callable, Iterator
from functools import cache, partial
from typing import Any

import pytest
from PIL import Image

from meeple_hall.games.core import Decision
from meeple_hall.games.village import engine
from meeple_hall.renderers import phone
from meeple_hall.renderers import village as table
from meeple_hall.renderers.palette import MARK
from meeple_hall.renderers.phone import village as pv
from tests.renderers.legibility import MIN_TEXT_PX, PHONE_WIDTH, texts_on_phone
from tests.renderers.moments import pending_decisions

Found = tuple[dict[str, Any], Decision]  # the deciding seat's view, the decision
GAMES = ((1, 1), (1, 2), (2, 1), (3, 1), (4, 1), (2, 2), (2, 3))  # players, seed


def _decisions() -> Iterator[Found]:
    for players, seed in GAMES:
        yield from pending_decisions(engine, players, seed)


def _rows(decision: Decision) -> set[str]:
    return {option.fields["row"] for option in decision.options}


def _of_kind(kind: str, decision: Decision) -> bool:
    return decision.kind == kind


def _hows(decision: Decision) -> set[str]:
    return {option.fields.get("how", "") for option in decision.options}


WANTED: dict[str, Callable[[Decision], bool]] = {
    "die in crafts": lambda d: d.kind == "die" and "crafts" in _rows(d),
    "die in council": lambda d: d.kind == "die" and "council" in _rows(d),
    "die in church": lambda d: d.kind == "die" and "church" in _rows(d),
    "die on the map": lambda d: d.kind == "die" and "travel" in _rows(d),
    "die on the farm": lambda d: d.kind == "die" and "farm" in _rows(d),
    "promote": lambda d: d.kind == "council" and "promote" in _hows(d),
    "enter the council": lambda d: d.kind == "council" and "enter" in _hows(d) - {"promote"},
    "train": lambda d: d.kind == "crafts" and "train" in _hows(d),
    **{kind: partial(_of_kind, kind) for kind in ("buy", "advance", "church", "karla")},
}


@cache
def _found() -> dict[str, Found]:
    """The first decision of each wanted sort, in GAMES' random games."""
    found: dict[str, Found] = {}
    for view, decision in _decisions():
        for name, test in WANTED.items():
            if name not in found and test(decision):
                found[name] = (view, decision)
        if len(found) == len(WANTED):
            break
    assert set(found) == set(WANTED), set(WANTED) - set(found)
    return found


BOXES = ("shop", "customer")  # marks of the table's boxes, not of members


def _fields(decision: Decision) -> list[dict[str, Any]]:
    return [dict(option.fields) for option in decision.options]


def _pictures(name: str) -> tuple[phone.DecisionPicture, Image.Image, Image.Image]:
    """A wanted decision's parts and marks, its picture without the marks and with them."""
    view, decision = _found()[name]
    picture = phone.decision_picture("village", view, decision.kind, _fields(decision))
    plain = phone.render_decision("village", view, picture.parts)
    # the members' rings only: a craft's workshops are ringed too (test_village_named_boxes)
    members = tuple(m for m in picture.marks if m[0] not in BOXES)
    marked = phone.render_decision("village", view, picture.parts, members)
    assert plain is not None and marked is not None
    return picture, plain, marked


def _marked_at(image: Image.Image) -> list[tuple[int, int]]:
    width = image.width
    return [(i % width, i // width) for i, c in enumerate(image.get_flattened_data()) if c == MARK]


def _seat_colour_within(
    image: Image.Image, centre: tuple[float, float], reach: float, seat: int
) -> list[tuple[int, int]]:
    """The pixels within `reach` of `centre` in the seat's colour."""
    cx, cy = centre
    colour = table.seat_colour(seat)
    span = range(-math.ceil(reach), math.ceil(reach) + 1)
    return [
        (round(cx) + dx, round(cy) + dy)
        for dx in span
        for dy in span
        if math.hypot(round(cx) + dx - cx, round(cy) + dy - cy) <= reach
        and image.getpixel((round(cx) + dx, round(cy) + dy)) == colour
    ]


def _centres(points: list[tuple[int, int]], count: int) -> list[tuple[float, float]]:
    """The centres of `count` rings drawn with these pixels (k-means, the best of starts
    spread along x, along y and at random: the rings of members side by side or in rows
    may touch)."""
    starts = [sorted(points), sorted(points, key=lambda p: (p[1], p[0]))]
    pick = random.Random(0)
    starts += [pick.sample(points, len(points)) for _ in range(12)]
    best: tuple[float, list[tuple[float, float]]] | None = None
    for ordered in starts:
        centres = _k_means(points, ordered, count)
        spread = sum(min(math.dist(p, c) for c in centres) ** 2 for p in points)
        if best is None or spread < best[0]:
            best = (spread, centres)
    assert best is not None
    return best[1]


def _k_means(
    points: list[tuple[int, int]], ordered: list[tuple[int, int]], count: int
) -> list[tuple[float, float]]:
    centres = [
        (float(x), float(y))
        for x, y in (ordered[(2 * k + 1) * len(ordered) // (2 * count)] for k in range(count))
    ]
    for _ in range(20):
        groups: list[list[tuple[int, int]]] = [[] for _ in centres]
        for x, y in points:
            nearest = min(
                range(count), key=lambda k: math.hypot(x - centres[k][0], y - centres[k][1])
            )
            groups[nearest].append((x, y))
        centres = [
            (sum(x for x, _ in g) / len(g), sum(y for _, y in g) / len(g)) if g else c
            for g, c in zip(groups, centres, strict=True)
        ]
    return centres


def _rings_around_the_seat_s_members(name: str, count: int) -> None:
    """The picture's `count` rings each enclose a member in the seat's colour (in the plain
    picture), centred on it."""
    view, _ = _found()[name]
    _, plain, marked = _pictures(name)
    assert marked.size == plain.size
    assert MARK not in {c for _, c in plain.getcolors(1 << 24) or []}
    ring = _marked_at(marked)
    assert len(ring) > 100 * count, (name, len(ring))  # rings, not specks
    for cx, cy in _centres(ring, count):
        own = [(x, y) for x, y in ring if math.hypot(x - cx, y - cy) < 40]
        # the member inside it, centred: its pixels in the seat's colour within the ring
        inner = min(math.hypot(x - cx, y - cy) for x, y in own) - 1
        member = _seat_colour_within(plain, (cx, cy), inner, view["you"]["seat"])
        assert len(member) > inner * inner, (name, len(member), inner)
        mx, my = sum(x for x, _ in member) / len(member), sum(y for _, y in member) / len(member)
        assert math.hypot(mx - cx, my - cy) < 1.5, (name, (mx, my), (cx, cy))


def _standing(view: dict[str, Any], key: str, number: int) -> int:
    """How many of the deciding seat's members of `number` stand in the view's `key`."""
    seat = view["you"]["seat"]
    return sum(1 for m in view[key] if m["seat"] == seat and m["number"] == number)


def test_what_is_paid_is_pictured_with_the_own_area() -> None:
    """The council, the church and the Mass: the cubes, time, grain or coins paid and the
    members sent are in the seat's farmyard (its own area without the customers served);
    buying out of the black bag shows the bag (above the chronicle); Karla's cube is chosen
    from an action space."""
    expected = {
        "promote": ("council", pv.YARD),
        "church": ("church", pv.YARD),
        "advance": ("church", pv.YARD),
        "buy": ("chronicle", pv.YARD),
        "karla": (pv.SPACES, "karla"),
    }
    for name, parts in expected.items():
        view, decision = _found()[name]
        assert phone.decision_parts("village", view, decision.kind, _fields(decision)) == parts


WHERE = {"crafts": "crafts", "council": "council", "church": "church", "travel": "map"}
WHERE_MARKED = WHERE  # a mark's place: the part's name; the farmyard's is "farm"


@pytest.mark.parametrize(
    "name",
    ["die in crafts", "die in council", "die in church", "die on the map", "die on the farm"],
)
def test_a_death_pictures_and_rings_where_the_members_who_may_die_stand(name: str) -> None:
    view, decision = _found()[name]
    rows = _rows(decision)
    parts = phone.decision_parts("village", view, "die", _fields(decision))
    shown = {WHERE.get(row, pv.YARD) for row in rows}
    assert set(parts) == shown and len(parts) == len(shown)
    seat = view["you"]["seat"]
    oldest = min(
        [*view["players"][seat]["farm"]]
        + [
            m["number"]
            for key in ("workshops", "council", "church", "travellers")
            for m in view[key]
            if m["seat"] == seat
        ]
    )
    picture = phone.decision_picture("village", view, "die", _fields(decision))
    assert {(m[0], m[2], m[3]) for m in picture.marks} == {
        (WHERE_MARKED.get(row, "farm"), seat, oldest) for row in rows
    }
    standing = {
        "crafts": "workshops",
        "council": "council",
        "church": "church",
        "map": "travellers",
    }
    at_home = view["players"][seat]["farm"].count(oldest) if "farm" in rows else 0
    _rings_around_the_seat_s_members(
        name,
        at_home
        + sum(_standing(view, standing[WHERE[row]], oldest) for row in rows if row in WHERE),
    )


def test_buying_out_of_the_bag_rings_the_seat_s_member_in_it() -> None:
    view, _ = _found()["buy"]
    seat = view["you"]["seat"]
    picture, _, _ = _pictures("buy")
    bagged = {t["number"] for t in view["black_bag"] if t["seat"] == seat}
    assert {(m[0], m[2], m[3]) for m in picture.marks} == {("bag", seat, n) for n in bagged}
    tokens = sum(1 for t in view["black_bag"] if t["seat"] == seat)
    _rings_around_the_seat_s_members("buy", tokens)


def test_moving_up_rings_the_members_who_may() -> None:
    """In the church, the seat's members below the top stage whose step up its grain pays
    for (1, 1, 2 grain from stages 1, 2, 3); in the council, the seat's members below the
    top stage, when the options promote."""
    view, _ = _found()["advance"]
    seat = view["you"]["seat"]
    grain = view["players"][seat]["grain"]
    picture, _, marked = _pictures("advance")
    may = {
        ("church", m["stage"] - 1, seat, m["number"])
        for m in view["church"]
        if m["seat"] == seat and m["stage"] < 4 and (1, 1, 2)[m["stage"] - 1] <= grain
    }
    assert may and set(picture.marks) == may
    assert len(_marked_at(marked)) > 100 * len(may)
    view, decision = _found()["promote"]
    seat = view["you"]["seat"]
    picture, _, marked = _pictures("promote")
    in_council = {m for m in picture.marks if m[0] == "council"}
    assert in_council == {
        ("council", m["stage"] - 1, seat, m["number"])
        for m in view["council"]
        if m["seat"] == seat and m["stage"] < 4
    }
    # (the same decision may let members at home enter: they are ringed on the farmyard)
    home = view["players"][seat]["farm"] if "enter" in _hows(decision) else []
    assert set(picture.marks) - in_council == {("farm", -1, seat, n) for n in home}
    assert len(_marked_at(marked)) > 100 * len(picture.marks)


@pytest.mark.parametrize("name", ["church", "enter the council", "train"])
def test_members_sent_from_the_farmyard_are_ringed_there(name: str) -> None:
    """Going to church, entering the council or training in a workshop takes a member at
    home (one option a number: those of one number are alike): every member at home is
    ringed on the farmyard (the own area's, drawn at the picture's width)."""
    view, _ = _found()[name]
    seat = view["you"]["seat"]
    picture, _, _ = _pictures(name)
    home = view["players"][seat]["farm"]
    members = {m for m in picture.marks if m[0] not in BOXES}
    assert home and members == {("farm", -1, seat, n) for n in home}
    assert pv.YARD in picture.parts
    _rings_around_the_seat_s_members(name, len(home))


def test_karla_s_space_is_ringed() -> None:
    """Karla's cube is taken from the space her options name (their `space`): a ring just
    outside that space's edge, on the action spaces drawn for the phone (the picture's top,
    as wide as it), around it on all four sides and nowhere else."""
    _, decision = _found()["karla"]
    (space,) = {o.fields["space"] for o in decision.options}
    picture, plain, marked = _pictures("karla")
    index = table.SPACES.index(space)
    assert picture.marks == (("space", index, -1, -1),)
    assert MARK not in {c for _, c in plain.getcolors(1 << 24) or []}
    ring = _marked_at(marked)
    left, top, right, bottom = pv.space_boxes(marked.width)[index]
    assert all(left - 4 <= x <= right + 4 and top - 4 <= y <= bottom + 4 for x, y in ring)
    assert all(not (left + 3 < x < right - 3 and top + 3 < y < bottom - 3) for x, y in ring)
    sides = (
        [x for x, _ in ring if x < left + 2],
        [x for x, _ in ring if x > right - 2],
        [y for _, y in ring if y < top + 2],
        [y for _, y in ring if y > bottom - 2],
    )
    assert all(len(side) > 100 for side in sides), [len(side) for side in sides]


def test_the_kept_pictures_are_not_drawn_on() -> None:
    """A marked picture is drawn on a copy: the picture drawn again without marks is the
    same, and kinds whose options name no member nor space mark nothing."""
    for name in ("die in crafts", "train", "karla"):
        _, plain, _ = _pictures(name)
        view, decision = _found()[name]
        picture = phone.decision_picture("village", view, decision.kind, _fields(decision))
        again = phone.render_decision("village", view, picture.parts)
        assert again is not None and again.tobytes() == plain.tobytes()
    view, decision = _found()["buy"]
    assert phone.decision_picture("village", view, "turn", _fields(decision)).marks == ()


@pytest.mark.parametrize("name", sorted(WANTED))
def test_the_new_pictures_read_on_a_phone(name: str) -> None:
    view, decision = _found()[name]
    picture = phone.decision_picture("village", view, decision.kind, _fields(decision))
    image, texts = texts_on_phone(
        lambda: phone.render_decision("village", view, picture.parts, picture.marks)
    )
    assert image.width >= PHONE_WIDTH
    assert min((t.height for t in texts), default=MIN_TEXT_PX) >= MIN_TEXT_PX, name


def test_the_phone_s_map_reads_however_many_travel() -> None:
    """The map's travellers read on a phone (the table's numbers, 8 px high on a map 496 px
    wide, would read 6.5 px at 400): drawn with numbers the map's width needs, and where
    more than three share a city, as large as three, side by side, clear of one another and
    of the map's other places (their row moved down where it must be)."""
    view, _ = _found()["die on the map"]
    crowded = {
        **view,
        "travellers": [
            {"seat": k % view["num_players"], "number": 1 + k % 4, "where": city}
            for city in table.CITY_XY
            if city != "village"
            for k in range(table.TRAVELLERS_MAX)
        ],
    }
    for shown in (view, crowded):
        image, texts = texts_on_phone(
            lambda shown=shown: phone.render_focus("village", shown, "map")
        )
        assert image.width >= PHONE_WIDTH
        numbers = [t for t in texts if t.text.isdigit()]
        assert len(numbers) >= len(shown["travellers"])
        assert min(t.height for t in numbers) >= MIN_TEXT_PX
    spots = table.roomy_traveller_spots(crowded)
    assert len(spots) == len(crowded["travellers"])
    assert all(r == table.ROOMY_R for *_, r in spots)
    places = table.travel_places(crowded, table.SIDE_X, table.MAP_Y)
    others = [b for key in ("cost", "reward", "visits", "city") for b in places[key]]
    for k, (_, _, _, x, y, r) in enumerate(spots):
        pawn = (x - r, y - r - 3, x + r, y + r + 2)
        assert not any(_overlap(pawn, b) for b in others), (x, y)
        assert all(abs(x - spot[3]) >= 2 * r or y != spot[4] for spot in spots[k + 1 :])
        assert pawn[3] <= table.MAP_Y + table.MAP_H
    # three or fewer under a city stand as on the table, where the marks find them
    assert table.roomy_traveller_spots(view) == table.member_spots(view, "map")


def _overlap(a: tuple[float, ...], b: tuple[float, ...]) -> bool:
    return a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]
