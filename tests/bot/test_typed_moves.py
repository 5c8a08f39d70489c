"""Every option a game offers can be typed: `/move` takes each id as the token it is."""

from __future__ import annotations

import random

import pytest
from PIL import Image

from meeple_hall import games, renderers
from meeple_hall.bot.moves import MoveStream
from meeple_hall.games import Action
from meeple_hall.games.testing import random_choices
from tests.bot.conftest import plan_turn

COUNTS = [
    (game_id, n)
    for game_id in games.ids()
    for n in range(games.get(game_id).min_players, games.get(game_id).max_players + 1)
]


@pytest.mark.parametrize(("game_id", "num_players"), COUNTS)
def test_every_offered_option_reads_back_from_its_typed_token(game_id: str, num_players: int):
    """Along a whole random game, each option of each decision, typed alone, is that option."""
    engine = games.get(game_id)
    rng = random.Random(num_players)
    state = engine.new(num_players, seed=num_players)
    while pending := engine.decisions(state):
        for decision in pending:
            for option in decision.options:
                assert MoveStream(option.id).take(decision) == (option.id,)
        decision = rng.choice(pending)
        state = engine.apply(state, Action(decision.seat, random_choices(decision, rng)))


class PlainTable:
    """A game's renderer with a blank table picture: the typed games are about moves."""

    def __init__(self, game_id: str) -> None:
        self.game = renderers.for_game(game_id)

    def render(self, view: dict) -> Image.Image:
        return Image.new("RGB", (64, 40), "white")

    def __getattr__(self, name: str):
        return getattr(self.game, name)


@pytest.fixture
def plain_pictures():
    for game_id in games.ids():
        renderers.register(game_id, PlainTable(game_id))
    yield
    for game_id in games.ids():
        renderers._OVERRIDES.pop(game_id, None)


TURNS = 60


@pytest.mark.parametrize(("game_id", "num_players"), COUNTS)
async def test_random_games_typed_through_move_apply_every_token(
    table, plain_pictures, game_id: str, num_players: int
):
    """Humans type every decision of a random game with `/move`, a turn per command; each
    command is applied whole, one logged move per token."""
    env, guild = table.env, table.guild
    members = [table.alice, table.bob, table.carol, table.dave]
    members += [guild.add_member(env.create_user(f"extra{i}")) for i in range(2)]
    members = members[:num_players]
    await members[0].slash(table.channel, "new", game=game_id)
    lobby = table.channel.last_message
    for member in members[1:]:
        await member.click(lobby, label="Join")
    await members[0].click(lobby, label="Start")
    game = env.bot.manager.in_channel(table.channel.id)
    rng = random.Random(num_players)
    kinds: set[str] = set()
    for _ in range(TURNS):
        if not game.decisions():
            break
        seat = game.decisions()[0].seat
        tokens = plan_turn(game, seat, rng)
        kinds |= typed_kinds(game, seat, tokens)
        before = game.seq
        result = await members[seat].slash(table.channel, "move", text=" ".join(tokens))
        assert "Applied" in result.response.content, result.response.content
        assert game.seq == before + len(tokens) or not game.decisions()
    if game_id == "keyflower":
        assert "place_at" in kinds, "no Keyflower tile was placed by a typed move"


def typed_kinds(game, seat: int, tokens: list[str]) -> set[str]:
    """The kinds of decision the tokens answer, worked out on a copy of the state."""
    kinds, state = set(), game.state
    for token in tokens:
        decision = next(d for d in game.engine.decisions(state) if d.seat == seat)
        kinds.add(decision.kind)
        state = game.engine.apply(state, Action(seat, MoveStream(token).take(decision)))
    return kinds
