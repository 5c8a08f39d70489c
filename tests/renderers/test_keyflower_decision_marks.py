"""Keyflower's decision pictures show where the options are (issue 29 item 1; H5's audit):
of the other villages the tiles a worker may use (cut from them), a ring round each tile
offered, each free cell a tile may be placed in (outlined, named as its option) and the tile
placed (large), the cell a tile is being turned in and the tile in each turn (large), and in
the steps after the location is chosen, the tile chosen, ringed where it lies.
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from typing import Any

from PIL import Image

from meeple_hall import games
from meeple_hall.games.core import Action, Decision
from meeple_hall.games.keyflower.state import KeyflowerState
from meeple_hall.games.testing import random_choices
from meeple_hall.renderers import keyflower as table
from meeple_hall.renderers import phone
from meeple_hall.renderers.palette import MARK, font
from meeple_hall.renderers.phone import keyflower as kf
from tests.games.keyflower.helpers import give_tile, play
from tests.games.keyflower.helpers import table as new_table
from tests.renderers.legibility import MIN_TEXT_PX, PHONE_WIDTH, texts_on_phone

ENGINE = games.get("keyflower")


def _decisions(players: int, seed: int) -> Iterator[tuple[KeyflowerState, dict, Decision]]:
    state, rng = ENGINE.new(players, seed), random.Random(seed)
    while pending := ENGINE.decisions(state):
        for decision in pending:
            yield state, ENGINE.view(state, decision.seat), decision
        decision = rng.choice(pending)
        state = ENGINE.apply(state, Action(decision.seat, random_choices(decision, rng)))


def _fields(decision: Decision) -> list[dict[str, Any]]:
    return [dict(o.fields) for o in decision.options]


def _marked_pixels(image: Image.Image) -> list[tuple[int, int]]:
    width, data = image.width, image.convert("RGB").tobytes()
    pixels = zip(data[0::3], data[1::3], data[2::3], strict=True)
    return [(i % width, i // width) for i, c in enumerate(pixels) if c == MARK]


def test_using_a_tile_in_another_village_pictures_the_tiles_offered_there_cut_and_ringed() -> None:
    """Of the other villages, only the tiles a worker may go to are pictured (`USES`: cut
    from them, each village's in a panel of its own), above the own area, each ringed."""
    _, view, decision = next(
        (s, v, d)
        for s, v, d in _decisions(4, 1)
        if d.kind == "location"
        and any(
            o.fields.get("tile") in {t["id"] for t in p["village"]}
            for o in d.options
            for p in v["players"]
            if p["seat"] != d.seat
        )
    )
    offered = {o.fields["tile"] for o in decision.options if "tile" in o.fields}
    theirs = set().union(*(_tile_ids(p) for p in view["players"] if p["seat"] != decision.seat))
    picture = phone.decision_picture("keyflower", view, "location", _fields(decision))
    assert not [p for p in picture.parts if p.startswith("seat")]
    assert picture.parts[-2:] == (kf.USES, phone.OWN)
    assert set(picture.marks) == {("tile", t) for t in offered}
    plain = phone.render_decision("keyflower", view, picture.parts)
    assert plain is not None and not _marked_pixels(plain)
    _assert_the_cut_shows(view, picture.marks, offered & theirs)
    # The kept parts were not drawn on: the same picture without marks has none.
    again = phone.render_decision("keyflower", view, picture.parts)
    assert again is not None and again.tobytes() == plain.tobytes()


def _assert_the_cut_shows(view: dict, marks: tuple, tiles: set[str]) -> None:
    """The other villages' cut (`USES`) drawn with `marks`: the ids of `tiles` and of no other
    tile, at a size that reads on a phone, each tile ringed (its hex's fill, the season's
    colour, fills much of its ring's box)."""
    assert tiles
    image, texts = texts_on_phone(
        lambda: phone.render_decision("keyflower", view, (kf.USES,), marks)
    )
    every = {t["id"] for p in view["players"] for t in p["village"]}
    assert {t.text for t in texts} & every == tiles
    assert min(t.height for t in texts) >= MIN_TEXT_PX
    ring = _marked_pixels(image)
    assert len(ring) > 300 * len(tiles)
    fills = {table.SEASON[k] for k in ("home", "spring", "summer", "autumn", "winter")}
    xs, ys = [x for x, _ in ring], [y for _, y in ring]
    inside = image.crop((min(xs), min(ys), max(xs), max(ys)))
    on_tile = sum(n for n, c in inside.getcolors(1 << 20) if c in fills)
    assert on_tile > 0.3 * inside.width * inside.height / len(tiles)


def test_bidding_pictures_the_auction_only_with_the_tiles_ringed() -> None:
    _, view, decision = next(
        (s, v, d)
        for s, v, d in _decisions(3, 1)
        if d.kind == "location"
        and {o.fields.get("tile") for o in d.options} - {None}
        <= {t["id"] for t in (*v["offer"], *v["turn_order"])}
    )
    picture = phone.decision_picture("keyflower", view, "location", _fields(decision))
    assert picture.parts == ("auction", phone.OWN)
    image = phone.render_decision("keyflower", view, picture.parts, picture.marks)
    assert image is not None and len(_marked_pixels(image)) > 300 * len(picture.marks)


def test_placing_a_tile_outlines_each_free_cell_offered_where_it_is() -> None:
    """The cells are found from the tiles next to them (`near`); each is where its id (axial
    q_r) says, named by its mark (`mark_name`), and is drawn inside the picture."""
    seen = 0
    for _, view, decision in _decisions(3, 2):
        if decision.kind != "place_at":
            continue
        fields = _fields(decision)
        picture = phone.decision_picture("keyflower", view, "place_at", fields)
        assert picture.parts == (kf.PLACING,)
        named = {
            ("cell", kf.mark_name(f["mark"]), *map(int, f["at"].split("_")))
            for f in fields
            if "at" in f
        }
        placed = {("placed", f["placing"]) for f in fields if "placing" in f}
        assert len(placed) == 1 and set(picture.marks) == named | placed
        seen += 1
        if seen > 3:
            continue
        image = phone.render_decision("keyflower", view, picture.parts, picture.marks)
        assert image is not None
        ring = _marked_pixels(image)
        assert len(ring) > 300 * len(named)
        xs, ys = [x for x, _ in ring], [y for _, y in ring]
        assert min(xs) > 0 and min(ys) > 0
        assert max(xs) < image.width - 1 and max(ys) < image.height - 1
    assert seen > 5


def test_turning_a_tile_marks_its_cell() -> None:
    """Every turn offered names the cell it is turned in (the engine's `cell`): that cell is
    marked, the one the seat chose."""
    found = 0
    for state, view, decision in _decisions(4, 1):
        if decision.kind != "place_rot":
            continue
        picture = phone.decision_picture("keyflower", view, "place_rot", _fields(decision))
        assert picture.parts == (kf.PLACING,)
        at = state.players[decision.seat].placing_at
        assert [m for m in picture.marks if m[0] == "spot"] == [("spot", *map(int, at.split("_")))]
        found += 1
    assert found > 10


def test_turning_a_tile_shows_it_in_each_turn_offered() -> None:
    """Under the village, the tile being placed in each turn offered, side by side."""
    checked = 0
    for state, view, decision in _decisions(3, 1):
        if decision.kind != "place_rot" or checked >= 4:
            continue
        fields = _fields(decision)
        picture = phone.decision_picture("keyflower", view, "place_rot", fields)
        rots = tuple((f["rot"], kf.mark_name(f["mark"])) for f in fields if "rot" in f)
        tile = state.players[decision.seat].placing
        assert ("turns", tile, rots) in picture.marks
        plain = phone.render_decision("keyflower", view, picture.parts)
        shown = phone.render_decision("keyflower", view, picture.parts, picture.marks)
        assert plain is not None and shown is not None
        assert shown.width == plain.width and shown.height > plain.height + 100
        checked += 1
    assert checked == 4


def test_the_placing_picture_has_room_for_every_free_cell() -> None:
    _, view, _ = next((s, v, d) for s, v, d in _decisions(2, 3) if d.kind == "place_at")
    player = view["players"][view["you"]["seat"]]
    geometry = table.village_geometry(player, room=True)
    assert geometry is not None
    for q, r in table.free_cells(player):
        x, y = geometry.centre(q, r)
        s = geometry.size
        assert s <= x <= geometry.width - s and s <= y <= geometry.height - s


def test_mix_and_pay_are_pictured() -> None:
    kinds = phone.decision_kinds("keyflower").pictured
    assert kinds["mix"] == kinds["count"]
    assert kinds["pay"] == (phone.OWN,)


def test_a_tile_offered_in_the_own_village_is_ringed_in_the_own_area() -> None:
    fills = {table.SEASON[k] for k in ("home", "spring", "summer", "autumn", "winter")}
    checked = 0
    for _, view, decision in _decisions(4, 2):
        if decision.kind != "location" or checked >= 3:
            continue
        player = view["players"][decision.seat]
        offered = {o.fields.get("tile") for o in decision.options}
        if len(offered & {t["id"] for t in player["village"]}) != 1:
            continue
        picture = phone.decision_picture("keyflower", view, "location", _fields(decision))
        image = phone.render_decision("keyflower", view, (phone.OWN,), picture.marks)
        _assert_a_ring_on_a_tile(image, player, fills)
        checked += 1
    assert checked == 3


def test_the_marks_text_reads_on_a_phone() -> None:
    """The free cells' names and the turns' names, as every text of the pictures, are no
    smaller than reads at PHONE_WIDTH (late in a 5-player game: a large village)."""
    met: set[str] = set()
    for _, view, decision in _decisions(5, 1):
        kind = decision.kind
        if kind not in ("place_at", "place_rot", "location") or kind in met:
            continue
        picture = phone.decision_picture("keyflower", view, kind, _fields(decision))
        if kind == "place_rot" and len(picture.marks) < 2:
            continue
        image, texts = texts_on_phone(
            lambda v=view, p=picture: phone.render_decision("keyflower", v, p.parts, p.marks)
        )
        assert image.width >= PHONE_WIDTH
        assert min(t.height for t in texts) >= MIN_TEXT_PX, (kind, picture)
        met.add(kind)
    assert met == {"place_at", "place_rot", "location"}


def _asked(state: KeyflowerState, seat: int) -> tuple[dict, Decision, phone.DecisionPicture]:
    """The seat's decision now, its view and its picture (parts and marks)."""
    decision = next(d for d in ENGINE.decisions(state) if d.seat == seat)
    view = ENGINE.view(state, seat)
    picture = phone.decision_picture("keyflower", view, decision.kind, _fields(decision))
    return view, decision, picture


def _miner_in_seat_1_s_village() -> KeyflowerState:
    """Seat 0's village (`seat1`) holds the Miner (S07); the auction has the Gold mine (S03)
    and the Woodcutter (S11); seat 0 passes, seat 1 is to play."""
    s = new_table(offer=("S03", "S11"))
    give_tile(s, 0, "S07", 1, 0)
    return play(s, 0, "pass")


def test_the_steps_after_choosing_a_tile_in_another_village_picture_it_ringed() -> None:
    """Using a tile in another seat's village, the colour and the count are asked: each
    pictures that tile cut from that village (not the auction) above the own area, ringed."""
    s = play(_miner_in_seat_1_s_village(), 1, "use", "S07")
    for kind, then in (("colour", "red"), ("count", "")):
        view, decision, picture = _asked(s, 1)
        assert decision.kind == kind
        assert picture == phone.DecisionPicture((kf.USES, phone.OWN), (("tile", "S07"),))
        _assert_the_cut_shows(view, picture.marks, {"S07"})
        plain = phone.render_decision("keyflower", view, picture.parts)
        assert plain is not None and not _marked_pixels(plain)
        if then:
            s = play(s, 1, then)
    # The ids and labels are as before: the engine only adds the tile to the fields.
    assert [o.id for o in decision.options] == ["1", "2", "3", "4", "back"]
    assert {o.fields.get("location") for o in decision.options} == {"S07", None}


def test_a_tile_chosen_in_the_auction_is_ringed_there_and_in_the_own_village_there() -> None:
    s = _miner_in_seat_1_s_village()
    _, _, bidding = _asked(play(s, 1, "bid", "S03"), 1)
    assert bidding == phone.DecisionPicture(("auction", phone.OWN), (("tile", "S03"),))
    view, _, _ = _asked(play(s, 1, "bid", "S03"), 1)
    image = phone.render_decision("keyflower", view, ("auction",), bidding.marks)
    assert image is not None and len(_marked_pixels(image)) > 300
    # Seat 0 using its own Miner: its own area alone, the Miner ringed in its village.
    s = new_table(offer=("S03", "S11"))
    give_tile(s, 0, "S07", 1, 0)
    view, _, own = _asked(play(s, 0, "use", "S07", "blue"), 0)
    assert own == phone.DecisionPicture((phone.OWN,), (("tile", "S07"),))
    fills = {table.SEASON[k] for k in ("home", "spring", "summer", "autumn", "winter")}
    image = phone.render_decision("keyflower", view, own.parts, own.marks)
    _assert_a_ring_on_a_tile(image, view["players"][0], fills)


def test_gathering_outbid_workers_for_a_tile_in_another_village_pictures_both() -> None:
    """The outbid workers wait beside a tile up for auction, the tile they go to lies in
    another village: the auction, that tile cut from its village and the own area, ringed."""
    s = _miner_in_seat_1_s_village()
    s = play(s, 1, "bid", "S03", "blue", "2")
    s = play(s, 2, "bid", "S03", "blue", "3")  # seat 1's two blue are outbid
    s = play(
        s,
        0,
        "pass",
    )
    s = play(s, 1, "use", "S07", "blue")
    _, decision, picture = _asked(s, 1)
    assert decision.kind == "gather"
    assert [o.id for o in decision.options] == ["S03", "next", "back"]
    assert picture == phone.DecisionPicture(("auction", kf.USES, phone.OWN), (("tile", "S07"),))


def test_mixing_colours_at_a_tile_in_another_village_pictures_it_ringed() -> None:
    """Boat 4b: how many of each colour, asked one colour at a time (`mix`)."""
    s = new_table(offer=("S03", "S11"))
    give_tile(s, 0, "S07", 1, 0)
    give_tile(s, 1, "U12", 5, 5)
    s.tiles["U12"].side = "b"
    s = play(s, 0, "use", "S07", "red", "1")
    s = play(s, 1, "use", "S07", "mixed")
    view, decision, picture = _asked(s, 1)
    assert decision.kind == "mix"
    assert [o.id for o in decision.options][:2] == ["0", "1"]
    assert picture == phone.DecisionPicture((kf.USES, phone.OWN), (("tile", "S07"),))
    image, texts = texts_on_phone(
        lambda: phone.render_decision("keyflower", view, picture.parts, picture.marks)
    )
    assert image.width >= PHONE_WIDTH and min(t.height for t in texts) >= MIN_TEXT_PX
    assert len(_marked_pixels(image)) > 300


def test_what_a_use_asks_pictures_the_tile_used_ringed_where_it_is() -> None:
    """The Workshop (S12) gives iron, stone or wood: which is asked after the workers are
    placed (`resource`). Used in another village: it, cut from there, and the own area; up for
    auction: the auction and the own area; the Workshop ringed."""
    s = new_table(offer=("S03", "S11"))
    give_tile(s, 0, "S12", 1, 0)
    s = play(s, 0, "pass")
    view, decision, picture = _asked(play(s, 1, "use", "S12", "red", "1"), 1)
    assert decision.kind == "resource"
    assert [o.id for o in decision.options] == ["iron", "stone", "wood"]
    assert picture == phone.DecisionPicture((kf.USES, phone.OWN), (("tile", "S12"),))
    _assert_the_cut_shows(view, picture.marks, {"S12"})
    s = new_table(offer=("S12", "S11"))
    view, decision, picture = _asked(play(s, 0, "use", "S12", "red", "1"), 0)
    assert decision.kind == "resource"
    assert picture == phone.DecisionPicture(("auction", phone.OWN), (("tile", "S12"),))
    image = phone.render_decision("keyflower", view, ("auction",), picture.marks)
    assert image is not None and len(_marked_pixels(image)) > 300


def _assert_a_ring_on_a_tile(image, player, fills) -> None:
    """A ring in the mark colour within the village's height, around a tile (its fill covers
    most of what the ring encloses)."""
    geometry = table.village_geometry(player)
    assert image is not None and geometry is not None
    ring = [(x, y) for x, y in _marked_pixels(image) if y < geometry.height]
    assert len(ring) > 300
    xs, ys = [x for x, _ in ring], [y for _, y in ring]
    inside = image.crop((min(xs), min(ys), max(xs), max(ys)))
    on_tile = sum(n for n, c in inside.getcolors(1 << 20) if c in fills)
    assert on_tile > 0.3 * inside.width * inside.height


def test_the_turns_first_decision_pictures_the_other_villages_a_use_may_go_to_ringed() -> None:
    """The turn's first decision (bid, use or pass) folds the location into its lines ("Use
    S07 Miner (seat 1's village)"): its picture shows the auction, of the other villages the
    tiles the seat may use (cut from them), ringed, and the own area (H5's K3)."""
    view, decision, picture = _asked(_miner_in_seat_1_s_village(), 1)
    assert decision.kind == "action"
    # The ids and labels are as before: the engine only adds the tiles to the fields.
    assert [o.id for o in decision.options] == ["bid", "use", "pass"]
    assert [o.label.key for o in decision.options] == [
        "keyflower.label.bid",
        "keyflower.label.use",
        "keyflower.label.pass",
    ]
    uses = set(decision.options[1].fields["uses"])
    bids = set(decision.options[0].fields["bids"])
    others = [p for p in view["players"] if p["seat"] != 1]
    assert picture.parts == ("auction", kf.USES, phone.OWN)
    theirs = set().union(*(_tile_ids(p) for p in others))
    # Every tile a line names is ringed where it lies (issue 29 item 1, a fresh player's
    # findings: the own village's usable tiles, unringed, looked unusable).
    assert "S07" in uses and {m[1] for m in picture.marks} == uses | bids
    assert ("tile", "S03") in picture.marks  # the auction's tiles: bid and used alike
    _assert_the_cut_shows(view, picture.marks, uses & theirs)
    mine = uses & _tile_ids(view["players"][1])
    assert mine
    for part, ringed in (("auction", bids), (phone.OWN, mine)):
        drawn = phone.render_decision("keyflower", view, (part,), picture.marks)
        assert drawn is not None and len(_marked_pixels(drawn)) > 300 * len(ringed)


def _tile_ids(player: dict[str, Any]) -> set[str]:
    return {t["id"] for t in player["village"]}


def test_choosing_a_tile_to_place_pictures_those_tiles_as_large_as_the_auctions() -> None:
    """Which tile to place next: the tiles to place are drawn in a row above the own area,
    each as large as a tile up for auction (the village's strip shows them as thumbnails
    only, their ids at the smallest size on the picture: H5's K4, K10)."""
    _, view, decision = next((s, v, d) for s, v, d in _decisions(3, 7) if d.kind == "place_tile")
    picture = phone.decision_picture("keyflower", view, "place_tile", _fields(decision))
    assert picture.parts == (kf.WAITING, kf.SETTLED)
    image = phone.render_decision("keyflower", view, picture.parts, picture.marks)
    assert image is not None
    waiting = view["players"][decision.seat]["to_place"]
    band = image.crop((0, 0, image.width, round(2 * table.PHONE_HEX)))
    fills = {table.SEASON[t["kind"]] for t in waiting}
    # The widest run of a tile's fill across one line of the band: a hex nearly as wide as
    # the auction's (PHONE_HEX from centre to corner), not a thumbnail.
    data = band.tobytes()
    widest = 0
    for y in range(band.height):
        run = 0
        for x in range(band.width):
            i = 3 * (y * band.width + x)
            run = run + 1 if tuple(data[i : i + 3]) in fills else 0
            widest = max(widest, run)
    assert widest > 0.8 * table.PHONE_HEX * 3**0.5
    assert len({o.fields["tile"] for o in decision.options if "tile" in o.fields}) == len(waiting)


def _id_heights(view: dict, picture: phone.DecisionPicture, tile: str) -> list[float]:
    """The heights of the tile's id wherever the decision's picture writes it, in the
    picture's own pixels (a face's size, whatever the picture's width)."""
    image, texts = texts_on_phone(
        lambda: phone.render_decision("keyflower", view, picture.parts, picture.marks)
    )
    scale = min(1.0, PHONE_WIDTH / image.width)
    return sorted(t.height / scale for t in texts if t.text == tile)


def _auction_s_id_height() -> float:
    """The height of a tile's id on a face as large as a tile up for auction."""
    size = max(12, int(table.PHONE_HEX * 0.42))  # `_face`'s id
    _, top, _, bottom = font(size).getbbox("0")
    return float(bottom - top)


def test_choosing_a_cell_pictures_the_tile_placed_as_large_as_the_auction_s() -> None:
    """Where to place a tile: the tile is drawn above the village, as large as a tile up for
    auction (the village's strip shows it as a thumbnail only: H5's K4), named by the
    options (`placing`)."""
    checked = 0
    for state, view, decision in _decisions(3, 2):
        if decision.kind != "place_at" or checked >= 3:
            continue
        tile = state.players[decision.seat].placing or state.players[decision.seat].to_place[0]
        assert {o.fields.get("placing") for o in decision.options if o.id != "back"} == {tile}
        picture = phone.decision_picture("keyflower", view, "place_at", _fields(decision))
        heights = _id_heights(view, picture, tile)
        assert len(heights) == 2  # the strip's thumbnail, and the tile drawn large
        assert heights[-1] >= _auction_s_id_height() > 1.3 * heights[0]
        checked += 1
    assert checked == 3


def test_turning_a_tile_draws_each_turn_as_large_as_the_auction_s() -> None:
    """Each turn offered is drawn as large as a tile up for auction, as many to a row as fit
    (any turn fits beside a boat 2a: six turns in two rows)."""
    checked, rows = 0, set()
    for _, view, decision in _decisions(4, 1):
        if decision.kind != "place_rot":
            continue
        fields = _fields(decision)
        picture = phone.decision_picture("keyflower", view, "place_rot", fields)
        turns = [f for f in fields if "rot" in f]
        heights = _id_heights(view, picture, turns[0]["placing"])
        # the strip's thumbnail (while others wait), then one a turn, each as the auction's
        big = [h for h in heights if h >= _auction_s_id_height()]
        assert len(big) == len(turns), (heights, len(turns))
        rows.add(len(turns))
        checked += 1
    assert checked > 10 and max(rows) > 2
