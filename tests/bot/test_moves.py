"""Moves typed as text: autocomplete walks the typed tokens but never past a hidden draw."""

from meeple_hall.bot.moves import complete
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
