"""Village's pictures paste the parts a move left as they were (issue 29 item 5): each part of
the table (the action spaces, the market, the supply, the crafts, the council, the church, the
status, the map, the bag, the chronicle, each farmyard, Karla's board) is kept by what it
shows, shared by the table picture and the phone's parts of the table (a focus, a decision's
action spaces); a seat's own area keeps its two halves. What they paste must be what they
would draw: each picture of a game's moves, drawn after the ones before (what a worker keeps
for that table) and after other tables' pictures, must be the very picture drawn with nothing
kept."""

from __future__ import annotations

import copy
from collections.abc import Callable
from typing import Any

import pytest
from PIL import Image, ImageDraw

from meeple_hall.games.village import engine
from meeple_hall.renderers import phone, village
from meeple_hall.renderers.phone import village as village_phone
from tests.renderers import moments
from tests.renderers.moments import Moment, pixels


def moments_of_a_game(num_players: int, seed: int, every: int) -> list[Moment]:
    return moments.moments_of_a_game(engine, num_players, seed, every, end_kind="die")


def pictures(moment: Moment, i: int) -> list[Callable[[], Image.Image | None]]:
    """The pictures a worker draws for a table at a move: the table, the mover's decision
    picture, its own area and private picture, and one focus (each in turn over the moves)."""
    spectator, seat_view, kind = moment
    parts = phone.decision_parts("village", seat_view, kind)
    focuses = village_phone.focuses(spectator)
    return [
        lambda: village.render(spectator),
        lambda: phone.render_decision("village", seat_view, parts),
        lambda: village_phone.render_own(seat_view),
        lambda: village.render_private(seat_view),
        lambda: phone.render_focus("village", spectator, focuses[i % len(focuses)]),
    ]


def forget() -> None:
    village.kept_part.cache_clear()
    village.kept_half.cache_clear()


def drawn_fresh(draw: Callable[[], Image.Image | None]) -> tuple[tuple[int, int], int]:
    forget()
    return pixels(draw())


def drawn_plainly(view: dict[str, Any]) -> tuple[tuple[int, int], int]:
    """The table as it was drawn before its parts were kept: each part's pieces in turn on
    the table's layer."""
    image = village.board(village.layout(view)).copy()
    d = ImageDraw.Draw(image)
    for part in village.parts(village.layout(view)):
        part.pieces(d, view)
    return pixels(image)


# 2 players in the default run; solo (Karla's board) and the other counts in the slow part
@pytest.mark.parametrize(
    "num_players", [2, *(pytest.param(n, marks=pytest.mark.slow) for n in (1, 3, 4, 5))]
)
def test_a_picture_after_others_is_the_picture_drawn_fresh(num_players: int) -> None:
    """Every 7th move of a game, its pictures drawn after the ones before (the table's first,
    then the phone's; then the phone's first, then the table's), then some of them after
    another game's pictures: the same pixels as drawn with nothing kept (the table's, as
    drawn before parts were kept: the farmyards' rings drawn first)."""
    game = moments_of_a_game(num_players, seed=num_players, every=7)
    other = moments_of_a_game(num_players % 5 + 1, seed=9, every=40)
    fresh = [[drawn_fresh(draw) for draw in pictures(m, i)] for i, m in enumerate(game)]
    assert [drawn[0] for drawn in fresh] == [drawn_plainly(m[0]) for m in game]
    forget()
    in_turn = [[pixels(draw()) for draw in pictures(m, i)] for i, m in enumerate(game)]
    assert in_turn == fresh
    forget()
    phone_first = [[pixels(draw()) for draw in pictures(m, i)[::-1]] for i, m in enumerate(game)]
    assert phone_first == [drawn[::-1] for drawn in fresh]
    for i in range(0, len(game), 6):
        for j, between in enumerate(other):
            for draw in pictures(between, j):
                draw()
        assert [pixels(draw()) for draw in pictures(game[i], i)] == fresh[i]


