"""The component tables agree with the rulebooks' counts and say where they came from."""

from __future__ import annotations

import tomllib
from collections import Counter
from pathlib import Path

DATA = Path(__file__).resolve().parents[3] / "data" / "coffee"


def load(name: str) -> dict:
    return tomllib.loads((DATA / name).read_text(encoding="utf-8"))


def test_every_data_file_names_its_source() -> None:
    for path in DATA.glob("*.toml"):
        assert path.read_text(encoding="utf-8").startswith("# Coffee Traders"), path


def test_thirty_contracts_five_per_letter() -> None:
    contracts = load("contracts.toml")["contract"]
    assert len(contracts) == 30
    assert Counter(c["letter"] for c in contracts) == dict.fromkeys("ABCDEF", 5)
    for c in contracts:
        assert len(set(c["coffees"])) == 3
        assert sum(c["side3"]) > sum(c["side45"])


def test_f_contracts_never_collide_on_starting_spaces() -> None:
    fs = [c for c in load("contracts.toml")["contract"] if c["letter"] == "F"]
    for position in range(3):
        assert len({c["coffees"][position] for c in fs}) == 5


def test_player_board_holds_eight_plantations_like_andres_stack() -> None:
    board = load("player_board.toml")
    rows = board["plantations"]["rows"]
    levels = sorted(level for row in rows.values() for level in row)
    assert levels == sorted(load("setup.toml")["andre"]["plantations"])
    assert len(levels) + board["plantations"]["starting_level1"] == 11


def test_nine_milestones_three_per_letter() -> None:
    milestones = load("milestones.toml")["milestone"]
    assert Counter(m["letter"] for m in milestones) == {"A": 3, "B": 3, "C": 3}


def test_five_leftmost_bars_end_with_six_of_a_kind() -> None:
    bars = load("coffee_bars.toml")["bar"]
    assert len(bars) == 6 and bars[-1]["id"] == "seoul"
    for bar in bars[:5]:
        assert bar["spaces"][-1]["need"] == "any" and bar["spaces"][-1]["amount"] == 6
    assert sum(1 for s in bars[-1]["spaces"] if s.get("wild_animal")) == 2


def test_contract_bonuses_the_rulebooks_name() -> None:
    """F gives the free hospital (EN "Phase 3" B, note); the second of a player's two trucks
    comes from E (zh-TW: "第二台是完成E合約的其中一種獎勵"); no contract space gives a trader
    (zh-TW: six traders at most = 3 at the start + Arabica track + row bonus or 3-player
    extra + bonus supply)."""
    bonus = load("player_board.toml")["contracts"]["bonus"]
    assert bonus["F"] == [["hospital"]]
    assert [letter for letter, sides in bonus.items() if ["truck"] in sides] == ["E"]
    assert all("trader" not in side for sides in bonus.values() for side in sides)


def test_seoul_wild_animals_lie_on_its_3_and_4_spaces() -> None:
    """EN setup 6: "1 on the 3 space, 1 on the 4 space" of Seoul."""
    seoul = load("coffee_bars.toml")["bar"][-1]
    assert sorted(s["amount"] for s in seoul["spaces"] if s.get("wild_animal")) == [3, 4]


def test_every_bar_has_a_delivery_below_value_two() -> None:
    """The milestone "1 delivery of value 2 or more to all 6 Coffee Bars" implies smaller
    deliveries exist; Seoul's smallest is 2 different coffees (reconstructed)."""
    for bar in load("coffee_bars.toml")["bar"][:5]:
        assert min(s["amount"] for s in bar["spaces"]) == 1
