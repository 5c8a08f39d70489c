"""The Castles of Burgundy's pictures drawn from cached stamps and layers (issue 29 item 5):
the same picture whatever was drawn before it, and the look of drawing everything in place."""

import pytest
from PIL import Image, ImageChops

from meeple_hall.renderers import burgundy as renderer
from meeple_hall.renderers import stamps
from meeple_hall.renderers.phone import burgundy as phone
from tests.renderers.test_burgundy import playout


def clear_caches() -> None:
    for module in (renderer, stamps):
        for value in vars(module).values():
            clear = getattr(value, "cache_clear", None)
            if callable(clear):
                clear()


@pytest.fixture(scope="module")
def views():
    """Spectator and seat views at the start, in the middle and at the end of a random game
    at every player count."""
    out = {}
    for n in (2, 3, 4):
        moments, _ = playout(n, seed=20 + n, stops={0, 150}, to_the_end=True)
        out[n] = moments
    return out


def pictures(spectator, seat):
    return [
        renderer.render(spectator),
        renderer.render_private(seat),
        phone.render_own(seat),
        phone.render_focus(spectator, "depots"),
    ]


def test_a_picture_is_the_same_drawn_cold_warm_or_after_other_tables(views):
    every = [moment for n in (2, 3, 4) for moment in views[n]]
    cold = []
    for spectator, seat in every:
        clear_caches()
        cold.append([p.tobytes() for p in pictures(spectator, seat)])
    clear_caches()
    # warm: every moment again, in the opposite order, each after the others' pictures (other
    # player counts, seats and states), then once more with every cache filled
    for _ in range(2):
        for (spectator, seat), drawn in reversed(list(zip(every, cold, strict=True))):
            assert [p.tobytes() for p in pictures(spectator, seat)] == drawn


def draw_in_place(patch) -> None:
    """Every stamped drawing of the table drawn in place instead."""
    for glyph in stamps.shapes(renderer):
        patch.setattr(renderer, glyph.__name__, glyph.__wrapped__)


def differences(a: Image.Image, b: Image.Image) -> tuple[float, float, float]:
    """Per channel: the mean difference and the share of values more than 4 apart; and the
    share of pixels that differ at all."""
    assert a.size == b.size
    diff = ImageChops.difference(a, b)
    histogram = diff.histogram()  # 256 values a channel, the three channels one after another
    values = 3 * a.width * a.height
    per_value = [sum(histogram[v::256]) for v in range(256)]
    red, green, blue = diff.split()
    touched = ImageChops.lighter(ImageChops.lighter(red, green), blue).histogram()
    return (
        sum(v * count for v, count in enumerate(per_value)) / values,
        sum(per_value[5:]) / values,
        1 - touched[0] / (a.width * a.height),
    )


@pytest.mark.parametrize("n", [2, 3, 4])
def test_stamps_look_like_the_shapes_drawn_in_place(views, n, monkeypatch):
    """A stamp moved by whole pixels draws what Pillow draws in place, except where a hex's
    edge falls exactly on a pixel's border and rounding in the last bit of its coordinates
    takes the pixel or leaves it: a few pixels of an edge, well within the encoder's
    tolerance (tests/renderers/test_encoding.py: mean 1.5, 1 % of values more than 4 apart),
    under 0.2 % of the picture's pixels."""
    for spectator, seat in views[n]:
        clear_caches()
        stamped = pictures(spectator, seat)
        with monkeypatch.context() as patch:
            draw_in_place(patch)
            clear_caches()
            drawn = pictures(spectator, seat)
        clear_caches()
        for a, b in zip(stamped, drawn, strict=True):
            mean, far, differ = differences(a, b)
            assert mean <= 0.3 and far <= 0.002 and differ <= 0.002, (mean, far, differ)


SHAPES = {
    "die": lambda d: renderer.draw_die(d, 20.5, 20, 38, 6, True, (240, 200, 200)),
    "tile": lambda d: renderer.draw_tile(
        d, {"type": "animal", "animal": "cow", "value": 2}, 40.3, 41.7, 28
    ),
    "goods": lambda d: renderer.draw_goods(d, 20, 30, 24, 3, 2),
    "disc": lambda d: renderer.draw_disc(d, 45, 45.5, 18, 2),
}


@pytest.mark.parametrize("shape", SHAPES)
def test_a_stamp_covers_only_what_its_drawing_covers(shape, monkeypatch):
    """Pasted on a coloured ground, a stamp changes the pixels the drawing in place changes,
    and no other: the ground shows around a die, a tile, a goods stack and a disc."""
    from PIL import ImageDraw

    def drawn() -> Image.Image:
        clear_caches()
        picture = Image.new("RGB", (90, 90), (10, 200, 30))
        SHAPES[shape](ImageDraw.Draw(picture))
        return picture

    stamped = drawn()
    with monkeypatch.context() as patch:
        draw_in_place(patch)
        assert stamped.tobytes() == drawn().tobytes()
    assert stamped.getpixel((0, 0)) == stamped.getpixel((89, 89)) == (10, 200, 30)


def test_every_stamp_holds_its_whole_drawing(views, monkeypatch):
    """A drawing that reached the edge of its stamp would be cut there: around every stamp
    the pictures use, a border the drawing left untouched."""
    made = []

    def checked(*key):
        stamp = original(*key)
        made.append((key[0].__name__, key[-1], stamp.mask))
        return stamp

    original = stamps._shape_stamp.__wrapped__
    monkeypatch.setattr(stamps, "_shape_stamp", checked)
    for n in (2, 3, 4):
        for spectator, seat in views[n]:
            pictures(spectator, seat)
    extra = [
        (renderer.draw_goods, (20, 30, 34, kind, count)) for kind in (1, 6) for count in (9, 12)
    ]
    for draw, args in extra:
        from PIL import ImageDraw

        draw(ImageDraw.Draw(Image.new("RGB", (120, 120))), *args)
    assert {name for name, _, _ in made} >= {"_draw_tile", "draw_goods", "draw_die"}
    for name, args, mask in made:
        width, height = mask.size
        left, top, right, bottom = mask.getbbox() or (1, 1, 1, 1)
        inside = left >= 1 and top >= 1 and right <= width - 1 and bottom <= height - 1
        assert inside, (name, args)


def test_a_focus_drawn_alone_is_the_table_s_cell(views):
    """/board focus and the decision pictures draw one cell alone, not the whole table to
    crop it: the same pixels as the table's cell."""
    from meeple_hall.renderers.phone import crop, seat_of_focus

    for n in (2, 3, 4):
        for spectator, _ in views[n]:
            table = renderer.render(spectator)
            for focus in phone.focuses(spectator):
                seat = seat_of_focus(focus, n)
                x, y = (
                    renderer.seat_cell(n, seat)
                    if seat is not None
                    else renderer.cell(0, renderer.BOARD_CELLS.index(focus))
                )
                box = (x, y, x + renderer.CELL_W, y + renderer.CELL_H)
                cut = crop(table, box, pad=renderer.MARGIN // 2)
                assert phone.render_focus(spectator, focus).tobytes() == cut.tobytes(), focus
