"""Playing the playground's table page in a real, headless Chromium, as a person would:
for the browser test and for the README's screenshots (`docs/screenshots.py`).

Needs Playwright (`pip install playwright`, in the test extra) and a Chromium on the
machine: Debian's `chromium` package, or the one `MEEPLE_HALL_CHROMIUM` names. Playwright
drives it through `executable_path`, so no browser download is needed.
"""

from __future__ import annotations

import asyncio
import os
import random
import re
import shutil
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from functools import partial
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


def counted_label(key: str) -> re.Pattern[str]:
    """A label with a `{count}` field (Confirm (2)), whatever the count."""
    marker = "\x00"
    pattern = re.escape(t("en", key, count=marker)).replace(re.escape(marker), r"\d+")
    return re.compile(rf"^(\S+ )?{pattern}$")


# Buttons of a panel that do not answer its decision: paging, Confirm (sent after the menu
# lines it confirms) and Undo (a panel offers it after a move, issue 11).
NOT_CHOICES = (
    label(t("en", "panel.prev")),
    label(t("en", "panel.next")),
    counted_label("panel.confirm"),
    label(t("en", "undo.button")),
)
# The page is done with the last action and has drawn the bot's answer: nothing is in
# flight (SimCord's status line ends in "…" while an action or its refresh is pending, and
# its controls are blocked then) and the viewport is no longer busy rendering.
SETTLED = """() => {
  const app = document.getElementById("preview-app");
  const status = (document.getElementById("action-status")?.textContent || "").trim();
  return app?.getAttribute("aria-busy") === "false" && !status.endsWith("\u2026")
    && !status.includes("awaiting");
}"""
# The request id of the page's last action (its receipt), or null.
LAST_ACTION = "() => window.simcordPreview.lastAction?.requestId ?? null"
# Whether the page took a press as an action: the page admits an action in the click's own
# event handler, so once the press is delivered the action is in flight or, if the bot
# already answered, its receipt is newer than the one before the press.
TAKEN = """before => {
  const preview = window.simcordPreview;
  return Boolean(preview.pendingAction) || (preview.lastAction?.requestId ?? null) !== before;
}"""
# What a message offers as answers: its enabled buttons that are not NOT_CHOICES (their
# indices among its buttons) and its enabled menus (control key, fewest lines to pick).
CHOICES = """(article, notChoices) => {
  const skip = notChoices.map((source) => new RegExp(source));
  const buttons = [...article.querySelectorAll("button.component-button")]
    .map((b, index) => ({ index, enabled: b.getAttribute("aria-disabled") !== "true" && !b.disabled,
      name: (b.querySelector(".button-label")?.textContent || "").trim() }))
    .filter((b) => b.enabled && !skip.some((pattern) => pattern.test(b.name)))
    .map((b) => b.index);
  const menus = [...article.querySelectorAll(".preview-select")]
    .filter((m) => !m.querySelector(".select-trigger")?.disabled)
    .map((m) => ({ key: m.dataset.controlKey, minimum: Number(m.dataset.minimum || 1) }));
  return { buttons, menus };
}"""
# A menu's list once open: whether it takes several lines, and its enabled lines (indices).
MENU_LINES = """list => {
  const lines = [...list.querySelectorAll("[role='option']")];
  return [list.getAttribute("aria-multiselectable") === "true",
    lines.flatMap((o, i) => (o.getAttribute("aria-disabled") === "true" ? [] : [i]))];
}"""


class NoPanel(AssertionError):
    """The bot's newest answer to the person is not a decision panel."""


class LostPress(AssertionError):
    """The page took no action from a press: the browser gave the click to what was under
    the pointer when it was released, not to the control pressed (the page moved it)."""


