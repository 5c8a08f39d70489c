"""Whole games, scripted: a varied 4-player game from setup to the scores, and three
companies that never act. Every number of the results follows from the rules by hand."""

from __future__ import annotations

import json
from functools import cache
from pathlib import Path

import pytest

from meeple_hall.games.coffee import engine
from meeple_hall.games.coffee.data import COFFEES
from meeple_hall.games.coffee.state import CoffeeState, Pathway
from meeple_hall.games.core import Action, Decision

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


# -- a whole 4-player game, varied, scored by hand -----------------------------------------
# scripted_game_4p.json: 320 decisions from setup (seed 1) to the end of 1980. Seats: P1 = 0,
# P2 = 1, P3 = 2, P4 = 3. 1970 turn order P4, P2, P1, P3. Every number below follows from
# the rulebooks and the printed (partly reconstructed, see data/coffee/README.md) values.
SCRIPT = Path(__file__).with_name("scripted_game_4p.json")
SCRIPT_2P = Path(__file__).with_name("scripted_game_2p.json")
P1, P2, P3, P4 = 0, 1, 2, 3
ANDRE = 2  # in the 2-player game


@cache
def scripted_states(script: Path = SCRIPT) -> tuple[CoffeeState, ...]:
    """states[i] is the table before decision i; the last one is the end of the game."""
    data = json.loads(script.read_text())
    state = engine.new(data["players"], seed=data["seed"])
    states = [state]
    for seat, kind, choices in data["actions"]:
        decision = engine.decision_for(state, seat)
        assert decision.kind == kind
        state = engine.apply(state, Action(seat, tuple(choices)))
        states.append(state)
    return tuple(states)


def step(i: int, script: Path = SCRIPT) -> tuple[CoffeeState, CoffeeState]:
    states = scripted_states(script)
    return states[i], states[i + 1]


def span(first: int, last: int, script: Path = SCRIPT) -> tuple[CoffeeState, CoffeeState]:
    """The table before decision `first` and after decision `last`."""
    states = scripted_states(script)
    return states[first], states[last + 1]


def board(state: CoffeeState, coffee: str) -> list[list[str | None]]:
    """A cooperative's rows as "P<n>:<level>" (T when reached by truck)."""
    return [
        [None if p is None else f"P{p.owner + 1}:{p.level}" + ("T" if p.truck else "") for p in row]
        for row in state.coops[coffee].rows
    ]


@pytest.mark.parametrize("script", [SCRIPT, SCRIPT_2P], ids=["4p", "2p"])
def test_scripted_games_replay_byte_identically_twice(script: Path) -> None:
    data = json.loads(script.read_text())
    dumps = []
    for _ in range(2):
        state = engine.new(data["players"], seed=data["seed"])
        for seat, _kind, choices in data["actions"]:
            state = engine.apply(state, Action(seat, tuple(choices)))
        dumps.append(engine.dump(state))
    assert dumps[0] == dumps[1] == engine.dump(scripted_states(script)[-1])
    assert not engine.decisions(scripted_states(script)[-1])


def test_scripted_1970_work_plantation_rows_and_sending_workers() -> None:
    # P4 takes row C's leftmost plantation (level 2, 1 coin) to Indonesia's 1/2 row, joined to
    # their starting plantation on row-1 space 0: the donkey of the company supply goes onto
    # the pathway; 1/2 row: one Arabica step in Indonesia; the bonus under row C's first space
    # is a worker from the general supply (player board bonus, reconstructed).
    before, after = step(2)
    p, q = before.players[P4], after.players[P4]
    assert (p.coins, p.donkeys, p.pool) == (3, 1, 2)
    assert (q.coins, q.donkeys, q.pool) == (2, 0, 3)
    assert (p.arabica["ind"], q.arabica["ind"]) == (1, 2)
    assert after.coops["ind"].pathways["1.0.0"] == Pathway(owner=P4, donkeys=1)
    assert board(after, "ind")[1][0] == "P4:2"
    assert after.general_workers == before.general_workers - 1

    # P2 sends workers in Colombia: one worker from the town center (6) to each player with
    # an empty plantation there (P2, P1, P3) leaves 3; helping opponents: one Colombia step.
    before, after = step(15)
    assert (before.coops["col"].town, after.coops["col"].town) == (6, 3)
    staffed = [p.owner for row in after.coops["col"].rows for p in row if p and p.staffed]
    assert sorted(staffed) == [P1, P2, P3]
    assert after.players[P2].arabica["col"] == before.players[P2].arabica["col"] + 1
    assert after.players[P2].markers == before.players[P2].markers - 1


