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
