"""What a seat cannot see in Keyflower, drawn again for the AI's searches.

Behind the other screens are workers and skill tiles; in the other hands, winter tiles. The
seat sees neither, nor the bag's colours nor the skill pile's, but it has watched every
worker and skill tile come and go, so each screen keeps its number of workers and of skill
tiles (the rulebook's screens hide colours, not how much a player brought home). The
colours are dealt again from everything it cannot see: the other screens and the bag. Winter
tiles in other hands are dealt again, in the same numbers, from the winter tiles the seat
has not seen. The face-down season stacks are shuffled by the core (they are marked HIDDEN).
"""

from __future__ import annotations

from meeple_hall.games.core import Rng
from meeple_hall.games.keyflower.components import season_tiles
from meeple_hall.games.keyflower.state import KeyflowerState


def resample(state: KeyflowerState, seat: int, rng: Rng) -> None:
    rivals = [i for i in range(state.num_players) if i != seat]
    idle = [i for i in rivals if not _mid_turn(state, i)]
    _deal_counts([*(state.players[i].screen for i in idle), state.bag], rng)
    _deal_counts([*(state.players[i].skills for i in idle), state.skill_pile], rng)
    _deal_winter(state, seat, rivals, rng)


def _mid_turn(state: KeyflowerState, i: int) -> bool:
    """A player halfway through a turn has chosen from the screen: keep it as it is (only
    a seat other than the one deciding is ever in this position)."""
    return state.phase == "play" and state.current == i and state.move.stage != "action"


def _deal_counts(holders: list[dict[str, int]], rng: Rng) -> None:
    """Pool the holders' pieces and deal each holder as many as it had, in place."""
    pool = rng.shuffled(sorted(k for h in holders for k, n in h.items() for _ in range(n)))
    for holder in holders:
        size = sum(holder.values())
        dealt, pool = pool[:size], pool[size:]
        holder.clear()
        for k in sorted(set(dealt)):
            holder[k] = dealt.count(k)


def _deal_winter(state: KeyflowerState, seat: int, others: list[int], rng: Rng) -> None:
    hands = [state.players[i] for i in others if state.players[i].winter_hand]
    if not hands:
        return
    seen = set(state.players[seat].winter_hand) | set(state.tiles)
    unseen = rng.shuffled([t for t in season_tiles("winter") if t not in seen])
    for p in hands:
        size, picked = len(p.winter_hand), len(p.winter_pick)
        p.winter_hand, unseen = sorted(unseen[:size]), unseen[size:]
        p.winter_pick = rng.sample(p.winter_hand, picked) if picked else []
