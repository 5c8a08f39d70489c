"""What Coffee Traders' decision pictures show (session 17, a fresh player's read): the first
decision of a turn (`work`) and a Trade show the seat's own board first, and the cooperatives
folded to the side the options act on, a few phone screens tall, not five."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from meeple_hall.games.core import Decision
from meeple_hall.renderers import phone
from meeple_hall.renderers.palette import MARK
from meeple_hall.renderers.phone import coffee as coffee_phone
from tests.renderers.legibility import MIN_TEXT_PX, PHONE_WIDTH, texts_on_phone
from tests.renderers.test_decision_pictures import _decisions, _fields

SCREEN = 450  # a phone screen's picture, at PHONE_WIDTH (Discord's frame and keyboard aside)


def _first(kind: str, players: int = 3) -> tuple[dict, Decision]:
    return next((v, d) for v, d in _decisions("coffee", players) if d.kind == kind)


def _each(kind: str, players: int = 3) -> Iterator[tuple[dict, Decision]]:
    return ((v, d) for v, d in _decisions("coffee", players) if d.kind == kind)


def _picture(view: dict, decision: Decision):
    """What the decision pictures, the picture, and its texts as a phone shows them (every
    part drawn afresh: a kept part's texts were drawn before)."""
    shown = phone.decision_picture("coffee", view, decision.kind, _fields(decision))
    coffee_phone.kept_picture.cache_clear()
    image, texts = texts_on_phone(
        lambda: phone.render_decision("coffee", view, shown.parts, shown.marks)
    )
    assert texts and min(t.height for t in texts) >= MIN_TEXT_PX
    return shown, image


@pytest.mark.parametrize(("kind", "own"), [("work", "board"), ("trade", "company")])
def test_work_and_trade_show_the_own_board_first_and_fit_four_screens(kind: str, own: str) -> None:
    view, decision = _first(kind)
    shown, image = _picture(view, decision)
    assert shown.parts[0] == own
    board = coffee_phone.render_focus(view, own)
    assert image.crop((0, 0, *board.size)).tobytes() == board.tobytes()
    assert all(p.startswith("coop") for p in shown.parts[1:])
    assert image.height * PHONE_WIDTH / image.width <= 4 * SCREEN  # was 2,278 (5 screens)


def test_work_s_cooperatives_are_narrowed_to_those_the_options_name() -> None:
    view, decision = _first("work")
    fields = [f for f in _fields(decision) if f.get("coffee") in (None, "bra", "ind")]
    parts = phone.decision_parts("coffee", view, "work", fields)
    assert parts == ("board", "coop3.rows", "coop5.rows")


def _mark_pixels(image, box=None) -> int:
    part = image if box is None else image.crop(box)
    return sum(1 for c in part.getdata() if c[:3] == MARK)


def _sale_with_contracts() -> tuple[dict, Decision]:
    return next(
        (v, d)
        for v, d in _each("sell")
        if any(o.fields.get("action") == "contract" for o in d.options)
    )


def test_a_sale_rings_the_bar_spaces_and_contracts_its_options_name() -> None:
    view, decision = _sale_with_contracts()
    shown, image = _picture(view, decision)
    assert shown.parts == ("bars", phone.OWN)
    fields = _fields(decision)
    bars = {("bar", f["bar"], f["space"]) for f in fields if f.get("action") == "bar"}
    letters = {("contract", f["letter"]) for f in fields if f.get("action") == "contract"}
    assert bars and letters and set(shown.marks) == bars | letters
    plain = phone.render_decision("coffee", view, shown.parts)
    assert _mark_pixels(plain) == 0
    # each contract offered ringed on the own area, the others not
    own = coffee_phone.render_own(view)
    assert own is not None
    top = image.height - own.height
    scale = own.width / coffee_phone.OWN_SIZE[0]
    for letter in "ABCDEF":
        x0, y0, x1, _ = coffee_phone._contract_box(letter)
        edge = (
            round(x0 * scale) - 3,
            top + round(y0 * scale) - 6,
            round(x1 * scale) + 3,
            top + round(y0 * scale),
        )
        assert (_mark_pixels(image, edge) > 0) == (("contract", letter) in letters), letter
    # each bar space offered ringed, its left edge in MARK
    bars_image = coffee_phone.marked(
        view, "bars", phone.render_focus("coffee", view, "bars"), shown.marks
    )
    size = coffee_phone._bars_size(view)
    s = bars_image.height / size[1]
    left = (bars_image.width - size[0] * s) / 2
    for bar, spaces in view["bar_spaces"].items():
        for space in range(len(spaces)):
            x0, y0, _, y1 = coffee_phone._bar_box(view, ("bar", bar, space))
            middle = round((y0 + y1) / 2 * s)
            edge = (round(left + x0 * s) - 6, middle - 2, round(left + x0 * s), middle + 2)
            assert (_mark_pixels(bars_image, edge) > 0) == (("bar", bar, space) in bars)


def test_a_piggyback_pictures_the_cooperative_it_acts_on() -> None:
    view, decision = next((v, d) for v, d in _each("piggy_trader") if d.options[0].id == "join")
    place = decision.options[0].fields["place"]
    coop = coffee_phone.COOPS[coffee_phone.table.COFFEES.index(place)]
    shown, _ = _picture(view, decision)
    assert shown.parts == (f"{coop}.house",)
    view, decision = next((v, d) for v, d in _each("piggy_build") if "place" in decision_fields(d))
    place = decision.options[0].fields["place"]
    coop = coffee_phone.COOPS[coffee_phone.table.COFFEES.index(place)]
    shown, _ = _picture(view, decision)
    assert shown.parts == ("company", f"{coop}.house")


def decision_fields(decision: Decision) -> set[str]:
    return {k for f in _fields(decision) for k in f}


def test_a_contract_bonus_shows_and_rings_the_contract_fulfilled() -> None:
    view, decision = next(iter(_each("contract_bonus", players=4)))
    letter = decision.options[0].fields["letter"]
    shown, image = _picture(view, decision)
    assert shown.parts == ("company", f"bonuses.{letter}", "market")
    assert set(shown.marks) == {("contract", letter), ("bonus", letter)}
    company = coffee_phone.render_focus(view, "company")
    scale = company.width / (coffee_phone.COMPANY_W + 20)
    for other in "ABCDEF":
        x0, y0, x1, _ = coffee_phone._contract_box(other, coffee_phone.COMPANY_W)
        edge = (round(x0 * scale), round(y0 * scale) - 6, round(x1 * scale), round(y0 * scale))
        assert (_mark_pixels(image, edge) > 0) == (other == letter), other
    bonuses = 2 * coffee_phone.BONUSES_SIZE[1]  # each pixel a square of four (`fit`)
    market = image.crop((0, company.height + 12 + bonuses + 12, image.width, image.height))
    assert _mark_pixels(market) > 0


def test_a_donkey_s_pathways_are_marked_along_themselves_not_round_their_ends() -> None:
    table = coffee_phone.table
    view, decision = next(iter(_each("donkey", players=2)))
    shown, _ = _picture(view, decision)
    offered = {(f["coffee"], f["row"], f["space"], f["upper_space"]) for f in _fields(decision)}
    assert set(shown.marks) == {("path", *p) for p in offered}
    checked = 0
    for coffee in {p[0] for p in offered}:
        coop = coffee_phone.COOPS[table.COFFEES.index(coffee)]
        image = phone.render_decision("coffee", view, (coop,), shown.marks)
        assert image is not None
        scale = image.height / (table.COOP_H + 2 * coffee_phone.CROP_PAD)
        x0 = table.coop_x(table.COFFEES.index(coffee))
        sizes = [len(row) for row in view["coops"][coffee]["rows"]]

        def at(row: int, space: int, x0=x0, sizes=sizes, scale=scale) -> tuple[float, float]:
            x, y = table.space_xy(x0, table.COOPS_TOP, row, space, sizes[row - 1])
            return (
                (x - round(x0) + coffee_phone.CROP_PAD) * scale,
                (y - table.COOPS_TOP + coffee_phone.CROP_PAD) * scale,
            )

        for _, row, lower, upper in table.pathways(sizes):
            (ax, ay), (bx, by) = at(row, lower), at(row + 1, upper)
            middle = (round((ax + bx) / 2), round((ay + by) / 2))
            assert (image.getpixel(middle) == MARK) == ((coffee, row, lower, upper) in offered)
            checked += 1
        # no ring round a space: a space's corner is as drawn
        plain = phone.render_decision("coffee", view, (coop,))
        for row, size in enumerate(sizes, start=1):
            for space in range(size):
                cx, cy = at(row, space)
                r = (table.SPACE / 2 + 4) * scale
                corner = (round(cx - r), round(cy - r))
                assert image.getpixel(corner) == plain.getpixel(corner)
    assert checked > len(offered)