class TablePage:
    """SimCord's channel page, driven with clicks on what the person sees."""

    def __init__(self, page: Any, rng: random.Random | None = None) -> None:
        self.page = page
        self.rng = rng or random.Random(17)

    async def open(self, url: str) -> None:
        await self.page.goto(url)
        await self.page.locator("article.channel-message").first.wait_for()
        await self.settled()

    async def settled(self) -> None:
        """Wait until the page has drawn the bot's answer to the last action."""
        await self.page.wait_for_function(SETTLED)

    async def _acting(self, click: Any, attempts: int = 3) -> Any:
        """Do a click that sends an interaction, and wait until the page has drawn the bot's
        answer (the page blocks its controls until then); returns the action's response.
        A press the page took no action from (LostPress) is made again, as a person
        would, up to `attempts` presses in all."""
        for _ in range(attempts):
            await self.settled()
            before = await self.page.evaluate(LAST_ACTION)
            try:
                async with self.page.expect_response(lambda r: ACTION_URL in r.url) as sent:
                    await click()
                    if not await self.page.evaluate(TAKEN, before):
                        raise LostPress("the page took no action from the press")
            except LostPress:
                continue
            await self.settled()
            return await sent.value
        raise LostPress(f"the page took no action from {attempts} presses")

    async def click_button(self, name: str) -> None:
        """The newest enabled button with that label."""
        await self.settled()
        button = self.page.get_by_role("button", name=label(name)).last
        await button.wait_for()
        await self._acting(button.click)

    async def start_lobby(self) -> None:
        await self.click_button(t("en", "lobby.start"))
        take_turn = label(t("en", "table.take_turn"))
        await self.page.get_by_role("button", name=take_turn).last.wait_for()

    # -- the person's ephemeral messages ------------------------------------------------------
    async def _newest_ephemeral(self) -> Any | None:
        """The newest message only the person sees (a panel or a refusal), or None."""
        ephemeral = self.page.locator(EPHEMERAL)
        if not await ephemeral.count():
            return None
        return ephemeral.last

    async def _ephemeral_id(self) -> str | None:
        newest = await self._newest_ephemeral()
        return None if newest is None else await newest.get_attribute("data-message-id")

    async def _choices(self, message: Any) -> dict[str, Any]:
        sources = [pattern.pattern for pattern in NOT_CHOICES]
        return await message.evaluate(CHOICES, sources)

    async def _panel(self) -> tuple[Any, dict[str, Any]]:
        """The newest ephemeral message and what it offers; NoPanel if it offers nothing
        (a refusal such as "not your turn", or the "waiting" panel left after a move)."""
        await self.settled()
        message = await self._newest_ephemeral()
        if message is None:
            raise NoPanel("no ephemeral message on the page")
        choices = await self._choices(message)
        if not choices["buttons"] and not choices["menus"]:
            raise NoPanel(f"the newest ephemeral message is no panel: {await message.inner_text()}")
        return message, choices

    async def take_turn(self, attempts: int = 5) -> None:
        """Take turn until the bot answers with a new decision panel. A refusal (the bot
        has not yet made it the person's turn, or the page showed an old table) is
        answered by taking the turn again once the page has read the bot's state anew."""
        last = ""
        for _ in range(attempts):
            before = await self._ephemeral_id()
            await self.click_button(t("en", "table.take_turn"))
            if await self._ephemeral_id() != before:
                try:
                    await self._panel()
                    return
                except NoPanel as refused:
                    last = str(refused)
            async with self.page.expect_response(lambda r: "/api/state" in r.url):
                pass
        raise AssertionError(f"Take turn never opened a panel ({last})")

    async def answer_panel(self) -> None:
        """Answer the newest panel at random: an option button, or one or more lines of one
        of its menus (then Confirm, when the panel has it). NoPanel if the newest ephemeral
        message is no decision panel."""
        message, choices = await self._panel()
        buttons, menus = choices["buttons"], choices["menus"]
        if buttons and (not menus or self.rng.random() < 0.5):
            button = message.locator("button.component-button").nth(self.rng.choice(buttons))
            await self._acting(button.click)
            return
        menu = self.rng.choice(menus)
        await self._answer_menu(menu["key"], max(1, menu["minimum"]))
        confirm = message.get_by_role("button", name=counted_label("panel.confirm"))
        if await confirm.count() and await confirm.last.is_enabled():
            await self._acting(confirm.last.click)

    async def _answer_menu(self, key: str, least: int, attempts: int = 5) -> None:
        """Opens a menu with a mouse click, as a person does, and picks lines at random
        (clicked too; a multi-line menu is sent with Enter). A page redraw can close a menu
        just opened, and a pick the page took no action from may leave it closed: open it
        again then."""
        from playwright.async_api import TimeoutError as PlaywrightTimeout

        trigger = self.page.locator(f".preview-select[data-control-key='{key}'] .select-trigger")
        options = self.page.locator(f"[data-control-key='{key}:options']")
        for _ in range(attempts):
            await self.settled()
            try:
                await self._open(trigger, options)
                multi, lines = await options.evaluate(MENU_LINES, timeout=5000)
                picks = (
                    self.rng.sample(lines, min(least, len(lines)))
                    if multi
                    else [self.rng.choice(lines)]
                )
                pick = [options.locator("[role='option']").nth(i) for i in picks]
                if multi:
                    for option in pick:
                        await option.click(timeout=5000)
                    await self._acting(lambda: self.page.keyboard.press("Enter"), attempts=1)
                else:
                    await self._acting(partial(pick[0].click, timeout=5000), attempts=1)
                return
            except (PlaywrightTimeout, LostPress):
                if await options.is_visible():
                    await self.page.keyboard.press("Escape")
        raise AssertionError(f"the menu {key} did not open")

    async def _open(self, trigger: Any, options: Any, clicks: int = 4) -> None:
        """Click the menu until its list shows (a click on a menu the page still counts
        as open closes it: click again then)."""
        from playwright.async_api import TimeoutError as PlaywrightTimeout

        for _ in range(clicks):
            await trigger.click(timeout=5000)
            try:
                await options.wait_for(timeout=1000)
                return
            except PlaywrightTimeout:
                continue
        await options.wait_for(timeout=1)  # raises: the list never showed

    @staticmethod
    async def wait_for_turn(session: Any, table_id: int, seat: int = 0) -> None:
        """Until the bot awaits the seat (the AI seats think first)."""
        for _ in range(1200):
            if (await session.bot.manager.fetch(table_id)).decision_for(seat) is not None:
                return
            await asyncio.sleep(0.05)
        raise AssertionError("the person's turn never came")

    async def play_move(self, session: Any, table_id: int, seat: int = 0) -> None:
        """One move of the person's: wait for their turn (the AI seats think first), Take
        turn, and answer panels until the bot has applied a move. A panel taken back by
        the bot (a refusal in its place) is met with Take turn again."""
        await self.wait_for_turn(session, table_id, seat)
        before = (await session.bot.manager.fetch(table_id)).seq
        await self.take_turn()
        for _ in range(12):
            try:
                await self.answer_panel()
            except NoPanel:
                await self.take_turn()
                continue
            if (await session.bot.manager.fetch(table_id)).seq > before:
                return
        raise AssertionError("the panels never applied a move")

    async def table_message(self) -> Any:
        """The newest table message (the one with Take turn), its picture loaded."""
        await self.settled()
        take_turn = label(t("en", "table.take_turn"))
        message = (
            self.page.locator("article.channel-message")
            .filter(has=self.page.get_by_role("button", name=take_turn))
            .last
        )
        return await _with_picture(message)

    async def panel_message(self) -> Any:
        """The newest decision panel (the one Take turn opened), its picture loaded."""
        message, _ = await self._panel()
        return await _with_picture(message)


async def _with_picture(message: Any) -> Any:
    """`message` scrolled into view, once its first picture has loaded."""
    await message.scroll_into_view_if_needed()
    picture = message.locator("img.attachment-image").first
    await picture.wait_for()
    await picture.evaluate(
        "img => img.complete && img.naturalWidth ? null : new Promise((done, fail) => {"
        " img.addEventListener('load', done); img.addEventListener('error', fail); })"
    )
    return message
