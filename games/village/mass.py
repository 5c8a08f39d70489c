"""The mass at the end of every round (BB "彌撒"): exactly 4 pieces from the black bag
(own members bought out for 1 coin each, the rest drawn), promotions paid in grain, and
2 prestige for the most members in the church."""

from __future__ import annotations

from meeple_hall.games.core import Msg, Option
from meeple_hall.games.village import data
from meeple_hall.games.village import words as w
from meeple_hall.games.village.economy import coins_available, pay_coins
from meeple_hall.games.village.state import CHURCH, KARLA, Frame, VillageState
from meeple_hall.games.village.steps import Fields, VillageStep, option, passing


def begin(state: VillageState, final: bool) -> None:
    state.phase = "mass"
    state.final_mass = final
    state.mass_stage = "buy"
    state.mass_bought = 0
    state.mass_order = seat_order(state)
    state.log.append(w.m("log.final_mass") if final else w.m("log.mass", n=state.round))


def seat_order(state: VillageState) -> list[int]:
    n = state.num_players
    return [(state.start_player + k) % n for k in range(n)]


def own_in_bag(state: VillageState, seat: int) -> list[int]:
    """Members of `seat` in the black bag, one per number (equal numbers are alike)."""
    by_number: dict[int, int] = {}
    for token in state.black_bag:
        owner, _, index = token.partition(":")
        if owner == str(seat):
            i = int(index)
            by_number.setdefault(state.players[seat].members[i].number, i)
    return [by_number[n] for n in sorted(by_number)]


class BuyOut(VillageStep):
    """Before the draw, a player buys own members out of the black bag, 1 coin each."""

    kind = "buy"

    def choices(self, state: VillageState, frame: Frame) -> list[Option]:
        player = state.players[frame.seat]
        if coins_available(player) == 0 or state.mass_bought >= data.rules()["church"]["draw"]:
            return []
        # The coin paid is the start marker while it is held (economy.pay_coins).
        key = "label.buy_out_marker" if player.marker_coin else "label.buy_out"
        out = [
            option(f"buy-{i}", w.m(key, member=player.members[i].number), member=i)
            for i in own_in_bag(state, frame.seat)
        ]
        return [*out, passing("done", w.m("label.buy_done"))] if out else []

    def passes(self, state: VillageState, frame: Frame) -> None:
        state.mass_order.pop(0)

    def act(self, state: VillageState, frame: Frame, chosen: Fields) -> None:
        index = chosen["member"]
        player = state.players[frame.seat]
        pay_coins(state, player, 1)
        state.black_bag.remove(f"{frame.seat}:{index}")
        to_church(state, f"{frame.seat}:{index}")
        state.mass_bought += 1
        number = player.members[index].number
        state.log.append(w.m("log.buy_out", seat=w.seat_name(frame.seat), member=number))


def draw_rest(state: VillageState) -> None:
    """Draw at random up to 4 pieces in all; monks go back into the bag."""
    left = data.rules()["church"]["draw"] - state.mass_bought
    drawn = state.rng.sample(state.black_bag, min(left, len(state.black_bag)))
    for token in drawn:
        state.black_bag.remove(token)
    for token in drawn:
        if token == "monk":
            state.black_bag.append(token)
        else:
            to_church(state, token)
    state.log.append(w.m("log.drawn", pieces=drawn_pieces(state, drawn)))


def drawn_pieces(state: VillageState, drawn: list[str]) -> tuple[Msg, ...]:
    """What a draw brought out, as the log names it: `Seat 1's #3, Karla's #4, 2 monks`."""
    pieces = []
    for token in drawn:
        owner, _, rest = token.partition(":")
        if owner == "k":
            pieces.append(w.m("log.member_of", seat=w.who(KARLA), member=int(rest)))
        elif owner != "monk":
            number = state.players[int(owner)].members[int(rest)].number
            pieces.append(w.m("log.member_of", seat=w.seat_name(int(owner)), member=number))
    monks = drawn.count("monk")
    if monks or not pieces:
        pieces.append(w.m("log.monks", n=monks))
    return tuple(pieces)