def test_parts_are_kept_and_pasted() -> None:
    """A move's picture reuses the parts it did not change (else the cache is for nothing), a
    change in a part draws that part anew, and the mover's decision picture pastes the
    action spaces, market and supply the table picture drew."""
    spectator, seat_view, _ = moments_of_a_game(4, seed=4, every=25)[3]
    forget()
    village.render(spectator)
    drawn = village.kept_part.cache_info().misses
    assert drawn == village.kept_part.cache_info().currsize == 10 + 4  # and 4 farmyards
    village.render(spectator)
    assert village.kept_part.cache_info().misses == drawn  # all pasted
    phone.render_decision("village", seat_view, ("actions", phone.OWN))
    for focus in village_phone.PARTS:
        phone.render_focus("village", spectator, focus)
    assert village.kept_part.cache_info().misses == drawn  # the phone's parts pasted too
    changed = copy.deepcopy(spectator)
    changed["players"][2]["coins"] += 1
    changed["supply"]["orange"] -= 1
    picture = village.render(changed)
    assert village.kept_part.cache_info().misses == drawn + 2  # a farmyard and the supply
    assert pixels(picture) == drawn_fresh(lambda: village.render(changed))
    acting = dict(spectator, active=[(spectator["active"][0] + 1) % 4])
    forget()
    village.render(spectator)
    picture = village.render(acting)
    assert village.kept_part.cache_info().misses == drawn + 1  # the status; the rings drawn
    assert pixels(picture) == drawn_fresh(lambda: village.render(acting))


def test_the_own_area_s_halves_are_kept() -> None:
    """The halves of a seat's own area are drawn once for what they show and width: a move
    that changes the farmyard draws the farmyard's half alone."""
    _, seat_view, _ = moments_of_a_game(3, seed=3, every=25)[2]
    forget()
    first = pixels(village_phone.render_own(seat_view))
    pixels(phone.render_decision("village", seat_view, ("actions", phone.OWN)))
    assert village.kept_half.cache_info().misses == 4  # two halves at two widths
    assert pixels(village_phone.render_own(seat_view)) == first
    assert village.kept_half.cache_info().misses == 4
    changed = copy.deepcopy(seat_view)
    changed["players"][changed["you"]["seat"]]["grain"] += 1
    picture = village_phone.render_own(changed)
    assert village.kept_half.cache_info().misses == 5
    assert pixels(picture) == drawn_fresh(lambda: village_phone.render_own(changed))


def other_values(game: list[Moment], at: int, which: int) -> dict[str, dict[str, Any]]:
    """Each field of the view (`which`: 0 the spectator's, 1 the mover's) at moment `at` with
    the first value unlike it elsewhere in the game (one it lacks, with the others it lacks
    there: the final scores with the ranks, the solo title with the titles), each field of
    a field that is a mapping as `field.key` (Karla's church, a space's cubes), and each
    player's field as `players.N.field`: by name, what to change."""
    view = game[at][which]
    found: dict[str, dict[str, Any]] = {}
    for moment in [*game[at + 1 :], *game[:at]]:
        other = moment[which]
        lacking = {field: value for field, value in other.items() if field not in view}
        for field, value in other.items():
            if field not in found and value != view.get(field) and field != "players":
                found[field] = lacking if field in lacking else {field: value}
            if isinstance(value, dict) and isinstance(view.get(field), dict):
                for key, inner in value.items():
                    name = f"{field}.{key}"
                    if name not in found and inner != view[field].get(key):
                        found[name] = {field: {**view[field], key: inner}}
        for seat, player in enumerate(other["players"]):
            for field, value in player.items():
                name = f"players.{seat}.{field}"
                if name not in found and value != view["players"][seat].get(field):
                    players = copy.deepcopy(view["players"])
                    players[seat][field] = value
                    found[name] = {"players": players}
    return found


