"""The Village picture (its words are in tests/bot/test_presenter_village.py)."""

from __future__ import annotations

import math
import random
import re

import pytest

from meeple_hall.bot import presenters
from meeple_hall.games.core import Action
from meeple_hall.games.village import engine
from meeple_hall.renderers import village as renderer
from tests.renderers.colour_vision import DEUTERANOPIA, PROTANOPIA, seen_colour


def playout(num_players: int, seed: int, stops: set[int]):
    """Spectator and seat-0 views at the given steps of a random game and at its end,
    and one decision of each kind met on the way."""
    rng = random.Random(seed)
    state = engine.new(num_players, seed)
    step, views, kinds = 0, [], {}
    while pending := engine.decisions(state):
        decision = pending[0]
        kinds.setdefault(decision.kind, decision)
        if step in stops:
            views.append((engine.view(state, None), engine.view(state, 0)))
        state = engine.apply(state, Action(decision.seat, (rng.choice(decision.options).id,)))
        step += 1
    views.append((engine.view(state, None), engine.view(state, 0)))
    return views, kinds


@pytest.mark.parametrize("num_players", [1, 2, 3, 5])
def test_render_at_several_points_of_a_game(num_players: int) -> None:
    views, _ = playout(num_players, seed=num_players, stops={0, 40, 120})
    for spectator, _ in views:
        image = renderer.render(spectator)
        assert image.size == (renderer.WIDTH, renderer.HEIGHT)
        colours = image.getcolors(maxcolors=100_000)
        assert colours is not None and len(colours) > 50, "the picture is nearly blank"


@pytest.mark.parametrize("num_players", [1, 2, 3, 4, 5])
def test_the_picture_fits_discords_inline_size_at_every_player_count(num_players: int) -> None:
    """Discord shows an attachment inline at most about 550 x 350: the picture keeps a
    width that scales down by no more than ~2.5 and an aspect near 550:350."""
    views, _ = playout(num_players, seed=20 + num_players, stops={30})
    for spectator, _ in views:
        width, height = renderer.render(spectator).size
        assert 1100 <= width <= 1400
        assert 1.4 <= width / height <= 1.75


def test_the_winner_gets_the_cup_beside_the_round() -> None:
    views, _ = playout(3, seed=6, stops=set())
    spectator, _ = views[-1]
    assert "scores" in spectator and "ranks" in spectator
    status = (renderer.SIDE_X, 0, renderer.WIDTH, 100)
    pictures = []
    for winner in range(3):
        ranks = [1 if seat == winner else 2 for seat in range(3)]
        pictures.append(renderer.render(dict(spectator, ranks=ranks)).crop(status).tobytes())
    assert len(set(pictures)) == 3


def test_the_picture_changes_as_the_game_goes_on() -> None:
    views, _ = playout(2, seed=11, stops={0, 30})
    first, second = renderer.render(views[0][0]), renderer.render(views[1][0])
    assert first.tobytes() != second.tobytes()


def test_private_picture_shows_the_served_customers() -> None:
    views, _ = playout(2, seed=3, stops={60})
    for spectator, seat_view in views:
        assert renderer.render_private(spectator) is None
        image = renderer.render_private(seat_view)
        assert image is not None and image.width == renderer.PRIVATE_W
        assert len(image.getcolors(maxcolors=100_000) or []) > 30
    many = dict(views[-1][1])
    tile = {"id": "x", "wants": {"horse": 1, "plow": 1}, "points": 6}
    many["you"] = {"seat": 0, "customers": [tile] * 9, "customer_points": 54}
    few = renderer.render_private(dict(many, you=dict(many["you"], customers=[tile])))
    assert renderer.render_private(many).height > few.height


def test_solo_end_shows_the_title_medal() -> None:
    views, _ = playout(1, seed=4, stops=set())
    spectator, _ = views[-1]
    assert "title_rank" in spectator
    plain = {k: v for k, v in spectator.items() if k not in ("title", "title_rank")}
    assert renderer.render(spectator).tobytes() != renderer.render(plain).tobytes()


