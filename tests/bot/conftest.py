"""Bot tests run the real bot against SimCord's in-memory Discord, on a real SQLite file;
the modules in ON_POSTGRES_TOO run a second time on a real PostgreSQL database (the server
tests/postgres.py starts)."""

from __future__ import annotations

import asyncio
import random
import shutil
import zlib
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path

import discord
import pytest

from meeple_hall import games
from meeple_hall.bot import ai, create_bot
from meeple_hall.bot.store import open_store

# Where the bot meets the store most (lobbies, moves, restarts, every typed option): these
# run on both backends. The rest run on SQLite only, to keep the suite's time.
ON_POSTGRES_TOO = ("test_lobby.py", "test_play.py", "test_restart.py", "test_typed_moves.py")


def pytest_generate_tests(metafunc: pytest.Metafunc) -> None:
    if "backend" in metafunc.fixturenames and metafunc.definition.path.name in ON_POSTGRES_TOO:
        metafunc.parametrize("backend", ["sqlite", "postgres"], indirect=True)


def on_postgres_at_length(item: pytest.Item) -> bool:
    """The long random games typed through /move run on PostgreSQL at up to 2 players only:
    the store sees the same traffic at 2 players as at 6, in a fraction of the time."""
    params = getattr(item, "callspec", None)
    params = params.params if params else {}
    return params.get("backend") == "postgres" and params.get("num_players", 0) > 2


def on_postgres_elsewhere(item: pytest.Item) -> bool:
    """On PostgreSQL a test of ON_POSTGRES_TOO runs on the test game and on one real game,
    a different one from test to test (all four run it on SQLite): the store sees the same
    traffic whatever the game, and the real games on both backends would double the suite."""
    params = getattr(item, "callspec", None)
    params = params.params if params else {}
    game_id = params.get("game_id")
    if params.get("backend") != "postgres" or game_id not in REAL_GAMES:
        return False
    name = getattr(item, "originalname", item.name)
    return game_id != REAL_GAMES[zlib.crc32(name.encode()) % len(REAL_GAMES)]


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    # A loaded 2-core machine can take longer than SimCord's default 5 s to settle a move
    # that renders a picture; the bot is not stuck, only slow.
    for item in items:
        if item.get_closest_marker("simcord") is None and "tests/bot" in str(item.fspath):
            item.add_marker(pytest.mark.simcord(settle_timeout=60))
    skipped = [i for i in items if on_postgres_at_length(i) or on_postgres_elsewhere(i)]
    if skipped:
        config.hook.pytest_deselected(items=skipped)
        items[:] = [item for item in items if item not in skipped]


# The test rule (README, "Contributing"): a test of async play, the community layer or the
# bot's commands that runs on the test game also runs on each of the four real games.
TEST_GAMES = ("pebbles", "draft")
REAL_GAMES = tuple(game_id for game_id in games.ids() if game_id not in TEST_GAMES)
EVERY_GAME = ("pebbles", *REAL_GAMES)  # the test game first: it fails fastest
LANGUAGES = ("en", "zh-TW", "ja")


@pytest.fixture
def backend(request: pytest.FixtureRequest) -> str:
    return getattr(request, "param", "sqlite")


