"""One click path (issue 27): every change to a game's log goes through the one commit path
(bot/commits.py), and what the bot turns down is a type (bot/refusals.py) whose message is
the one players always read, in their own language."""

from __future__ import annotations

import inspect
import random

import pytest

from meeple_hall.bot import refusals
from meeple_hall.bot.commits import CommitPath
from meeple_hall.bot.i18n import catalogue, t
from meeple_hall.bot.live_game import decision_hash
from meeple_hall.games.core.undo import undone_seq
from tests.bot.conftest import (
    LANGUAGES,
    REAL_GAMES,
    answer_seat,
    awaited_humans,
    seated_member,
    start_game,
    table_message,
)
from tests.bot.test_component_ids import click_old

HOUR = 3600


def concrete_refusals() -> list[type[refusals.Refusal]]:
    found = [
        kind
        for _, kind in inspect.getmembers(refusals, inspect.isclass)
        if issubclass(kind, refusals.Refusal) and "KEY" in vars(kind)
    ]
    return sorted(found, key=lambda kind: kind.__name__)


@pytest.mark.parametrize("lang", LANGUAGES)
def test_each_refusal_type_says_a_message_every_catalogue_has(lang):
    kinds = concrete_refusals()
    assert {refusals.Stale, refusals.NotYourTurn, refusals.GameOver, refusals.Elsewhere} <= set(
        kinds
    )
    for kind in kinds:
        assert kind.KEY in catalogue(lang), (kind.__name__, kind.KEY)
    assert issubclass(refusals.Resigned, refusals.NotSeated)
    assert issubclass(refusals.IllegalMove, ValueError)
    assert not issubclass(refusals.UndoStale, refusals.Stale)  # an Undo is not a panel


@pytest.fixture
def commits(monkeypatch) -> list[tuple[int, int, int | None, tuple[str, ...]]]:
    """Each commit as it goes through the commit path: (table, entries, user, first choices)."""
    seen: list[tuple[int, int, int | None, tuple[str, ...]]] = []
    original = CommitPath.commit

    async def commit(self, game, seat, entries, user_id, history):
        await original(self, game, seat, entries, user_id, history)
        seen.append((game.id, len(entries), user_id, entries[0].choices))

    monkeypatch.setattr(CommitPath, "commit", commit)
    return seen


@pytest.mark.parametrize("game_id", REAL_GAMES)
async def test_moves_undo_timeouts_and_the_ai_are_all_committed_by_one_path(
    table, commits, game_id
):
    game = await start_game(table, table.bob, ai=1, game=game_id, options="clock=12h")
    rng = random.Random(8)
    for _ in range(3):
        await answer_seat(table, game, awaited_humans(game)[0], rng)
    seat = awaited_humans(game)[0]
    member = seated_member(table, game, seat)
    await member.slash(table.channel, "undo")  # taken back, or refused: either way no stray log
    await table.env.advance_time(40 * HOUR)  # a timeout, then the AI seats play on
    await table.env.settle()

    logged = await table.env.bot.store.actions(game.id)
    assert sum(entries for table_id, entries, _, _ in commits if table_id == game.id) == len(logged)
    users = [user for table_id, _, user, _ in commits if table_id == game.id]
    assert None in users and any(user is not None for user in users)  # the AI, and players
    timed_out = [e for e in logged if e.user_id is None and not game.table.seats[e.seat].ai]
    assert timed_out, "no timeout was committed"
    undone = [entry for entry in logged if undone_seq(entry.choices) is not None]
    assert all(entry.user_id == member.id for entry in undone)


@pytest.mark.parametrize("lang", LANGUAGES)
@pytest.mark.parametrize("game_id", REAL_GAMES)
async def test_typed_refusals_reach_the_player_in_their_language(table, game_id, lang):
    game = await start_game(table, table.bob, game=game_id)
    seat = awaited_humans(game)[0]
    member = seated_member(table, game, seat)
    await member.slash(table.channel, "settings", language=lang)
    await table.dave.slash(table.channel, "settings", language=lang)

    stranger = await table.dave.click(table_message(table.channel), label="Take turn")
    assert stranger.response.content == t(lang, refusals.NotSeated.KEY)

    decision = game.decision_for(seat)
    old_ref = f"g:{game.id}:{game.seq}:{decision_hash(decision)}"
    await answer_seat(table, game, seat, random.Random(2))
    option = decision.options[0].id
    late = await click_old(table.env, member, table.channel, f"{old_ref}:o:{option}")
    content = late.response.content
    if game.decision_for(seat) is not None:  # a Stale panel is shown afresh
        assert content.startswith("⚠️ " + t(lang, "move.stale_refreshed")), content
    else:
        assert content == t(lang, refusals.NotYourTurn.KEY)
