"""The solo game against Karla (BB "單人遊戲")."""

from __future__ import annotations

from meeple_hall.games.village import data, engine, karla, scoring
from meeple_hall.games.village.state import CHURCH, KARLA
from tests.games.village.helpers import playout
from tests.games.village.test_rulebook_examples import at_turn, choose


def solo(seed: int = 1, die: bool = False):
    return engine.new(1, seed, {"karla": "die" if die else "standard"})


def test_karla_setup() -> None:
    state = solo()
    k = state.karla
    assert k is not None
    assert k.beside == [1, 1, 1, 1, 2, 2, 2] and k.waiting == [3, 3, 4, 4]
    assert k.top.count("quill") == 1 and k.bottom.count("quill") == 1
    assert not any(k.top_up + k.bottom_up)
    assert sum(1 for t in state.stalls if t) == data.card(2)["stalls"]
    assert state.players[0].coins == 1


def test_karla_takes_the_same_colour_from_the_same_space_else_clockwise() -> None:
    state = at_turn(solo(), 0, harvest=["pink", "pink", "green"], travel=["orange"])
    state = choose(choose(state, 0, "harvest-pink"), 0, "skip")
    assert state.spaces["harvest"] == ["green"]
    assert state.karla.ring[0] == ["pink"]
    state = at_turn(state, 0, family=["orange", "brown"], travel=["orange"], council=["orange"])
    state = choose(choose(state, 0, "family-orange"), 0, "skip")
    # Clockwise from family: crafts, market, travel: the travel orange goes to Karla.
    assert state.spaces["travel"] == [] and state.spaces["council"] == ["orange"]
    assert state.karla.ring[1] == ["orange"]


def test_karla_takes_nothing_after_the_well() -> None:
    state = at_turn(solo(), 0, harvest=["green", "green"])
    state.players[0].cubes["pink"] = 3
    state = choose(state, 0, "well-pink-harvest")
    state = choose(state, 0, "harvest")
    assert state.spaces["harvest"] == ["green", "green"]
    assert state.karla.last == -1
    assert engine.decisions(state)[0].kind == "turn"


def test_karla_church_reaction_sends_her_lowest_waiting_member_to_the_bag() -> None:
    state = at_turn(solo(), 0, church=["brown", "brown"], harvest=["green"])
    state = choose(choose(state, 0, "church-brown"), 0, "skip")
    assert state.karla.waiting == [3, 4, 4]
    assert "k:3" in state.black_bag


def test_karla_triggers_a_market_day_and_serves_the_front_customer() -> None:
    state = at_turn(solo(), 0, harvest=["green"], crafts=["green"], market=["green"])
    state.stalls = ["c03", "c02", "c04", "", ""]
    state.players[0].grain = 3
    state.players[0].cubes["green"] = 1
    state = choose(choose(state, 0, "harvest-green"), 0, "skip")
    # Karla: no green left on harvest, clockwise the crafts green.
    assert state.spaces["crafts"] == []
    state = at_turn(state, 0, harvest=["pink"], market=["pink"])
    state = choose(choose(state, 0, "harvest-pink"), 0, "skip")
    assert state.karla.customers == ["c03"]
    (decision,) = engine.decisions(state)
    assert decision.kind == "market"
    assert {o.id for o in decision.options} == {"serve-c02", "serve-c02-coins1", "pass"}
    state = choose(state, 0, "serve-c02")
    player = state.players[0]
    assert player.customers == ["c02"]
    assert player.time == 1 and player.cubes["green"] == 1 and player.grain == 0


def test_a_fate_set_is_reshuffled_when_all_three_are_up() -> None:
    state = solo(seed=3)
    k = state.karla
    k.top, k.top_up, k.last = ["blank", "blank", "quill"], [True, True, False], 5
    state.spaces = {s: [] for s in data.spaces()}
    state.spaces["harvest"] = ["pink"]
    karla.place(state, "harvest", "pink")
    assert k.top_up == [False, False, False]
    assert k.top.count("quill") == 1
    assert k.beside == [1, 1, 1, 2, 2, 2]
    assert state.chronicle["farm"][0] == "k"


