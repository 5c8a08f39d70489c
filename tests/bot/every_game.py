"""Helpers for bot tests that run on every game (the test rule, README "Contributing"):
what a test may say of any game without knowing its rules."""

from __future__ import annotations

import random
from dataclasses import dataclass

from meeple_hall import games
from meeple_hall.bot import table_settings
from meeple_hall.games.testing import random_choices


@dataclass(frozen=True)
class Choosable:
    """Something a lobby lets the host choose: a game's option, or for a game without any,
    a table setting (both are typed in `/new options:` and offered in the lobby's menus)."""

    name: str
    choices: tuple[str, ...]
    default: str
    is_setting: bool

    @property
    def other(self) -> str:
        """A choice that is not the default."""
        return next(c for c in self.choices if c != self.default)


def first_choosable(game_id: str) -> Choosable:
    options = games.get(game_id).options
    if options:
        first = options[0]
        return Choosable(first.id, tuple(c.id for c in first.choices), first.default, False)
    setting = table_settings.declared()[0]
    return Choosable(setting.id, setting.choices, setting.default, True)


def joining(table, game_id: str) -> list:
    """Who joins Alice: nobody where the game is played alone (the test game, Village
    against Karla), else Bob."""
    return [] if games.get(game_id).min_players == 1 else [table.bob]


def typed(game, seat: int, rng: random.Random | None = None) -> str:
    """A legal answer to the seat's current decision, as one `/move` token."""
    decision = game.decision_for(seat)
    assert decision is not None, f"seat {seat} has nothing to decide"
    return ",".join(random_choices(decision, rng or random.Random(seat))) or "none"


def acting_seat(game) -> int:
    """The first human seat the game awaits."""
    return next(d.seat for d in game.decisions() if not game.table.seats[d.seat].ai)


def lobby_menu_value(raw_lobby, name: str, value: str) -> tuple[str, str]:
    """The custom_id of the lobby menu that offers `name=value`, and the value to pick in
    it: the option's own menu, or a line of a shared one ("More options")."""
    from tests.bot.conftest import selects

    for menu in selects(raw_lobby):
        offered = [o["value"] for o in menu["options"]]
        if menu["custom_id"].endswith(f":opt:{name}") and value in offered:
            return menu["custom_id"], value
        if ":opts" in menu["custom_id"] and f"{name}={value}" in offered:
            return menu["custom_id"], f"{name}={value}"
    raise AssertionError(f"no lobby menu offers {name}={value}")


def prompt_shown(game, seat: int, locale: str = "en") -> str:
    """The seat's current decision's prompt, as a panel shows it."""
    from meeple_hall.bot.i18n import game_text

    return game_text(locale, game.decision_for(seat).prompt)


async def answer_humans_until_ai(table, game, rng: random.Random, most: int = 50) -> None:
    """The human seats answer (through the bot's move path) until only AI seats are awaited
    (the tests that call it hold the AI back)."""
    from tests.bot.conftest import answer_seat, awaited_humans

    for _ in range(most):
        humans = awaited_humans(game)
        if not humans:
            return
        await answer_seat(table, game, humans[0], rng)
    raise AssertionError("the humans are still awaited")


async def submit(table, game, seat: int, choices: tuple[str, ...]) -> None:
    """A seat's move through the running bot's own move path, as its player."""
    user_id = game.table.seats[seat].user_id
    await table.env.bot.manager.submit(game, seat, choices, user_id=user_id)


async def play_until(
    table, game, found, rng: random.Random, most: int = 600, *, each_shown: bool = False
):
    """The awaited human seats answer at random through the bot's move path until
    `found(game)` gives something; returns it once the table shows the game as it is.
    `each_shown`: the table is shown after every move (as when players take their time;
    else the table shows only where the moves stopped)."""
    for _ in range(most):
        if hit := found(game):
            await table_shown(table, game)
            return hit
        assert game.decisions(), "the game ended before it came to what the test needs"
        seat = acting_seat(game)
        await submit(table, game, seat, random_choices(game.decision_for(seat), rng))
        if each_shown:
            await table_shown(table, game)
    raise AssertionError("the game never came to what the test needs")


