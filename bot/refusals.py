"""What the bot turns down, as types: callers branch on the class, never on a message key.

As python-chess has `IllegalMoveError` under `ValueError`, a refusal is a small hierarchy:
`Refusal` at the top, a family below it (out of date, not seated, not your turn, game over,
illegal move, a component from elsewhere …), and each class carrying the message key it is
shown with (`key`, in bot/locales/*.json) and that message's fields. The keys are the ones
the bot always showed: the catalogues need nothing new.

`Refusal(key, **fields)` itself still stands for a refusal no family names yet (a lobby's
or a tournament's own rules, in their cogs).
"""

from __future__ import annotations

from typing import Any, ClassVar

from meeple_hall.bot.store import LobbyClosed, TableStatus


class Refusal(Exception):
    """A move or request the bot turns down; `key` names the message to show, `fields`
    fills it in."""

    KEY: ClassVar[str] = "error.unexpected"

    def __init__(self, key: str | None = None, **fields: Any) -> None:
        self.key = key or self.KEY
        super().__init__(self.key)
        self.fields = fields


# -- the table and the caller's place at it ----------------------------------------------
class GameOver(Refusal):
    """The game ended (here or in another process) before this could be done."""

    KEY = "game.over"


class NoGameHere(Refusal):
    KEY = "game.none_here"


class NotSeated(Refusal):
    """The caller has no seat at this table."""

    KEY = "game.not_seated"


class Resigned(NotSeated):
    """The caller's seat is played out by the AI since they resigned."""

    KEY = "game.resigned"


class NotYourTurn(Refusal):
    KEY = "move.not_your_turn"


# -- moves ---------------------------------------------------------------------------------
class OutOfDate(Refusal):
    """What the player saw no longer holds: the table moved on."""


class Stale(OutOfDate):
    """A panel (or a chain, or a timeout) built for a decision the seat no longer has: the
    panel is shown afresh."""

    KEY = "move.stale"


class UndoStale(OutOfDate):
    """An Undo button for a move that is no longer the one an undo would take back."""

    KEY = "undo.stale"


class IllegalMove(Refusal, ValueError):
    """Choices the engine refuses; `reason` is the engine's message (a game text)."""

    KEY = "move.illegal"

    def __init__(self, reason: Any) -> None:
        super().__init__(reason=reason)


class TypedMoveRefused(Refusal, ValueError):
    """A `/move text:` that names no move."""


class EmptyMove(TypedMoveRefused):
    KEY = "move.empty"


class UnknownToken(TypedMoveRefused):
    KEY = "move.unknown_token"

    def __init__(self, token: str, prompt: Any, options: str) -> None:
        super().__init__(token=token, prompt=prompt, options=options)


class EngineFailed(Refusal):
    """The engine raised something other than an illegal action: nothing was applied."""

    KEY = "error.unexpected"


# -- undo ----------------------------------------------------------------------------------
class NoUndo(Refusal):
    """Nothing the seat may take back (games/core/undo.py says why: `undo.<reason>`)."""

    def __init__(self, reason: str) -> None:
        super().__init__(f"undo.{reason}")
        self.reason = reason


class MadeForYou(NoUndo):
    """The seat's latest move was made for it (a timeout, the AI): not the seat's to undo."""

    def __init__(self) -> None:
        super().__init__("made_for_you")


# -- components ----------------------------------------------------------------------------
class ComponentRefused(Refusal):
    """A click on a component this bot would not have sent here."""


class UnknownComponent(ComponentRefused):
    """An id no button of this bot carries (forged, malformed, or from a removed feature)."""

    KEY = "component.unknown"


class Elsewhere(ComponentRefused):
    """An id naming a table or tournament of another server or channel."""

    KEY = "component.elsewhere"


# -- lobbies -------------------------------------------------------------------------------
class LobbyRefused(Refusal):
    """A lobby action that came too late or with the wrong seats."""


class LobbyNotOpen(LobbyRefused):
    KEY = "lobby.closed"


class AlreadyStarted(LobbyNotOpen):
    KEY = "lobby.already_started"


class WrongSeatCount(LobbyRefused):
    KEY = "lobby.seat_count"

    def __init__(self, low: int, high: int) -> None:
        super().__init__(min=low, max=high)


class HostOnly(Refusal):
    KEY = "lobby.host_only"


# -- abandoning ----------------------------------------------------------------------------
class AbandonChanged(OutOfDate):
    """A confirmed `/abandon` whose plan is no longer the one confirmed."""

    KEY = "abandon.changed"


class AbandonPending(Refusal):
    KEY = "abandon.pending"

    def __init__(self, link: str) -> None:
        super().__init__(link=link)


def lobby_refusal(closed: LobbyClosed) -> LobbyNotOpen:
    """What to tell someone whose lobby action came after the lobby closed."""
    started = closed.status in (TableStatus.ACTIVE, TableStatus.FINISHED, TableStatus.ABANDONED)
    return AlreadyStarted() if started else LobbyNotOpen()