def test_scripted_1970_harvest_distribution() -> None:
    # The last piggyback of Phase 3 (P3 joins in Indonesia with the bonus supply's trader),
    # then P3, with no coins, passes: everyone has passed, Phase 4 follows.
    # 4 players: 2 coffee per staffed plantation.
    before, after = span(75, 76)
    assert before.players[P3].traders == 0 and "trader" not in after.players[P3].bonus
    # Guatemala: 6 staffed -> 12; no fair trade post; traders P2 (bought), P1, P3:
    # P2 1 first, then 11 round-robin P2 P1 P3 ...: P2 4, P1 4, P3 3 -> P2 5, P1 4, P3 3.
    gua = before.coops["gua"]
    assert sum(1 for row in gua.rows for p in row if p and p.staffed) == 6
    assert gua.traders == [P2, P1, P3] and not any(gua.buildings["fairtrade"])
    # Brazil: 5 staffed -> 10; P3's fair trade post 1; P4 bought: 1; 8 round-robin P4 P2 P1:
    # P4 3, P2 3, P1 2 -> P4 4, P2 3, P1 2, P3 1.
    bra = before.coops["bra"]
    assert sum(1 for row in bra.rows for p in row if p and p.staffed) == 5
    assert bra.traders == [P4, P2, P1] and bra.buildings["fairtrade"][0] == P3
    gained = {
        s: (
            after.players[s].coffee["gua"] - before.players[s].coffee["gua"],
            after.players[s].coffee["bra"] - before.players[s].coffee["bra"],
        )
        for s in (P1, P2, P3, P4)
    }
    assert gained == {P1: (4, 2), P2: (5, 3), P3: (3, 1), P4: (0, 4)}
    # civets in Sumatra come home as kopi luwak: one each, P3 two (the civet action)
    assert [after.players[s].coffee["kopi"] for s in (P1, P2, P3, P4)] == [1, 1, 2, 1]
    assert after.phase == "sell"


def test_scripted_1970_sell_contract_f_and_coffee_bars() -> None:
    # Sell in reverse turn order: P3 first. Contract F1 (4-5 player side: 3 Guatemala,
    # 3 Colombia, 3 Brazil) from gua 5, col 2, bra 3, kopi 2: kopi luwak pays the missing
    # Colombia. Row EF pays 3 coins; the top counter of the F Contract Bonus stack (Brazil)
    # goes to the Counter track: one Brazil step.
    before, after = step(77)
    p, q = before.players[P3], after.players[P3]
    assert p.contracts["F"] == "F1" and "F" not in q.contracts
    assert [p.coffee[c] for c in ("gua", "col", "bra", "kopi")] == [5, 2, 3, 2]
    assert [q.coffee[c] for c in ("gua", "col", "bra", "kopi")] == [2, 0, 0, 1]
    assert (p.coins, q.coins) == (0, 3)
    assert before.contract_bonus["F"][-1] == "arabica:bra" and q.counters == ["arabica:bra"]
    assert (p.arabica["bra"], q.arabica["bra"]) == (2, 3)
    # F's bonus: the hospital for free, on Ethiopia's Arabica-step space: Ethiopia 3 -> 4,
    # and column 4 pays a coin.
    before, after = step(79)
    assert after.coops["eth"].buildings["hospital"] == [P3, None]
    assert after.players[P3].built["hospital"] == 1
    assert after.players[P3].arabica["eth"] == 4 and after.players[P3].coins == 4

    # P1 delivers twice: Coffee Bar b3's first space (1 Brazil, +1 coin) and its fourth
    # (4 Guatemala, +2 coins), and may go on.
    before, after = step(89)
    assert after.bars["b3"] == [P1, None, None, None, None]
    assert after.players[P1].coffee["bra"] == before.players[P1].coffee["bra"] - 1
    assert after.players[P1].coins == before.players[P1].coins + 1
    before, after = step(90)
    assert after.bars["b3"] == [P1, None, None, P1, None]
    assert (before.players[P1].coffee["gua"], after.players[P1].coffee["gua"]) == (4, 0)
    assert after.players[P1].coins == before.players[P1].coins + 2


