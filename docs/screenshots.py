"""Remakes the README's pictures of the bot: one game per title, played for a few moves in
the playground and photographed in headless Chromium, as a visitor would see it in Discord.

    python docs/screenshots.py [--moves N] [--out docs]

Needs the test extra (Playwright) and a Chromium (Debian's `chromium` package).
"""

from __future__ import annotations

import argparse
import asyncio
import io
import tempfile
import time
from pathlib import Path

from PIL import Image

from meeple_hall import games
from meeple_hall.bot.playground.browser import TablePage, chromium
from meeple_hall.bot.playground.session import Options, Session

TITLES = ("keyflower", "burgundy", "village", "coffee")
VIEWPORT = {"width": 1100, "height": 1400}
# A phone's width (CSS pixels), where the panel Take turn opens is photographed; the page
# is as tall as the panel, so that it is photographed whole, not scrolled under the header.
PHONE = {"width": 412, "height": 3200}
# A PNG per title small enough for a README: 256 colours keep the pictures' flat colours.
COLOURS = 256


def shrink(png: bytes) -> bytes:
    image = Image.open(io.BytesIO(png)).convert("RGB")
    out = io.BytesIO()
    image.quantize(COLOURS, method=Image.Quantize.MEDIANCUT).save(out, "PNG", optimize=True)
    return out.getvalue()


async def photograph(game: str, moves: int, out: Path, folder: Path) -> list[Path]:
    """The table after the person's `moves` (playground-GAME.png), then the panel of their
    next decision with its picture, on a phone (playground-GAME-phone.png)."""
    options = Options(game=game, players=3, db=folder / f"{game}.db")
    async with Session(options) as session, chromium() as browser:
        page = await browser.new_page(viewport=VIEWPORT)
        table = TablePage(page)
        await table.open(session.url)
        await table.start_lobby()
        live = session.bot.manager.in_channel(session.current.id)
        for _ in range(moves):
            await table.play_move(session, live.id)
        message = await table.table_message()
        targets = [out / f"playground-{game}.png", out / f"playground-{game}-phone.png"]
        targets[0].write_bytes(shrink(await message.screenshot()))
        await page.set_viewport_size(PHONE)
        await table.wait_for_turn(session, live.id)
        await table.take_turn()
        panel = await table.panel_message()
        await page.mouse.move(0, 0)  # not over the panel: no message actions shown
        targets[1].write_bytes(shrink(await panel.screenshot()))
        return targets


async def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--moves", type=int, default=3, help="the person's moves per game")
    parser.add_argument("--out", type=Path, default=Path(__file__).parent)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        for game in TITLES:
            started = time.perf_counter()
            paths = await photograph(game, args.moves, args.out, Path(folder))
            seconds = time.perf_counter() - started
            sizes = ", ".join(f"{path} ({path.stat().st_size / 1024:.0f} KiB)" for path in paths)
            print(f"{games.get(game).name}: {sizes}, {seconds:.1f} s")


if __name__ == "__main__":
    asyncio.run(main())
