"""The component data agrees with the rulebook's counts and with itself."""

import json
from collections import Counter
from pathlib import Path

from meeple_hall.games.burgundy.data import components

REFERENCE = Path("/work/shared/reference/castles_of_burgundy/duchy1_layout.json")


def test_164_hex_tiles_by_type_and_back():
    tiles = components().tiles
    assert len(tiles) == 164
    by_type = Counter(t.type for t in tiles)
    assert by_type == {
        "building": 56,
        "animal": 28,
        "knowledge": 26,
        "castle": 16,
        "mine": 12,
        "ship": 26,
    }
    black = Counter(t.type for t in tiles if t.black)
    assert black == {"building": 16, "animal": 8, "knowledge": 6, "castle": 2, "mine": 2, "ship": 6}
    assert Counter(t.building for t in tiles if t.building) == {
        b: 7 for b in components().table["tiles"]["building_types"]
    }
    assert Counter(t.animal for t in tiles if t.animal) == {
        a: 7 for a in ("cow", "sheep", "pig", "hen")
    }
    assert sorted(t.knowledge for t in tiles if t.knowledge) == list(range(1, 27))
    assert all(2 <= t.value <= 4 for t in tiles if t.animal)


def test_estate_1_has_the_rulebook_towns_and_counts():
    estate = components().estate
    assert len(estate.hexes) == 37 and estate.start == 19
    assert estate.hexes[19].type == "castle" and estate.hexes[19].die == 6
    towns = {estate.area_of[h] for h, x in estate.hexes.items() if x.type == "building"}
    assert sorted(len(t) for t in towns) == [1, 3, 3, 5]
    counts = Counter(h.type for h in estate.hexes.values())
    assert counts == {
        "building": 12,
        "animal": 6,
        "knowledge": 6,
        "ship": 6,
        "castle": 4,
        "mine": 3,
    }


def test_estate_neighbours_match_the_reference_transcription():
    if not REFERENCE.exists():
        return
    cells = json.loads(REFERENCE.read_text())["cells"]
    neighbours = components().estate.neighbours
    for cell in cells:
        assert tuple(sorted(cell["neighbors"])) == neighbours[cell["id"]]


def test_four_player_depots_use_up_each_normal_supply_over_five_phases():
    table = components().table
    per_phase = Counter()
    for d in range(1, 7):
        for kind, _ in table["depots"][str(d)]:
            per_phase["castle" if kind == "castle_or_mine" else kind] += 1
    supply = Counter(t.type for t in components().tiles if not t.black)
    for kind, n in per_phase.items():
        start_castles = 4 if kind == "castle" else 0
        assert 5 * n + start_castles == supply[kind], kind
    assert 5 * table["black_depot"]["4"] == sum(t.black for t in components().tiles)


def test_each_depot_uses_2_3_or_4_spaces_by_player_count():
    # 2011 rules: "in a 2-player game only 2 spaces are used per depot, in a 3-player game 3
    # and in a 4-player game 4"; 2019: the eight "3" spaces are one per depot and two black.
    table = components().table
    for n in (2, 3, 4):
        for d in range(1, 7):
            assert sum(least <= n for _, least in table["depots"][str(d)]) == n
    assert table["black_depot"]["3"] - table["black_depot"]["2"] == 8 - 6
