"""Moves typed as text: autocomplete walks the typed tokens but never past a hidden draw,
on the test game (whose rounds are short) and on each real game."""

import random

import pytest

from meeple_hall import games
from meeple_hall.bot.i18n import game_text
from meeple_hall.bot.moves import complete, hidden_parts
from meeple_hall.games import Action
from meeple_hall.games.testing import random_choices
from tests.bot.conftest import REAL_GAMES
from tests.testgame import PebblesEngine

engine = PebblesEngine()


def values(text: str, seat: int = 0) -> list[str]:
    state = engine.new(1, seed=3)
    return [c.value for c in complete(engine, state, seat, text)]


def test_autocomplete_walks_a_whole_round_of_typed_tokens():
    state = engine.new(1, seed=3)
    hand = state.players[0].hand
    assert values("bid0 red-1 ") == [f"bid0 red-1 c{c}" for c in hand]


def test_autocomplete_stops_where_the_move_would_deal_new_cards():
    state = engine.new(1, seed=3)
    keep = f"c{state.players[0].hand[0]}"
    # Keeping ends the round; the next round's cards come off the face-down deck, so
    # nothing after that token is suggested before the move is made.
    assert values(f"bid0 red-1 {keep} ") == []
    assert values(f"bid0 red-1 {keep} bid0 red-2 ") == []


def test_autocomplete_matches_labels_as_well_as_ids():
    assert values("bid0 blue") == [f"bid0 blue-{n}" for n in range(1, 11)]


@pytest.mark.parametrize("game_id", REAL_GAMES)
def test_a_real_games_autocomplete_walks_typed_tokens_but_never_past_a_draw(game_id):
    """Through a random game: after a whole token, the seat's next decision's options are
    suggested; after a token whose move draws or reveals something, nothing is."""
    engine, rng = games.get(game_id), random.Random(5)
    state = engine.new(2, 5)
    walked = stopped = 0
    while (pending := engine.decisions(state)) and min(walked, stopped) < 3:
        decision = pending[0]
        choices = random_choices(decision, rng)
        token = ",".join(choices) or "none"
        after = engine.apply(state, Action(decision.seat, choices))
        following = next((d for d in engine.decisions(after) if d.seat == decision.seat), None)
        suggested = [c.value for c in complete(engine, state, decision.seat, f"{token} ")]
        if hidden_parts(after) != hidden_parts(state):
            assert suggested == [], (token, suggested)
            stopped += 1
        elif following is not None:
            assert suggested == [f"{token} {o.id}" for o in following.options][:25]
            walked += 1
        state = after
    assert walked and stopped, (walked, stopped)


@pytest.mark.parametrize("game_id", REAL_GAMES)
def test_a_real_games_autocomplete_matches_labels_as_well_as_ids(game_id):
    engine = games.get(game_id)
    state = engine.new(2, 5)
    decision = engine.decisions(state)[0]
    for option in decision.options:
        words = [w for w in game_text("en", option.label).lower().split() if len(w) > 3]
        if words and not option.id.lower().startswith(words[0]):
            break
    else:
        pytest.skip("no option label with a word of its own")
    suggested = [c.value for c in complete(engine, state, decision.seat, words[0])]
    assert option.id in suggested
