"""Final scoring (BB "最終計分") and the solo achievement titles."""

from __future__ import annotations

from games.village import data
from games.village.state import ALIVE, CHURCH, COUNCIL, Player, VillageState


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


def title(score: int) -> str:
    titles = sorted(data.rules()["solo_titles"].items(), key=lambda kv: kv[1])
    return [name for name, low in titles if score >= low][-1]
