"""Final scoring (BB "最終計分") and the solo achievement titles."""

from __future__ import annotations

from meeple_hall.games.core import ranks_from_scores
from meeple_hall.games.village import data
from meeple_hall.games.village.state import ALIVE, CHURCH, COUNCIL, Player, VillageState


def breakdown(state: VillageState, seat: int) -> dict[str, int]:
    rules = data.rules()
    player: Player = state.players[seat]
    mark = str(seat)
    in_chronicle = sum(s.count(mark) for s in state.chronicle.values())
    chronicle_table = rules["chronicle"]["score"]
    return {
        "prestige track": player.prestige,
        "travel": rules["travel"]["score"][min(len(player.cities), 6)],
        "church": sum(
            rules["church"]["score"][m.stage - 1] for m in player.members if m.place == CHURCH
        ),
        "council": sum(
            rules["council"]["score"][m.stage - 1] for m in player.members if m.place == COUNCIL
        ),
        "chronicle": chronicle_table[min(in_chronicle, len(chronicle_table) - 1)],
        "customers": sum(data.customers()[t].points for t in player.customers),
        "coins": player.coins,
    }


def living(player: Player) -> int:
    return sum(1 for m in player.members if m.place in ALIVE)


def ranks(state: VillageState, scores: tuple[int, ...] | list[int]) -> tuple[int, ...]:
    """Places by score; ties go to more grain, then more living family members (BB)."""
    keys = [(scores[s], p.grain, living(p)) for s, p in enumerate(state.players)]
    return ranks_from_scores(keys)


def titles() -> list[str]:
    """The solo achievement titles, lowest first."""
    return [name for name, _ in sorted(data.rules()["solo_titles"].items(), key=lambda kv: kv[1])]


def title(score: int) -> str:
    return titles()[title_rank(score) - 1]


def title_rank(score: int) -> int:
    """1 for the lowest title, up to the number of titles."""
    return sum(1 for low in data.rules()["solo_titles"].values() if score >= low)