def test_scripted_1975_penalty_retired_trader_and_storage() -> None:
    # Assign Workers in 1975: P2 has one unoccupied plantation: 1 x 2 = 2, paid in coins.
    _, after = step(148)
    assert after.owed == {P2: 2}
    before, after = step(150)
    assert (before.players[P2].coins, after.players[P2].coins) == (4, 3)
    assert after.phase == "trade" and not after.owed

    # P3 removes a trader (2 coins) for two Arabica steps: Indonesia 1 -> 2 puts every row
    # on column 2 or more: the trader of the track's column 2 joins P3's traders.
    before, after = step(154)
    assert after.players[P3].coins == before.players[P3].coins - 2
    assert after.players[P3].traders_retired == 1
    before, after = step(155)
    assert min(after.players[P3].arabica.values()) == 2 and not after.players[P3].track_trader
    assert after.players[P3].traders == before.players[P3].traders + 1

    # Refresh 1975: one warehouse each (P2, P1) placed on the Guatemala column keeps 10
    # Guatemala and nothing else: P2 loses 2 Ethiopia and 4 Indonesia, P1 1 Brazil.
    before, after = step(212)
    assert before.players[P2].built["warehouse"] == 1
    assert before.players[P2].coffee == {
        "gua": 5,
        "col": 0,
        "bra": 0,
        "eth": 2,
        "ind": 4,
        "kopi": 0,
    }
    assert after.players[P2].coffee == {"gua": 5, "col": 0, "bra": 0, "eth": 0, "ind": 0, "kopi": 0}
    # P4 (two warehouses, one on Brazil, one in the row) keeps everything; then every Stock
    # counter pays one coffee: P4 holds bra, col, ind, bra, eth, col.
    before, after = step(214)
    assert sorted(before.players[P4].stocks) == ["bra", "bra", "col", "col", "eth", "ind"]
    gained = {c: after.players[P4].coffee[c] - before.players[P4].coffee[c] for c in COFFEES}
    assert gained == {"gua": 0, "col": 2, "bra": 2, "eth": 1, "ind": 1}
    # Sell drop-outs P2, P3, P1, P4 set the 1980 turn order.
    assert after.order == [P2, P3, P1, P4] and after.period == 3


def test_scripted_1980_truck_animal_farm_milestone_and_row_civet() -> None:
    # P3 takes row B's level 3 (2 coins) to Ethiopia's 2/3 row by truck; first there on
    # column 5 of Ethiopia: a donkey; 4 VP at the end for the row-B level 3.
    before, after = step(218)
    p, q = before.players[P3], after.players[P3]
    assert (q.coins, q.trucks, q.donkeys) == (p.coins - 2, p.trucks - 1, p.donkeys + 1)
    assert board(after, "eth")[2][2] == "P3:3T" and q.row_b_level3
    assert (p.arabica["eth"], q.arabica["eth"]) == (4, 5) and after.donkey_taken["eth"]
    # ... and a remaining Animal counter of the 2/3 row: the Wild one, advancing Guatemala
    # 3 -> 4 (column 4: one coin).
    before, after = step(220)
    assert after.players[P3].counters[-1] == "wild"
    assert after.players[P3].arabica["gua"] == 4
    assert after.players[P3].coins == before.players[P3].coins + 1

    # P4 empties row C: the farm goes to Indonesia for 1 coin.
    before, after = step(245)
    assert after.coops["ind"].buildings["farm"][0] == P4
    assert after.players[P4].coins == before.players[P4].coins - 1

    # P4's sixth contract fulfils milestone C "Deliver all 6 contracts": its top space.
    before, after = step(307)
    assert sorted(after.players[P4].fulfilled) == list("ABCDEF")
    assert after.players[P4].milestones == {"contracts": 10}
    # ... which finishes row AB: the last row bonus left is the civet, which in 1980 goes to
    # the company supply (1 VP); contract A's own bonus (chosen: a civet) goes to Sumatra.
    before, after = step(308)
    assert (after.players[P4].civets, after.players[P4].sumatra) == (1, 1)


