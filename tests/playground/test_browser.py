"""A person plays in the playground through a real headless Chromium: the lobby, several
moves, their DMs on the companion page, and a bot restart that loses nothing."""

from __future__ import annotations

import pytest

from meeple_hall.bot.i18n import t
from meeple_hall.bot.playground.browser import TablePage, chromium
from meeple_hall.bot.playground.companion import Companion
from meeple_hall.bot.playground.session import Options, Session

pytestmark = pytest.mark.browser
VIEWPORT = {"width": 1280, "height": 900}


async def test_a_person_plays_in_the_browser(tmp_path, chromium_path, screenshots):
    options = Options(game="village", players=3, db=tmp_path / "playground.db")
    async with Session(options) as session, chromium(chromium_path) as browser:
        companion = Companion(session)
        await companion.start()
        try:
            page = await browser.new_page(viewport=VIEWPORT)
            table = TablePage(page)
            await table.open(session.url)
            assert await page.get_by_text("Village: lobby").count()
            await page.screenshot(path=screenshots / "1-lobby.png")

            await table.start_lobby()
            game = session.bot.manager.in_channel(session.current.id)
            assert game is not None and [s.ai for s in game.table.seats] == [False, True, True]
            for _ in range(3):
                await table.play_move(session, game.id)
            await (await table.table_message()).screenshot(path=screenshots / "2-table.png")

            dms = await browser.new_page(viewport=VIEWPORT)
            await dms.goto(companion.url)
            await dms.locator("#dm-list li").first.wait_for()
            assert "Village" in await dms.locator("#dm-list").inner_text()
            await dms.locator("#dm-list img").first.wait_for()
            await dms.screenshot(path=screenshots / "3-dms.png")

            seq = session.bot.manager.get(game.id).seq
            old_bot = session.bot
            await dms.get_by_role("button", name=t("en", "playground.restart")).click()
            await dms.locator("#restarted:not([hidden])").wait_for()
            assert session.bot is not old_bot
            restarted = await session.bot.manager.fetch(game.id)  # loaded on first use
            assert restarted.seq == seq  # reloaded from the store
            await table.play_move(session, game.id)  # the posted buttons still work
            await page.screenshot(path=screenshots / "4-after-restart.png")
        finally:
            await companion.close()
    print(f"screenshots in {screenshots}")
