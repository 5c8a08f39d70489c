"""Keyflower's pictures at several points of random games.

Its words (option styles, private and rules text): tests/bot/test_presenter_keyflower.py.
"""

from __future__ import annotations

import random
from itertools import combinations

from PIL import Image, ImageChops, ImageDraw, ImageStat

from meeple_hall.games.core import Action
from meeple_hall.games.keyflower import engine
from meeple_hall.games.testing import random_choices
from meeple_hall.renderers import keyflower as picture
from tests.renderers.colour_vision import DEUTERANOPIA, PROTANOPIA, seen_colour
from tests.renderers.legibility import watching


def _snapshots(num_players: int, seed: int, every: int = 70):
    state = engine.new(num_players, seed)
    rng = random.Random(seed)
    step = 0
    while True:
        pending = engine.decisions(state)
        if step % every == 0 or not pending:
            yield state, pending
        if not pending:
            return
        d = rng.choice(pending)
        state = engine.apply(state, Action(d.seat, random_choices(d, rng)))
        step += 1


def test_table_pictures_are_sane_through_whole_games() -> None:
    for num_players, seed in ((2, 1), (6, 3)):
        for state, _ in _snapshots(num_players, seed):
            view = engine.view(state, None)
            img = picture.render(view)
            assert img.width == picture.WIDTH and 200 <= img.height <= picture.MAX_H
            extrema = ImageStat.Stat(img.convert("L")).extrema[0]
            assert extrema[1] - extrema[0] > 100  # not blank


def _inline_scale(width: int, height: int) -> float:
    """How much Discord shrinks an attachment to fit its inline box of about 550 x 350."""
    return min(550 / width, 350 / height)


def test_the_table_keeps_near_discords_inline_shape_at_every_player_count() -> None:
    for num_players in range(2, 7):
        scales = []
        for state, _ in _snapshots(num_players, 11 + num_players, every=150):
            view = engine.view(state, None)
            img = picture.render(view)
            assert img.width == picture.WIDTH
            scales.append(_inline_scale(img.width, img.height))
            if num_players <= 4 and not view["boats"] and not view["offer"]:
                # Nothing up for auction: the villages alone fit the inline shape.
                assert img.height <= picture.TARGET_H
        # Inline, the picture keeps at least 3/4 of the width Discord gives it.
        assert min(scales) * picture.WIDTH >= 0.75 * 550, (num_players, min(scales))


def test_villages_share_one_hex_size_as_large_as_the_room_allows() -> None:
    small = {"q": 0, "r": 0}
    one = [(picture.SQRT3, 2.0)] * 4
    rows, size = picture._layout(one, 600)
    assert len(rows) == 1 and size == picture.VILLAGE_HEX[1]  # four home tiles: one row
    wide = [(6 * picture.SQRT3, 3.0)] * 4
    rows, size = picture._layout(wide, 600)
    assert [len(r) for r in rows] == [2, 2]
    assert picture._rows_height(wide, rows, size) <= 600
    rows, size = picture._layout(wide, 100)  # no room: the picture grows, hexes stay legible
    assert size == picture.VILLAGE_HEX[0]
    assert 100 < picture._rows_height(wide, rows, size) <= picture.MAX_H
    tall = [(picture.SQRT3, 20.0)] * 6  # even then, never past MAX_H
    rows, size = picture._layout(tall, 300)
    assert size < picture.VILLAGE_HEX[0]
    assert picture._rows_height(tall, rows, size) <= 300 + picture.MAX_H - picture.TARGET_H
    assert picture._extent({"village": [small]}) == (picture.SQRT3, 2.0)


def test_private_picture_shows_the_screen_and_rings_the_chosen_winter_tiles() -> None:
    state = engine.new(4, seed=7)
    assert picture.render_private(engine.view(state, None)) is None
    rng = random.Random(7)
    while state.phase != "winter":
        d = rng.choice(engine.decisions(state))
        state = engine.apply(state, Action(d.seat, random_choices(d, rng)))
    before = picture.render_private(engine.view(state, 1))
    assert before is not None
    assert 700 <= before.width <= 1600 and before.height <= 400
    extrema = ImageStat.Stat(before.convert("L")).extrema[0]
    assert extrema[1] - extrema[0] > 100
    state = engine.apply(state, Action(1, (state.players[1].winter_hand[0],)))
    after = picture.render_private(engine.view(state, 1))
    assert after is not None and after.size == before.size
    assert after.tobytes() != before.tobytes()
    other = picture.render_private(engine.view(state, 2))
    assert other is not None and other.tobytes() != after.tobytes()


