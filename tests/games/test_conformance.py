"""The shared conformance checks (games/testing.py: check_conformance) on every game of
`games.ids()` that ships with Meeple Hall (`real_games()`: not the tests' own test games), at
every player count its engine declares, and on the options that change how a game is set up
or scored. A new game gets all of it: it plays with DEFAULT until its settings here say
otherwise. The default run plays each game at its smallest count; the other counts are
marked slow (`pytest -m slow`).

What differs between games is data (SETTINGS), each difference with its reason. The deep
checks (round trip, views, refusals, every offered choice, determinize, undo) cost more
the longer the game and the more seats, so `deep_every` grows with both; the games' own
conservation and state checks stay in tests/games/<game>/test_invariants.py."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from meeple_hall import games
from meeple_hall.games.testing import Playout, check_conformance
from tests.slow_marks import real_games


@dataclass(frozen=True)
class Variant:
    """One seeded game with options, and what must hold at its end besides the contract."""

    options: Mapping[str, str]
    num_players: int
    seed: int
    deep_every: int
    then: Callable[[Playout], bool] = lambda playout: True
    slow: bool = False  # left to `pytest -m slow`: its checks repeat a default-run playout's


@dataclass(frozen=True)
class Settings:
    """How a game's random playouts are checked.

    `players`: the counts its rulebook plays (the engine must declare the same);
    `deep_every`: deep checks every so many steps, by player count (`default_deep` for the
    counts not listed); `examples`: hypothesis seeds per player count; `derandomize`: the same
    seeds every run; `variants`: seeded games with options.
    """

    players: tuple[int, int] | None = None
    deep_every: Mapping[int, int] = field(default_factory=dict)
    default_deep: int = 25
    examples: int = 2
    derandomize: bool = False
    variants: tuple[Variant, ...] = ()

    def deep(self, num_players: int) -> int:
        return self.deep_every.get(num_players, self.default_deep)


DEFAULT = Settings()
SETTINGS = {
    # A long game (25 rounds of several decisions each): deep checks every 50 steps keep a
    # playout near the others' time.
    "burgundy": Settings(
        players=(2, 4),
        default_deep=50,
        variants=(
            # The rulebook's tie-break is read two ways (`tiebreak` option); the other reading
            # must reach the state and play through too.
            Variant(
                {"tiebreak": "other"},
                num_players=2,
                seed=7,
                deep_every=150,
                then=lambda playout: playout.state.tiebreak == "other",
            ),
        ),
    ),
    # Every count's playout is about as long, and a deep check costs more with each seat: the
    # spacing grows with the count (odd steps, so every kind of step gets checked in turn).
    "coffee": Settings(
        players=(2, 5),
        deep_every={2: 25, 3: 29, 4: 37, 5: 41},
        variants=(
            Variant({"milestones": "vicious"}, num_players=2, seed=77, deep_every=23),
            # Experienced start and a handicap at 4: set-up variants that change what is dealt,
            # checked on every seventh step as they are rare in random play. The suite's
            # longest game-level test (2.5 minutes on a loaded machine): slow.
            Variant(
                {"start": "experienced", "handicap": "p3-4"},
                num_players=4,
                seed=78,
                deep_every=7,
                slow=True,
            ),
        ),
    ),
    # Games with more seats are much longer (more tiles per season) and each deep check
    # determinizes every seat's hidden winter tiles: sparse deep checks at 5 and 6. Its seeds
    # are fixed (derandomize), as they were when these counts' spacings were tuned.
    "keyflower": Settings(
        players=(2, 6),
        deep_every={2: 5, 3: 11, 4: 23, 5: 53, 6: 61},
        derandomize=True,
    ),
    # Karla plays the solo game; its die variant replaces her card deck.
    "village": Settings(
        players=(1, 5),
        default_deep=25,
        variants=(Variant({"karla": "die"}, num_players=1, seed=5, deep_every=10),),
    ),
}


def player_counts() -> list:
    """Every game at every count, the counts above its smallest marked slow."""
    cases = []
    for game_id in real_games():
        engine = games.get(game_id)
        for count in range(engine.min_players, engine.max_players + 1):
            slow = () if count == engine.min_players else pytest.mark.slow
            cases.append(pytest.param(game_id, count, id=f"{game_id}-{count}", marks=slow))
    return cases


def variants() -> list:
    return [
        pytest.param(
            game_id,
            variant,
            id=f"{game_id}-{'-'.join(variant.options.values())}",
            marks=pytest.mark.slow if variant.slow else (),
        )
        for game_id in real_games()
        for variant in SETTINGS.get(game_id, DEFAULT).variants
    ]


def test_every_game_is_checked_and_every_setting_is_for_a_game():
    assert set(real_games()) >= {"burgundy", "coffee", "keyflower", "village"}
    assert set(SETTINGS) <= set(real_games()), "settings for a game that is not registered"


@pytest.mark.parametrize("game_id", real_games())
def test_registered_under_its_id_with_the_rulebooks_player_counts(game_id):
    engine = games.get(game_id)
    assert engine.id == game_id
    players = SETTINGS.get(game_id, DEFAULT).players
    if players is not None:
        assert (engine.min_players, engine.max_players) == players


@pytest.mark.parametrize(("game_id", "num_players"), player_counts())
def test_random_playouts_keep_the_contract(game_id, num_players):
    engine = games.get(game_id)
    how = SETTINGS.get(game_id, DEFAULT)

    @settings(max_examples=how.examples, deadline=None, derandomize=how.derandomize)
    @given(seed=st.integers(0, 2**32))
    def playout(seed: int) -> None:
        check_conformance(engine, num_players, seed, deep_every=how.deep(num_players))

    playout()


@pytest.mark.parametrize(("game_id", "variant"), variants())
def test_a_variant_keeps_the_contract(game_id, variant):
    played = check_conformance(
        games.get(game_id),
        variant.num_players,
        variant.seed,
        options=dict(variant.options),
        deep_every=variant.deep_every,
    )
    assert variant.then(played)
