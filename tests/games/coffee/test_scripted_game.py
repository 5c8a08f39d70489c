"""A whole game, scripted: three companies that never act. Every number of the result
follows from the rules by hand (penalties, the bonus supply, −3 VP tokens, majorities)."""

from __future__ import annotations

from games.coffee import engine
from games.coffee.data import COFFEES
from games.core import Action, Decision

IDLE = ("drop", "pass", "done", "decline")


def idle_choice(decision: Decision) -> tuple[str, ...]:
    ids = [o.id for o in decision.options]
    if decision.kind == "penalty":
        for preferred in ("coin", "bonus-coins"):
            if preferred in ids:
                return (preferred,)
    if decision.kind == "storage":
        return ()
    return (next((i for i in ids if i in IDLE), ids[0]),)


def test_three_idle_companies_score_exactly_what_the_rules_say() -> None:
    state = engine.new(3, seed=12)
    start = {
        seat: [
            (coffee, space)
            for coffee in COFFEES
            for space, p in enumerate(state.coops[coffee].rows[0])
            if p is not None and p.owner == seat
        ]
        for seat in range(3)
    }
    while pending := engine.decisions(state):
        decision = pending[0]
        state = engine.apply(state, Action(decision.seat, idle_choice(decision)))

    # 1970: penalty 3 x 1 paid with the 3 starting coins.
    # 1975: penalty 3 x 2 = 6; the 3 bonus coins pay 3; the 3 left are unpaid, so
    #   ceil(3 / 2) = 2 plantations go (all on row 1: the first two offered);
    #   Refresh: the bonus coins cannot be refilled: 3 −3 VP tokens.
    # 1980: penalty 1 x 3 = 3, paid with the refilled bonus coins; again 3 tokens.
    kept = {seat: start[seat][-1] for seat in range(3)}
    for seat in range(3):
        mine = [
            (c, s)
            for c in COFFEES
            for s, p in enumerate(state.coops[c].rows[0])
            if p is not None and p.owner == seat
        ]
        assert mine == [kept[seat]]
        assert state.players[seat].minus_tokens == 6
        assert state.players[seat].coins == 0

    sharing = {c: [s for s in range(3) if kept[s][0] == c] for c in COFFEES}
    cooperative = {seat: {1: 16, 2: 12, 3: 8}[len(sharing[kept[seat][0]])] for seat in range(3)}
    result = engine.result(state)
    assert result is not None
    for seat in range(3):
        expected = cooperative[seat] + 1 + 2 - 18  # a donkey, two workers, six tokens
        assert result.scores[seat] == expected
        assert result.breakdown[seat]["minus_tokens"] == -18
        assert result.breakdown[seat]["workers"] == 2
