"""Reopening the table page mid-game lands at the latest table, not at the top of the
channel on the lobby (issue 29)."""

from __future__ import annotations

import pytest

from meeple_hall.bot.i18n import t
from meeple_hall.bot.playground.browser import TablePage, chromium, label
from meeple_hall.bot.playground.session import Options, Session

pytestmark = pytest.mark.browser
PHONE = {"width": 390, "height": 844}
# Where a message shows in the channel, against the channel's visible part.
IN_VIEW = """message => {
  const box = message.getBoundingClientRect();
  const view = document.getElementById("channel-timeline").getBoundingClientRect();
  return box.bottom > view.top && box.top < view.bottom;
}"""


async def test_reopening_the_page_mid_game_lands_at_the_latest_table(tmp_path, chromium_path):
    options = Options(game="keyflower", players=2, db=tmp_path / "playground.db")
    async with Session(options) as session, chromium(chromium_path) as browser:
        page = await browser.new_page(viewport=PHONE)
        table = TablePage(page)
        await table.open(session.url)
        await table.start_lobby()
        game_id = session.bot.manager.in_channel(session.current.id).id
        for _ in range(3):
            await table.play_move(session, game_id)

        again = TablePage(await browser.new_page(viewport=PHONE))
        await again.open(session.url)
        messages = again.page.locator("article.channel-message")
        take_turn = again.page.get_by_role("button", name=label(t("en", "table.take_turn")))
        newest_table = messages.filter(has=take_turn).last
        await newest_table.wait_for()
        assert await newest_table.evaluate(IN_VIEW)
        assert not await messages.first.evaluate(IN_VIEW)  # the lobby, scrolled past
