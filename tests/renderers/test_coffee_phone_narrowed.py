"""Coffee Traders' decision pictures narrowed to what the lines name (issue 29 item 1,
session 18, a fresh player's findings): a building's space and a farm picture the trading
houses over their building spaces, the spaces the lines name ringed (was: the five
cooperatives whole, 2,278 px at 400 wide, nothing ringed); choosing who gets a town
center's workers pictures that cooperative alone, their plantations ringed."""

from __future__ import annotations

import random
from collections.abc import Iterator
from typing import Any

from meeple_hall.games.coffee import engine
from meeple_hall.games.core import Action, Decision
from meeple_hall.games.testing import random_choices
from meeple_hall.renderers import phone
from meeple_hall.renderers.palette import MARK
from meeple_hall.renderers.phone import coffee as coffee_phone
from tests.renderers.legibility import PHONE_WIDTH


def _met(kind: str, players: int, seed: int, nth: int = 0) -> tuple[dict, Decision]:
    """The `nth` decision of `kind` (the first pending) of a seeded random game."""
    found: Iterator[tuple[dict, Decision]] = _decisions(players, seed)
    return [(v, d) for v, d in found if d.kind == kind][nth]


def _decisions(players: int, seed: int) -> Iterator[tuple[dict, Decision]]:
    for state, decision in _states(players, seed):
        yield engine.view(state, decision.seat), decision


def _states(players: int, seed: int) -> Iterator[tuple[Any, Decision]]:
    """Each state of a seeded random game and its first decision pending."""
    state, rng = engine.new(players, seed), random.Random(seed)
    while pending := engine.decisions(state):
        yield state, pending[0]
        decision = rng.choice(pending)
        state = engine.apply(state, Action(decision.seat, random_choices(decision, rng)))


def _picture(view: dict, decision: Decision):
    fields = [o.fields for o in decision.options]
    shown = phone.decision_picture("coffee", view, decision.kind, fields)
    image = phone.render_decision("coffee", view, shown.parts, shown.marks)
    assert image is not None
    return shown, image


def _ring_at(image, view: dict, mark: tuple) -> bool:
    """Whether a ring's top edge lies over the building space `mark` on the five trading
    houses one under another (`coops.house`), as drawn at the picture's width."""
    k = coffee_phone.table.COFFEES.index(mark[1])
    boxes = coffee_phone._site_boxes(view, coffee_phone.COOPS[k], (mark,))
    if not boxes:
        return False  # a space not drawn (for 4-5 players, in a smaller game)
    ((x0, y0, x1, _),) = boxes
    pitch = coffee_phone.HOUSE_SIZE[1] + coffee_phone.SIDES_GAP // 2
    scale = image.width / coffee_phone.HOUSE_SIZE[0]
    x, y = (x0 + x1) / 2 * scale, (y0 + k * pitch) * scale
    box = (round(x) - 1, round(y) - 8, round(x) + 2, round(y) + 1)
    return any(c[:3] == MARK for c in image.crop(box).getdata())


def _every_site(view: dict, building: str) -> list[tuple]:
    return [
        ("site", coffee, building, i)
        for coffee in coffee_phone.table.COFFEES
        for i in range(len(view["coops"][coffee]["buildings"][building]))
    ]


def test_a_building_site_pictures_the_trading_houses_and_rings_the_spaces_named() -> None:
    view, decision = _met("build_site", 2, 1, 3)  # a production station, every cooperative
    shown, image = _picture(view, decision)
    assert shown.parts == ("coops.house",)
    named = {
        ("site", f["coffee"], f["building"], f["space"])
        for f in (o.fields for o in decision.options)
    }
    assert set(shown.marks) == named and len(named) == len(decision.options) == 9
    assert image.height * PHONE_WIDTH / image.width < 1100  # was 2,278
    for mark in _every_site(view, "production"):
        assert _ring_at(image, view, mark) == (mark in named), mark


def test_a_farm_pictures_the_trading_houses_and_rings_the_farm_spaces_named() -> None:
    view, decision = _met("farm", 4, 38)
    shown, image = _picture(view, decision)
    assert shown.parts == ("coops.house",)
    named = {
        ("site", o.fields["coffee"], "farm", o.fields["space"])
        for o in decision.options
        if o.fields["action"] == "farm"
    }
    assert set(shown.marks) == named and len(named) == 5
    assert image.height * PHONE_WIDTH / image.width < 1100  # was 2,278
    for mark in _every_site(view, "farm"):
        assert _ring_at(image, view, mark) == (mark in named), mark


def test_who_gets_a_worker_pictures_the_cooperative_named_and_rings_their_plantations() -> None:
    view, decision = _met("send_choose", 2, 1)  # Ethiopia's town center: P2 or André
    shown, image = _picture(view, decision)
    assert shown.parts == ("coop4",)  # Ethiopia alone (was the five, 2,278 px at 400 wide)
    assert image.height * PHONE_WIDTH / image.width < 500
    rows = view["coops"]["eth"]["rows"]
    assert len(shown.marks) == len(decision.options) == 2
    for (coffee, row, space), option in zip(shown.marks, decision.options, strict=True):
        plantation = rows[row - 1][space]
        assert coffee == "eth" and plantation["owner"] == option.fields["seat"]
        assert not plantation["staffed"]
    assert any(c[:3] == MARK for c in image.getdata())


