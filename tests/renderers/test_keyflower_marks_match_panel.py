"""Keyflower's placing pictures mark what a player can match to the panel's lines (H5's read,
K1 and K7): each free cell's ring and each turn drawn carry the option's number (`mark`), the
keycap emoji its panel line wears, never the engine's cell id or turn id."""

from __future__ import annotations

import random
from collections.abc import Iterator
from typing import Any

from meeple_hall import games
from meeple_hall.bot import presenters
from meeple_hall.bot.presenters import keyflower as presenter
from meeple_hall.games.core import Action, Decision
from meeple_hall.games.testing import random_choices
from meeple_hall.renderers import keyflower as table
from meeple_hall.renderers import phone
from meeple_hall.renderers.palette import MARK
from meeple_hall.renderers.phone import keyflower as kf

ENGINE = games.get("keyflower")


def _decisions(players: int, seed: int, kind: str) -> Iterator[tuple[dict[str, Any], Decision]]:
    state, rng = ENGINE.new(players, seed), random.Random(seed)
    while pending := ENGINE.decisions(state):
        for decision in pending:
            if decision.kind == kind:
                yield ENGINE.view(state, decision.seat), decision
        decision = rng.choice(pending)
        state = ENGINE.apply(state, Action(decision.seat, random_choices(decision, rng)))


def _fields(decision: Decision) -> list[dict[str, Any]]:
    return [dict(o.fields) for o in decision.options]


def test_keycaps_and_the_picture_s_marks_say_the_same() -> None:
    digits = [presenters.KEYCAPS[n - 1][0] for n in range(1, 10)]
    assert digits == [kf.mark_name(n) for n in range(1, 10)]
    assert presenters.KEYCAPS[9] == "🔟" and kf.mark_name(10) == "10"
    for n in range(11, 37):
        letter = chr(ord(presenters.KEYCAPS[n - 1]) - 0x1F1E6 + ord("A"))
        assert letter == kf.mark_name(n)


def test_each_free_cell_s_ring_carries_its_panel_line_s_keycap() -> None:
    """The ring round a cell holds the number whose keycap the cell's line wears, and each
    cell offered has its own."""
    seen = 0
    for view, decision in _decisions(3, 2, "place_at"):
        cells = [o for o in decision.options if o.id != "back"]
        picture = phone.decision_picture("keyflower", view, "place_at", _fields(decision))
        ringed = {(m[2], m[3]): m[1] for m in picture.marks if m[0] == "cell"}
        emoji = [presenter.option_style(decision, o).emoji for o in cells]
        assert emoji == list(presenters.KEYCAPS[: len(cells)])
        for cell, keycap in zip(cells, emoji, strict=True):
            q, r = map(int, cell.id.split("_"))
            assert ringed[q, r] == kf.mark_name(presenters.KEYCAPS.index(keycap) + 1)
            assert cell.id not in ringed.values()
        seen += 1
    assert seen > 5


def test_each_turn_drawn_is_named_by_its_panel_line_s_keycap() -> None:
    """Under the placing picture, each turn offered is named by the mark whose keycap its line
    wears (`r0`... before, which no line shows), in the options' order."""
    seen = 0
    for view, decision in _decisions(4, 1, "place_rot"):
        turns = [o for o in decision.options if o.id != "back"]
        picture = phone.decision_picture("keyflower", view, "place_rot", _fields(decision))
        (named,) = [m[2] for m in picture.marks if m[0] == "turns"]
        emoji = [presenter.option_style(decision, o).emoji for o in turns]
        assert emoji == list(presenters.KEYCAPS[: len(turns)])
        assert named == tuple((o.fields["rot"], kf.mark_name(i)) for i, o in enumerate(turns, 1))
        assert not any(name.startswith("r") for _, name in named)
        seen += 1
    assert seen > 10


def _marked_pixels(image: Any) -> int:
    data = image.convert("RGB").tobytes()
    return sum(1 for c in zip(data[0::3], data[1::3], data[2::3], strict=True) if c == MARK)


def test_the_tiles_flipper_may_upgrade_are_ringed_in_the_own_village() -> None:
    """The winter boat Flipper's decision (K8): each tile it may upgrade ringed, as `location`
    rings the tiles a worker may use."""
    view, decision = next(_decisions(4, 2, "flip"))
    offered = {o.fields["tile"] for o in decision.options if "tile" in o.fields}
    assert len(offered) > 1
    assert offered <= {t["id"] for t in view["players"][decision.seat]["village"]}
    picture = phone.decision_picture("keyflower", view, "flip", _fields(decision))
    assert picture.parts == (phone.OWN,)
    assert set(picture.marks) == {("tile", t) for t in offered}
    image = phone.render_decision("keyflower", view, picture.parts, picture.marks)
    assert image is not None and _marked_pixels(image) > 300 * len(offered)


def test_workers_on_a_tile_leave_its_resources_counts_clear_on_the_phone() -> None:
    """K5: on the phone's villages (larger type), a tile's workers stand clear of the
    resources kept on it, whose counts a transport's options move."""
    view, decision = next(_decisions(3, 1, "action"))
    seat = decision.seat
    player = view["players"][seat]
    tile = next(t for t in player["village"] if "q" in t)  # the home tile
    tile["resources"] = {"iron": 2, "stone": 1, "wood": 3}
    tile["workers"] = []
    bare = table.village_picture(view, seat)
    tile["workers"] = [
        {"colour": c, "count": 3, "seat": (seat + i) % 3, "lying": False}
        for i, c in enumerate(("blue", "yellow", "red"))
    ]
    crowded = table.village_picture(view, seat)
    geometry = table.village_geometry(player)
    assert geometry is not None
    cx, cy = geometry.centre(tile["q"], tile["r"])
    n = sum(1 for v in tile["resources"].values() if v)
    for x, y, r in table._stored_spots(cx, cy, geometry.size, n):
        box = tuple(round(v) for v in (x - r, y - r, x + r, y + r))
        assert bare.crop(box).tobytes() == crowded.crop(box).tobytes(), box


def test_summer_boats_show_their_ability_as_a_picture_not_its_code(monkeypatch: Any) -> None:
    """K9: a summer boat's face pictures its ability ("3a" was written on it, a data id no
    player can read); the eight abilities' pictures all differ."""
    from PIL import Image, ImageDraw

    written: list[str] = []
    draw_text = table._text
    monkeypatch.setattr(
        table,
        "_text",
        lambda d, xy, text, *a, **k: (written.append(text), draw_text(d, xy, text, *a, **k)),
    )
    codes = ("1a", "1b", "2a", "2b", "3a", "3b", "4a", "4b")
    faces = set()
    for code in codes:
        image = Image.new("RGB", (160, 160), table.BACKGROUND)
        tile = {"id": "U10", "kind": "summer", "effect": "ability", "ability": code}
        table._face(ImageDraw.Draw(image), tile, 80, 80, 64)
        faces.add(image.tobytes())
    assert not set(codes) & set(written), written
    assert len(faces) == len(codes)
