"""Keyflower's pictures paste the parts a move left as they were (issue 29 item 5): the top bar,
each tile up for auction with its bids, each boat, each village and a seat's screen are parts
kept by what they show, shared by the table picture and the phone pictures (a decision's, a
seat's own area, each focus, the private picture). What they paste must be what they would
draw: each picture of a game's moves, drawn after the ones before (the parts a worker keeps
for that table) and after other tables' pictures, must be the very picture drawn with nothing
kept; and each part must draw inside its own place, where no other part draws."""

from __future__ import annotations

import copy
import math
from collections.abc import Callable
from typing import Any

import pytest
from PIL import Image, ImageChops, ImageDraw

from meeple_hall.games.keyflower import engine
from meeple_hall.renderers import keyflower, parts, phone
from meeple_hall.renderers.phone import MIN_FONT
from tests.renderers import moments
from tests.renderers.moments import Moment


def moments_of_a_game(num_players: int, seed: int, every: int) -> list[Moment]:
    return moments.moments_of_a_game(engine, num_players, seed, every)


def pictures(moment: Moment) -> list[Callable[[], Image.Image | None]]:
    """The pictures a worker draws for a table at a move: the table, the mover's decision
    picture (the auction and its own area, or either), its own area and private picture, and
    every focus (the auction and each village)."""
    spectator, seat_view, kind = moment
    decision = phone.decision_parts("keyflower", seat_view, kind)
    return [
        lambda: keyflower.render(spectator),
        lambda: phone.render_decision("keyflower", seat_view, decision) if decision else None,
        lambda: phone.render_own("keyflower", seat_view),
        lambda: keyflower.render_private(seat_view),
        *(
            lambda f=focus: phone.render_focus("keyflower", spectator, f)
            for focus in phone.focuses("keyflower", spectator)
        ),
    ]


def pixels(image: Image.Image | None) -> tuple[tuple[int, int], bytes] | None:
    return None if image is None else (image.size, image.tobytes())


def drawn(moment: Moment) -> list[Any]:
    return [pixels(draw()) for draw in pictures(moment)]


def drawn_fresh(moment: Moment) -> list[Any]:
    keyflower.clear_caches()
    return drawn(moment)


# 2 players in the default run; the other counts in the slow part
@pytest.mark.parametrize(
    "num_players", [2, *(pytest.param(n, marks=pytest.mark.slow) for n in (3, 4, 5, 6))]
)
def test_a_picture_after_others_is_the_picture_drawn_fresh(num_players: int) -> None:
    """Every 4th move's pictures, each drawn after the ones before, then the same pictures
    drawn after another game's: the same pixels as drawn with nothing kept."""
    game = moments_of_a_game(num_players, seed=num_players, every=4)
    other = moments_of_a_game(num_players % 5 + 2, seed=9, every=25)
    fresh = [drawn_fresh(moment) for moment in game]
    keyflower.clear_caches()
    assert [drawn(moment) for moment in game] == fresh
    for moment, alone in zip(game[::7], fresh[::7], strict=True):
        for between in other:
            drawn(between)
        assert drawn(moment) == alone


def area(box: tuple[float, float, float, float]) -> tuple[int, int, int, int]:
    """The pixels `parts.draw_part` keeps for a part's box."""
    x0, y0, x1, y1 = box
    margin = parts.PART_MARGIN
    return (
        math.floor(x0) - margin,
        math.floor(y0) - margin,
        math.ceil(x1) + margin + 1,
        math.ceil(y1) + margin + 1,
    )