def test_a_planting_pictures_the_rows_named_only_and_rings_its_spaces() -> None:
    view, decision = _met("plant_space", 2, 1)  # row 2 spaces of three cooperatives
    shown, image = _picture(view, decision)
    named = {o.fields["coffee"] for o in decision.options}
    assert shown.parts == tuple(
        f"{coop}.rows2"
        for coop, coffee in zip(coffee_phone.COOPS, coffee_phone.table.COFFEES, strict=True)
        if coffee in named
    )
    assert len(shown.parts) == 3
    assert image.height * PHONE_WIDTH / image.width < 700  # was 2,278: the five whole
    # each space named ringed on its cooperative's part: the ring's top edge in MARK
    table = coffee_phone.table
    for part in shown.parts:
        coop = part.split(".")[0]
        coffee = table.COFFEES[coffee_phone.COOPS.index(coop)]
        plain = phone.render_decision("coffee", view, (part,))
        ringed = phone.render_decision("coffee", view, (part,), shown.marks)
        assert plain is not None and ringed is not None
        scale = ringed.width / (table.COOP_W + 2 * coffee_phone.CROP_PAD)
        strips = coffee_phone._row_folds(view, coffee, 2)
        assert strips[-1][0] <= table.ROW_Y[1] - table.SPACE / 2  # row 2 kept
        for mark in [m for m in shown.marks if m[0] == coffee]:
            x0 = table.coop_x(table.COFFEES.index(coffee))
            size = len(view["coops"][coffee]["rows"][mark[1] - 1])
            x, y = table.space_xy(x0, table.COOPS_TOP, mark[1], mark[2], size)
            y -= table.COOPS_TOP
            on = sum(b - t for t, b in strips[:-1]) + y - strips[-1][0]
            cx = (x - round(x0) + coffee_phone.CROP_PAD) * scale
            top = (on - table.SPACE / 2 - 5) * scale
            # (or up to 5 px further in: the space's edge, where it would touch a neighbour's)
            edge = (round(cx) - 2, round(top) - 2, round(cx) + 2, round(top + 5 * scale) + 6)
            assert any(c[:3] == MARK for c in ringed.crop(edge).getdata()), mark
            assert not any(c[:3] == MARK for c in plain.crop(edge).getdata()), mark


def _open_sites(view: dict, buildings: set[str]) -> set[tuple]:
    kinds = view["building_kinds"]
    return {
        ("site", coffee, kind, i)
        for coffee in coffee_phone.table.COFFEES
        for kind in buildings
        for i, owner in enumerate(view["coops"][coffee]["buildings"][kind])
        if owner is None and (kinds[kind][i] != "p45" or view["rules_players"] >= 4)
    }


def _houses_ring_sites(view: dict, decision: Decision, shown, image) -> None:
    """The houses pictured under the company are those holding a site named, each ringed."""
    offered = {o.fields["building"] for o in decision.options if "building" in o.fields}
    sites = _open_sites(view, offered & set(view["building_kinds"]))
    assert sites and set(shown.marks) == sites
    coops = {coffee_phone.COOPS[coffee_phone.table.COFFEES.index(s[1])] for s in sites}
    assert shown.parts[0] == "company"
    if shown.parts[1:] != ("coops.house",):  # the five as one drawing, else those named
        assert [p.split(".")[0] for p in shown.parts[1:]] == sorted(coops)
    part = shown.parts[-1]
    plain = phone.render_decision("coffee", view, (part,))
    ringed = phone.render_decision("coffee", view, (part,), shown.marks)
    assert plain is not None and ringed is not None
    if part == "coops.house":
        for mark in sites:
            assert _ring_at(ringed, view, mark), mark
    else:
        assert any(c[:3] == MARK for c in ringed.getdata())


def test_a_trade_rings_the_building_spaces_its_lines_name() -> None:
    view, decision = _met("trade", 4, 1, 3)  # a production station or a fair trade post
    shown, image = _picture(view, decision)
    assert shown.parts == ("company", "coops.house")
    _houses_ring_sites(view, decision, shown, image)


def test_a_contract_bonus_building_pictures_and_rings_the_spaces_its_lines_name() -> None:
    view, decision = _met("free_build", 2, 1)
    shown, image = _picture(view, decision)  # was the own area alone
    assert shown.parts == ("company", "coop1.house", "coop3.house", "coop4.house", "coop5.house")
    _houses_ring_sites(view, decision, shown, image)


def test_a_second_delivery_rings_the_bar_spaces_a_purchase_folds_with() -> None:
    """A second delivery's panel folds a purchase with the delivery it makes possible ("Buy
    1 Brazil for 2 coins, then Coffee Bar 5: 4 Brazil"): the picture rings those spaces as
    well as the deliveries offered now, and no other."""
    folded_rings = 0
    seen = 0
    for state, decision in _states(3, 1):
        if decision.kind != "sell_second" or seen >= 40:
            continue
        seen += 1
        view = engine.view(state, decision.seat)
        offered = {
            (o.fields["bar"], o.fields["space"])
            for o in decision.options
            if o.fields.get("action") == "bar"
        }
        later = set(offered)
        for option in decision.options:
            if option.fields.get("action") != "buy":
                continue
            after = engine.decisions(engine.apply(state, Action(decision.seat, (option.id,))))
            later |= {
                (o.fields["bar"], o.fields["space"])
                for o in after[0].options
                if o.fields.get("action") == "bar"
            }
        fields = [o.fields for o in decision.options]
        marks = coffee_phone.marks(view, "sell_second", fields)
        assert {m[1:] for m in marks if m[0] == "bar"} == later
        folded_rings += len(later - offered)
    assert seen and folded_rings  # some purchase made a delivery possible
