"""The Castles of Burgundy picture (its words: tests/bot/test_presenter_burgundy.py)."""

import random

import pytest

from meeple_hall.games.burgundy import engine
from meeple_hall.games.core import Action
from meeple_hall.games.core.catalogues import LANGUAGES, render
from meeple_hall.games.testing import random_choices
from meeple_hall.renderers import burgundy as renderer
from tests.renderers.colour_vision import DEUTERANOPIA, seen_picture


def playout(num_players, seed, stops, to_the_end=False):
    """Views (spectator and seat 0) at the given steps of a random game, and at its last."""
    rng = random.Random(seed)
    state = engine.new(num_players, seed=seed)
    step, out, kinds = 0, [], {}
    while engine.decisions(state) and (to_the_end or step <= max(stops, default=400)):
        decision = engine.decisions(state)[0]
        kinds.setdefault(decision.kind, decision)
        if step in stops:
            out.append((engine.view(state, None), engine.view(state, 0)))
        state = engine.apply(state, Action(decision.seat, random_choices(decision, rng)))
        step += 1
    out.append((engine.view(state, None), engine.view(state, 0)))
    return out, kinds


@pytest.mark.parametrize("num_players", [2, 3, 4])
def test_render_at_several_points_of_a_game(num_players):
    views, _ = playout(
        num_players, seed=num_players, stops={0, 60, 200}, to_the_end=num_players == 2
    )
    for spectator, _ in views:
        image = renderer.render(spectator)
        assert image.size == renderer.canvas_size(num_players)
        colours = image.getcolors(maxcolors=100_000)
        assert colours is not None and len(colours) > 50, "the picture is nearly blank"


def test_the_picture_shows_what_is_placed():
    views, _ = playout(2, seed=11, stops={0, 150})
    before = renderer.render(views[0][0])
    after = renderer.render(views[-1][0])
    assert before.tobytes() != after.tobytes()


def test_private_picture_shows_the_sold_goods_of_that_seat_only():
    views, _ = playout(2, seed=3, stops={100})
    spectator, mine = views[0]
    assert renderer.render_private(spectator) is None
    image = renderer.render_private(mine)
    assert image.size == (renderer.PRIVATE_W, renderer.CELL_H + 2 * renderer.MARGIN)
    colours = image.getcolors(maxcolors=100_000)
    assert colours is not None and len(colours) > 50
    assert mine["you"]["sold"], "this playout has sold goods by step 100"
    hidden = dict(mine, you=dict(mine["you"], sold={}))
    assert renderer.render_private(hidden).tobytes() != image.tobytes()


def test_private_picture_at_the_end_of_a_game():
    views, _ = playout(3, seed=8, stops=set(), to_the_end=True)
    _, mine = views[-1]
    assert mine["over"] and renderer.render_private(mine) is not None


def test_every_estate_area_is_outlined_for_colour_blind_players():
    # Seat 1's empty estate at 2 players: the edge between two spaces of different areas
    # (castle 19 and town space 12) is drawn in ink; inside an area (town 26-27) it is not.
    view = engine.view(engine.new(2, seed=1), None)
    image = renderer.render(view)
    board = {h["id"]: h for h in view["estate_board"]}
    size = renderer.ESTATE_R
    ox, oy = renderer.estate_origin(*renderer.seat_cell(2, 0))

    def edge_pixel(a, b):
        (ax, ay), (bx, by) = (
            renderer.hex_centre(board[h]["q"], board[h]["r"], size, ox, oy) for h in (a, b)
        )
        return image.getpixel((round((ax + bx) / 2), round((ay + by) / 2)))

    assert edge_pixel(19, 12) == renderer.INK
    assert board[26]["type"] == board[27]["type"] == "building"
    assert edge_pixel(26, 27) != renderer.INK


@pytest.mark.parametrize("num_players", [2, 3, 4])
def test_the_picture_reads_at_discord_inline_size(num_players):
    # Discord shows an attachment within about 550 x 350 px: the picture is shrunk by at most
    # ~2.5 there, so 24 px numbers stay about 9 px tall; 3-4 players keep a landscape shape.
    width, height = renderer.canvas_size(num_players)
    assert width <= 1400 and height <= 900
    assert min(550 / width, 350 / height) >= 0.39
    if num_players > 2:
        assert 1.4 <= width / height <= 1.7
    views, _ = playout(num_players, seed=num_players, stops=set())
    assert renderer.render(views[-1][0]).size == (width, height)


