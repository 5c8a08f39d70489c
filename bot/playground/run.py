"""`meeple-hall play`: the session, its companion page, the printed addresses."""

from __future__ import annotations

import webbrowser

from meeple_hall.bot.i18n import t
from meeple_hall.bot.playground.companion import Companion
from meeple_hall.bot.playground.console import can_open_browser, console_locale
from meeple_hall.bot.playground.session import Options, PlaygroundError, Session
from meeple_hall.bot.playground.world import WorldMismatch
from meeple_hall.stopping import run_until_stopped


async def serve(options: Options, open_browser: bool = True) -> None:
    """Runs the playground until the page's End session button, Ctrl+C or SIGTERM."""
    locale = console_locale()
    async with Session(options) as session:
        companion = Companion(session, port=options.port + 1 if options.port else 0)
        await companion.start()
        try:
            print(
                t(
                    locale,
                    "playground.console",
                    url=session.url,
                    companion=companion.url,
                    db=session.db_path,
                ),
                flush=True,
            )
            if open_browser and can_open_browser():
                webbrowser.open(session.url)
                webbrowser.open_new_tab(companion.url)
            await session.stopped.wait()
        finally:
            await companion.close()


def main(options: Options, open_browser: bool = True) -> None:
    """Runs the playground; Ctrl+C or SIGTERM stops it, its games kept."""
    try:
        stopped = run_until_stopped(serve(options, open_browser))
    except (PlaygroundError, WorldMismatch) as exc:
        locale = console_locale()
        reason = t(locale, exc.key, **exc.fields)
        raise SystemExit(t(locale, "playground.error", reason=reason)) from None
    if stopped:
        print(t(console_locale(), "playground.bye"), flush=True)