def test_karla_market_cube_kills_into_the_graves() -> None:
    state = solo(seed=3)
    k = state.karla
    k.top, k.top_up, k.last = ["quill", "blank", "blank"], [False] * 3, 1
    state.spaces = {s: [] for s in data.spaces()}
    state.spaces["market"] = ["pink"]
    state.stalls = ["", "", "", "", ""]
    karla.place(state, "market", "pink")
    assert state.graves[0] == "k"


def test_karla_dies_from_the_church_when_her_family_is_gone() -> None:
    state = solo()
    k = state.karla
    k.beside = []
    karla.dies(state, "council")
    assert k.waiting == [3, 4, 4]
    k.waiting = []
    k.church = {2: 4, 3: 3}
    karla.dies(state, "council")
    assert k.church == {3: 3}


def test_karla_keeps_only_her_last_cube_at_a_new_round() -> None:
    state = at_turn(solo(), 0, harvest=["pink", "pink"])
    state.karla.ring[4] = ["green"]
    state.karla.ring[5] = ["orange"]
    state.karla.last = 5
    state = choose(choose(state, 0, "harvest-pink"), 0, "skip")
    assert state.round == 2
    assert state.karla.last == 6
    assert [c for c in state.karla.ring if c] == [["pink"]] and state.karla.ring[6] == ["pink"]


def test_the_next_start_marker_is_a_coin_in_solo_until_the_round_ends() -> None:
    state = at_turn(solo(), 0, council=["green", "green"], harvest=["pink", "pink"])
    player = state.players[0]
    player.cubes["green"] = 1
    player.coins = 0
    state = choose(choose(state, 0, "council-green"), 0, "enter-0-green")
    state = choose(state, 0, "p1")
    assert state.players[0].marker_coin and state.next_start == 0
    state = at_turn(state, 0, council=["brown", "brown"], harvest=["pink", "pink"])
    state.players[0].cubes["green"] = 1
    state = choose(state, 0, "council-brown")
    state = choose(state, 0, "promote-0-green")  # 1 green and the marker as a coin
    player = state.players[0]
    assert not player.marker_coin and player.cubes["green"] == 0 and player.coins == 0
    assert "p1" not in {o.id for o in engine.decisions(state)[0].options}
    state = choose(state, 0, "none")
    state = at_turn(state, 0, harvest=["pink"])
    state = choose(choose(state, 0, "harvest-pink"), 0, "skip")
    assert state.round == 2 and state.next_start is None


def test_the_die_variant_rolls_only_colours_on_the_board() -> None:
    for seed in range(6):
        state = at_turn(
            solo(seed, die=True), 0, harvest=["pink", "green", "green"], travel=["orange"]
        )
        state = choose(choose(state, 0, "harvest-pink"), 0, "skip")
        taken = [c for cubes in state.karla.ring for c in cubes]
        assert taken in (["green"], ["orange"])


def test_solo_titles() -> None:
    assert scoring.title(0) == "apprentice"
    assert scoring.title(45) == "traveller"
    assert scoring.title(80) == "sage"
    assert [scoring.title_rank(s) for s in (39, 40, 59, 60, 200)] == [1, 2, 3, 4, 6]


def test_a_solo_game_ends_with_its_title_in_the_result_and_the_view() -> None:
    *_, last = playout(1, seed=4)
    result = engine.result(last)
    score = result.scores[0]
    assert result.breakdown[0][f"title: {scoring.title(score)}"] == 0
    assert sum(result.breakdown[0].values()) == score
    seen = engine.view(last, None)
    assert seen["title"] == scoring.title(score)
    assert seen["title_rank"] == scoring.title_rank(score)


