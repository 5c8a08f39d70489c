"""Playing the playground's table page in a real, headless Chromium, as a person would:
for the browser test and for the README's screenshots (`docs/screenshots.py`).

Needs Playwright (`pip install playwright`, in the test extra) and a Chromium on the
machine: Debian's `chromium` package, or the one `MEEPLE_HALL_CHROMIUM` names. Playwright
drives it through `executable_path`, so no browser download is needed.
"""

from __future__ import annotations

import os
import random
import re
import shutil
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

from meeple_hall.bot.i18n import t

CHROMIUM_NAMES = ("chromium", "chromium-browser", "google-chrome", "google-chrome-stable")
# SimCord's page marks a message only its viewer sees with this note.
EPHEMERAL = "article.channel-message:has(.message-ephemeral-note)"
ACTION_URL = "/api/action"


def find_chromium() -> str | None:
    """The Chromium to drive: `MEEPLE_HALL_CHROMIUM`, else the first on PATH."""
    named = os.environ.get("MEEPLE_HALL_CHROMIUM")
    if named:
        return named if Path(named).exists() else None
    return next((found for name in CHROMIUM_NAMES if (found := shutil.which(name))), None)


@asynccontextmanager
async def chromium(executable: str | None = None) -> AsyncIterator[Any]:
    """A headless Chromium (Playwright's `Browser`)."""
    from playwright.async_api import async_playwright

    path = executable or find_chromium()
    if path is None:
        raise FileNotFoundError("no Chromium found: install Debian's chromium package")
    async with async_playwright() as playwright:
        # --no-sandbox: CI runs as root, where Chromium's sandbox refuses to start.
        browser = await playwright.chromium.launch(
            executable_path=path, headless=True, args=["--no-sandbox"]
        )
        try:
            yield browser
        finally:
            await browser.close()


def label(text: str) -> re.Pattern[str]:
    """A button's accessible name: its label, after the emoji the bot may put first."""
    return re.compile(rf"^(\S+ )?{re.escape(text)}$")


class TablePage:
    """SimCord's channel page, driven with clicks on what the person sees."""

    def __init__(self, page: Any, rng: random.Random | None = None) -> None:
        self.page = page
        self.rng = rng or random.Random(17)

    async def open(self, url: str) -> None:
        await self.page.goto(url)
        await self.page.locator("article.channel-message").first.wait_for()

    async def _acting(self, click: Any) -> None:
        """Do a click that sends an interaction, and wait until the bot has answered it."""
        async with self.page.expect_response(lambda r: ACTION_URL in r.url):
            await click()
        await self.page.wait_for_load_state("networkidle")

    async def click_button(self, name: str) -> None:
        """The newest enabled button with that label."""
        button = self.page.get_by_role("button", name=label(name)).last
        await button.wait_for()
        await self._acting(button.click)

    async def start_lobby(self) -> None:
        await self.click_button(t("en", "lobby.start"))
        take_turn = label(t("en", "table.take_turn"))
        await self.page.get_by_role("button", name=take_turn).last.wait_for()

    async def take_turn(self) -> None:
        await self.click_button(t("en", "table.take_turn"))
        await self.page.locator(EPHEMERAL).last.wait_for()

    async def answer_panel(self) -> None:
        """Answer the newest panel at random: an option button, or one or more lines of its
        menu (then Confirm, when the panel has it)."""
        panel = self.page.locator(EPHEMERAL).last
        menus = panel.locator(".preview-select")
        pager = {t("en", "panel.prev"), t("en", "panel.next"), t("en", "panel.confirm")}
        buttons = [
            b
            for b in await panel.locator(".component-button[aria-disabled='false']").all()
            if (await b.inner_text()).strip() not in pager
        ]
        if buttons and (not await menus.count() or self.rng.random() < 0.5):
            await self._acting(self.rng.choice(buttons).click)
            return
        menu = menus.nth(self.rng.randrange(await menus.count()))
        least = max(1, int(await menu.get_attribute("data-minimum") or 1))
        listbox = await self._open_menu(menu)
        options = await listbox.locator("[role='option']:not([aria-disabled='true'])").all()
        if await listbox.get_attribute("aria-multiselectable") == "true":
            for option in self.rng.sample(options, least):
                await option.click()
            await self._acting(lambda: self.page.keyboard.press("Enter"))
        else:
            await self._acting(self.rng.choice(options).click)
        confirm = panel.get_by_role("button", name=label(t("en", "panel.confirm")))
        if await confirm.count() and await confirm.last.is_enabled():
            await self._acting(confirm.last.click)

    async def _open_menu(self, menu: Any) -> Any:
        """Opens a menu from the keyboard, as a person can in Discord, and returns its list.
        The page redraws itself while the bot's answer arrives, which can close a menu just
        opened: try again then."""
        from playwright.async_api import TimeoutError as PlaywrightTimeout

        listbox = self.page.locator("[role='listbox']:visible").last
        for _ in range(10):
            await menu.locator(".select-trigger").focus()
            await self.page.keyboard.press("ArrowDown")
            try:
                await listbox.wait_for(timeout=1000)
                return listbox
            except PlaywrightTimeout:
                continue
        raise AssertionError("the menu did not open")

    async def table_message(self) -> Any:
        """The newest table message (the one with Take turn), its picture loaded."""
        take_turn = label(t("en", "table.take_turn"))
        message = (
            self.page.locator("article.channel-message")
            .filter(has=self.page.get_by_role("button", name=take_turn))
            .last
        )
        await message.scroll_into_view_if_needed()
        picture = message.locator("img").first
        await picture.wait_for()
        await picture.evaluate(
            "img => img.complete && img.naturalWidth ? null : new Promise((done, fail) => {"
            " img.addEventListener('load', done); img.addEventListener('error', fail); })"
        )
        return message