def test_scripted_game_final_scores_counted_by_hand() -> None:
    end = scripted_states()[-1]
    # -- the visible end state the count below reads --------------------------------------
    assert board(end, "gua") == [
        ["P1:1", None, "P3:1", "P2:1", "P2:1"],
        [None, None, "P3:2", "P2:2"],
        [None, None, "P1:3T"],
    ]
    assert board(end, "col") == [
        ["P2:1", None, "P1:1", "P1:1", "P3:1"],
        [None, "P1:2", None, "P3:2"],
        [None, None, None],
    ]
    assert board(end, "bra") == [
        ["P3:1", "P4:1", "P4:1", "P3:1", "P1:1"],
        ["P4:2", None, "P4:2", "P1:2"],
        [None, "P4:3T", None],
    ]
    assert board(end, "eth") == [
        ["P1:1", None, "P3:1", None, "P4:1"],
        [None, None, "P3:2", None],
        [None, None, "P3:3T"],
    ]
    assert board(end, "ind") == [
        ["P4:1", "P2:1", "P2:1", "P4:1", None],
        ["P4:2", "P2:2", None, None],
        [None, None, None],
    ]
    buildings = {
        c: {k: v for k, v in coop.buildings.items() if any(x is not None for x in v)}
        for c, coop in end.coops.items()
    }
    assert buildings == {
        "gua": {"production": [P2, P3, P1], "fairtrade": [P4, P3, P4]},
        "col": {"fairtrade": [P4, P2, P1]},
        "bra": {
            "production": [P2, None, P1],
            "fairtrade": [P3, None, None],
            "hospital": [None, P4],
        },
        "eth": {"hospital": [P3, P1]},
        "ind": {"fairtrade": [None, None, P2], "farm": [P4, None, None]},
    }
    assert end.bars == {
        "b1": [P3, P4, P4, None, None],
        "b2": [P4, P2, None, None, None],
        "b3": [P1, None, None, P1, P3],
        "b4": [P1, P3, P3, P3, None],
        "b5": [P2, P2, P4, P3, P3],
        "seoul": [P4, P4, P1],
    }
    players = end.players
    assert [p.arabica for p in players] == [
        {"gua": 4, "col": 4, "bra": 3, "eth": 4, "ind": 3},
        {"gua": 5, "col": 3, "bra": 3, "eth": 4, "ind": 4},
        {"gua": 5, "col": 4, "bra": 4, "eth": 6, "ind": 4},
        {"gua": 6, "col": 5, "bra": 7, "eth": 5, "ind": 5},
    ]
    assert [p.built for p in players] == [
        {"warehouse": 2, "production": 2, "fairtrade": 1, "hospital": 1},
        {"warehouse": 2, "production": 2, "fairtrade": 2, "hospital": 0},
        {"warehouse": 2, "production": 1, "fairtrade": 2, "hospital": 1},
        {"warehouse": 3, "production": 0, "fairtrade": 3, "hospital": 1},
    ]
    assert [sorted(p.fulfilled) for p in players] == [
        ["A", "C", "E", "F"],
        ["A", "B", "C", "E"],
        ["A", "B", "F"],
        list("ABCDEF"),
    ]
    assert [(p.donkeys, p.civets, p.trucks, p.pool, p.minus_tokens) for p in players] == [
        (1, 0, 1, 1, 0),
        (1, 0, 2, 1, 0),
        (0, 0, 0, 0, 0),
        (3, 1, 0, 0, 0),
    ]
    assert [p.row_b_level3 for p in players] == [True, False, True, False]
    assert [sorted(p.counters) for p in players] == [
        sorted(
            [
                "arabica:col",
                "arabica:gua",
                "animal:eth",
                "wild",
                "animal:gua",
                "arabica:eth",
                "arabica:col",
            ]
        ),
        sorted(["arabica:col", "arabica:gua", "animal:ind", "arabica:eth", "arabica:eth"]),
        sorted(["arabica:bra", "arabica:col", "arabica:ind", "wild", "animal:eth", "animal:gua"]),
        sorted(
            [
                "arabica:eth",
                "arabica:bra",
                "arabica:gua",
                "arabica:col",
                "wild",
                "animal:bra",
                "arabica:ind",
                "animal:bra",
                "arabica:gua",
            ]
        ),
    ]

    # -- cooperatives: QV = plantation levels, +1 per building (+2 hospital) only with a
    # plantation there; 16 / 8 / 4 at 4 players, ties add and split rounding up.
    # Guatemala: P1 1+3 +prod 1 = 5; P2 1+1+2 +prod 1 = 5; P3 1+2 +prod 1 +ftp 1 = 5;
    #   P4 no plantation (two posts count nothing): 3-way tie (16+8+4)/3 = 9.33 -> 10 each.
    # Colombia: P1 1+1+2 +ftp 1 = 5 -> 16; P3 1+2 = 3 -> 8; P2 1 +ftp 1 = 2 -> 4.
    # Brazil: P4 1+1+2+2+3 +hospital 2 = 11 -> 16; P1 1+2 +prod 1 = 4 -> 8;
    #   P3 1+1 +ftp 1 = 3 -> 4; P2 no plantation.
    # Ethiopia: P3 1+2+3 +hospital 2 = 8 -> 16; P1 1 +hospital 2 = 3 -> 8; P4 1 -> 4.
    # Indonesia: P4 1+1+2 +farm 1 = 5, P2 1+1+2 +ftp 1 = 5: tie (16+8)/2 = 12 each.
    cooperatives = [10 + 16 + 8 + 8, 10 + 4 + 12, 10 + 8 + 4 + 16, 16 + 4 + 12]
    # -- Arabica track: all rows >= 2: 3, >= 3: 7 more; 6 per row on >= 6, 4 more on 7.
    arabica = [3 + 7, 3 + 7, 3 + 7 + 6, 3 + 7 + 6 + (6 + 4)]
    # -- Coffee Bars: VP under each marker (b1..b5 spaces: 0, 1, 2, 4, 7; Seoul 1, 3, 5).
    coffee_bars = [0 + 4 + 0 + 5, 1 + 0 + 1, 0 + 7 + 1 + 2 + 4 + 4 + 7, 1 + 2 + 0 + 2 + 1 + 3]
    # -- bar majorities, 4 and 2, a tie to the marker further down:
    # b1 P4 2 > P3 1; b2 P4 1 = P2 1, P2 lower -> P2 4, P4 2; b3 P1 2 > P3 1;
    # b4 P3 3 > P1 1; b5 P2 2 = P3 2, P3 lower -> P3 4, P2 2; Seoul P4 2 > P1 1.
    bar_majorities = [4 + 2 + 2, 4 + 2, 2 + 2 + 4 + 4, 4 + 2 + 4]
    # -- milestones: only P4 (contracts, top space).
    milestones = [0, 0, 0, 10]
    # -- buildings (player board VP): warehouses beyond the first 1, 3; production 1, 2;
    # fair trade 1, 2, 3; hospital 4.
    buildings_vp = [
        1 + (1 + 2) + 1 + 4,
        1 + (1 + 2) + (1 + 2),
        1 + 1 + (1 + 2) + 4,
        (1 + 3) + (1 + 2 + 3) + 4,
    ]
    # -- contracts A 1, B 2, C 3, D 4, E 6, F 8.
    contracts = [1 + 3 + 6 + 8, 1 + 2 + 3 + 6, 1 + 2 + 8, 1 + 2 + 3 + 4 + 6 + 8]
    row_b_level3 = [4, 0, 4, 0]
    # -- company supply: donkey 1, civet 1, truck 3; a worker in the pool 1.
    company_supply = [1 + 3, 1 + 2 * 3, 0, 3 + 1]
    workers = [1, 1, 0, 0]
    # -- Counter track: one space per distinct counter, then pairs of one colour; VP per
    # height 1, 2, 4, 6, 9, 12, 16. P1: 6 distinct (col arabica twice, no pair) -> 12;
    # P2: 4 distinct (eth arabica twice) -> 6; P3: 6 distinct -> 12;
    # P4: 7 distinct, leftovers animal bra + arabica gua (two colours, no pair) -> 16.
    counters = [12, 6, 12, 16]

    result = engine.result(end)
    assert result is not None
    for seat in (P1, P2, P3, P4):
        assert result.breakdown[seat] == {
            "cooperatives": cooperatives[seat],
            "arabica": arabica[seat],
            "coffee_bars": coffee_bars[seat],
            "bar_majorities": bar_majorities[seat],
            "milestones": milestones[seat],
            "buildings": buildings_vp[seat],
            "contracts": contracts[seat],
            "row_b_level3": row_b_level3[seat],
            "company_supply": company_supply[seat],
            "minus_tokens": 0,
            "workers": workers[seat],
            "counters": counters[seat],
        }
    assert result.scores == (117, 77, 127, 145)
    assert result.ranks == (3, 4, 2, 1)


