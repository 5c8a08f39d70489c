"""Which view each picture was drawn from, recorded from outside the bot.

Every table, private and focus picture the bot draws goes through its picture pool
(`bot/render.py: PicturePool.run_latest`, which reads the view once a worker is free). The
season wraps that one method: the view handed to the drawing is kept under the hash of
the picture's bytes. A picture delivered in Discord (an attachment, kept by SimCord's CDN)
is then traced back to the view it shows, and the secrets invariant looks in that view
for another seat's hidden things. The bot's own code is not changed."""

from __future__ import annotations

import hashlib
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from meeple_hall.bot.render import PicturePool

if TYPE_CHECKING:
    from .run import Sim

Undo = Callable[[], None]


def fingerprint(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def record(sim: Sim) -> Undo:
    """From now on, remember the view of every picture drawn (in `sim.memory["drawn"]`)."""
    original = PicturePool.run_latest
    drawn: dict[str, dict[str, Any]] = sim.memory.setdefault("drawn", {})

    async def run_latest(
        self: PicturePool,
        game_id: str,
        draw: Callable[..., Any],
        args: Callable[[], tuple],
        table: int | None = None,
    ) -> Any:
        read: list[tuple] = []

        def reading() -> tuple:
            read.append(args())
            return read[-1]

        data = await original(self, game_id, draw, reading, table)
        # a table picture comes with its palette (render.encode_table)
        png = data[0] if isinstance(data, tuple) else data
        views = [a for a in (read[0] if read else ()) if isinstance(a, dict)]
        if isinstance(png, bytes) and views:
            drawn[fingerprint(png)] = views[0]
        return data

    PicturePool.run_latest = run_latest  # type: ignore[method-assign]
    return lambda: setattr(PicturePool, "run_latest", original)


def views_shown(sim: Sim, message: Any) -> list[dict[str, Any]]:
    """The views the message's pictures were drawn from (pictures the bot drew without a
    game's view, as the standings, have none)."""
    drawn: dict[str, dict[str, Any]] = sim.memory.get("drawn", {})
    found = []
    for attachment in message.attachments or []:
        data = sim.env.backend.cdn.get(attachment.get("url") or "")
        if data is not None and (view := drawn.get(fingerprint(data))) is not None:
            found.append(view)
    return found