def drawn_after(view: dict[str, Any], draw: Callable[[], Image.Image | None]) -> None:
    """`draw`'s picture, drawn after `view`'s table picture (or own area, for a seat's
    view), is the one drawn fresh."""
    forget()
    if "you" in view:
        village_phone.render_own(view)
        village_phone.at_width(view, phone.OWN, None, 768)
    else:
        village.render(view)
    assert pixels(draw()) == drawn_fresh(draw)


@pytest.mark.parametrize("num_players", [1, 3])
def test_everything_a_part_shows_is_in_its_key(num_players: int) -> None:
    """Each field of the view, of each player's and of a mapping's, taken from elsewhere in
    the game (the rest as it was), draws its part anew: a key without it would paste the
    part as it was. Solo (Karla, the solo title) and with several players (the travellers,
    the market)."""
    game = moments_of_a_game(num_players, seed=7, every=4)
    at = len(game) // 3
    for which in (0, 1):
        view = game[at][which]
        fields = other_values(game, at, which)
        assert len(fields) > 20, sorted(fields)
        for changes in fields.values():
            changed = {**view, **changes}
            if which == 0:  # the table
                drawn_after(view, lambda v=changed: village.render(v))
            else:  # the own area, at its width and under the action spaces
                drawn_after(view, lambda v=changed: village_phone.render_own(v))
                drawn_after(view, lambda v=changed: village_phone.at_width(v, phone.OWN, None, 768))


def test_what_only_the_key_holds_changes_the_parts() -> None:
    """The layout (the frames under the pieces: the player count, the track's length, the
    market's stalls, the map), a seat that must act (its farmyard's ring, drawn over the
    kept farmyard), the start player's and the next one's marks, a seat's final score and
    the width of the own area are not in a part's own slice of the view (and random games
    hardly move the start player): a part kept under one must not be pasted for another."""
    game = moments_of_a_game(3, seed=5, every=1000)
    view, end = game[0][1], game[-1][0]
    for changed in (
        dict(view, active=[2]),
        dict(view, next_start=view["you"]["seat"]),
        dict(view, next_start=(view["you"]["seat"] + 1) % 3),
        dict(view, start_player=(view["start_player"] + 1) % 3),
        dict(view, track_length=view["track_length"] + 1),
        dict(view, open_stalls=view["open_stalls"] - 1),
        dict(view, map=dict(view["map"], cities=dict.fromkeys(view["map"]["cities"], "coin"))),
    ):
        drawn_after(game[0][0], lambda v=changed: village.render(v))
        drawn_after(game[0][0], lambda v=changed: phone.render_focus("village", v, "actions"))
        drawn_after(view, lambda v=changed: village_phone.render_own(v))
    for seat in range(3):
        scores = [score + (k == seat) for k, score in enumerate(end["scores"])]
        drawn_after(end, lambda v=dict(end, scores=scores): village.render(v))
    for width in (476, 561, 768):
        drawn_after(view, lambda w=width: village_phone.at_width(view, phone.OWN, None, w))


def test_a_part_of_the_table_on_its_own_is_the_table_s() -> None:
    """A part kept from a phone's part of the table (drawn on a picture cut short of the
    whole table) is the table's: drawn first for the phone, then pasted on the table."""
    for spectator, _, _ in moments_of_a_game(2, seed=11, every=30):
        fresh = drawn_fresh(lambda v=spectator: village.render(v))
        for focus in village_phone.PARTS:
            forget()
            phone.render_focus("village", spectator, focus)
            assert pixels(village.render(spectator)) == fresh, focus


def test_what_is_kept_is_bounded() -> None:
    assert village.kept_part.cache_info().maxsize == village.PARTS_KEPT
    assert village.kept_half.cache_info().maxsize == village.HALVES_KEPT
    forget()
    for num_players in (5, 1):
        for i, moment in enumerate(moments_of_a_game(num_players, seed=1, every=20)):
            for draw in pictures(moment, i):
                draw()
    assert village.kept_part.cache_info().currsize <= village.PARTS_KEPT
    assert village.kept_half.cache_info().currsize <= village.HALVES_KEPT
