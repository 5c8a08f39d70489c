"""What a sale or a craft is decided about is ringed in palette.MARK (H8: V2, V3): the
customers in the market's stalls that the options serve, the workshops the options name;
those not named are not ringed."""

from __future__ import annotations

import random
from functools import cache
from typing import Any

from PIL import Image

from meeple_hall.games.core import Action, Decision
from meeple_hall.games.testing import random_choices
from meeple_hall.games.village import engine
from meeple_hall.renderers import phone
from meeple_hall.renderers import village as table
from meeple_hall.renderers.palette import MARK
from meeple_hall.renderers.phone import village as pv


@cache
def _found(kind: str) -> list[tuple[dict[str, Any], Decision]]:
    """Up to 6 decisions of `kind` from random games, the deciding seat's view with each."""
    found = []
    for players, seed in ((3, 7), (2, 1), (4, 1), (1, 2)):
        state, rng = engine.new(players, seed=seed), random.Random(seed)
        while (pending := engine.decisions(state)) and len(found) < 6:
            found += [(engine.view(state, d.seat), d) for d in pending if d.kind == kind]
            decision = rng.choice(pending)
            state = engine.apply(state, Action(decision.seat, random_choices(decision, rng)))
    assert found
    return found


def _picture(view: dict[str, Any], decision: Decision, part: str) -> Image.Image:
    fields = [dict(o.fields) for o in decision.options]
    picture = phone.decision_picture("village", view, decision.kind, fields)
    assert part in picture.parts
    image = phone.render_decision("village", view, (part,), picture.marks)
    assert image is not None
    return image


def _marked_along(image: Image.Image, place: Any, x0: float, x1: float, y: float) -> bool:
    """Whether MARK lies on the table's line (x0..x1, y) as the part's picture shows it,
    within a few pixels above or below."""
    (left, at, _), (right, _, _) = place(x0, y), place(x1, y)
    return any(
        image.getpixel((round(x), round(at) + dy)) == MARK
        for x in range(round(left) + 20, round(right) - 20)
        for dy in range(-8, 9)
        if 0 <= round(at) + dy < image.height
    )


def test_the_customers_a_sale_serves_are_ringed() -> None:
    for view, decision in _found("market"):
        named = {o.fields["customer"] for o in decision.options if "customer" in o.fields}
        image = _picture(view, decision, pv.STALLS)
        place = pv._placement(pv.STALLS, image.width)
        for i, tile in enumerate(view["stalls"]):
            if tile is None:
                continue
            x = pv.MARKET_X + i * pv.STALL
            ringed = _marked_along(image, place, x, x + pv.TILE, pv.MARKET_Y - 4)
            assert ringed == (tile["id"] in named), (i, tile["id"], named)


def test_the_workshops_a_craft_names_are_ringed() -> None:
    for view, decision in _found("crafts"):
        named = {o.fields["shop"] for o in decision.options if "shop" in o.fields}
        # the mill's option names no workshop: the mill is the table's fifth
        named |= {"mill" for o in decision.options if o.fields.get("how") == "mill"}
        image = _picture(view, decision, "crafts")
        place = pv._placement("crafts", image.width)
        for i, (shop, _) in enumerate(table.SHOPS):
            x = table.BOARD_X + i * pv.SHOP
            ringed = _marked_along(image, place, x, x + table.SHOP_W, pv.SHOPS_Y - 3)
            assert ringed == (shop in named), (i, shop, named)


def test_a_trip_rings_the_cities_offered_and_who_may_go() -> None:
    """A trip (H2's leftovers): the cities its options go to are ringed on the map, the
    others not; a member leaving home is ringed on the farmyard (the own area's farmyard is
    shown only then), a traveller moving on where it stands."""
    cities = list(table.CITY_XY)
    for view, decision in _found("travel"):
        fields = [dict(o.fields) for o in decision.options]
        seat = view["you"]["seat"]
        picture = phone.decision_picture("village", view, "travel", fields)
        from_home = any(f.get("origin") == "village" for f in fields)
        assert (pv.YARD in picture.parts) == from_home
        home = {("farm", -1, seat, n) for n in view["players"][seat]["farm"]}
        assert home <= set(picture.marks) if from_home else not home & set(picture.marks)
        moving = {f["origin"] for f in fields if f.get("origin", "village") != "village"}
        on_the_way = {
            ("map", cities.index(m["where"]), seat, m["number"])
            for m in view["travellers"]
            if m["seat"] == seat and m["where"] in moving
        }
        assert on_the_way <= set(picture.marks)
        offered = {f["city"] for f in fields if "city" in f}
        image = _picture(view, decision, pv.ROUTES)
        place = pv._placement(pv.ROUTES, image.width)
        for city in cities[1:]:
            cx, cy = table.city_at(city, table.SIDE_X, table.MAP_Y)
            x, y, scale = place(cx, cy)
            top = round(y - (table.CITY_R + 4) * scale)
            ringed = any(
                image.getpixel((round(x) + dx, top + dy)) == MARK
                for dx in range(-2, 3)
                for dy in range(-3, 4)
            )
            assert ringed == (city in offered), (city, offered)


def test_the_mill_is_ringed_when_offered() -> None:
    """The mill's option names no workshop (`how` "mill"): it is the table's fifth, ringed
    when offered as the others are (V's item 4: four or five rings are right, all offered)."""
    milling = []
    for players, seed in ((2, 1), (3, 1), (4, 1)):
        state, rng = engine.new(players, seed=seed), random.Random(seed)
        while (pending := engine.decisions(state)) and not milling:
            milling += [
                (engine.view(state, d.seat), d)
                for d in pending
                if d.kind == "crafts" and any(o.fields.get("how") == "mill" for o in d.options)
            ]
            decision = rng.choice(pending)
            state = engine.apply(state, Action(decision.seat, random_choices(decision, rng)))
    view, decision = milling[0]
    image = _picture(view, decision, "crafts")
    fields = [dict(o.fields) for o in decision.options]
    mill = [s for s, _ in table.SHOPS].index("mill")
    assert ("shop", mill, -1, -1) in phone.decision_picture("village", view, "crafts", fields).marks
    place = pv._placement("crafts", image.width)
    x = table.BOARD_X + mill * pv.SHOP
    assert _marked_along(image, place, x, x + table.SHOP_W, pv.SHOPS_Y - 3)