def test_karla_competes_for_the_church_majority() -> None:
    state = at_turn(solo(), 0, harvest=["pink"])
    state.karla.church = {1: 3, 2: 4}
    m = state.players[0].members[6]
    m.place, m.stage = CHURCH, 4
    state.players[0].coins = 0
    state = choose(choose(state, 0, "harvest-pink"), 0, "skip")
    assert state.players[0].prestige == 0


def test_when_the_player_ends_the_game_karla_takes_her_last_cube_then_it_is_over() -> None:
    state = at_turn(solo(), 0, family=["black", "pink"], harvest=["green"])
    state.graves = ["k" if g == "" else g for g in state.graves]
    state.graves[-1] = ""
    state.chronicle["farm"] = ["k" if s == "" else s for s in state.chronicle["farm"]]
    state.players[0].time = data.track_length() - 1
    state = choose(choose(state, 0, "family-black"), 0, "skip")
    assert state.ender == 0
    assert state.karla.ring[0] == ["pink"]  # clockwise from family: no black; her choice
    assert state.phase == "over"
    result = engine.result(state)
    assert result is not None and result.ranks == (1,)


def test_when_karla_ends_the_game_the_player_takes_one_final_turn() -> None:
    state = at_turn(solo(), 0, market=["pink"], harvest=["green", "green"])
    state.stalls = ["", "", "", "", ""]
    state.queue, state.customer_stack = [], []
    state.graves = ["0" if g == "" else g for g in state.graves]
    state.graves[-1] = ""
    state.chronicle["farm"] = ["0" if s == "" else s for s in state.chronicle["farm"]]
    k = state.karla
    k.top, k.top_up, k.last = ["quill", "blank", "blank"], [False] * 3, 1
    state = choose(choose(state, 0, "harvest-green"), 0, "skip")
    # Karla takes the other harvest green; it flips the quill; farm is full: last grave.
    assert state.ending and state.ender == -1
    assert state.final_turns == []
    (decision,) = engine.decisions(state)
    assert decision.kind == "turn"
    state = choose(state, 0, "market-pink")
    assert state.phase == "over"


def test_karla_does_not_serve_in_a_market_day_held_through_the_well() -> None:
    """BB solo, well special case: after a well action Karla neither takes a cube nor
    "reacts", and serving in the player's market day is one of her reactions."""
    state = at_turn(solo(), 0, harvest=["green", "green"], market=["pink"])
    state.stalls = ["c02", "c03", "c04", "", ""]
    state.players[0].grain = 3
    state.players[0].cubes["orange"] = 3
    state = choose(state, 0, "well-orange-market")
    state = choose(state, 0, "serve-c02")
    assert state.karla.customers == []
    assert state.stalls[1:3] == ["c03", "c04"]
    assert state.karla.last == -1


def test_an_end_in_karlas_market_day_gives_the_player_a_final_turn_then_karla() -> None:
    """BB game end, special case: the end came in a market day someone else triggered, so
    everyone takes one more turn and the market day's trigger (here Karla) takes the last."""
    state = at_turn(
        solo(), 0, harvest=["green"], market=["green"], family=["brown", "pink"], council=["orange"]
    )
    state.stalls = ["c03", "c02", "c04", "", ""]
    player = state.players[0]
    player.grain, player.cubes["green"] = 3, 1
    player.time = data.track_length() - 1
    state.graves = ["k" if g == "" else g for g in state.graves]
    state.graves[-1] = ""
    state.chronicle["farm"] = ["k" if s == "" else s for s in state.chronicle["farm"]]
    state = choose(choose(state, 0, "harvest-green"), 0, "skip")
    # Karla: no green on harvest; clockwise family, crafts, market: her market day.
    assert state.karla.customers == ["c03"]
    state = choose(state, 0, "serve-c02")
    # The sale's time passes the quill: the #1 on the farm takes the last grave.
    assert state.ending and state.ender == 0 and state.market_ender == KARLA
    state = choose(choose(state, 0, "family-pink"), 0, "skip")
    assert state.karla.ring[1] == ["brown"]  # her final cube: no pink left, her family pick
    assert state.phase == "over"
