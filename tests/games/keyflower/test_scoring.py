"""End scoring: the assignment of items to scoring tiles is the best one (brute force on
small cases), and the rulebook's scoring examples."""

from __future__ import annotations

from itertools import product

from hypothesis import given, settings
from hypothesis import strategies as st

from meeple_hall.games.keyflower.components import COLOURS, RESOURCES, SKILLS, spec
from meeple_hall.games.keyflower.scoring import best_resources, best_skills, best_workers, score
from meeple_hall.games.keyflower.village import longest_loop
from tests.games.keyflower.helpers import give_tile, table

WINTER = {spec(t).front["effect"]: spec(t).front for t in (f"W{i:02d}" for i in range(1, 13))}
WHITE_WIND = spec("B6").front


def _splits(n: int, parts: int):
    """Every way to put n alike items into `parts` boxes."""
    if parts == 1:
        yield (n,)
        return
    for first in range(n + 1):
        for rest in _splits(n - first, parts - 1):
            yield (first, *rest)


def _brute(counts: dict[str, int], kinds: tuple[str, ...], sinks: list[str], value) -> int:
    best = 0
    per_kind = [list(_splits(counts.get(k, 0), len(sinks))) for k in kinds]
    for combo in product(*per_kind):
        given_to = {s: {k: combo[i][j] for i, k in enumerate(kinds)} for j, s in enumerate(sinks)}
        best = max(best, value(given_to))
    return best


