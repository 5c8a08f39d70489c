"""The Big Box rulebook's worked examples as exact test vectors."""

from __future__ import annotations

from meeple_hall.games.core import Action
from meeple_hall.games.village import data, engine, mass
from meeple_hall.games.village.state import CHURCH, COUNCIL, FARM, KARLA, Frame, VillageState


def at_turn(state: VillageState, seat: int, **spaces: list[str]) -> VillageState:
    """Put `seat` at the start of a turn with exactly the given cubes on the board."""
    state.stack = [Frame("turn", seat)]
    state.current = seat
    state.spaces = {s: list(spaces.get(s, [])) for s in data.spaces()}
    return state


def choose(state: VillageState, seat: int, choice: str) -> VillageState:
    (decision,) = engine.decisions(state)
    assert decision.seat == seat, (decision, choice)
    return engine.apply(state, Action(seat, (choice,)))


def test_market_day_example_three_players() -> None:
    """BB market example: Chris triggers and serves horse + plow for free; Julie pays a
    green and a time for 3 grain; Oliver cannot sell and passes; Chris pays a green and a
    time for scroll + grain; Julie and Chris pass; three waiting customers move up."""
    chris, julie, oliver = 0, 1, 2
    state = engine.new(3, seed=1, options={"compensation": "off"})
    state = at_turn(state, chris, market=["orange"], harvest=["brown"])
    state.stalls = ["c01", "c02", "c03", "c04", ""]
    queue = list(state.queue)
    state.players[chris].goods.update(horse=1, plow=1, scroll=1)
    state.players[chris].grain = 1
    state.players[chris].cubes["green"] = 1
    state.players[julie].grain = 3
    state.players[julie].cubes["green"] = 1
    state.players[oliver].goods["scroll"] = 1
    state.players[oliver].cubes["green"] = 1

    state = choose(state, chris, "market-orange")
    state = choose(state, chris, "serve-c01")
    assert state.players[chris].cubes["green"] == 1 and state.players[chris].time == 0
    state = choose(state, julie, "serve-c02")
    assert state.players[julie].cubes["green"] == 0 and state.players[julie].time == 1
    assert state.players[julie].grain == 0
    # Oliver has a scroll but no grain and no horse: he can only pass.
    state = choose(state, chris, "serve-c03")
    assert state.players[chris].cubes["green"] == 0 and state.players[chris].time == 1
    assert state.players[chris].customers == ["c01", "c03"]
    assert state.players[julie].customers == ["c02"]
    # Julie has no horse and Chris has nothing left: both pass and the day is over.
    assert state.market is None
    (decision,) = engine.decisions(state)
    assert (decision.kind, decision.seat) == ("turn", julie)
    assert state.players[oliver].customers == []
    assert state.stalls == [queue[0], queue[1], queue[2], "c04", ""]
    assert state.queue[:2] == queue[3:]
    assert len(state.queue) == 5
    assert data.customers()["c01"].points == 6