# -- colour-blind players ---------------------------------------------------------------
def distance(a: tuple[int, ...], b: tuple[int, ...]) -> float:
    return math.dist(a, b)


def seen_alike(colours: dict, matrix) -> list[tuple]:
    """The pairs of keys whose colours a colour-blind eye sees as nearly the same."""
    seen = {key: seen_colour(rgb, matrix) for key, rgb in colours.items()}
    keys = list(colours)
    return [
        (a, b) for i, a in enumerate(keys) for b in keys[i + 1 :] if distance(seen[a], seen[b]) < 80
    ]


def cue(image, box, plain: tuple[int, int, int], matrix) -> frozenset:
    """The pixels of `box` a colour-blind eye sees as unlike the `plain` colour."""
    seen_plain = seen_colour(plain, matrix)
    cache: dict = {}
    found = set()
    for k, rgb in enumerate(image.crop(box).convert("RGB").get_flattened_data()):
        if rgb not in cache:
            cache[rgb] = distance(seen_colour(rgb, matrix), seen_plain) > 40
        if cache[rgb]:
            found.add(k)
    return frozenset(found)


def clearly_different(a: frozenset, b: frozenset) -> bool:
    """More than a few edge pixels apart (antialiasing blends each colour differently)."""
    return len(a ^ b) > 0.03 * max(len(a), len(b))


@pytest.fixture(scope="module")
def quiet_view() -> dict:
    view = engine.view(engine.new(5, 1), None)
    return dict(view, spaces={}, workshops=[], council=[], church=[], black_bag=[])


@pytest.mark.parametrize("matrix", [DEUTERANOPIA, PROTANOPIA], ids=["deuteranopia", "protanopia"])
def test_cube_colours_a_colour_blind_player_confuses_carry_different_marks(
    quiet_view: dict, matrix
) -> None:
    influence = {c: rgb for c, rgb in renderer.CUBES.items() if c != "black"}
    alike = seen_alike(influence, matrix)
    assert alike, "orange, green and brown look alike to a colour-blind eye"
    # A lone cube on the harvest space: 26 px, centred under the space's icon.
    x = renderer.BOARD_X + renderer.SPACES.index("harvest") * 109 + 38
    box = (x, 56, x + 28, 84)
    marks = {}
    for colour in influence:
        picture = renderer.render(dict(quiet_view, spaces={"harvest": [colour]}))
        # The outline and the mark: everything on the cube not the cube's own colour.
        marks[colour] = cue(picture, box, renderer.CUBES[colour], matrix)
    for a, b in alike:
        assert clearly_different(marks[a], marks[b]), f"{a} and {b} cubes differ by colour alone"


@pytest.mark.parametrize("matrix", [DEUTERANOPIA, PROTANOPIA], ids=["deuteranopia", "protanopia"])
def test_families_a_colour_blind_player_confuses_have_different_shapes(
    quiet_view: dict, matrix
) -> None:
    families = {seat: renderer.seat_colour(seat) for seat in (-1, 0, 1, 2, 3, 4)}
    alike = seen_alike(families, matrix)
    assert alike, "blue and purple families look alike to a colour-blind eye"
    box = (renderer.BOARD_X, 316, renderer.BOARD_X + 147, 406)  # the wainwright
    tint = renderer.SPACE_TINT["crafts"]
    shapes = {}
    for seat in families:
        member = {"seat": seat, "number": 2, "where": "wainwright"}
        picture = renderer.render(dict(quiet_view, workshops=[member]))
        # The silhouette: everything not the workshop's own colour.
        shapes[seat] = cue(picture, box, tint, matrix)
    for a, b in alike:
        assert clearly_different(shapes[a], shapes[b]), f"families {a} and {b} look alike"


def test_every_family_has_its_own_shape() -> None:
    assert len(set(renderer.SHAPES)) == len(renderer.SEATS)


# -- the words on the panels -------------------------------------------------------------


