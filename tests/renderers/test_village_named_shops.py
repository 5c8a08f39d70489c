"""Village on the phone (issue 29 item 1, session 18's V2: a fresh player's findings): the
crafts' workshops numbered on the picture, each crafts line wearing its workshop's number as
a keycap emoji (the lines said 🔨 each: which box was the smithy was told only by its ~14 px
product icon)."""

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
from tests.renderers.legibility import MIN_TEXT_PX, texts_on_phone
from tests.renderers.moments import pending_decisions


@cache
def _first(kind: str, players: int = 1, seed: int = 1) -> tuple[dict[str, Any], Decision]:
    for view, decision in pending_decisions(engine, players, seed):
        if decision.kind == kind:
            return view, decision
    raise AssertionError(kind)


def test_the_crafts_workshops_are_numbered_as_their_lines_keycaps() -> None:
    """The crafts' picture (no member in a workshop: its only text is the numbers) reads
    1-5 on a phone, three over two in the table's order (the mill fifth); each crafts line
    wears its workshop's number as a keycap, the mill's line the fifth."""
    view, decision = _first("crafts")
    empty = {**view, "workshops": []}
    _, texts = texts_on_phone(lambda: phone.render_decision("village", empty, ("crafts",)))
    ordered = sorted(texts, key=lambda t: (round(t.y), t.x))
    assert [t.text for t in ordered] == [str(n) for n in range(1, len(table.SHOPS) + 1)]
    assert min(t.height for t in texts) >= MIN_TEXT_PX
    assert len({round(t.y) for t in texts}) == 2
    shops = [shop for shop, _ in table.SHOPS]
    seen = set()
    for option in decision.options:
        if option.fields.get("pass"):
            continue
        style = presenter.option_style(decision, option)
        assert style is not None
        shop = "mill" if option.fields["how"] == pv.MILL else option.fields["shop"]
        number = shops.index(shop) + 1
        assert style.emoji == f"{number}\ufe0f\u20e3", (option.id, style.emoji)
        seen.add(shop)
    assert len(seen) >= 3


@cache
def _families() -> list[tuple[dict[str, Any], Decision]]:
    """Family decisions of random games, a few bringing a member home from each place."""
    found: list[tuple[dict[str, Any], Decision]] = []
    rows: dict[str, int] = {}
    for players, seed in ((1, 1), (2, 1), (3, 1)):
        for view, decision in pending_decisions(engine, players, seed):
            if decision.kind != "family":
                continue
            named = {o.fields["row"] for o in decision.options if "row" in o.fields}
            if not named or any(rows.get(r, 0) < 2 for r in named):
                found.append((view, decision))
                for r in named:
                    rows[r] = rows.get(r, 0) + 1
    return found


def test_a_member_brought_home_is_ringed_where_it_stands() -> None:
    """A family's line that brings a member home (`#1 in church stage 1`) pictures where it
    stands, ringed (the picture was the farmyard alone), above the farmyard it goes to; a
    birth alone pictures the farmyard."""
    families = _families()
    assert {o.fields.get("row") for _, d in families for o in d.options} >= {"church", "council"}
    for view, decision in families:
        fields = [dict(o.fields) for o in decision.options]
        picture = phone.decision_picture("village", view, "family", fields)
        rows = {f["row"] for f in fields if "row" in f}
        wanted = [pv.DIE_PARTS[row] for row in pv.DIE_PARTS if row in rows]
        assert picture.parts == (*wanted, pv.YARD), (rows, picture.parts)
        seat = view["you"]["seat"]
        for f in fields:
            if "row" in f:
                part = pv.DIE_PARTS[f["row"]]
                assert any(m[0] == part and m[2:] == (seat, f["number"]) for m in picture.marks)
        for part in wanted:
            image = phone.render_decision("village", view, (part,))
            ringed = phone.render_decision("village", view, (part,), picture.marks)
            assert image is not None and ringed is not None
            assert ringed.tobytes() != image.tobytes(), part


def test_a_sale_pictures_the_served_customers_only_when_there_are_some() -> None:
    """A sale with no customer served yet pictures the market and the farmyard (the served
    customers' panel was pictured empty, about a third of the picture); once one is served,
    the whole own area, where the sale's customer joins them."""
    seen = set()
    for players, seed in ((2, 1), (2, 2)):
        for view, decision in pending_decisions(engine, players, seed):
            if decision.kind != "market":
                continue
            fields = [dict(o.fields) for o in decision.options]
            picture = phone.decision_picture("village", view, "market", fields)
            served = bool(view["you"]["customers"])
            assert picture.parts == (pv.STALLS, phone.OWN if served else pv.YARD), served
            seen.add(served)
        if seen == {False, True}:
            return
    raise AssertionError(seen)


COUNCIL_Y = 414  # the council's stages' top on the table


def test_the_privileges_offered_are_ringed_on_the_council() -> None:
    """A privilege's picture (the council) rings each stage whose privilege is offered (the
    start marker's: the first), the others not."""
    found: dict[tuple[int, ...], tuple[dict[str, Any], Decision]] = {}
    for view, decision in pending_decisions(engine, 2, 2):
        if decision.kind == "privilege":
            offered = {o.fields["privilege"] for o in decision.options if "privilege" in o.fields}
            found.setdefault(tuple(sorted(offered)), (view, decision))
    assert set(found) == {(1,), (1, 2), (2,)}
    for view, decision in found.values():
        offered = {o.fields["privilege"] for o in decision.options if "privilege" in o.fields}
        fields = [dict(o.fields) for o in decision.options]
        picture = phone.decision_picture("village", view, "privilege", fields)
        image = phone.render_decision("village", view, picture.parts, picture.marks)
        assert picture.parts == ("council",) and image is not None
        place = pv._placement("council", image.width)
        for stage in range(1, 5):
            left = table.BOARD_X + (stage - 1) * (table.STAGE_W + 4)
            (x0, y, _), (x1, _, _) = place(left + 20, COUNCIL_Y), place(left + 70, COUNCIL_Y)
            ringed = any(
                image.getpixel((x, round(y) + dy)) == MARK
                for x in range(round(x0), round(x1))
                for dy in range(-4, 5)
                if 0 <= round(y) + dy < image.height
            )
            assert ringed == (stage in offered), (stage, offered)
