"""The Castles of Burgundy picture, option labels and private text."""

import random
import time

import pytest

from games.burgundy import engine
from games.core import Action
from games.testing import random_choices
from renderers import OptionStyle
from renderers import burgundy as renderer


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
        start = time.perf_counter()
        image = renderer.render(spectator)
        assert time.perf_counter() - start < 0.5
        assert image.size == renderer.canvas_size(num_players)
        colours = image.getcolors(maxcolors=100_000)
        assert colours is not None and len(colours) > 50, "the picture is nearly blank"


def test_the_picture_shows_what_is_placed():
    views, _ = playout(2, seed=11, stops={0, 150})
    before = renderer.render(views[0][0])
    after = renderer.render(views[-1][0])
    assert before.tobytes() != after.tobytes()


def test_option_styles_for_every_kind_of_decision():
    _, kinds = playout(4, seed=5, stops=set())
    assert {"die", "action", "take", "place"} <= set(kinds)
    for decision in kinds.values():
        for option in decision.options:
            style = renderer.option_style(decision, option)
            assert style is None or isinstance(style, OptionStyle)
            if style is not None and style.label:
                assert len(style.label) <= 80


def test_private_text_shows_the_seat_and_its_sold_goods():
    views, _ = playout(2, seed=3, stops={100})
    spectator, mine = views[0]
    text = renderer.private_text(mine)
    assert "Seat 1" in text and "Sold" in text and "Storage" in text
    assert renderer.private_text(spectator) == "You are watching."


def test_tile_options_explain_knowledge_tiles_and_buildings():
    from games.core import Decision, Option

    decision = Decision(0, "take", "Take", (Option("k12", "Take k12"), Option("bank", "Take bank")))
    styles = [renderer.option_style(decision, o) for o in decision.options]
    assert "taking a tile" in styles[0].description
    assert "2 silverlings" in styles[1].description


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


def test_rules_text_is_short_and_lists_what_is_reconstructed():
    text = renderer.rules_text()
    assert len(text) < 1500
    assert "tiebreak" in text and "board 1" in text and "Reconstructed" in text


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