# -- a whole 2-player game against André ---------------------------------------------------
# scripted_game_2p.json: seed 3, turn order P2, P1, André (always last). André's visible
# contracts A4 (eth, gua, bra), B4 (ind, col, eth), C4 (gua, bra, ind); his F contract
# placed level-1 plantations in Indonesia (middle space), Guatemala (rightmost) and Colombia
# (leftmost), with a production station on each one's 4-/5-player space.
def test_scripted_andre_setup_and_1970_work() -> None:
    start = scripted_states(SCRIPT_2P)[0]
    assert start.andre is not None and start.order == [P2, P1, ANDRE]
    assert start.andre.contracts == ["A4", "B4", "C4"]
    assert board(start, "ind")[0][2] == "P3:1" and board(start, "gua")[0][4] == "P3:1"
    assert board(start, "col")[0][0] == "P3:1"
    for coffee in ("ind", "gua", "col"):
        assert start.coops[coffee].buildings["production"][2] == ANDRE
    # Turn 1 (after P2 and P1): a plantation in his top cooperative, Ethiopia: none of his
    # there yet, so a level 1 on a 1 space, no worker to the town center.
    before, after = step(5, SCRIPT_2P)
    assert [p and p.owner for p in after.coops["eth"].rows[0]].count(ANDRE) == 1
    assert after.coops["eth"].town == before.coops["eth"].town
    # Turn 2: his middle cooperative, Guatemala, holds his level 1: he improves it with a
    # level 2 on the 1/2 row next to it, ignoring donkeys.
    _, after = step(8, SCRIPT_2P)
    assert board(after, "gua")[1][3] == "P3:2" and not after.coops["gua"].pathways
    # Turn 3: workers in Ethiopia for P2, P1 and himself last (6 -> 3); he never moves on
    # the Arabica track.
    before, after = step(12, SCRIPT_2P)
    assert (before.coops["eth"].town, after.coops["eth"].town) == (6, 3)
    assert after.players[ANDRE].arabica == dict.fromkeys(COFFEES, 1)