def test_mass_example_three_players() -> None:
    """BB mass example: Chris and Oliver buy a member out each; Chris pays 2 grain to move
    his #1 to stage 3 and 1 grain to move his #2 to stage 2; Oliver pays 4 grain to move
    his #2 to stage 4; equal numbers, Oliver's rightmost member wins the 2 prestige.
    Julie buys nothing; Chris draws the 2 missing pieces at random: one of Julie's members
    and a monk (the seed is chosen so that the draw is the example's), so 3 coloured members
    go onto stage 1 and the monk goes back into the bag."""
    chris, oliver, julie = 0, 1, 2
    state = engine.new(3, seed=3, options={"compensation": "off"})
    state.stack = []
    c1, c2 = state.players[chris].members[0], state.players[chris].members[4]
    o1, o2 = state.players[oliver].members[0], state.players[oliver].members[4]
    c1.place, c1.stage = CHURCH, 1
    o2.place, o2.stage = CHURCH, 1
    c2.place = o1.place = "bag"
    state.black_bag += [f"{chris}:4", f"{oliver}:0"]
    j = state.players[julie].members[5]
    j.place = "bag"
    state.black_bag.append(f"{julie}:5")
    state.players[chris].grain = 3
    state.players[oliver].grain = 4
    state.players[julie].grain = 0
    state.start_player = chris
    mass.begin(state, final=False)
    from meeple_hall.games.village.engine import settle

    settle(state)
    state = choose(state, chris, "buy-4")
    state = choose(state, oliver, "buy-0")
    state = choose(state, julie, "done")
    assert state.players[chris].coins == 0 and state.players[oliver].coins == 0
    chris_m = state.players[chris].members
    assert chris_m[4].place == CHURCH and chris_m[4].stage == 1
    assert state.players[oliver].members[0].place == CHURCH
    assert state.players[julie].members[5].place == CHURCH
    assert state.players[julie].members[5].stage == 1
    assert state.black_bag == ["monk"] * 4
    state = choose(state, chris, "up-0")
    state = choose(state, chris, "up-0")
    state = choose(state, chris, "up-4")
    assert state.players[chris].grain == 0
    assert [m.stage for m in state.players[chris].members if m.place == CHURCH] == [3, 2]
    for _ in range(3):
        state = choose(state, oliver, "up-4")
    assert state.players[oliver].grain == 0
    assert state.players[oliver].members[4].stage == 4
    # Julie has no grain: the mass ends and a new round begins. Chris and Oliver have 2
    # members each, Julie 1; Oliver's stage 4 is the rightmost.
    assert state.players[oliver].prestige == 2
    assert state.players[chris].prestige == 0 and state.players[julie].prestige == 0
    assert state.round == 2


def test_death_comes_after_the_crafts_action_and_may_take_the_new_smith() -> None:
    """BB death example: a plague cube from crafts pushes the marker past the quill; the
    player still trains a #1 in the smithy (3 time) and makes a plow (3 time), then
    chooses which #1 dies: the new smith goes to the chronicle's crafts spaces."""
    state = engine.new(2, seed=3, options={"compensation": "off"})
    state = at_turn(state, 0, crafts=["black"], harvest=["green"])
    player = state.players[0]
    player.time = data.track_length() - 1
    player.members[1].place, player.members[1].stage = COUNCIL, 1
    state = choose(state, 0, "crafts-black")
    assert state.players[0].deaths_due == 1
    state = choose(state, 0, "smithy-train-0")
    assert state.players[0].goods["plow"] == 1
    assert state.players[0].time == data.track_length() - 1 + 2 + 6
    decision = engine.decisions(state)[0]
    assert decision.kind == "die"
    assert {o.id for o in decision.options} == {"die-0", "die-1", "die-2"}
    state = choose(state, 0, "die-0")
    assert state.players[0].members[0].place == "chronicle"
    assert state.chronicle["crafts"][0] == "0"


def death_example(pick: str) -> VillageState:
    """BB second death example: Chris has passed the quill; his #1s stand on church stage 4
    and in the council; every church space of the chronicle is taken."""
    state = engine.new(2, seed=8, options={"compensation": "off"})
    state = at_turn(state, 0, family=["black"], harvest=["green"])
    state.chronicle["church"] = ["1" if s == "" else s for s in state.chronicle["church"]]
    player = state.players[0]
    player.time = data.track_length() - 1
    player.members[0].place, player.members[0].stage = CHURCH, 4
    player.members[1].place, player.members[1].stage = COUNCIL, 2
    state = choose(choose(state, 0, "family-black"), 0, "skip")
    assert {"die-0", "die-1"} <= {o.id for o in engine.decisions(state)[0].options}
    return choose(state, 0, pick)


def test_death_example_church_member_to_the_graves_others_to_the_chronicle() -> None:
    state = death_example("die-0")
    assert state.players[0].members[0].place == "grave" and state.graves[0] == "0"
    state = death_example("die-1")
    assert state.players[0].members[1].place == "chronicle"
    assert state.chronicle["council"][0] == "0" and state.graves[0] == ""


