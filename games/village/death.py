"""Death: the oldest visible family member dies into the chronicle or the graves, and the
last chronicle space or grave ends the game (BB "家族成員過世", "遊戲結束")."""

from __future__ import annotations

from functools import lru_cache

from meeple_hall.games.core import Msg, Option
from meeple_hall.games.village import words as w
from meeple_hall.games.village.state import (
    CHRONICLE,
    COUNCIL,
    FARM,
    GRAVE,
    REMOVED,
    TRAVEL,
    VISIBLE,
    WORKSHOP,
    Frame,
    Member,
    Player,
    VillageState,
)
from meeple_hall.games.village.steps import Fields, VillageStep, option

CATEGORY = {FARM: "farm", WORKSHOP: "crafts", COUNCIL: "council", TRAVEL: "travel"}


def category(member: Member) -> str:
    return CATEGORY.get(member.place, "church")


def describe(member: Member) -> Msg:
    """`#1 at the smithy`: a member and where it is (`where.<category>`, see CATEGORY)."""
    return _described(member.number, member.place, member.where, member.stage)


@lru_cache(maxsize=1024)
def _described(n: int, at: str, where: str, stage: int) -> Msg:
    if at == WORKSHOP:
        return w.m("where.crafts", member=n, shop=w.workshop(where))
    if at == TRAVEL:
        return w.m("where.travel", member=n, city=w.city(where))
    if at == FARM:
        return w.m("where.farm", member=n)
    return w.m(f"where.{CATEGORY.get(at, 'church')}", member=n, stage=stage)


def candidates(player: Player) -> list[int]:
    """The oldest visible members, one per distinct place (equal members are alike)."""
    visible = [i for i, m in enumerate(player.members) if m.place in VISIBLE]
    if not visible:
        return []
    lowest = min(player.members[i].number for i in visible)
    seen: set[tuple[str, str, int]] = set()
    out = []
    for i in visible:
        m = player.members[i]
        key = (m.place, m.where, m.stage)
        if m.number == lowest and key not in seen:
            seen.add(key)
            out.append(i)
    return out


class Death(VillageStep):
    """The oldest visible member dies (asked only when members of that number stand in
    different places); with none visible, the death waits."""

    kind = "die"
    answers_alone = True

    def choices(self, state: VillageState, frame: Frame) -> list[Option]:
        player = state.players[frame.seat]
        members = player.members
        return [
            _die_option(i, members[i].number, members[i].place, members[i].where, members[i].stage)
            for i in candidates(player)
        ]

    def act(self, state: VillageState, frame: Frame, chosen: Fields) -> None:
        die(state, frame.seat, chosen["member"])

    def unanswered(self, state: VillageState, frame: Frame) -> None:
        state.players[frame.seat].deaths_due = due_after(state, frame.seat)


@lru_cache(maxsize=1024)
def _die_option(index: int, number: int, at: str, where: str, stage: int) -> Option:
    """Member `index`'s death, made once for where it is (a panel tries every line)."""
    who = _described(number, at, where, stage)
    return option(
        f"die-{index}", w.m("label.die", who=who), member=index, row=CATEGORY.get(at, "church")
    )


def due_after(state: VillageState, seat: int) -> int:
    """Deaths left once a player has no visible member: those carried into a market day
    still wait for the end of the turn."""
    if state.market is not None:
        return min(state.market.carried[seat], state.players[seat].deaths_due)
    return 0


def owner_mark(owner: int) -> str:
    return "k" if owner < 0 else str(owner)


def bury(state: VillageState, owner: int, wanted: str) -> str:
    """Lay a dead member in the chronicle (if its profession has room) or a grave;
    return where it went. Filling the last space of either ends the game."""
    mark = owner_mark(owner)
    slots = state.chronicle[wanted]
    if "" in slots:
        slots[slots.index("")] = mark
        where = CHRONICLE
    elif "" in state.graves:
        state.graves[state.graves.index("")] = mark
        where = GRAVE
    else:
        return REMOVED
    chronicle_full = all("" not in s for s in state.chronicle.values())
    if not state.ending and (chronicle_full or "" not in state.graves):
        state.ending = True
        state.ender = owner
        state.log.append(w.m("log.ending" if where == CHRONICLE else "log.graves_full"))
    return where


def die(state: VillageState, seat: int, index: int) -> None:
    player = state.players[seat]
    member = player.members[index]
    text = describe(member)
    wanted = category(member)
    where = bury(state, seat, wanted)
    member.place, member.where, member.stage = where, wanted, 0
    player.deaths_due -= 1
    state.log.append(w.m("log.dies", seat=w.seat_name(seat), who=text, rest=resting(where)))


def resting(where: str) -> Msg:
    """Where a dead member was laid: into the chronicle, a grave, or out of the game."""
    if where == CHRONICLE:
        return w.m("rest.chronicle")
    return w.m("rest.grave") if where == GRAVE else w.m("rest.removed")
