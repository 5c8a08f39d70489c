"""Keyflower's decision pictures name what the panel's lines name (issue 29 item 1, a fresh
player's findings at 400 px): each tile to place wears its lines' keycap and is drawn once,
a transport's tiles are ringed, a free cell's name "10" is as large as "1"-"9".
"""

from __future__ import annotations

from typing import Any

from PIL import Image

from meeple_hall.bot import presenters
from meeple_hall.bot.presenters import keyflower as presenter
from meeple_hall.games.core import Action, Decision
from meeple_hall.games.keyflower import engine
from meeple_hall.games.keyflower.state import KeyflowerState
from meeple_hall.renderers import keyflower as table
from meeple_hall.renderers import phone
from meeple_hall.renderers.palette import MARK
from meeple_hall.renderers.phone import keyflower as kf
from tests.games.keyflower.helpers import give_tile, play
from tests.games.keyflower.helpers import table as new_table
from tests.renderers.legibility import texts_on_phone
from tests.renderers.test_keyflower_decision_marks import _decisions


def _fields(decision: Decision) -> list[dict[str, Any]]:
    return [dict(o.fields) for o in decision.options]


def _marked(image: Image.Image) -> list[tuple[int, int]]:
    width, data = image.width, image.convert("RGB").tobytes()
    pixels = zip(data[0::3], data[1::3], data[2::3], strict=True)
    return [(i % width, i // width) for i, c in enumerate(pixels) if c == MARK]


def _place_tile() -> tuple[KeyflowerState, dict, Decision]:
    return next((s, v, d) for s, v, d in _decisions(3, 7) if d.kind == "place_tile")


def test_each_tile_to_place_wears_its_lines_keycap_on_its_picture_and_is_drawn_once() -> None:
    """The lines name a tile in words ("Place Timber yard W of ..."), the picture by its
    code: each tile's option has a number (`mark`), its lines wear it as a keycap, the
    picture writes it on the tile's upper left corner; the own area below no longer shows
    the tiles again as thumbnails (`SETTLED`)."""
    state, view, decision = _place_tile()
    tiles = [o for o in decision.options if "tile" in o.fields]
    waiting = view["players"][decision.seat]["to_place"]
    assert [o.id for o in tiles] == [t["id"] for t in waiting]  # ids as before
    assert [o.fields["mark"] for o in tiles] == list(range(1, len(tiles) + 1))
    for o in tiles:
        keycap = presenters.KEYCAPS[o.fields["mark"] - 1]
        assert presenter.option_style(decision, o).emoji == keycap
        # the folded line (tile, cell) wears it too
        after = engine.apply(state, Action(decision.seat, (o.id,)))
        cell = next(d for d in engine.decisions(after) if d.seat == decision.seat)
        assert cell.kind == "place_at"
        chained = presenter.chain_style((decision, cell), (o, cell.options[0]))
        assert chained is not None and chained.emoji == keycap
    picture = phone.decision_picture("keyflower", view, "place_tile", _fields(decision))
    assert picture.parts == (kf.WAITING, kf.SETTLED)
    assert picture.marks == tuple(("named", o.id, str(o.fields["mark"])) for o in tiles)
    image, texts = texts_on_phone(
        lambda: phone.render_decision("keyflower", view, picture.parts, picture.marks)
    )
    where = table.waiting_tiles(len(tiles), image.width)
    drawn = [t.text for t in texts]
    for o, (cx, cy, size) in zip(tiles, where, strict=True):
        assert drawn.count(o.id) == 1, (o.id, drawn)
        name = [
            t
            for t in texts
            if t.text == str(o.fields["mark"]) and cx - size < t.x < cx and cy - size < t.y < cy
        ]
        assert len(name) == 1, (o.id, [(t.text, t.x, t.y) for t in texts])
        corner = image.crop((round(cx - size), round(cy - size), round(cx), round(cy)))
        assert len(_marked(corner)) > 200


def _transporting() -> KeyflowerState:
    """Seat 0 uses its home tile (H4, holding 1 wood) with the Keywood (S06) beside it and
    a saw to upgrade it: the transport's decision is asked."""
    s = new_table(offer=("S03", "S11"))
    give_tile(s, 0, "S06", 1, 0)
    s.tiles["H4"].resources = {"wood": 1}
    s.players[0].skills = {"saw": 1}
    return play(s, 0, "use", "H4", "red", "1")


def _asked(state: KeyflowerState) -> tuple[dict, Decision, phone.DecisionPicture]:
    decision = next(d for d in engine.decisions(state) if d.seat == 0)
    view = engine.view(state, 0)
    picture = phone.decision_picture("keyflower", view, decision.kind, _fields(decision))
    return view, decision, picture


def test_a_transport_s_decisions_ring_the_tiles_their_lines_name() -> None:
    """Moving a resource or upgrading, each line names a tile of the seat's village (the
    transport's folded lines: the tiles a move starts from, an upgrade goes to; then the
    tile to take from, the tile the resource leaves, the tile it goes to, the tile to
    upgrade): each is ringed in the own area."""
    steps = [
        (_transporting(), "move", "transport", {"H4", "S06"}),
        (None, "H4", "from", {"H4"}),
        (None, "wood", "what", {"H4"}),
        (None, "", "to", {"S06"}),
        (play(_transporting(), 0, "up"), "", "upgrade", {"S06"}),
    ]
    state = steps[0][0]
    for start, then, kind, tiles in steps:
        state = start if start is not None else state
        view, decision, picture = _asked(state)
        assert decision.kind == kind
        assert picture.parts == (phone.OWN,)
        assert set(picture.marks) == {("tile", t) for t in tiles}
        image = phone.render_decision("keyflower", view, picture.parts, picture.marks)
        assert image is not None and len(_marked(image)) > 300 * len(tiles)
        if then:
            state = play(state, 0, then)
    # The ids and labels are as before: the engine only adds the tiles to the fields.
    view, decision, _ = _asked(_transporting())
    assert [o.id for o in decision.options] == ["move", "up", "done"]


def test_a_free_cell_named_10_is_named_as_large_as_one_named_9() -> None:
    """The free cells' names (their lines' keycaps 1️⃣-🔟): "10" was written a size smaller
    than "1"-"9"."""
    s = new_table()
    view = engine.view(s, 0)
    (q, r), (q2, r2) = table.free_cells(view["players"][0])[:2]
    marks = (("cell", "9", q, r), ("cell", "10", q2, r2))
    _, texts = texts_on_phone(
        lambda: phone.render_decision("keyflower", view, (kf.PLACING,), marks)
    )
    nine = [t.height for t in texts if t.text == "9"]
    ten = [t.height for t in texts if t.text == "10"]
    assert len(nine) == len(ten) == 1
    assert abs(ten[0] - nine[0]) < 1
