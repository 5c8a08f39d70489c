"""The menus of the newest panel open with a real mouse click and a real tap (issue 29):
in a headless Chromium, at desktop and phone sizes, in each of the four real games, the
channel does not jump and the menu's list shows, and a line picked the same way answers
the panel."""

from __future__ import annotations

import asyncio
from functools import partial

import pytest

from meeple_hall.bot.playground.browser import EPHEMERAL, NoPanel, TablePage, chromium
from meeple_hall.bot.playground.session import Options, Session

pytestmark = pytest.mark.browser
DESKTOP = {"viewport": {"width": 1280, "height": 800}}
PHONE = {"viewport": {"width": 390, "height": 844}, "has_touch": True, "is_mobile": True}
PLAYERS = {"burgundy": 2, "coffee": 2, "keyflower": 2, "village": 1}
# Moves played (by the driver) looking for a panel with a menu; Burgundy's first panels
# have buttons only: then the newest panel's button is pressed instead.
MOVES_TO_A_MENU = 3
TIMELINE = "#channel-timeline"


async def newest_menu(table: TablePage, session: Session, table_id: int) -> str | None:
    """The control key of a menu on the newest panel: Take turn, and play moves (through
    the page) until a panel offers a menu; None if none did (a panel is open)."""
    for move in range(MOVES_TO_A_MENU + 1):
        await table.wait_for_turn(session, table_id)
        await table.take_turn()
        try:
            _, choices = await table._panel()
        except NoPanel:
            continue
        if choices["menus"]:
            return choices["menus"][0]["key"]
        if move < MOVES_TO_A_MENU:
            await table.play_move(session, table_id)
    return None


async def press(page, locator, touch: bool) -> None:
    """A real pointer press at the middle of what `locator` shows."""
    box = await locator.bounding_box()
    assert box is not None, "not shown"
    x, y = box["x"] + box["width"] / 2, box["y"] + box["height"] / 2
    if touch:
        await page.touchscreen.tap(x, y)
    else:
        await page.mouse.click(x, y)


async def press_a_button(table: TablePage, page, touch: bool) -> None:
    """The newest panel's first choice pressed with the pointer: the bot answers it."""
    panel, choices = await table._panel()
    shown = await panel.inner_text()
    button = panel.locator("button.component-button").nth(choices["buttons"][0])
    await button.scroll_into_view_if_needed()
    answer = await table._acting(partial(press, page, button, touch))
    assert answer.ok
    assert await page.locator(EPHEMERAL).last.inner_text() != shown


@pytest.mark.parametrize("size", ["desktop", "phone"])
@pytest.mark.parametrize("game", sorted(PLAYERS))
async def test_a_menu_opens_with_a_click_or_a_tap(tmp_path, chromium_path, game, size):
    touch = size == "phone"
    options = Options(game=game, players=PLAYERS[game], db=tmp_path / "playground.db")
    async with Session(options) as session, chromium(chromium_path) as browser:
        context = await browser.new_context(**(PHONE if touch else DESKTOP))
        page = await context.new_page()
        table = TablePage(page)
        await table.open(session.url)
        await table.start_lobby()
        game_id = session.bot.manager.in_channel(session.current.id).id
        key = await newest_menu(table, session, game_id)
        if key is None:
            await press_a_button(table, page, touch)
            return

        trigger = page.locator(f".preview-select[data-control-key='{key}'] .select-trigger")
        options_list = page.locator(f"[data-control-key='{key}:options']")
        await trigger.scroll_into_view_if_needed()
        await table.settled()
        before = await page.locator(TIMELINE).evaluate("timeline => timeline.scrollTop")
        await press(page, trigger, touch)
        await options_list.wait_for(timeout=5000)
        await asyncio.sleep(0.5)  # a frame or two: a list closed after opening would show
        assert await options_list.is_visible()
        after = await page.locator(TIMELINE).evaluate("timeline => timeline.scrollTop")
        assert abs(after - before) <= 2, f"the channel jumped {before - after:.0f} px"

        line = options_list.locator("[role='option']:not([aria-disabled='true'])").first
        multi = await options_list.get_attribute("aria-multiselectable") == "true"
        panel = page.locator(EPHEMERAL).last
        shown = await panel.inner_text()

        async def pick_line() -> None:
            await press(page, line, touch)
            if multi:
                await press(page, trigger, touch)  # closing a multi-line menu sends it

        answer = await table._acting(pick_line, attempts=1)
        assert answer.ok
        # The bot answered the line: the panel moved on (its next step, or the move made).
        assert await page.locator(EPHEMERAL).last.inner_text() != shown