def every_decision(num_players: int, seed: int):
    """Every decision met in a random game, as the bot would show it."""
    rng = random.Random(seed)
    state = engine.new(num_players, seed)
    while pending := engine.decisions(state):
        yield from pending
        decision = pending[0]
        state = engine.apply(state, Action(decision.seat, (rng.choice(decision.options).id,)))


# -- the travel map, the coins and the ivory family (issue 14) ---------------------------


def test_the_coin_chip_counts_what_the_score_counts(monkeypatch) -> None:
    """Solo: the next-start marker may be spent as a coin that round, but it scores
    nothing, so the coin chip shows the coins alone (the marker shows on its ring)."""
    views, _ = playout(1, seed=4, stops=set())
    spectator, _ = views[-1]
    player = spectator["players"][0]
    held = dict(spectator, next_start=0, players=[dict(player, coins=2, marker_coin=True)])
    chips: dict[str, int] = {}
    real = renderer.chip
    monkeypatch.setattr(
        renderer, "chip", lambda d, x, y, what, n, *a: chips.setdefault(what, n) and real
    )
    renderer.render(held)
    assert chips["coins"] == 2
    monkeypatch.undo()
    spent = dict(held, players=[dict(player, coins=2, marker_coin=False)])
    assert renderer.render(held).tobytes() != renderer.render(spent).tobytes()


def full_map(view: dict, where: str | None) -> dict:
    """Every seat has visited every city; every seat's traveller stands at `where` (or
    one at each city)."""
    cities = list(renderer.CITY_LETTER)
    players = [dict(p, cities=cities) for p in view["players"]]
    travellers = [
        {"seat": s, "number": s + 2, "where": where or cities[s], "stage": 0}
        for s in range(len(players))
    ]
    return dict(view, players=players, travellers=travellers)


def overlapping(a: tuple, b: tuple) -> bool:
    return a[0] < b[2] - 0.5 and b[0] < a[2] - 0.5 and a[1] < b[3] - 0.5 and b[1] < a[3] - 0.5


def test_the_travel_maps_places_never_overlap(quiet_view: dict) -> None:
    """Route costs, rewards, visit grids (all five seats), traveller rows (all five
    travellers in one city) and the cities keep apart, inside the map's box."""
    x0, y0 = renderer.SIDE_X, 96
    places = renderer.travel_places(quiet_view, x0, y0)
    boxes = [(kind, b) for kind, found in places.items() for b in found]
    assert len(places["visits"]) == len(places["reward"]) == 6
    for i, (kind, a) in enumerate(boxes):
        assert x0 + 3 <= a[0] and a[2] <= x0 + renderer.SIDE_W - 3, kind
        assert y0 + 3 <= a[1] and a[3] <= y0 + 232 - 3, kind
        for other, b in boxes[i + 1 :]:
            assert not overlapping(a, b), (kind, a, other, b)


@pytest.mark.parametrize("where", [None, "forest", "capital", "north"])
def test_visits_and_travellers_leave_route_costs_and_rewards_uncovered(
    quiet_view: dict, where: str | None
) -> None:
    empty = renderer.render(quiet_view)
    full = renderer.render(full_map(quiet_view, where))
    places = renderer.travel_places(quiet_view, renderer.SIDE_X, 96)
    assert empty.tobytes() != full.tobytes()
    for kind in ("cost", "reward"):
        for b in places[kind]:
            crop = tuple(round(v) for v in b)
            assert empty.crop(crop).tobytes() == full.crop(crop).tobytes(), (kind, crop)


def test_every_city_a_menu_names_carries_its_letter_on_the_map() -> None:
    """ "North", "Hill": the name's first letter is drawn on that city, and the description
    says it."""
    named: set[str] = set()
    pattern = re.compile(r"(?:travels to|travelling at|moves) (\w+)(?: → (\w+))?")
    for num_players, seed in ((2, 41), (4, 42), (1, 43), (5, 33)):
        for decision in every_decision(num_players, seed):
            for option in decision.options:
                for match in pattern.finditer(str(option.label)):
                    named.update(name for name in match.groups() if name)
                if decision.kind == "travel" and option.id != "skip":
                    style = presenters.option_style("village", decision, option)
                    description = str(style.description)
                    city = description.split(" ")[0].lower()
                    assert f"({renderer.CITY_LETTER[city]})" in description
    assert len(named) >= 4
    for name in named:
        assert renderer.CITY_LETTER[name.lower()] == name[0], name