@pytest.mark.parametrize(
    "num_players", [2, *(pytest.param(n, marks=pytest.mark.slow) for n in (3, 4, 5, 6))]
)
def test_each_part_draws_inside_its_place(
    num_players: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Each part drawn changes no pixel outside what is kept of it (a pixel drawn outside
    would be missing where the part is pasted), and what is kept of it held only the
    background before it was drawn, but where the tile on its left may reach (a part's key
    holds that tile): else a change there would be pasted stale with it."""
    original = parts.draw_part
    checked: list[str] = []

    def checking(
        image: Image.Image,
        kept_part: parts.KeptPart,
        key: tuple[Any, ...],
        box: tuple[float, float, float, float],
        draw_it: Callable[[], Any],
    ) -> None:
        def draw_and_check() -> None:
            before = image.copy()
            draw_it()
            x0, y0, x1, y1 = area(box)
            changed = ImageChops.difference(before, image).getbbox()
            assert changed is None or (
                x0 <= changed[0] and y0 <= changed[1] and changed[2] <= x1 and changed[3] <= y1
            ), (key[0], box, changed)
            if key[0] == "lot" and key[2] is not None:
                x0 = math.ceil(box[0]) + parts.PART_MARGIN + 1  # past the left tile's reach
            under = before.crop(
                (max(0, x0), max(0, y0), min(x1, image.width), min(y1, image.height))
            )
            assert under.getcolors() == [(under.width * under.height, keyflower.BACKGROUND)], (
                key[0],
                box,
            )
            checked.append(key[0])

        original(image, kept_part, key, box, draw_and_check)

    monkeypatch.setattr(parts, "draw_part", checking)
    for moment in moments_of_a_game(num_players, seed=20 + num_players, every=4):
        keyflower.clear_caches()
        drawn(moment)
    assert {"top", "lot", "boat", "village", "screen"} <= set(checked)


def bid_without_a_deeper_tray(view: dict[str, Any]) -> bool:
    """Whether a bid on the first tile up for auction leaves the market as high."""
    offer = view["offer"]
    return len(offer) > 2 and not offer[0]["bids"] and any(t["bids"] for t in offer)


def test_parts_are_kept_and_pasted() -> None:
    """A move's picture reuses the parts it did not change (else the cache is for nothing),
    and a change in a part draws that part anew: a bid, its tile's; a worker on a tile up for
    auction, that tile's and the one's on its right; a village's resources, that village's."""
    moments = moments_of_a_game(3, seed=4, every=1)
    spectator = next(m[0] for m in moments if bid_without_a_deeper_tray(m[0]))
    keyflower.clear_caches()
    keyflower.render(spectator)
    misses = keyflower.kept_part.cache_info().misses
    keyflower.render(spectator)
    assert keyflower.kept_part.cache_info().misses == misses  # all pasted
    assert keyflower.kept_part.cache_info().currsize == misses

    def misses_drawing(change: Callable[[dict[str, Any]], None]) -> int:
        changed = copy.deepcopy(spectator)
        change(changed)
        before = keyflower.kept_part.cache_info().misses
        picture = keyflower.render(changed)
        after = keyflower.kept_part.cache_info().misses
        assert pixels(picture) == drawn_fresh((changed, changed, ""))[0]
        keyflower.render(spectator)  # the parts kept before, for the next change
        return after - before

    bid = {"seat": 1, "colour": "green", "count": 1, "lying": False}
    worker = {"seat": 1, "colour": "red", "count": 2, "lying": False}
    assert misses_drawing(lambda v: v["offer"][0]["bids"].append(bid)) == 1
    assert misses_drawing(lambda v: v["offer"][0]["workers"].append(worker)) == 2
    assert misses_drawing(lambda v: v["offer"][-1]["workers"].append(worker)) == 1
    gold = {"gold": 2}
    assert misses_drawing(lambda v: v["players"][1]["village"][0].update(resources=gold)) == 1


def test_the_phone_pictures_paste_the_parts_kept() -> None:
    """A decision picture drawn again, and a seat's own area after its decision picture,
    draw nothing (the auction's tiles and boats, the village and the screen are kept)."""
    moment = next(m for m in moments_of_a_game(3, seed=5, every=5) if m[2] == "action")
    keyflower.clear_caches()
    _, seat_view, kind = moment
    decision = phone.decision_parts("keyflower", seat_view, kind)
    assert decision == ("auction", phone.OWN)
    phone.render_decision("keyflower", seat_view, decision)
    misses = keyflower.kept_part.cache_info().misses
    phone.render_decision("keyflower", seat_view, decision)
    phone.render_own("keyflower", seat_view)
    assert keyflower.kept_part.cache_info().misses == misses


def test_what_only_the_key_holds_changes_the_parts() -> None:
    """Whether a seat must act, the final scores, the type size in force (the phone's
    pictures draw the same parts with larger type) and the water of the tile on a tile's left
    are not in a part's own data: a part kept under one must not be pasted for another."""
    spectator = next(m[0] for m in moments_of_a_game(4, seed=6, every=7)[8:] if m[0]["offer"])
    keyflower.clear_caches()
    keyflower.render(spectator)
    for changed in (
        dict(spectator, active_seats=[(s + 1) % 4 for s in spectator["active_seats"]]),
        dict(spectator, final=[{"seat": s, "breakdown": {"x": 3 * s}} for s in range(4)]),
    ):
        assert pixels(keyflower.render(changed)) == drawn_fresh((changed, changed, ""))[0]
        keyflower.render(spectator)
    watery = copy.deepcopy(spectator)
    watery["offer"][0]["edges"] = "W" + watery["offer"][0]["edges"][1:]
    assert spectator["offer"][0]["edges"] != watery["offer"][0]["edges"]
    assert pixels(keyflower.render(watery)) == drawn_fresh((watery, watery, ""))[0]
    keyflower.render(spectator)
    token = MIN_FONT.set(30)
    try:
        larger = keyflower.render(spectator)
        keyflower.clear_caches()
        assert pixels(larger) == pixels(keyflower.render(spectator))
    finally:
        MIN_FONT.reset(token)


def test_every_field_a_part_shows_changes_it() -> None:
    """Each field of the top bar (and the final scores), of a seat's screen and skill tiles,
    and a village's place, each changed alone: drawn again, not pasted."""
    spectator, seat_view, _ = moments_of_a_game(3, seed=7, every=9)[6]
    keyflower.clear_caches()
    keyflower.render(spectator)
    keyflower.render_private(seat_view)
    changes = [
        dict(spectator, season="winter" if spectator["season"] != "winter" else "spring"),
        dict(spectator, round=spectator["round"] % 4 + 1),
        dict(spectator, bag=spectator["bag"] + 1),
        dict(spectator, green=spectator["green"] + 1),
        dict(spectator, skill_pile=spectator["skill_pile"] + 1),
        dict(spectator, supply=dict(spectator["supply"], wood=spectator["supply"]["wood"] + 1)),
    ]
    for changed in changes:
        keyflower.render(spectator)
        assert pixels(keyflower.render(changed)) == drawn_fresh((changed, changed, ""))[0]
    you = seat_view["you"]
    for field, kind in [("screen", "red"), ("skills", "saw")]:
        more = dict(you[field], **{kind: you[field].get(kind, 0) + 1})
        changed = dict(seat_view, you=dict(you, **{field: more}))
        keyflower.render_private(seat_view)
        assert pixels(keyflower.render_private(changed)) == pixels(
            fresh(lambda v=changed: keyflower.render_private(v))
        )
    player = spectator["players"][1]
    _, (width, height) = keyflower._village_picture_size(player)
    boxes = [(12, 12, width - 12, height - 12), (12.5, 12.3, width - 2, height - 12)]

    def village(box: tuple[float, float, float, float]) -> Image.Image:
        picture = Image.new("RGB", (width + 20, height), keyflower.BACKGROUND)
        keyflower._kept_village(ImageDraw.Draw(picture), player, box, 50.0, False, None)
        return picture

    keyflower.clear_caches()
    in_turn = [pixels(village(box)) for box in boxes]
    assert in_turn[1] == pixels(fresh(lambda: village(boxes[1])))
    assert in_turn[0] != in_turn[1]


def fresh(draw: Callable[[], Image.Image | None]) -> Image.Image | None:
    """The picture `draw` makes with nothing kept."""
    keyflower.clear_caches()
    return draw()


def held() -> int:
    """The bytes of the parts kept, as Pillow holds RGB (4 bytes a pixel)."""
    kept = keyflower.kept_part._kept.values()
    return sum(4 * image.width * image.height for images in kept for image in images)


def test_the_parts_kept_are_bounded(monkeypatch: pytest.MonkeyPatch) -> None:
    """The parts kept hold at most their budget of bytes, and the last part drawn: with the
    budget a worker has, through a game at 5 players; with a budget of a few parts, each
    picture drawn after the parts kept were forgotten is still itself."""
    keyflower.clear_caches()
    for moment in moments_of_a_game(5, seed=1, every=30):
        drawn(moment)
        assert held() <= keyflower.PARTS_KEPT_BYTES + 1.5 * 2**20  # a village at most
    monkeypatch.setattr(keyflower.kept_part, "budget", 2**20)
    keyflower.clear_caches()
    game = moments_of_a_game(3, seed=2, every=20)
    fresh = [drawn_fresh(moment) for moment in game]
    keyflower.kept_part.cache_clear()
    for moment, alone in zip(game, fresh, strict=True):
        assert drawn(moment) == alone
        info = keyflower.kept_part.cache_info()
        assert info.held <= 2**20 and held() <= 2**20 + 1.5 * 2**20
    assert info.misses > 2 * info.currsize  # forgotten and drawn again
