"""The Castles of Burgundy's pictures paste the cells a move left as they were (issue 29 item
5): the depots, the tracks and each seat's estate are parts kept by what they show, shared by
the table picture and the phone pictures (a decision's, a seat's own area, a focus, the private
picture). What they paste must be what they would draw: each picture of a game's moves, drawn
after the ones before (the cells a worker keeps for that table) and after other tables'
pictures, must be the very picture drawn with nothing kept."""

from __future__ import annotations

import copy
import threading
from collections.abc import Callable
from typing import Any

import pytest
from PIL import Image

from meeple_hall.games.burgundy import engine
from meeple_hall.renderers import burgundy, phone
from meeple_hall.renderers.phone import burgundy as burgundy_phone
from tests.renderers import moments
from tests.renderers.moments import Moment, pixels


def moments_of_a_game(num_players: int, seed: int, every: int) -> list[Moment]:
    return moments.moments_of_a_game(engine, num_players, seed, every, end_kind="die")


def pictures(moment: Moment, i: int) -> list[Callable[[], Image.Image | None]]:
    """The pictures a worker draws for a table at a move: the table, the mover's decision
    picture (its own area, the depots or both), its private picture, and one focus (each in
    turn over the moves)."""
    spectator, seat_view, kind = moment
    parts = phone.decision_parts("burgundy", seat_view, kind)
    focuses = burgundy_phone.focuses(spectator)
    return [
        lambda: burgundy.render(spectator),
        lambda: phone.render_decision("burgundy", seat_view, parts),
        lambda: burgundy.render_private(seat_view),
        lambda: phone.render_focus("burgundy", spectator, focuses[i % len(focuses)]),
    ]


def forget_kept() -> None:
    """Every part kept: the table's cells, the thread's canvases and the own area's sold
    goods."""
    burgundy.kept_part.cache_clear()
    burgundy.Canvas.forget()
    burgundy_phone.sold_panel.cache_clear()


def drawn_fresh(draw: Callable[[], Image.Image | None]) -> tuple[tuple[int, int], int]:
    forget_kept()
    return pixels(draw())


# 2 players in the default run; the other counts in the slow part
@pytest.mark.parametrize(
    "num_players", [2, *(pytest.param(n, marks=pytest.mark.slow) for n in (3, 4))]
)
def test_a_picture_after_others_is_the_picture_drawn_fresh(num_players: int) -> None:
    """Every 8th move of a game, its pictures drawn after the ones before (the table's first,
    then the phone's; then the phone's first, then the table's), then some of them after
    another game's pictures: the same pixels as drawn with nothing kept."""
    game = moments_of_a_game(num_players, seed=num_players, every=8)
    other = moments_of_a_game(num_players % 3 + 2, seed=9, every=120)
    fresh = [[drawn_fresh(draw) for draw in pictures(m, i)] for i, m in enumerate(game)]
    forget_kept()
    in_turn = [[pixels(draw()) for draw in pictures(m, i)] for i, m in enumerate(game)]
    assert in_turn == fresh
    forget_kept()
    phone_first = [[pixels(draw()) for draw in pictures(m, i)[::-1]] for i, m in enumerate(game)]
    assert phone_first == [drawn[::-1] for drawn in fresh]
    for i in range(0, len(game), 12):
        for j, between in enumerate(other):
            for draw in pictures(between, j):
                draw()
        assert [pixels(draw()) for draw in pictures(game[i], i)] == fresh[i]


def test_cells_are_kept_and_pasted() -> None:
    """A move's picture reuses the cells it did not change (else the cache is for nothing), a
    change in a cell draws that cell anew, and the mover's decision picture and own area
    paste the estate and depots the table picture drew."""
    spectator, seat_view, _ = moments_of_a_game(4, seed=4, every=50)[3]
    burgundy.kept_part.cache_clear()
    burgundy.render(spectator)
    drawn = burgundy.kept_part.cache_info().misses
    assert drawn == burgundy.kept_part.cache_info().currsize == 10  # 4 headers and estates
    burgundy.render(spectator)
    assert burgundy.kept_part.cache_info().misses == drawn  # all pasted
    hits = burgundy.kept_part.cache_info().hits
    phone.render_decision("burgundy", seat_view, ("depots", phone.OWN))
    burgundy.render_private(seat_view)
    for focus in burgundy_phone.focuses(spectator):
        phone.render_focus("burgundy", spectator, focus)
    assert burgundy.kept_part.cache_info().misses == drawn  # the phone's cells pasted too:
    assert burgundy.kept_part.cache_info().hits == hits + 3 + 2 + 10  # none drawn apart
    changed = copy.deepcopy(spectator)
    changed["players"][2]["silver"] += 1
    changed["players"][3]["used"][0] = not changed["players"][3]["used"][0]
    changed["supply"]["ship"] -= 1
    picture = burgundy.render(changed)
    assert burgundy.kept_part.cache_info().misses == drawn + 3  # an estate, a header, tracks
    assert pixels(picture) == drawn_fresh(lambda: burgundy.render(changed))


# What the tracks show (renderers/burgundy.draw_tracks): said here again, so that the test
# fails when one is left out of the renderer's TRACKS_SHOW
TRACKS_SHOW = (
    "phase_index",
    "phase_goods_left",
    "round_goods",
    "round",
    "white",
    "bridge",
    "order",
    "active",
    "bonus_left",
    "supply",
)