def to_church(state: VillageState, token: str) -> None:
    owner, _, rest = token.partition(":")
    if owner == "k":
        karla = state.karla
        assert karla is not None
        free = [s for s in range(1, 5) if s not in karla.church]
        if free:
            karla.church[free[0]] = int(rest)
        else:
            state.black_bag.append(token)
        return
    member = state.players[int(owner)].members[int(rest)]
    member.place, member.stage = CHURCH, 1


class MoveUp(VillageStep):
    """After the draw, a player moves members up in the church, paying grain."""

    kind = "advance"

    def choices(self, state: VillageState, frame: Frame) -> list[Option]:
        player = state.players[frame.seat]
        costs = data.rules()["church"]["advance_grain"]
        seen: set[tuple[int, int]] = set()
        out = []
        for i, m in enumerate(player.members):
            if m.place != CHURCH or m.stage >= 4 or (m.number, m.stage) in seen:
                continue
            seen.add((m.number, m.stage))
            cost = costs[m.stage - 1]
            if player.grain >= cost:
                text = w.m("label.church_up", member=m.number, stage=m.stage + 1, n=cost)
                out.append(option(f"up-{i}", text, member=i, grain=cost))
        return [*out, passing("done", w.m("label.up_done"))] if out else []

    def passes(self, state: VillageState, frame: Frame) -> None:
        state.mass_order.pop(0)

    def act(self, state: VillageState, frame: Frame, chosen: Fields) -> None:
        player = state.players[frame.seat]
        member = player.members[chosen["member"]]
        player.grain -= data.rules()["church"]["advance_grain"][member.stage - 1]
        member.stage += 1
        seat = w.seat_name(frame.seat)
        state.log.append(w.m("log.church_up", seat=seat, member=member.number, stage=member.stage))


def done(state: VillageState) -> bool:
    """Whether everyone has bought and moved up: the majority is next."""
    return state.mass_stage != "buy" and not state.mass_order


def advance(state: VillageState) -> None:
    """The mass goes on: the next buyer is asked (those who cannot buy leave the line),
    then the rest is drawn; then each seat in turn may move up."""
    if state.mass_stage == "buy":
        buying(state)
    else:
        ask_next(state, MoveUp())


def buying(state: VillageState) -> None:
    if state.mass_order and state.mass_bought < data.rules()["church"]["draw"]:
        ask_next(state, BuyOut())
        return
    draw_rest(state)
    state.mass_stage = "advance"
    state.mass_order = seat_order(state)


def ask_next(state: VillageState, step: VillageStep) -> None:
    """Ask the first seat in line, or take it out of the line if it has no choice."""
    frame = Frame(step.kind, state.mass_order[0])
    if step.choices(state, frame):
        state.stack.append(frame)
    else:
        state.mass_order.pop(0)


def church_counts(state: VillageState) -> dict[int, tuple[int, int]]:
    """(members in the church, stage of the rightmost) for each seat and Karla."""
    out = {}
    for seat, player in enumerate(state.players):
        stages = [m.stage for m in player.members if m.place == CHURCH]
        if stages:
            out[seat] = (len(stages), max(stages))
    if state.karla and state.karla.church:
        out[KARLA] = (len(state.karla.church), max(state.karla.church))
    return out


def award_majority(state: VillageState) -> None:
    counts = church_counts(state)
    if not counts:
        return
    best = max(counts.values())
    points = data.rules()["church"]["majority_prestige"]
    for seat, key in counts.items():
        if key == best and seat != KARLA:
            state.players[seat].prestige += points
            state.log.append(w.m("log.majority", seat=w.seat_name(seat), n=points))
    if counts.get(KARLA) == best:
        state.log.append(w.m("log.karla_majority"))