def test_scripted_andre_trade_harvest_and_sell_1970() -> None:
    # His Trade turn: a face-down counter shows an unoccupied trading house (Colombia); he
    # takes no Stock counter; P2 and P1 piggyback after him.
    before, after = step(26, SCRIPT_2P)
    assert after.coops["col"].traders == [ANDRE]
    assert after.coops["col"].stock == before.coops["col"].stock == 3
    # After everyone passes: a fair trade post in his bottom cooperative (Brazil), on the
    # 4-/5-player space first. Harvest: Ethiopia 4 staffed x 3 = 12, traders André (bought)
    # and P2: André 1 + 5, P2 5, 1 lost; André throws his coffee away. Sell: André first,
    # markers on the lowest-numbered spaces of his middle (Guatemala: b1's 1) and bottom
    # (Brazil: b3's 1) coffee.
    before, after = step(40, SCRIPT_2P)
    assert after.coops["bra"].buildings["fairtrade"][2] == ANDRE
    assert before.coops["eth"].traders == [ANDRE, P2]
    assert after.players[P2].coffee["eth"] - before.players[P2].coffee["eth"] == 5
    assert sum(after.players[ANDRE].coffee.values()) == 0
    assert after.bars["b1"][0] == ANDRE and after.bars["b3"][0] == ANDRE
    assert after.andre is not None and after.andre.markers == 4
    # A player's trader: André piggybacks only for the 2nd position (P2 leads in
    # Guatemala in 1975; André, then P1).
    _, after = step(80, SCRIPT_2P)
    assert after.coops["gua"].traders[:2] == [P2, ANDRE]
    # Refresh (after P1 stores coffee): his visible contract A goes; B is next; his
    # counters are face down again.
    _, after = step(54, SCRIPT_2P)
    assert after.period == 2 and not after.andre.flipped
    assert after.andre is not None and after.andre.contracts == ["B4", "C4"]