def twice_in_a_row(rng: random.Random):
    """For `play_until`: a seat and an answer after which the same seat decides again,
    with nothing drawn or revealed (so /move can type both at once, and /undo can take the
    first back)."""
    from meeple_hall.bot.moves import hidden_parts
    from meeple_hall.games import Action
    from tests.bot.conftest import awaited_humans

    def found(game) -> tuple[int, tuple[str, ...], tuple[str, ...]] | None:
        """The seat, its answer and an answer to the decision that follows."""
        if not awaited_humans(game):
            return None
        seat = acting_seat(game)
        choices = random_choices(game.decision_for(seat), rng)
        action = Action(seat, choices)
        after = game.engine.apply(game.state, action)
        again = next((d for d in game.engine.decisions(after) if d.seat == seat), None)
        if again is None or hidden_parts(after) != hidden_parts(game.state):
            return None
        if game.engine.reveals(game.state, action, after):
            return None
        return seat, choices, random_choices(again, rng)

    return found


async def near_the_end(table, game, rng: random.Random, left: int = 6) -> None:
    """Plays the game through the bot's move path (a random line worked out on the engine
    first) until `left` moves of that line remain."""
    from meeple_hall.games import Action

    state, line = game.state, []
    while pending := game.engine.decisions(state):
        action = Action(pending[0].seat, random_choices(pending[0], rng))
        state = game.engine.apply(state, action)
        line.append(action)
    for action in line[: max(0, len(line) - left)]:
        await submit(table, game, action.seat, action.choices)
    await table_shown(table, game)


def one_click_answer(panel) -> tuple[str, list[str] | None]:
    """A click that answers a panel at once: an option's button (values None), or a line
    of a one-choice menu (its custom_id and the value picked)."""
    from tests.bot.conftest import raw_buttons, selects

    for b in raw_buttons(panel):
        if ":o:" in b["custom_id"]:
            return b["custom_id"], None
    confirm = [b for b in raw_buttons(panel) if b["custom_id"].endswith(":c")]
    for menu in selects(panel):
        if not confirm and menu.get("max_values", 1) == 1:
            return menu["custom_id"], [menu["options"][0]["value"]]
    raise AssertionError("the panel has no one-click answer")


async def waiting_for(table, found, what: str, most_seconds: float = 30):
    """What `found()` gives once it gives something. A real game's pictures are drawn, and
    its AI seats think, in worker processes, which SimCord's settling does not see: after
    moves made through the bot's move path (not through Discord), or a game's last click,
    the table or the final scores can come a moment later. This waits for them, in real
    time, a little."""
    import asyncio

    for _ in range(int(most_seconds / 0.05)):
        if hit := found():
            return hit
        await asyncio.sleep(0.05)
        await table.env.settle()
    raise AssertionError(f"never came: {what}")


async def final_scores(table):
    """The channel's final scores message, once posted."""

    def posted():
        last = table.channel.last_message
        if last is not None and any("final scores" in (e.title or "") for e in last.embeds):
            return last
        return None

    return await waiting_for(table, posted, "the final scores")


def live_table_message(channel):
    """The newest message with a Take turn button, in any language, and the move it was
    posted for (its button's custom_id is t:<table>:<move>:take)."""
    from tests.bot.conftest import buttons

    for message in reversed(channel.history()):
        for custom_id in buttons(message).values():
            if custom_id.startswith("t:") and custom_id.endswith(":take"):
                return message, int(custom_id.split(":")[2])
    return None, None


async def table_shown(table, game):
    """The table message, once it shows the game as it stands (its move number), the AI
    seats have played and the DMs are out; or True, once the game is over."""

    def shown():
        display = table.env.bot.display
        if table.env.bot.manager._ai_tasks or display._tasks or display._dm_tasks:
            return None
        if not game.decisions():
            return True
        message, seq = live_table_message(table.channel)
        return message if seq == game.seq else None

    return await waiting_for(table, shown, f"the table at move {game.seq}")


def said(result) -> str:
    """Everything an interaction answered: its response and follow-ups."""
    return "\n".join([result.response.content or "", *(f.content or "" for f in result.followups)])