def test_the_ivory_family_stands_out_from_the_cream() -> None:
    """Every family's farmyard header and map marks are edged by something a normal or
    colour-blind eye sees as unlike both the family's colour and the cream."""
    view = engine.view(engine.new(5, 1), None)
    view = full_map(dict(view, travellers=[]), None)
    picture = renderer.render(dict(view, travellers=[]))
    yard, board = (246, 238, 214), (226, 234, 214)
    n, w = 5, (renderer.WIDTH - 24 - 4 * 8) // 5
    for seat in range(n):
        colour = renderer.seat_colour(seat)
        x = renderer.BOARD_X + seat * (w + 8) + w // 2
        # The header's lower edge, a few pixels either side.
        edge = [
            picture.getpixel((x, y)) for y in range(renderer.YARDS_Y + 38, renderer.YARDS_Y + 50)
        ]
        cx, cy = renderer.SIDE_X + renderer.CITY_XY["forest"][0], 96 + renderer.CITY_XY["forest"][1]
        px, py = renderer.visit_spot(cx, cy, seat)
        mark = picture.crop((round(px) - 8, round(py) - 8, round(px) + 9, round(py) + 9))
        for matrix in (None, DEUTERANOPIA, PROTANOPIA):
            assert set_off(colour, edge, yard, matrix), (seat, matrix, "farmyard")
            assert set_off(colour, mark.get_flattened_data(), board, matrix), (seat, matrix)


def set_off(colour: tuple, pixels, back: tuple, matrix) -> bool:
    """The colour differs plainly from the background, or an edge among `pixels` differs
    plainly from both."""

    def seen(rgb: tuple) -> tuple:
        return tuple(rgb[:3]) if matrix is None else seen_colour(rgb, matrix)

    if distance(seen(colour), seen(back)) > 90:
        return True
    return any(
        min(distance(seen(rgb), seen(colour)), distance(seen(rgb), seen(back))) > 90
        for rgb in pixels
    )


def test_solo_offers_karlas_board_as_a_part_that_reads_on_a_phone() -> None:
    """`/board focus:` in solo: Karla's board (her ring of cubes and fate tiles, members,
    customers and dead) was only in the full table, too small on a phone."""
    from meeple_hall.renderers import phone
    from tests.renderers.legibility import MIN_TEXT_PX, texts_on_phone

    views, _ = playout(1, seed=7, stops={60})
    spectator = views[0][0]
    assert "karla" in phone.focuses("village", spectator)
    assert phone.focuses("village", playout(2, seed=7, stops={0})[0][0][0]).count("karla") == 0
    image, texts = texts_on_phone(lambda: phone.render_focus("village", spectator, "karla"))
    assert min(t.height for t in texts) >= MIN_TEXT_PX
    assert any(colour == renderer.KARLA for _, colour in image.getcolors(maxcolors=100_000))


def test_a_cities_reward_of_two_cubes_shows_every_colour_to_choose_from() -> None:
    """The reward is 2 influence cubes of the traveller's choice: drawn as a pink and an
    orange cube it read as those two colours."""
    view = engine.view(engine.new(2, 1), None)
    image = renderer.render(view)
    for city, reward in view["map"]["cities"].items():
        cx, cy = renderer.SIDE_X + renderer.CITY_XY[city][0], 96 + renderer.CITY_XY[city][1]
        box = tuple(round(v) for v in renderer.reward_box(cx, cy))
        colours = {c for _, c in image.crop(box).getcolors(maxcolors=10_000)}
        influence = {
            name for name in ("orange", "green", "brown", "pink") if renderer.CUBES[name] in colours
        }
        assert influence == (
            {"orange", "green", "brown", "pink"} if reward == "cubes" else set()
        ), city