def test_scripted_game_against_andre_scored_by_hand() -> None:
    end = scripted_states(SCRIPT_2P)[-1]
    assert board(end, "gua") == [
        ["P2:1", None, None, None, "P3:1"],
        [None, None, None, "P3:2"],
        [None, None, "P3:3"],
    ]
    assert board(end, "col") == [
        ["P3:1", None, "P1:1", None, None],
        ["P3:2", "P1:2", None, None],
        [None, None, None],
    ]
    assert board(end, "bra") == [
        ["P3:1", None, None, None, "P1:1"],
        [None, None, None, "P1:2"],
        [None, None, None],
    ]
    assert board(end, "eth") == [
        ["P1:1", "P3:1", "P2:1", "P1:1", None],
        [None, None, None, "P1:1"],
        [None, None, "P1:3T"],
    ]
    assert board(end, "ind") == [
        [None, None, "P3:1", None, "P2:1"],
        [None, "P3:2", None, "P2:2"],
        [None, None, "P2:3"],
    ]
    buildings = {
        c: {k: v for k, v in coop.buildings.items() if any(x is not None for x in v)}
        for c, coop in end.coops.items()
    }
    assert buildings == {
        "gua": {"production": [P2, None, ANDRE], "hospital": [P1, None]},
        "col": {"production": [None, None, ANDRE], "fairtrade": [None, P1, None]},
        "bra": {
            "production": [P2, P1, None],
            "fairtrade": [P2, P1, ANDRE],
            "hospital": [None, P2],
        },
        "eth": {"production": [P1, None, None], "fairtrade": [None, P2, ANDRE]},
        "ind": {"production": [P1, None, ANDRE], "fairtrade": [None, P1, ANDRE]},
    }
    assert end.bars == {
        "b1": [ANDRE, P1, ANDRE, P2, None],
        "b2": [ANDRE, P2, None, ANDRE, None],
        "b3": [ANDRE, ANDRE, P2, None, None],
        "b4": [P2, P1, None, None, P1],
        "b5": [P2, P2, None, None, None],
        "seoul": [P1, P2, None],
    }
    p1, p2 = end.players[P1], end.players[P2]
    assert p1.arabica == {"gua": 5, "col": 3, "bra": 3, "eth": 6, "ind": 5}
    assert p2.arabica == {"gua": 4, "col": 3, "bra": 6, "eth": 4, "ind": 5}
    assert p1.built == {"warehouse": 2, "production": 3, "fairtrade": 3, "hospital": 1}
    assert p2.built == {"warehouse": 3, "production": 2, "fairtrade": 2, "hospital": 1}
    assert sorted(p1.fulfilled) == ["A", "B", "D"]
    assert sorted(p2.fulfilled) == ["A", "B", "C", "D", "F"]
    assert (p1.donkeys, p1.civets, p1.trucks, p1.pool) == (1, 0, 0, 0)
    assert (p2.donkeys, p2.civets, p2.trucks, p2.pool) == (2, 1, 1, 0)
    assert sorted(p1.counters) == sorted(
        ["arabica:eth", "arabica:gua", "arabica:eth", "animal:ind", "wild", "animal:ind"]
    )
    assert sorted(p2.counters) == sorted(
        [
            "arabica:ind",
            "arabica:bra",
            "animal:gua",
            "arabica:gua",
            "wild",
            "animal:ind",
            "arabica:eth",
            "arabica:bra",
        ]
    )

    # Cooperatives (3-player rules: 16 / 8); André's plantations and buildings compete.
    # Guatemala: André 1+2+3 +prod 1 = 7 -> 16 (scores nothing); P2 1 +prod 1 = 2 -> 8;
    #   P1 has no plantation (the hospital counts nothing).
    # Colombia: André 1+2 +prod 1 = 4, P1 1+2 +ftp 1 = 4: tie (16+8)/2 = 12.
    # Brazil: P1 1+2 +prod 1 +ftp 1 = 5 -> 16; André 1 +ftp 1 = 2 -> 8; P2 no plantation.
    # Ethiopia: P1 1+1+1+3 +prod 1 = 7 -> 16; P2 1 +ftp 1 = 2 and André 1 +ftp 1 = 2 tie
    #   for second: (8+0)/2 = 4.
    # Indonesia: P2 1+2+3 = 6 -> 16; André 1+2 +prod 1 +ftp 1 = 5 -> 8; P1 none.
    cooperatives = [12 + 16 + 16, 8 + 4 + 16]
    arabica = [3 + 7 + 6, 3 + 7 + 6]  # all rows >= 3; one row each on column 6
    # Bars: P1 b1 2nd space 1, b4 2nd 1, b4 6-of-a-kind 7, Seoul 1st 1;
    # P2 b1 4th 4, b2 2nd 1, b3 3rd 2, b4 1st 0, b5 1st 0 and 2nd 1, Seoul 2nd 3.
    coffee_bars = [1 + 1 + 7 + 1, 4 + 1 + 2 + 0 + 0 + 1 + 3]
    # Majorities (André's markers count): b1 André 2; P1 1 = P2 1, P2 lower -> 2nd;
    # b2 André 2, P2 1; b3 André 2, P2 1; b4 P1 2, P2 1; b5 P2 alone; Seoul P1 1 = P2 1,
    # P2 lower -> P2 4, P1 2.
    bar_majorities = [4 + 2, 2 + 2 + 2 + 2 + 4 + 4]
    milestones = [8, 0]  # P1: all 3 production stations and fair trade posts, top space
    buildings_vp = [1 + (1 + 2 + 3) + (1 + 2 + 3) + 4, (1 + 3) + (1 + 2) + (1 + 2) + 4]
    contracts = [1 + 2 + 4, 1 + 2 + 3 + 4 + 8]
    company_supply = [1, 2 + 1 + 3]  # donkeys, the 1980 row-bonus civet, a truck
    # Counter track: P1 4 distinct (eth arabica and ind animal twice, no pair) -> 6;
    # P2 7 distinct (bra arabica once more) -> 16.
    counters = [6, 16]

    result = engine.result(end)
    assert result is not None and len(result.scores) == 2
    for seat in (P1, P2):
        assert result.breakdown[seat] == {
            "cooperatives": cooperatives[seat],
            "arabica": arabica[seat],
            "coffee_bars": coffee_bars[seat],
            "bar_majorities": bar_majorities[seat],
            "milestones": milestones[seat],
            "buildings": buildings_vp[seat],
            "contracts": contracts[seat],
            "row_b_level3": 0,
            "company_supply": company_supply[seat],
            "minus_tokens": 0,
            "workers": 0,
            "counters": counters[seat],
        }
    assert result.scores == (115, 125) and result.ranks == (2, 1)