def test_the_top_bar_wears_the_season_and_the_active_village_is_tinted() -> None:
    view = engine.view(engine.new(4, seed=3), None)
    top = picture.TOP + picture.GAP + picture._market_height(view)
    inside_first_panel = (picture.MARGIN + 12, top + 110)
    for active, fill in (
        (0, picture._mix(picture.PANEL, picture.SEAT[0], 0.14)),
        (1, picture.PANEL),
    ):
        view["active_seats"] = [active]
        img = picture.render(view)
        assert img.getpixel((picture.WIDTH // 2, 4)) == picture.SEASON["spring"]
        assert img.getpixel(inside_first_panel) == fill


def _pixels_told_apart(
    a: Image.Image, b: Image.Image, matrix: tuple[tuple[float, ...], ...]
) -> int:
    """How many pixels of two pictures still differ clearly (by more than 40 in a channel)
    when a colour-blind eye sees both."""
    box = ImageChops.difference(a, b).getbbox()
    if box is None:
        return 0
    raw_a, raw_b = a.crop(box).tobytes(), b.crop(box).tobytes()
    seen: dict[tuple[int, ...], tuple[int, ...]] = {}
    told = 0
    for i in range(0, len(raw_a), 3):
        pa, pb = tuple(raw_a[i : i + 3]), tuple(raw_b[i : i + 3])
        if pa == pb:
            continue
        sa = seen.setdefault(pa, seen_colour(pa, matrix))
        sb = seen.setdefault(pb, seen_colour(pb, matrix))
        told += max(abs(x - y) for x, y in zip(sa, sb, strict=True)) > 40
    return told


def _table_with_one_bid(seat: int, colour: str) -> Image.Image:
    view = engine.view(engine.new(4, seed=3), None)
    view["offer"][0]["bids"] = [{"seat": seat, "colour": colour, "count": 2, "lying": False}]
    return picture.render(view)


def test_worker_colours_differ_in_shape_for_colour_blind_players() -> None:
    # Red and green look alike to deuteranopes: each worker colour has its own shape.
    tables = {c: _table_with_one_bid(0, c) for c in picture.WORKER}
    for a, b in combinations(tables, 2):
        for matrix in (DEUTERANOPIA, PROTANOPIA):
            assert _pixels_told_apart(tables[a], tables[b], matrix) > 300, (a, b)


def test_every_bid_names_its_bidder_s_seat_number_for_colour_blind_players() -> None:
    # Seats 2 (teal) and 4 (pink) look alike to deuteranopes; the badge's number does not.
    for a, b in combinations(range(4), 2):
        first, second = _table_with_one_bid(a, "blue"), _table_with_one_bid(b, "blue")
        for matrix in (DEUTERANOPIA, PROTANOPIA):
            assert _pixels_told_apart(first, second, matrix) > 20, (a, b)


# -- the pictures' fixes (issue 14) ------------------------------------------------------------
def _drawn(draw_on, size=(260, 200)) -> Image.Image:
    img = Image.new("RGB", size, picture.BACKGROUND)
    draw_on(ImageDraw.Draw(img))
    return img


def _spec_tile(tile_id: str) -> dict:
    from meeple_hall.games.keyflower.components import tiles

    spec = tiles()[tile_id]
    side = spec.front
    return {"id": tile_id, "kind": spec.kind, "effect": side.get("effect", ""), "detail": side}


def test_every_winter_tile_draws_a_scoring_of_its_own_with_its_set_size() -> None:
    from meeple_hall.games.keyflower.components import tiles

    winter = [
        t for t, s in tiles().items() if s.kind == "winter" and s.front.get("effect") != "none"
    ]
    glyphs = {
        t: _drawn(lambda d, t=t: picture._glyph(d, _spec_tile(t), 130, 100, 120)).tobytes()
        for t in winter
    }
    for a, b in combinations(winter, 2):
        assert glyphs[a] != glyphs[b], (a, b)  # e.g. Apothecary and Craftsman's guild
    with watching() as watch:  # the Apothecary scores 3 per 5 workers: both numbers drawn
        img = _drawn(lambda d: picture._glyph(d, _spec_tile("W01"), 130, 100, 120))
    assert {"5", "3"} <= {t.text for t in watch.on(img)}


def test_the_hiring_fair_takes_any_skill_not_a_saw() -> None:
    img = _drawn(lambda d: picture._glyph(d, _spec_tile("U04"), 130, 100, 120))
    assert picture.SKILL["saw"] not in {c for _, c in img.getcolors(100_000)}


def test_kept_resources_look_unlike_a_tile_s_output_and_stay_inside_the_hex() -> None:
    wood = picture.RESOURCE["wood"]
    printed = _drawn(lambda d: picture._token(d, 130, 100, wood, 2, r=20))
    kept = _drawn(lambda d: picture._piece(d, 130, 100, wood, 2, r=20))
    mask = lambda img: img.convert("L").point(lambda v: v < 230)  # noqa: E731
    assert ImageChops.difference(mask(printed), mask(kept)).getbbox() is not None
    tile = {**_spec_tile("A01"), "resources": {"gold": 3, "iron": 2, "stone": 4, "wood": 5}}
    for size in (38.0, 50.0, 64.0):
        img = _drawn(lambda d, s=size: picture._tile(d, tile, 130, 100, s, edges=False))
        inside = Image.new("L", img.size, 0)
        ImageDraw.Draw(inside).polygon(picture._hex(130, 100, size + 1.5), fill=255)
        outside = ImageChops.difference(img, Image.new("RGB", img.size, picture.BACKGROUND))
        outside = ImageChops.multiply(outside.convert("L"), ImageChops.invert(inside))
        assert outside.point(lambda v: 255 if v > 30 else 0).getbbox() is None, size


def test_boats_show_their_winter_scoring_side() -> None:
    same = {"workers": {"blue": 2}, "skills": {}, "taken": False}
    a = _drawn(lambda d: picture._boat(d, {"id": "B1", **same}, 10, 10), (400, 80))
    b = _drawn(lambda d: picture._boat(d, {"id": "B2", **same}, 10, 10), (400, 80))
    # Beyond the id (drawn at the bow) the two boats differ: their scoring sides.
    assert a.crop((60, 0, 400, 80)).tobytes() != b.crop((60, 0, 400, 80)).tobytes()


def test_bids_stay_on_their_own_tray_at_five_players() -> None:
    state = engine.new(5, seed=3)
    pitch, _, _ = picture._market_geometry(engine.view(state, None))
    for width in (pitch, pitch * 0.8):
        for n in range(1, 7):
            bids = [
                {"seat": s % 5, "colour": c, "count": 3, "lying": False}
                for s, c in zip(range(n), ["red", "yellow", "blue", "green"] * 2, strict=False)
            ]
            tile = {"kind": "spring", "bids": bids}
            img = _drawn(lambda d, w=width, t=tile: picture._bids(d, t, 200, 10, w), (400, 400))
            box = ImageChops.difference(img, Image.new("RGB", img.size, picture.BACKGROUND))
            left, _, right, _ = box.getbbox()
            assert 200 - width / 2 <= left and right <= 200 + width / 2, (width, n, left, right)


def test_a_winter_set_of_three_shows_all_three_beside_its_points() -> None:
    """The third of a set (Craftsman's guild's yellow worker, Scribes' saw, Mercer's guild's
    wood) lay under the points' pentagon: each of the three is as visible as the first."""
    sets = {
        "W02": [picture.WORKER[c] for c in ("blue", "red", "yellow")],
        "W09": [picture.SKILL[k] for k in ("anvil", "pick", "saw")],
        "W07": [picture.RESOURCE[k] for k in ("iron", "stone", "wood")],
    }
    for tile_id, colours in sets.items():
        img = _drawn(lambda d, t=tile_id: picture._glyph(d, _spec_tile(t), 130, 100, 120))
        seen = dict((c, n) for n, c in img.getcolors(100_000))
        shown = [seen.get(c, 0) for c in colours]
        assert min(shown) >= 0.6 * max(shown), (tile_id, shown)


def test_a_tile_up_for_auction_shows_its_upgrade_cost() -> None:
    """Issue 14 asked for the upgrade cost "in the description and in the picture"; only
    the description had it. Stable (S10) upgrades for 1 iron and 1 wood: both are drawn on
    the tile until it is upgraded or keeps resources of its own."""
    tile = {**_spec_tile("S10"), "edges": "", "workers": [], "resources": {}}
    low = (130 - 40, 100 + 28, 130 + 40, 100 + 58)  # the hex's lower part, size 50

    def colours(t):
        img = _drawn(lambda d: picture._tile(d, t, 130, 100, 50, edges=False))
        return {c for _, c in img.crop(low).getcolors(100_000)}

    shown = colours(tile)
    assert {picture.RESOURCE["iron"], picture.RESOURCE["wood"], picture.RIM} <= shown
    assert picture.RESOURCE["iron"] not in colours({**tile, "upgraded": True})
    assert picture.RESOURCE["iron"] not in colours({**tile, "resources": {"stone": 1}})