@pytest.fixture(scope="session")
def migrated_sqlite(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A SQLite file the store has opened once (every migration applied) and closed, made
    once per worker: each bot test's database is a copy of it, its own real file, so the
    tests skip the migrations (tests/store/ runs them on fresh files)."""
    path = tmp_path_factory.mktemp("migrated") / "meeple.db"

    async def migrate() -> None:
        store = open_store(f"sqlite:///{path}")
        await store.open()
        await store.close()

    # In a thread of its own: no test's event loop is touched.
    with ThreadPoolExecutor(max_workers=1) as thread:
        thread.submit(asyncio.run, migrate()).result()
    return path


@pytest.fixture
def database_url(backend: str, tmp_path: Path, request: pytest.FixtureRequest) -> str:
    if backend == "postgres":
        return request.getfixturevalue("migrated_postgres_url")
    path = tmp_path / "meeple.db"
    shutil.copyfile(request.getfixturevalue("migrated_sqlite"), path)
    return f"sqlite:///{path}"


@pytest.fixture(scope="session")
def ai_workers() -> Iterator[ai.WorkerPool]:
    """The AI seats' worker processes, one pool for every bot a test worker makes: real
    processes all the same, started once rather than by each bot at its first AI move (about
    1 s of CPU each time: every real-game test with an AI seat)."""
    workers = ai.WorkerPool()
    yield workers
    workers.shutdown()


@pytest.fixture
async def make_bot(database_url: str, ai_workers: ai.WorkerPool):
    """Builds bots on the test's database, and closes their stores afterwards (SimCord
    detaches a bot on restart without closing it)."""
    made = []
    seeds = random.Random(2026)

    def make():
        made.append(
            create_bot(database_url, new_seed=lambda: seeds.getrandbits(63), chooser=ai_workers)
        )
        return made[-1]

    yield make
    for bot in made:
        manager = getattr(bot, "manager", None)
        if manager is not None:
            await manager.close()  # its AI worker processes
        store = getattr(bot, "store", None)
        if store is not None:
            await store.close()


@pytest.fixture
def simcord_bot(make_bot):
    return make_bot()


@dataclass
class Table:
    """A guild with a channel, a host and three more members."""

    env: object
    guild: object
    channel: object
    alice: object
    bob: object
    carol: object
    dave: object


@pytest.fixture
def table(simcord_env) -> Table:
    guild = simcord_env.create_guild(name="Meeple Hall")
    channel = guild.create_text_channel("games")
    members = [
        guild.add_member(simcord_env.create_user(n)) for n in ("alice", "bob", "carol", "dave")
    ]
    return Table(simcord_env, guild, channel, *members)


def buttons(message: discord.Message) -> dict[str, str]:
    """label -> custom_id for every button on a message."""
    out = {}
    for row in message.components:
        for child in getattr(row, "children", []):
            if isinstance(child, discord.Button) and child.custom_id:
                out[child.label] = child.custom_id
    return out


def selects(message) -> list[dict]:
    """The raw select menus on a message (custom_id, options, min/max values)."""
    raw = message.components if isinstance(message.components, list) else []
    out = []
    for row in raw:
        children = row.get("components", []) if isinstance(row, dict) else []
        out += [c for c in children if c.get("type") == 3]
    return out


def raw_buttons(message) -> list[dict]:
    raw = message.components if isinstance(message.components, list) else []
    out = []
    for row in raw:
        children = row.get("components", []) if isinstance(row, dict) else []
        out += [c for c in children if c.get("type") == 2]
    return out


def table_message(channel) -> discord.Message:
    """The newest message with a Take turn button (the live table)."""
    for message in reversed(channel.history()):
        if "Take turn" in buttons(message):
            return message
    raise AssertionError("no table message in the channel")


async def start_game(table, *players, ai: int = 0, game: str = "pebbles", **options):
    """Alice opens a lobby, the others join, AI seats are added, Alice starts."""
    await table.alice.slash(table.channel, "new", game=game, **options)
    lobby = table.channel.last_message
    for member in players:
        await member.click(lobby, label="Join")
    for _ in range(ai):
        await add_ai(table.alice, lobby)
    await table.alice.click(lobby, label="Start")
    return table.env.bot.manager.in_channel(table.channel.id)


async def add_ai(member, lobby, level: str | None = None):
    """Add AI, then a level on the choice it answers with: `level`, or the game's default
    (the highlighted button). Returns the result of the level's click."""
    asked = await member.click(lobby, label="Add AI")
    assert asked.ephemeral, asked
    levels = [b for b in raw_buttons(asked.response) if b["custom_id"].startswith("l:")]
    if level is None:
        chosen = next(b for b in levels if b.get("style") == discord.ButtonStyle.primary.value)
    else:
        chosen = next(b for b in levels if b["custom_id"].endswith(f":ai:{level}"))
    return await member.click(asked.response, custom_id=chosen["custom_id"])


def awaited_humans(game) -> list[int]:
    """The seats of humans the game awaits now, in seat order."""
    return sorted({d.seat for d in game.decisions() if not game.table.seats[d.seat].ai})


def seated_member(table, game, seat: int):
    """The member of the test's guild sitting at `seat`."""
    user_id = game.table.seats[seat].user_id
    members = (table.alice, table.bob, table.carol, table.dave)
    return next(member for member in members if member.id == user_id)


async def answer_seat(table, game, seat: int, rng=None, *, channel=None, most: int = 50) -> None:
    """The seat's player answers every decision it has now, at random (a player who is on
    time), typed with `/move` in the game's channel (`table.channel` unless given: a
    tournament's thread) as one or more commands, until the game awaits it no more."""
    rng = rng or random.Random(seat)
    member = seated_member(table, game, seat)
    for _ in range(most):
        if game.decision_for(seat) is None or game.table.seats[seat].ai:
            return
        before = game.seq
        text = " ".join(plan_turn(game, seat, rng))
        result = await member.slash(channel or table.channel, "move", text=text)
        assert game.seq > before, result.response.content
    raise AssertionError(f"seat {seat} still has decisions after {most} commands")