def test_coins_pay_for_missing_influence_cubes() -> None:
    """BB coins example: moving up in the council needs 2 green, or 1 coin and 1 green,
    or 2 coins."""
    for green, coins in ((2, 0), (1, 1), (0, 2)):
        state = engine.new(2, seed=4, options={"compensation": "off"})
        state = at_turn(state, 0, council=["brown"], harvest=["green"])
        player = state.players[0]
        player.members[5].place, player.members[5].stage = COUNCIL, 1
        player.cubes["green"], player.coins = green, coins
        state = choose(state, 0, "council-brown")
        state = choose(state, 0, "promote-5-green")
        player = state.players[0]
        assert player.members[5].stage == 2
        assert player.cubes["green"] == 0 and player.coins == 0
        assert player.time == data.rules()["council"]["promote_time"][0]
    state = engine.new(2, seed=4, options={"compensation": "off"})
    state = at_turn(state, 0, council=["brown"], harvest=["green"])
    state.players[0].members[5].place, state.players[0].members[5].stage = COUNCIL, 1
    state.players[0].cubes["green"], state.players[0].coins = 1, 0
    ids = {o.id for o in engine.decisions(choose(state, 0, "council-brown"))[0].options}
    assert "promote-5-green" not in ids


def test_a_player_may_pay_coins_while_holding_the_cubes() -> None:
    """The same example the other way round: holding 2 green and 2 coins, the move may be
    paid with 2 green, 1 coin and 1 green, or 2 coins."""
    for choice, coins_used in (
        ("promote-5-green", 0),
        ("promote-5-green-coins1", 1),
        ("promote-5-green-coins2", 2),
    ):
        state = engine.new(2, seed=4, options={"compensation": "off"})
        state = at_turn(state, 0, council=["brown"], harvest=["green"])
        player = state.players[0]
        player.members[5].place, player.members[5].stage = COUNCIL, 1
        player.cubes["green"], player.coins = 2, 2
        state = choose(state, 0, "council-brown")
        supply = state.supply["green"]
        state = choose(state, 0, choice)
        player = state.players[0]
        assert player.members[5].stage == 2
        assert (player.cubes["green"], player.coins) == (coins_used, 2 - coins_used)
        assert state.supply["green"] == supply + 2 - coins_used


def test_karla_takes_after_the_market_and_dies_into_the_council() -> None:
    """BB solo example: Chris takes the market's green and serves the front customer; Karla
    serves the one that was second; Chris stops. No green is left anywhere and the market
    space is empty, travel is empty, so Karla takes from the council: Chris picks the plague
    cube for her; it passes a quill, and her #1 goes to the chronicle's council spaces."""
    state = engine.new(1, seed=6)
    state = at_turn(state, 0, market=["green"], council=["black", "brown"], harvest=["pink"])
    state.stalls = ["c01", "c02", "c03", "", ""]
    player = state.players[0]
    player.goods.update(horse=1, plow=1, scroll=1)
    player.grain = 1
    k = state.karla
    assert k is not None
    k.last, k.top, k.top_up = 1, ["quill", "blank", "blank"], [False] * 3
    state = choose(state, 0, "market-green")
    state = choose(state, 0, "serve-c01")
    assert state.karla is not None and state.karla.customers == ["c02"]
    ids = {o.id for o in engine.decisions(state)[0].options}
    # He could pay a green (or his coin) and a time, but stops.
    assert ids == {"serve-c03", "serve-c03-coins1", "pass"}
    state = choose(state, 0, "pass")
    decision = engine.decisions(state)[0]
    assert decision.kind == "karla"
    assert {o.id for o in decision.options} == {"take-black", "take-brown"}
    state = choose(state, 0, "take-black")
    k = state.karla
    assert k is not None
    assert k.ring[2] == ["black"] and k.top_up == [True, False, False]
    assert k.beside == [1, 1, 1, 2, 2, 2]
    assert state.chronicle["council"][0] == "k"
    assert state.spaces["council"] == ["brown"]


def test_karla_members_fill_church_stages_left_to_right() -> None:
    """BB solo mass example: Karla's #3 is on stage 1; her drawn #4 goes to stage 2, the
    next drawn #3 to stage 3; Chris's one member on stage 1 cannot win the majority."""
    state = engine.new(1, seed=7)
    k = state.karla
    assert k is not None
    k.church = {1: 3}
    mass.to_church(state, "k:4")
    mass.to_church(state, "k:3")
    assert k.church == {1: 3, 2: 4, 3: 3}
    member = state.players[0].members[6]
    member.place, member.stage = CHURCH, 4
    mass.award_majority(state)
    assert state.players[0].prestige == 0
    assert mass.church_counts(state)[KARLA] == (3, 3)
    assert state.players[0].members[0].place == FARM