def _worker_value(sinks: dict, hall: str | None):
    def value(g: dict) -> int:
        total = 0
        if "craftsman" in g:
            total += 3 * min(g["craftsman"][c] for c in ("blue", "red", "yellow"))
        if "apothecary" in g:
            total += 3 * (sum(g["apothecary"].values()) // 5)
        if "key_market" in g:
            total += 2 * g["key_market"]["green"]
        if "village_hall" in g:
            total += g["village_hall"][hall] if hall else 0
        if "white_wind" in g:
            total += sum(g["white_wind"].values())
        return total

    return value


@settings(max_examples=12, deadline=None)
@given(
    counts=st.tuples(*[st.integers(0, 2)] * 4),
    owned=st.sets(
        st.sampled_from(["craftsman", "apothecary", "key_market", "village_hall", "white_wind"]),
        min_size=1,
        max_size=3,
    ),
)
def test_worker_assignment_is_optimal(counts: tuple[int, ...], owned: set[str]) -> None:
    have = dict(zip(COLOURS, counts, strict=True))
    sinks = {k: (WHITE_WIND if k == "white_wind" else WINTER[k]) for k in owned}
    names = ["none", *sorted(owned)]
    halls = COLOURS if "village_hall" in owned else (None,)
    brute = max(_brute(have, COLOURS, names, _worker_value(sinks, h)) for h in halls)
    assert best_workers(have, sinks).points == brute


def _skill_value(kind: str | None):
    def value(g: dict) -> int:
        total = 0
        if "scribes" in g:
            total += 10 * min(g["scribes"].values())
        if "key_guild" in g:
            total += 10 * (sum(g["key_guild"].values()) // 5)
        if "scholar" in g and kind:
            total += 3 * g["scholar"][kind]
        return total

    return value


@settings(max_examples=12, deadline=None)
@given(
    counts=st.tuples(*[st.integers(0, 3)] * 3),
    owned=st.sets(st.sampled_from(["scribes", "key_guild", "scholar"]), min_size=1),
)
def test_skill_assignment_is_optimal(counts: tuple[int, ...], owned: set[str]) -> None:
    have = dict(zip(SKILLS, counts, strict=True))
    sinks = {k: WINTER[k] for k in owned}
    names = ["none", *sorted(owned)]
    kinds = SKILLS if "scholar" in owned else (None,)
    brute = max(_brute(have, SKILLS, names, _skill_value(k)) for k in kinds)
    assert best_skills(have, sinks).points == brute


def _mercer_sets(got: dict[str, int], any_for_any: bool) -> int:
    total = sum(got.values())
    if any_for_any:
        return total // 3
    k = 0
    while (
        3 * (k + 1) <= total
        and sum(max(0, k + 1 - got[r]) for r in ("iron", "stone", "wood")) <= got["gold"]
    ):
        k += 1
    return k


def _resource_value(owned: set[str], mill: str | None, any_for_any: bool):
    def value(g: dict) -> int:
        total = g["none"]["gold"] * (2 if "jeweller" in owned else 1)
        if "mercer" in g:
            total += 5 * _mercer_sets(g["mercer"], any_for_any)
        if "windmill" in g:
            total += 5 * (sum(g["windmill"].values()) // 5)
        if "watermill" in g and mill:
            total += sum(n for r, n in g["watermill"].items() if r in (mill, "gold") or any_for_any)
        return total

    return value


@settings(max_examples=12, deadline=None)
@given(
    counts=st.tuples(*[st.integers(0, 2)] * 4),
    owned=st.sets(st.sampled_from(["mercer", "windmill", "watermill", "jeweller"]), max_size=3),
    any_for_any=st.booleans(),
)
def test_resource_assignment_is_optimal(
    counts: tuple[int, ...], owned: set[str], any_for_any: bool
) -> None:
    have = dict(zip(RESOURCES, counts, strict=True))
    sinks = {k: WINTER[k] for k in owned}
    names = ["none", *sorted(owned - {"jeweller"})]
    mills = ("iron", "stone", "wood") if "watermill" in owned else (None,)
    brute = max(
        _brute(have, RESOURCES, names, _resource_value(owned, m, any_for_any)) for m in mills
    )
    assert best_resources(have, sinks, any_for_any).points == brute


def _scored(setup) -> dict[str, int]:
    s = table(num_players=2)
    s.start = 1
    setup(s)
    breakdown, _ = score(s, 0)
    return breakdown


def test_gold_scores_one_each_or_two_with_the_jeweller_not_both() -> None:
    def setup(s):
        s.tiles[s.players[0].home].resources = {"gold": 3}
        s.players[0].screen = {}

    assert _scored(setup)["gold"] == 3

    def with_jeweller(s):
        setup(s)
        give_tile(s, 0, "W03", 1, 0)

    b = _scored(with_jeweller)
    assert b["winter"] == 6 and b["gold"] == 0


def test_mercers_guild_takes_gold_in_place_of_a_missing_resource() -> None:
    def setup(s):
        s.players[0].screen = {}
        s.tiles[s.players[0].home].resources = {"iron": 1, "stone": 1, "gold": 1}
        give_tile(s, 0, "W07", 1, 0)

    b = _scored(setup)
    assert b["winter"] == 5 and b["gold"] == 0


def test_a_worker_scores_on_one_tile_only() -> None:
    def setup(s):
        s.players[0].screen = {"blue": 1, "red": 1, "yellow": 1, "green": 2}
        give_tile(s, 0, "W01", 1, 0)  # apothecary: 3 per 5 workers
        give_tile(s, 0, "W02", 2, 0)  # craftsman's guild: 3 per blue-red-yellow

    # Five workers make one apothecary set (3) or one craftsman set (3), never both.
    assert _scored(setup)["winter"] == 3


def test_resources_on_the_stone_yard_score_there_and_nowhere_else() -> None:
    def setup(s):
        s.players[0].screen = {}
        give_tile(s, 0, "A03", 1, 0)  # stone yard: 1 per stone on it
        s.tiles["A03"].resources = {"stone": 3, "gold": 1, "wood": 2}
        give_tile(s, 0, "W12", 2, 0)  # windmill: 5 per 5 resources

    b = _scored(setup)
    assert b["storage"] == 4  # 3 stone and the gold standing in for a stone
    assert b["winter"] == 0  # the two wood alone are no set of five


def test_start_keyple_counts_as_any_one_item_for_its_holder() -> None:
    def setup(s):
        s.start, s.start_won = 0, True
        s.players[0].screen = {"blue": 1, "red": 1}
        give_tile(s, 0, "W02", 1, 0)

    assert _scored(setup)["winter"] == 3


def test_the_score_lines_say_what_the_start_keyple_was_declared_as() -> None:
    s = table(num_players=2)
    s.start, s.start_won = 0, True
    s.players[0].screen = {"blue": 1, "red": 1}
    give_tile(s, 0, "W02", 1, 0)
    _, lines = score(s, 0)
    shown = [str(line) for line in lines]
    assert "Craftsman's guild (workers, the start keyple as 1 yellow worker): 3" in shown


def test_start_keyple_counts_for_nobody_when_nobody_won_the_start_tile() -> None:
    def setup(s):
        s.start, s.start_won = 0, False
        s.players[0].screen = {"blue": 1, "red": 1}
        give_tile(s, 0, "W02", 1, 0)

    assert _scored(setup)["winter"] == 0


def test_turn_order_tile_scores_a_point_per_connected_tile() -> None:
    def setup(s):
        s.players[0].screen = {}
        give_tile(s, 0, "T1", 1, 0)
        give_tile(s, 0, "S03", 1, -1)

    assert _scored(setup)["adjacency"] == 2


def test_sea_bastion_counts_the_longest_road_loop() -> None:
    def setup(s):
        s.players[0].screen = {}
        # Home (roads E, NE) with S04 to the east and S05 north-east: a loop of three.
        give_tile(s, 0, "S04", 1, 0, rot=2)
        give_tile(s, 0, "S05", 1, -1, rot=2)
        s.players[0].boat = "B2"
        give_tile(s, 0, "B2", -1, 0)

    assert _scored(setup)["boats"] == 3


def test_sea_breeze_scores_boats_linked_to_home_by_water() -> None:
    def setup(s):
        s.players[0].screen = {}
        s.players[0].boat = "B3"
        give_tile(s, 0, "B3", -1, 0)  # water east-west, on the home's water side
        give_tile(s, 0, "U09", -2, 0)  # a summer boat further down the river
        s.tiles["U09"].side = "a"
        give_tile(s, 0, "U10", 0, -1)  # not on the river
        s.tiles["U10"].side = "a"

    assert _scored(setup)["boats"] == 2 * spec("B3").front["per"]


def test_keyflower_boat_scores_transport_capacity_doubled_by_boat_2b() -> None:
    def setup(s, double: bool):
        s.players[0].screen = {}
        s.players[0].boat = "B1"
        give_tile(s, 0, "B1", -1, 0)
        give_tile(s, 0, "S10", 1, 0)  # stable, capacity 2, with the home's 1
        if double:
            give_tile(s, 0, "U10", 0, -1)
            s.tiles["U10"].side = "b"

    assert _scored(lambda s: setup(s, False))["boats"] == 3
    assert _scored(lambda s: setup(s, True))["boats"] == 6


def _graph(pairs: list[tuple[str, str]]) -> dict[str, list[str]]:
    g: dict[str, list[str]] = {}
    for a, b in pairs:
        g.setdefault(a, []).append(b)
        g.setdefault(b, []).append(a)
    return g


def test_sea_bastion_loop_may_pass_a_tile_twice_but_no_road_twice() -> None:
    eight = _graph([("a", "b"), ("b", "c"), ("c", "a"), ("c", "d"), ("d", "e"), ("e", "c")])
    assert longest_loop(eight) == 5
    theta = _graph(
        [("s", "a"), ("a", "t"), ("s", "b"), ("b", "t"), ("s", "c"), ("c", "d"), ("d", "t")]
    )
    assert longest_loop(theta) == 5  # two of the three ways between s and t
    tail = _graph([("a", "b"), ("b", "c"), ("c", "a"), ("c", "d")])
    assert longest_loop(tail) == 3
    assert longest_loop(_graph([("a", "b"), ("b", "c")])) == 0


def test_a_resource_scores_on_the_watermill_or_the_windmill_not_both() -> None:
    """Game end scoring: "a resource cannot be allocated to both the watermill and the
    windmill". Five iron: 5 on the watermill or one windmill set of 5, never 10."""

    def setup(s):
        s.players[0].screen = {}
        s.tiles[s.players[0].home].resources = {"iron": 5}
        give_tile(s, 0, "W11", 1, 0)
        give_tile(s, 0, "W12", 2, 0)

    assert _scored(setup)["winter"] == 5


def test_white_wind_does_not_count_workers_the_apothecary_scores() -> None:
    """White Wind: "each worker can only be scored once". Five workers: 5 on the White Wind
    (better than the apothecary's 3), not 5 + 3."""

    def setup(s):
        s.players[0].screen = {"blue": 2, "red": 2, "yellow": 1}
        give_tile(s, 0, "W01", 1, 0)
        give_tile(s, 0, "B6", 2, 0)
        s.players[0].boat = "B6"

    b = _scored(setup)
    assert b["boats"] + b["winter"] == 5


def test_gold_standing_in_on_a_storage_tile_does_not_also_score_one() -> None:
    """Gold on the barn, blacksmith, stone yard or timber yard may stand in for their
    resource, "however if gold is used on these tiles the gold does not also score one point"."""

    def setup(s):
        s.players[0].screen = {}
        give_tile(s, 0, "A03", 1, 0)
        s.tiles["A03"].resources = {"gold": 2}

    b = _scored(setup)
    assert b["storage"] == 2 and b["gold"] == 0
