"""Tournament points and standings, from the finishing positions of each table.

Points go by finishing position and table size (`POINTS`, or the organiser's points per
place, whose first N places a table of N uses); players tied for a place share
the points of the places they cover. Standings order players by points, then by three
tie-breaks: the sum of their opponents' tournament points (each opponent counted once per
game played together), the average share of the table winner's score (the best-ranked seat
a player played to the end: a seat the AI played for someone who left never sets it), then
the total game score.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from itertools import pairwise

# Points by finishing position, per table size.
POINTS: dict[int, tuple[int, ...]] = {
    1: (10,),
    2: (10, 4),
    3: (10, 5, 2),
    4: (10, 6, 3, 1),
    5: (10, 7, 4, 2, 1),
    6: (10, 7, 5, 3, 2, 1),
}


def place_points(size: int, custom: Sequence[int] | None = None) -> tuple[int, ...]:
    """Points per place at a table of `size`: the organiser's first `size` places (0 for
    a place past their list), else the default table."""
    if not custom:
        return POINTS[size]
    return tuple(custom[:size]) + (0,) * max(0, size - len(custom))


def points_fit(custom: Sequence[int], size: int) -> bool:
    """Whether points per place cover a table of `size`, never rising from a place to the
    next and never below zero."""
    ordered = all(a >= b for a, b in pairwise(custom))
    return len(custom) >= size and ordered and min(custom, default=0) >= 0


def points_for_ranks(ranks: Sequence[int], custom: Sequence[int] | None = None) -> list[float]:
    """Each seat's points at a table whose seats finished at `ranks` (1 best; a tie shares
    one rank, and the places it covers are shared out evenly)."""
    table = place_points(len(ranks), custom)
    order = sorted(ranks)
    out = []
    for rank in ranks:
        first = order.index(rank)
        tied = order.count(rank)
        out.append(round(sum(table[first : first + tied]) / tied, 2))
    return out


@dataclass(frozen=True)
class TableResult:
    """One finished tournament table: players in seat order with their rank and score, and
    which seats the AI played out (their player left)."""

    round: int
    players: tuple[int, ...]
    ranks: tuple[int, ...]
    scores: tuple[int, ...]
    played_out: tuple[bool, ...] = ()

    def winner_score(self) -> int:
        """The table winner's score: the best-ranked seat played to the end by its player
        (every seat, if the AI played them all)."""
        seats = [s for s in range(len(self.players)) if not self.played_by_ai(s)]
        seats = seats or list(range(len(self.players)))
        best = min(self.ranks[s] for s in seats)
        return max(self.scores[s] for s in seats if self.ranks[s] == best)

    def played_by_ai(self, seat: int) -> bool:
        return bool(self.played_out) and self.played_out[seat]


@dataclass
class Standing:
    user_id: int
    points: float = 0.0
    opponents_points: float = 0.0
    winner_share: float = 0.0  # average, over games, of score / the table winner's score
    total_score: int = 0
    games: int = 0
    wins: int = 0
    byes: int = 0
    opponents: list[int] = field(default_factory=list)
    shares: list[float] = field(default_factory=list)

    def key(self) -> tuple[float, float, float, int]:
        return (-self.points, -self.opponents_points, -self.winner_share, -self.total_score)


def bye_points(
    round_results: Iterable[TableResult],
    fixed: float | None,
    custom: Sequence[int] | None = None,
) -> float:
    """A bye's points: the organiser's number, else the average points of the round."""
    if fixed is not None:
        return fixed
    points = [p for r in round_results for p in points_for_ranks(r.ranks, custom)]
    return round(sum(points) / len(points), 2) if points else 0.0


def standings(
    players: Iterable[int],
    results: Iterable[TableResult],
    byes: dict[int, list[int]],  # round -> players with a bye
    bye_fixed: float | None = None,
    custom: Sequence[int] | None = None,
) -> list[Standing]:
    """Everyone in `players` (and anyone with a result), best first; `custom` is the
    organiser's points per place."""
    results = list(results)
    table: dict[int, Standing] = {p: Standing(p) for p in players}
    for result in results:
        points = points_for_ranks(result.ranks, custom)
        top = result.winner_score()
        for seat, player in enumerate(result.players):
            s = table.setdefault(player, Standing(player))
            s.points += points[seat]
            s.total_score += result.scores[seat]
            s.games += 1
            s.wins += result.ranks[seat] == 1
            s.opponents += [p for p in result.players if p != player]
            s.shares.append(result.scores[seat] / top if top > 0 else 1.0)
    for round_no, players_with_bye in byes.items():
        worth = bye_points([r for r in results if r.round == round_no], bye_fixed, custom)
        for player in players_with_bye:
            s = table.setdefault(player, Standing(player))
            s.points += worth
            s.byes += 1
    for s in table.values():
        s.points = round(s.points, 2)
        s.opponents_points = round(sum(table[o].points for o in s.opponents), 2)
        s.winner_share = round(sum(s.shares) / len(s.shares), 4) if s.shares else 0.0
    return sorted(table.values(), key=lambda s: (*s.key(), s.user_id))


def final_first(ranked: list[Standing], final: TableResult | None) -> list[Standing]:
    """The standings with the final table's players on top, in the final's order (its
    ranks decide the podium); everyone else after them as they stand."""
    if final is None:
        return ranked
    rank = dict(zip(final.players, final.ranks, strict=True))
    finalists = sorted((s for s in ranked if s.user_id in rank), key=lambda s: rank[s.user_id])
    return finalists + [s for s in ranked if s.user_id not in rank]


def points_text(points: float) -> str:
    """8, 4.5 or 3.33: no trailing zeros."""
    return f"{points:.2f}".rstrip("0").rstrip(".")
