"""Saves written before dumps kept dict order (issue 24): the snapshots in the newest golden
database (tests/golden, dumped with sorted keys) load to states that decide, show and play
on as the games their logs replay to; and `apply` takes only a state's own decision."""

from __future__ import annotations

import json
import sqlite3
from dataclasses import dataclass, replace
from pathlib import Path

import pytest

from meeple_hall import games
from meeple_hall.games.core import Action, Option, StaleDecision, serial, undo
from meeple_hall.games.core.catalogues import render
from meeple_hall.games.testing import check_shows_the_same, shown
from tests.testgame import PebblesEngine

NEWEST = Path(__file__).parents[1] / "golden" / "vb3fe618.db"
PLAYED_ON = 40  # logged moves replayed on from each snapshot


@dataclass(frozen=True)
class Entry:
    seq: int
    seat: int
    choices: tuple[str, ...]


@dataclass(frozen=True)
class OldSave:
    game: str
    players: int
    seed: int
    options: dict[str, str]
    seq: int
    state: str
    log: list[Entry]


def old_saves() -> list[OldSave]:
    db = sqlite3.connect(f"file:{NEWEST}?mode=ro", uri=True)
    saves = []
    query = (
        "SELECT t.id, t.game, t.seed, t.options, s.seq, s.state FROM snapshots s"
        " JOIN tables t ON t.id = s.table_id ORDER BY t.id"
    )
    for table_id, game, seed, options, seq, state in db.execute(query):
        (players,) = db.execute("SELECT count(*) FROM seats WHERE table_id = ?", (table_id,))
        log = [
            Entry(n, seat, tuple(json.loads(choices)))
            for n, seat, choices in db.execute(
                "SELECT seq, seat, choices FROM actions WHERE table_id = ? ORDER BY seq",
                (table_id,),
            )
        ]
        saves.append(OldSave(game, players[0], int(seed), json.loads(options), seq, state, log))
    db.close()
    return saves


def test_the_golden_snapshots_were_dumped_with_sorted_keys() -> None:
    saves = old_saves()
    assert {save.game for save in saves} == {"burgundy", "coffee", "keyflower", "village"}
    for save in saves:
        engine = games.get(save.game)
        assert serial.written_sorted(engine.state_type, json.loads(save.state))
        assert save.state == serial.canonical(engine.load(save.state)), save.game


@pytest.mark.parametrize("save", old_saves(), ids=lambda save: f"{save.game}@{save.seq}")
def test_an_old_snapshot_plays_on_as_its_log(save: OldSave) -> None:
    engine = games.get(save.game)
    before = [e for e in save.log if e.seq <= save.seq]
    after = [e for e in save.log if e.seq > save.seq][:PLAYED_ON]
    assert undo.snapshot_holds(save.seq, after)
    setup = engine.new(save.players, save.seed, save.options)
    live = undo.replay(engine, before, setup)[0]
    loaded = engine.load(save.state)
    for entry in after:
        check_shows_the_same(
            engine, shown(engine, live, save.players), loaded, save.players, f"move {entry.seq}"
        )
        action = Action(entry.seat, entry.choices)
        live, loaded = engine.apply(live, action), engine.apply(loaded, action)
        assert serial.canonical(loaded) == serial.canonical(live), f"after move {entry.seq}"
    assert after, "the log goes no further than its snapshot"


def test_a_decision_of_an_earlier_state_is_refused_in_every_language() -> None:
    engine = games.get("coffee")
    state = engine.new(3, seed=4)
    earlier = engine.decisions(state)[0]
    state = engine.apply(state, Action(earlier.seat, (earlier.options[0].id,)))
    now = next(d for d in engine.decisions(state) if d.seat == earlier.seat)
    assert now != earlier
    before = engine.dump(state)
    with pytest.raises(StaleDecision) as refused:
        engine.apply(state, Action(earlier.seat, (earlier.options[-1].id,)), decision=earlier)
    assert engine.dump(state) == before
    prompt = render("en", earlier.prompt)
    assert render("en", refused.value.message) == (
        f"That choice belongs to another point of the game ({prompt}):"
        " choose again from the current one."
    )
    assert "（" in render("zh-TW", refused.value.message)
    assert "（" in render("ja", refused.value.message)


def test_a_decision_with_an_option_the_state_does_not_offer_is_refused() -> None:
    engine = games.get("keyflower")
    state = engine.new(2, seed=3)
    own = engine.decisions(state)[0]
    forged = replace(own, options=(*own.options, Option("S99", "a tile not on offer")))
    with pytest.raises(StaleDecision):
        engine.apply(state, Action(own.seat, ("S99",)), decision=forged)


class CountingPebbles(PebblesEngine):
    """Pebbles that counts how often its decisions are worked out."""

    worked_out = 0

    def decisions(self, state):
        CountingPebbles.worked_out += 1
        return super().decisions(state)


def test_the_states_own_decision_is_known_without_working_the_decisions_out_again() -> None:
    engine = CountingPebbles()
    state = engine.new(2, seed=1)
    own = engine.decisions(state)[0]
    start = CountingPebbles.worked_out
    for option in own.options:
        engine.apply(state, Action(own.seat, (option.id,)), decision=own)
    assert CountingPebbles.worked_out == start  # a panel trying every option
    equal = engine.decisions(engine.load(engine.dump(state)))[0]  # a panel from before a restart
    start = CountingPebbles.worked_out
    engine.apply(state, Action(own.seat, (own.options[0].id,)), decision=equal)
    # equal to the one remembered for the state: taken as given, nothing worked out again
    assert CountingPebbles.worked_out == start