# What a seat's cell shows of its player: its header, and its estate and what lies around it
HEADER_SHOWS = ("score", "dice", "used")
ESTATE_SHOWS = ("estate", "silver", "workers", "sold", "storage", "goods", "bonus")


def drawn_after(view: dict[str, Any], draw: Callable[[], Image.Image | None]) -> None:
    """`draw`'s picture, drawn after `view`'s table picture, is the one drawn fresh."""
    burgundy.kept_part.cache_clear()
    burgundy.render(view)
    assert pixels(draw()) == drawn_fresh(draw)


def test_everything_a_cell_shows_is_in_its_key() -> None:
    """Each thing of the view a cell shows, and each thing of a player its seat's cell shows,
    taken from later in the game (the rest as it was; a bonus tile taken, which random games
    hardly do), draws its cell anew: a key without it would paste the cell as it was."""
    game = [m[0] for m in moments_of_a_game(3, seed=5, every=30)]
    view, later = game[2], game[3:]
    made = {"bonus_left": dict(view["bonus_left"], mine=["small"])}
    for field in ("depots", "black", *TRACKS_SHOW):
        value = made.get(field) or next(v[field] for v in later if v[field] != view[field])
        drawn_after(view, lambda v=dict(view, **{field: value}): burgundy.render(v))
    bonus = {"type": "mine", "size": "small"}
    for field in (*HEADER_SHOWS, *ESTATE_SHOWS):
        seat, value = (
            (1, [bonus])
            if field == "bonus"
            else next(
                (seat, v["players"][seat][field])
                for v in later
                for seat in range(3)
                if v["players"][seat][field] != view["players"][seat][field]
            )
        )
        players = copy.deepcopy(view["players"])
        players[seat][field] = value
        drawn_after(view, lambda v=dict(view, players=players): burgundy.render(v))


def test_what_only_the_key_holds_changes_the_cells() -> None:
    """Whether a seat acts, what is pending for it, the final scores, the estate board, the
    player count (the tracks' base) and the seat (its colour) are not in a cell's own part of
    the view; a cell drawn alone at any whole offset is the table's, and one too near the
    picture's edge is cut there: none of these may be pasted for another."""
    view = moments_of_a_game(3, seed=5, every=1000)[0][0]
    others = [
        dict(view, active=(view["active"] + 1) % 3),
        dict(view, pending={"die": 1, "castle": True}),
        dict(view, pending={"die": 0, "castle": True}),
        dict(view, final={"scores": [100, 90, 80], "ranks": [1, 2, 3]}),
        dict(view, final={"scores": [100, 90, 80], "ranks": [2, 1, 3]}),
        dict(view, estate_board=view["estate_board"][:-1]),
    ]
    for other in others:
        drawn_after(view, lambda v=other: burgundy.render(v))
    # two seats alike but for their colour, the one acting and then the other
    twins = dict(view, players=[view["players"][0], *view["players"][:2]], active=0)
    drawn_after(twins, lambda: burgundy.render(dict(twins, active=1)))
    drawn_after(view, lambda: burgundy.render_cell(dict(view, num_players=4), "tracks", 6))
    for pad in (0, 1, 2, 5):  # too near the edge (drawn, not kept), or near it; odd
        for part in (1, "depots", "tracks"):
            drawn_after(view, lambda p=part, d=pad: burgundy.render_cell(view, p, d))
            burgundy.render_cell(view, part, pad)
            assert pixels(burgundy.render(view)) == drawn_fresh(lambda: burgundy.render(view))


def test_a_table_on_the_kept_canvas_is_its_own() -> None:
    """The table is drawn on the thread's canvas for its player count, leaving the parts that
    show what they showed (neither drawn nor pasted), and given as a copy: a picture given
    before is not changed by the next; another thread draws on its own canvas."""
    game = [m[0] for m in moments_of_a_game(3, seed=6, every=25)]
    forget_kept()
    first = burgundy.render(game[0])
    before = pixels(first)
    calls = burgundy.kept_part.cache_info()
    again = burgundy.render(game[0])
    assert burgundy.kept_part.cache_info() == calls  # no part drawn or pasted
    assert pixels(again) == before and again is not first
    fresh = [drawn_fresh(lambda v=view: burgundy.render(v)) for view in game]
    forget_kept()
    for view, drawn in zip(game, fresh, strict=True):
        assert pixels(burgundy.render(view)) == drawn
    assert pixels(first) == before
    found: list[tuple[tuple[int, int], int]] = []
    thread = threading.Thread(target=lambda: found.append(pixels(burgundy.render(game[1]))))
    thread.start()
    thread.join()
    assert found == [fresh[1]]
    assert pixels(burgundy.render(game[0])) == fresh[0]


def test_the_cells_kept_are_bounded() -> None:
    assert burgundy.kept_part.cache_info().maxsize == burgundy.PARTS_KEPT
    burgundy.kept_part.cache_clear()
    for spectator, _, _ in moments_of_a_game(4, seed=1, every=40):
        burgundy.render(spectator)
    assert burgundy.kept_part.cache_info().currsize <= burgundy.PARTS_KEPT
