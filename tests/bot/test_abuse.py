"""A game survives abuse: a seeded stream of strangers' clicks, stale panels, double clicks,
nonsense `/move` text and restarts mixed into real play. After every event the store, replayed
from the setup, gives exactly the live game; only the seats' own legal moves ever change it;
and the game still plays to its end."""

from __future__ import annotations

import copy
import random

import pytest

from meeple_hall import games
from meeple_hall.bot.store import TableStatus
from meeple_hall.games import Action
from tests.bot.conftest import (
    REAL_GAMES,
    answer_panel,
    click_as_it_was,
    raw_buttons,
    selects,
    start_game,
    stored_message,
    table_message,
)

NONSENSE = ("?", "pass pass pass pass", "🎲", "bid -1", "x" * 300, "none none", "' OR 1=1 --")


async def replayed_from_setup(bot, table_id: int) -> str:
    """The game as its setup and its logged moves make it, ignoring every snapshot."""
    table = await bot.store.get_table(table_id)
    engine = games.get(table.game)
    state = engine.new(len(table.seats), table.seed, table.options)
    for entry in await bot.store.actions(table_id):
        state = engine.apply(state, Action(entry.seat, entry.choices))
    return engine.dump(state)


class Monkey:
    """Plays one table: each step is a legal move by a seat, an abuse that must change
    nothing, or a restart."""

    def __init__(self, table, make_bot, seats, seed: int) -> None:
        self.table = table
        self.make_bot = make_bot
        self.seats = seats
        self.rng = random.Random(seed)
        self.answered: list[tuple[object, object]] = []  # (member, panel as it was shown)
        self.table_id = self.game.id

    @property
    def game(self):
        return self.table.env.bot.manager.in_channel(self.table.channel.id)

    async def step(self) -> None:
        kind = self.rng.choices(
            ("move", "stranger", "waiting", "stale", "nonsense", "restart"),
            weights=(8, 1, 1, 2, 1, 0.3),
        )[0]
        if kind == "move" or (kind == "stale" and not self.answered):
            await self.move()
        elif kind == "restart":
            await self.table.env.restart_bot(self.make_bot())
            await self.table.env.bot.manager.fetch_in(self.table.channel.id)  # its first use
        else:
            seq = self.game.seq
            reply = await getattr(self, kind)()
            if reply is not None:
                assert reply.response.ephemeral and reply.response.content, kind
            assert self.game.seq == seq, f"{kind} changed the game"
        if self.game is not None:
            assert await replayed_from_setup(self.table.env.bot, self.table_id) == (
                self.game.engine.dump(self.game.state)
            )

    async def move(self) -> None:
        game = self.game
        humans = [d.seat for d in game.decisions() if not game.table.seats[d.seat].ai]
        member = self.seats[self.rng.choice(humans)]
        opened = await member.click(table_message(self.table.channel), label="Take turn")
        shown = copy.deepcopy(stored_message(self.table.env, opened.response))
        seq = game.seq
        await answer_panel(member, opened.response, self.rng)
        if self.game is None or self.game.seq > seq:
            self.answered = [*self.answered[-5:], (member, shown)]

    async def stranger(self):
        """Dave, who has no seat, opens the table, then clicks on someone's old panel."""
        reply = await self.table.dave.click(table_message(self.table.channel), label="Take turn")
        assert "aren't seated" in reply.response.content
        if self.answered:
            _, shown = self.rng.choice(self.answered)
            await self.click_any(self.table.dave, shown)
        return reply

    async def waiting(self):
        """A seated player with nothing to decide opens the table."""
        deciding = {d.seat for d in self.game.decisions()}
        idle = [m for seat, m in enumerate(self.seats) if seat not in deciding]
        if not idle:
            return None
        reply = await self.rng.choice(idle).click(
            table_message(self.table.channel), label="Take turn"
        )
        assert "isn't your turn" in reply.response.content
        return reply

    async def stale(self):
        """A panel already answered is clicked again as it was shown: a double click, or a
        click on a panel that a later move made out of date."""
        member, shown = self.rng.choice(self.answered)
        return await self.click_any(member, shown)

    async def nonsense(self):
        member = self.rng.choice([*self.seats, self.table.dave])
        return await member.slash(self.table.channel, "move", text=self.rng.choice(NONSENSE))

    async def click_any(self, member, shown):
        components = [
            c
            for c in raw_buttons(shown) + selects(shown)
            if ":o:" in c["custom_id"] or c["type"] == 3
        ]
        picked = self.rng.choice(components)
        values = [self.rng.choice(picked["options"])["value"]] if picked["type"] == 3 else None
        return await click_as_it_was(member, shown, picked["custom_id"], values)


@pytest.mark.parametrize("seed", [1, 2])
async def test_the_test_game_survives_abuse_to_its_end(table, make_bot, seed):
    await start_game(table, table.bob, ai=1)
    monkey = Monkey(table, make_bot, [table.alice, table.bob], seed)
    for _ in range(400):
        if monkey.game is None:
            break
        await monkey.step()
    else:
        raise AssertionError("the game did not end")
    stored = await table.env.bot.store.get_table(monkey.table_id)
    assert stored.status is TableStatus.FINISHED
    assert "final scores" in table.channel.last_message.embeds[0].title


@pytest.mark.parametrize("game_id", REAL_GAMES)  # the test game's abuse runs to its end above
async def test_each_game_survives_abuse(table, make_bot, game_id):
    await start_game(table, table.bob, ai=1, game=game_id)
    monkey = Monkey(table, make_bot, [table.alice, table.bob], seed=len(game_id))
    for _ in range(15):
        await monkey.step()
    seq = monkey.game.seq
    await table.env.restart_bot(make_bot())
    assert (await table.env.bot.manager.fetch_in(table.channel.id)).seq == seq
    for _ in range(15):
        await monkey.step()
    assert monkey.game.seq > seq