def test_the_active_seat_is_framed_in_its_colour():
    views, _ = playout(4, seed=2, stops={40})
    view = views[0][0]
    image = renderer.render(view)
    active = view["active"]
    assert active is not None
    for seat in range(4):
        x, y = renderer.seat_cell(4, seat)
        # the middle of the panel's left edge, below the header band
        pixel = image.getpixel((x + 1, y + renderer.CELL_H // 2))
        assert (pixel == renderer.PLAYER_COLOURS[seat]) == (seat == active)


def test_at_the_end_the_winner_wears_gold_where_the_dice_were():
    views, _ = playout(3, seed=8, stops=set(), to_the_end=True)
    view = views[-1][0]
    assert view["final"]
    image = renderer.render(view)
    for seat, rank in enumerate(view["final"]["ranks"]):
        x, y = renderer.seat_cell(3, seat)
        ring = image.getpixel((x + renderer.CELL_W - 40 + 19, y + 26))
        assert (ring == (245, 200, 40)) == (rank == 1)


# -- colour-blind players -------------------------------------------------------------------------
def deuteranopia(image):
    """The picture as a deuteranope sees it, in grey: what is left to tell things apart by."""
    return seen_picture(image, DEUTERANOPIA).convert("L")


def _apart(a, b, threshold=60):
    """How many pixels of two same-size grey pictures differ clearly in lightness."""
    return sum(1 for p, q in zip(a.tobytes(), b.tobytes(), strict=True) if abs(p - q) > threshold)


def _drawn(draw, size=(64, 64)):
    from PIL import Image, ImageDraw

    image = Image.new("RGB", size, renderer.PANEL)
    draw(ImageDraw.Draw(image))
    return image


def test_the_simulation_loses_what_red_green_blind_players_lose():
    # the helper itself: building tan and animal green become one colour, blue stays apart
    tan, green, blue = (
        deuteranopia(_drawn(lambda d, c=c: d.rectangle([0, 0, 63, 63], fill=c)))
        for c in (
            renderer.TYPE_COLOURS["building"],
            renderer.TYPE_COLOURS["animal"],
            renderer.TYPE_COLOURS["ship"],
        )
    )
    assert _apart(tan, green, threshold=10) == 0
    assert _apart(tan, blue) == 64 * 64


def test_each_animal_has_its_own_shape_not_only_its_colour():
    # the marks of the animals, as silhouettes against the tile: all four shapes differ
    def silhouette(animal):
        tile = {"type": "animal", "face": f"{animal}3", "animal": animal, "value": 3}
        image = _drawn(lambda d: renderer.draw_tile(d, tile, 32, 32, 30))
        ground = bytes(renderer.TYPE_COLOURS["animal"])
        marks = image.crop((4, 14, 60, 30)).tobytes()
        return [marks[i : i + 3] != ground for i in range(0, len(marks), 3)]

    shapes = {animal: silhouette(animal) for animal in renderer.ANIMAL_COLOURS}
    for a in shapes:
        for b in shapes:
            if a < b:
                differ = sum(x != y for x, y in zip(shapes[a], shapes[b], strict=True))
                assert differ > 20, f"{a} and {b} marks have the same shape"


def test_goods_kinds_read_apart_for_colour_blind_players():
    # pink 3 and teal 4, red 1 and brown 6 are near one colour to a deuteranope: the number
    # on the tile must tell them apart
    def seen(kind):
        return deuteranopia(_drawn(lambda d: renderer.draw_goods(d, 12, 12, 40, kind)))

    for a, b in ((3, 4), (1, 6), (1, 5), (2, 4)):
        assert _apart(seen(a), seen(b)) > 30, (a, b)


def test_the_face_down_piles_show_their_tile_type_to_colour_blind_players():
    views, _ = playout(4, seed=4, stops={0})
    image = deuteranopia(renderer.render(views[0][0]))
    x, y = renderer.cell(0, 1)
    cy = y + 318 + 90

    def pile(col):
        cx = x + 12 + 54 + col * 53 - 8
        return image.crop((round(cx - 12), round(cy - 16), round(cx + 12), round(cy + 8)))

    piles = [pile(col) for col in range(len(renderer.TYPE_ORDER))]
    for i in range(len(piles)):
        for j in range(i + 1, len(piles)):
            assert _apart(piles[i], piles[j]) > 15, renderer.TYPE_ORDER[i : j + 1 : j - i]


def test_seats_read_apart_on_the_turn_order_track_for_colour_blind_players():
    # blue seat 2 and purple seat 4 (red 1 and orange 3) are close to a deuteranope: the
    # seat number on the disc and on the order of play tells them apart
    def seen(seat):
        return deuteranopia(_drawn(lambda d: renderer.draw_disc(d, 32, 32, 16, seat)))

    for a, b in ((1, 3), (0, 2), (0, 1)):
        assert _apart(seen(a), seen(b)) > 20, (a, b)


def test_goods_are_named_by_the_colour_the_picture_draws_them_in():
    """The words name each kind of goods by colour and number ("red 1"), as the picture
    draws the tile: the named colour must be the one nearest the drawn one."""
    from meeple_hall.games.burgundy.words import goods

    named = {
        "red": (220, 40, 40),
        "purple": (110, 70, 170),
        "pink": (240, 130, 190),
        "turquoise": (60, 180, 180),
        "orange": (240, 150, 40),
        "brown": (120, 80, 50),
    }
    for kind, drawn in renderer.GOODS_COLOURS.items():
        colour, number = str(goods(kind)).split()

        def distance(name: str, drawn=drawn) -> int:
            return sum((a - b) ** 2 for a, b in zip(named[name], drawn, strict=True))

        nearest = min(named, key=distance)
        assert (colour, number) == (nearest, str(kind))
    for lang in LANGUAGES:
        names = [render(lang, goods(kind), strict=True) for kind in range(1, 7)]
        assert len(set(names)) == 6 and all(str(k) in n for k, n in enumerate(names, 1))


def test_a_used_die_reads_as_used_without_colour():
    # a used die fades and its pips turn faint: a lightness cue, not a hue one
    def seen(used, seat):
        tint = renderer.mix(renderer.PLAYER_COLOURS[seat], (255, 255, 255), 0.75)
        return deuteranopia(_drawn(lambda d: renderer.draw_die(d, 8, 8, 48, 5, used, tint)))

    for seat in range(4):
        assert _apart(seen(False, seat), seen(True, seat), threshold=50) > 40, seat


def test_a_score_past_100_reads_as_itself_without_a_plus_100_badge():
    from PIL import Image, ImageDraw

    from tests.renderers.legibility import watching

    view = engine.view(engine.new(2, seed=1), None)
    view["players"][0]["score"], view["players"][0]["lap"] = 123, 1
    with watching() as watch:
        image = Image.new("RGB", (renderer.CELL_W, renderer.HEADER_H), renderer.BACKGROUND)
        renderer.draw_header(ImageDraw.Draw(image), view, 0, 0, 0)
    drawn = [t.text for t in watch.on(image)]
    assert "123" in drawn and not any(t.startswith("+") for t in drawn), drawn


def test_each_estate_row_is_numbered_where_the_hex_labels_count_it():
    """Hex labels say "row 5, space 4": the picture numbers the rows (top first) at their
    right end, level with the row, clear of the storage and goods column."""
    from PIL import Image

    from meeple_hall.games.burgundy.data import components
    from tests.renderers.legibility import watching

    view = engine.view(engine.new(2, seed=1), 0)
    with watching() as watch:
        image = Image.new("RGB", (renderer.CELL_W, renderer.CELL_H), renderer.BACKGROUND)
        renderer.draw_player(image, view, 0, 0, 0)
    drawn = watch.on(image)
    ox, oy = renderer.estate_origin(0, 0)
    hexes = components().estate.hexes.values()
    top = min(h.r for h in hexes)
    for r in sorted({h.r for h in hexes}):
        right = max(
            renderer.hex_centre(h.q, h.r, renderer.ESTATE_R, ox, oy)[0] for h in hexes if h.r == r
        )
        _, cy = renderer.hex_centre(0, r, renderer.ESTATE_R, ox, oy)
        number = [
            t for t in drawn if t.text == str(r - top + 1) and abs(t.y - cy) < 3 and t.x > right
        ]
        assert number and number[0].x < renderer.CELL_W - 44 - 34 / 2, (r, number)


def test_bonus_tiles_taken_are_drawn_by_colour_and_size():
    """The view gives each bonus tile taken as its colour and size; the picture draws them in
    the seat's panel, a large one bigger than a small one."""
    state = engine.new(2, seed=5)
    plain = renderer.render(engine.view(state, None))
    state.players[0].bonus = ["mine:large"]
    large = engine.view(state, None)
    assert large["players"][0]["bonus"] == [{"type": "mine", "size": "large"}]
    state.players[0].bonus = ["mine:small"]
    small = renderer.render(engine.view(state, None))
    large_picture = renderer.render(large)
    assert len({plain.tobytes(), small.tobytes(), large_picture.tobytes()}) == 3
