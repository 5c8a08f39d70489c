"""Coffee Traders' decision pictures on a phone (issue 29, session 18): Work at a game's start
fits fewer screens (the cooperatives' empty rows folded away, their towns kept), a contract's
two bonuses are drawn, a piggyback build's spaces are ringed."""

from __future__ import annotations

import itertools

import pytest
from PIL import Image, ImageDraw

from meeple_hall.games.core import Decision
from meeple_hall.renderers import phone
from meeple_hall.renderers.palette import MARK, font
from meeple_hall.renderers.phone import coffee as coffee_phone
from tests.renderers.legibility import MIN_TEXT_PX, PHONE_WIDTH, texts_on_phone
from tests.renderers.test_decision_pictures import _decisions, _fields


def _first(kind: str, players: int = 3) -> tuple[dict, Decision]:
    return next((v, d) for v, d in _decisions("coffee", players) if d.kind == kind)


def _shown(view: dict, decision: Decision):
    shown = phone.decision_picture("coffee", view, decision.kind, _fields(decision))
    coffee_phone.kept_picture.cache_clear()
    image, texts = texts_on_phone(
        lambda: phone.render_decision("coffee", view, shown.parts, shown.marks)
    )
    assert texts and min(t.height for t in texts) >= MIN_TEXT_PX
    return shown, image, texts


@pytest.mark.parametrize("players", [2, 3, 4])
def test_work_at_the_start_folds_the_empty_rows_and_keeps_every_town(players: int) -> None:
    view, decision = _first("work", players)
    shown, image, texts = _shown(view, decision)
    assert shown.parts == ("board", "coops.rows")  # the five, every one named
    # was about 1,730 px at 400 px wide (the five cooperatives' three rows each)
    assert image.height * PHONE_WIDTH / image.width <= 1200
    # each town's workers still read, under the board (the town's count: type of 26)
    board = coffee_phone.render_focus(view, "board").height
    town = font(26).getbbox("0")
    height = (town[3] - town[1]) * 2 * PHONE_WIDTH / image.width
    found = [
        t.text for t in texts if t.y > board and abs(t.height - height) < 0.5 and t.text.isdigit()
    ]
    assert found == [str(view["coops"][c]["town"]) for c in coffee_phone.table.COFFEES]


def test_a_row_with_a_plantation_is_never_folded_away() -> None:
    for view, decision in _decisions("coffee", 3):
        if decision.kind != "work":
            continue
        for coffee in coffee_phone.table.COFFEES:
            rows = view["coops"][coffee]["rows"]
            folds = coffee_phone._row_folds(view, coffee)
            top = folds[-1][0]
            for r, row in enumerate(rows, start=1):
                if any(p is not None for p in row):
                    y = coffee_phone.table.ROW_Y[r - 1]
                    assert top <= y - coffee_phone.table.SPACE / 2, (coffee, r)


def _mark_pixels(image) -> int:
    return sum(1 for c in image.getdata() if c[:3] == MARK)


def test_a_piggyback_build_rings_the_open_spaces_of_the_buildings_offered() -> None:
    view, decision = next(
        (v, d)
        for v, d in _decisions("coffee", 3)
        if d.kind == "piggy_build" and "place" in d.options[0].fields
    )
    shown, image, _ = _shown(view, decision)
    place = decision.options[0].fields["place"]
    offered = {f["building"] for f in _fields(decision) if "building" in f}
    coop = view["coops"][place]
    kinds = view["building_kinds"]
    assert shown.marks and set(shown.marks) == {
        ("site", place, kind, i)
        for kind in offered
        for i, owner in enumerate(coop["buildings"][kind])
        if owner is None and (kinds[kind][i] != "p45" or view["rules_players"] >= 4)
    }
    company = coffee_phone.render_focus(view, "company")
    assert _mark_pixels(image.crop((0, company.height, image.width, image.height))) > 0
    plain = phone.render_decision("coffee", view, shown.parts)
    assert _mark_pixels(plain) == 0
    # each ring round its building: its middle column's top edge in MARK, the others' not
    part = shown.parts[1]
    folded = coffee_phone.folded(view, part)
    scale = folded.height / coffee_phone.HOUSE_SIZE[1]
    every = [
        ("site", place, kind, i)
        for kind in kinds
        for i in range(len(coop["buildings"][kind]))
        if kind != "warehouse" and kind in coop["buildings"]
    ]
    ringed = coffee_phone.marked(view, part, folded, shown.marks)
    for mark in every:
        boxes = coffee_phone._site_boxes(view, part.split(".")[0], (mark,))
        for x0, y0, x1, _ in boxes:
            edge = (round((x0 + x1) / 2 * scale) - 1, round(y0 * scale) - 8)
            box = (*edge, edge[0] + 2, round(y0 * scale) + 1)
            assert (_mark_pixels(ringed.crop(box)) > 0) == (mark in shown.marks), mark


def test_a_contract_bonus_draws_the_bonuses_to_choose_from_in_the_options_order() -> None:
    view, decision = next(iter(d for d in _decisions("coffee", 4) if d[1].kind == "contract_bonus"))
    letter = decision.options[0].fields["letter"]
    shown, image, _ = _shown(view, decision)
    assert shown.parts == ("company", f"bonuses.{letter}", "market")
    company = coffee_phone.render_focus(view, "company")
    drawn = image.crop((0, company.height + 12, image.width, company.height + 12 + 116))
    assert drawn.tobytes() == phone.render_decision("coffee", view, shown.parts[1:2]).tobytes()
    # each option's bonus its own box, left to right: as many boxes as options
    middle = drawn.height // 2
    row = [drawn.getpixel((x, middle)) for x in range(drawn.width)]
    panels = sum(
        1
        for a, b in itertools.pairwise(row)
        if a[:3] != coffee_phone.table.PANEL and b[:3] == coffee_phone.table.PANEL
    )
    assert panels >= len(decision.options) == 2


def test_each_bonus_piece_has_a_face_of_its_own() -> None:
    pieces = ("worker", "civet", "donkey", "coin", "truck", "arabica", "build", "hospital")
    blank = Image.new("RGB", (60, 60), coffee_phone.table.PANEL)
    faces = set()
    for item in pieces:
        face = blank.copy()
        coffee_phone._bonus_item(ImageDraw.Draw(face), item, 30, 30)
        faces.add(face.tobytes())
    assert len(faces) == len(pieces) and blank.tobytes() not in faces