def acting_member(table, game):
    """The first member who must act now (Alice, Bob and Carol in seat order), and the seat."""
    seat = game.decisions()[0].seat
    return (table.alice, table.bob, table.carol)[seat], seat


async def answer_panel(member, panel, rng) -> object:
    """Answer whatever decision a panel shows, at random, as a player would."""
    menus = selects(panel)
    option_buttons = [b for b in raw_buttons(panel) if ":o:" in b["custom_id"]]
    if option_buttons:
        choice = rng.choice(option_buttons)
        return await member.click(panel, custom_id=choice["custom_id"])
    confirm = [b for b in raw_buttons(panel) if b["custom_id"].endswith(":c")]
    menu = rng.choice(menus)
    values = [o["value"] for o in menu["options"]]
    low, high = menu.get("min_values", 1), menu.get("max_values", 1)
    picked = rng.sample(values, rng.randint(max(low, 1), high))
    result = await member.select(panel, picked, custom_id=menu["custom_id"])
    # Confirm where the panel still asks for it: a menu of whole lines beside a menu to
    # confirm moves at once, and the panel goes on to the next decision
    still = [b["custom_id"] for b in raw_buttons(result.response)]
    if confirm and confirm[0]["custom_id"] in still:
        return await member.click(result.response, custom_id=confirm[0]["custom_id"])
    return result


async def play_out(table, game, seats, rng, max_moves: int = 500) -> None:
    """Play a started game to its end through Take turn and panels only."""
    for _ in range(max_moves):
        pending = [d for d in game.decisions() if not game.table.seats[d.seat].ai]
        if not pending:
            break
        member = seats[rng.choice(pending).seat]
        opened = await member.click(table_message(table.channel), label="Take turn")
        assert opened.ephemeral
        await answer_panel(member, opened.response, rng)
    else:
        raise AssertionError("the game did not end")


def stored_message(env, message):
    """SimCord's own record of a message (the test narrates the world, so it may look)."""
    return env.backend.get_message(
        message.channel_id if hasattr(message, "channel_id") else message.channel.id, message.id
    )


async def click_as_it_was(member, snapshot, custom_id: str, values: list[str] | None = None):
    """Click a button (or, with `values`, pick in a menu) on a message as the client still
    showed it: a second click that lands before the first click's update arrives (a double
    click), or a click on a panel left open while the game moved on."""
    from simcord.actors import _component_interaction

    data = {"custom_id": custom_id, "component_type": 2 if values is None else 3}
    if values is not None:
        data["values"] = values
    return await _component_interaction(member, snapshot, data)


def panel_options(panel) -> list[str]:
    """The option ids a panel offers, from its buttons and menus."""
    ids = [b["custom_id"].split(":o:")[1] for b in raw_buttons(panel) if ":o:" in b["custom_id"]]
    return ids + [o["value"] for menu in selects(panel) for o in menu["options"]]


async def choose(member, panel, option_id: str):
    """Answer a panel with one option: its button, or the menu that lists it."""
    for b in raw_buttons(panel):
        if b["custom_id"].endswith(f":o:{option_id}"):
            return await member.click(panel, custom_id=b["custom_id"])
    for menu in selects(panel):
        if option_id in [o["value"] for o in menu["options"]]:
            return await member.select(panel, [option_id], custom_id=menu["custom_id"])
    raise AssertionError(f"the panel does not offer {option_id}")


def plan_turn(game, seat: int, rng, most: int = 30) -> list[str]:
    """`/move` tokens for the seat's next decisions (random legal answers, worked out on a
    copy of the state) until another seat is asked, or `most` tokens."""
    from meeple_hall.games.testing import random_turn_tokens

    return random_turn_tokens(game.engine, game.state, seat, rng, most)


async def play_by_move_text(table, game, members, rng, max_turns: int = 600) -> None:
    """Each human types their next decisions as one `/move` until the game ends."""
    for _ in range(max_turns):
        humans = [d for d in game.decisions() if not game.table.seats[d.seat].ai]
        if not humans:
            return
        seat = humans[0].seat
        text = " ".join(plan_turn(game, seat, rng))
        result = await members[seat].slash(table.channel, "move", text=text)
        assert "Applied" in result.response.content, result.response.content
    raise AssertionError("the game did not end")
