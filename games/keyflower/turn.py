"""A turn of a season (rulebook, "Playing a season"): bid on a tile, use one, or pass.

A bid or a use is a few small steps whose option ids read as a sentence: `bid S07 red 2`,
`use S03 blue next 1`. Which tile, which colour, which outbid workers come along
(`gather`), how many from behind the screen (`count`), and with boat 4b how many of each
colour (`mix`). A use then produces (games/keyflower/production.py), and may ask what it
gives or carries (production.py, transport.py).
"""

from __future__ import annotations

from meeple_hall.games.core import Msg
from meeple_hall.games.core.steps import Offer
from meeple_hall.games.keyflower import placing, production, seasons, supply
from meeple_hall.games.keyflower.components import SEASONS
from meeple_hall.games.keyflower.offers import (
    TurnStep,
    at_location,
    end_turn,
    offer,
    option,
    plain_option,
    where_option,
)
from meeple_hall.games.keyflower.state import KeyflowerState
from meeple_hall.games.keyflower.transport import after_transport_step
from meeple_hall.games.keyflower.words import (
    amount,
    count,
    item,
    m,
    seat_name,
    tile_label,
    tile_name,
)


# -- what the turn so far allows ------------------------------------------------------------
def needs(
    state: KeyflowerState,
    seat: int,
    action: str,
    tile: str,
    groups: dict[str, dict[str, int]] | None = None,
) -> dict[str, placing.Need]:
    """What a bid on, or a use of, `tile` needs in each colour the seat could place."""
    if action == "bid":
        return placing.bid_needs(state, seat, tile, groups)
    return placing.use_needs(state, seat, tile, groups)


def locations(state: KeyflowerState, seat: int, action: str) -> list[str]:
    """The tiles the seat can bid on or use now."""
    if action == "bid":
        candidates = [*state.offer, *state.turn_order]
    else:
        winter = SEASONS[state.season] == "winter"
        village = [t for p in state.players for t in p.village if state.tiles[t].placed]
        candidates = [*([] if winter else state.offer), *village]
    found: list[str] = []
    groups = placing.losing_groups(state, seat)
    if not groups and not any(state.players[seat].screen.values()):
        return found  # no worker to place: none behind the screen, none outbid
    for t in candidates:
        if needs(state, seat, action, t, groups) or (
            action == "use" and placing.mix_needs(state, seat, t, groups)
        ):
            found.append(t)
    return found


def need(state: KeyflowerState) -> placing.Need:
    """What the chosen tile needs in the chosen colour (with boat 4b, in mixed colours)."""
    move = state.move
    if not move.colour:
        return placing.Need(0, 0, 0, {})
    if move.colour == "mixed":
        return mix_of(state).need
    return needs(state, state.current, move.action, move.tile)[move.colour]


def mix_of(state: KeyflowerState) -> placing.Mix:
    mix = placing.mix_needs(state, state.current, state.move.tile)
    assert mix is not None, "a mixed use is offered only where boat 4b allows one"
    return mix


def gathered(state: KeyflowerState, now: placing.Need | None = None) -> int:
    """How many outbid workers come along so far (`now`: what the placement needs, where
    the caller has it)."""
    groups = (need(state) if now is None else now).groups
    return sum(groups[g] for g in state.move.groups)


def doing(state: KeyflowerState) -> Msg:
    """`Bid on Miner (3 to beat)` or `Use Miner (at least 2)`: the turn so far."""
    move = state.move
    tile = state.tiles[move.tile]
    name = tile_name(move.tile)
    if move.action != "bid":
        least = (tile.uses[-1] if tile.uses else 0) + 1
        return m("doing.use", tile=name, workers=count("worker", least))
    best = placing.best_other(tile, state.current)
    mine = placing.bid_of(tile, state.current)
    if mine:
        said = m("doing.raise", bid=amount(mine.count, mine.colour), tile=name)
    else:
        said = m("doing.bid", tile=name)
    return m("doing.to_beat", doing=said, n=best) if best else said


# -- placing the workers ----------------------------------------------------------------------
def place_workers(state: KeyflowerState, seat: int, from_screen: int) -> None:
    """The chosen workers go out: beside the tile as a bid, or on it as a use."""
    move = state.move
    total = from_screen + gathered(state)
    if from_screen:
        supply.take(state.players[seat].screen, move.colour, from_screen)
    if move.action == "bid":
        placing.lift_groups(state, seat, move.groups)
        placing.put_bid(state, seat, move.tile, move.colour, total)
        mine = placing.bid_of(state.tiles[move.tile], seat)
        assert mine is not None
        bid = amount(mine.count, move.colour)
        state.log.append(m("log.bids", seat=seat_name(seat), bid=bid, tile=tile_name(move.tile)))
        end_turn(state)
        return
    placing.put_use(state, seat, move.tile, {move.colour: total})
    placing.lift_groups(state, seat, move.groups)
    produce(state, seat)


def skip_empty_mix(state: KeyflowerState, seat: int) -> None:
    """Boat 4b: once every screen colour is counted (or none is left), the use is made."""
    move = state.move
    if move.stage != "mix":
        return
    mix = mix_of(state)
    if len(move.mix) == len(mix.caps) or placing.mix_done(mix, gathered(state), move.mix):
        use_mixed(state, seat, mix)


def use_mixed(state: KeyflowerState, seat: int, mix: placing.Mix) -> None:
    move = state.move
    counts = {c: n for c, n in move.mix.items() if n}
    for colour, n in counts.items():
        supply.take(state.players[seat].screen, colour, n)
    for g in move.groups:
        supply.add(counts, mix.colours[g], mix.groups[g])
    placing.put_use(state, seat, move.tile, counts)
    placing.lift_groups(state, seat, move.groups)
    produce(state, seat)


def produce(state: KeyflowerState, seat: int) -> None:
    """The use is made: the tile produces, and may ask what it gives or carries."""
    move = state.move
    move.stage = production.produce(state, seat, move.tile)
    if not move.stage:
        end_turn(state)
    elif move.stage == "transport":
        after_transport_step(state, seat)


# -- the steps --------------------------------------------------------------------------------
class ChooseAction(TurnStep):
    """Bid, use, or pass (rulebook, "Playing a season")."""

    kind = "action"

    def ask(self, state: KeyflowerState, seat: int) -> Offer:
        """Bid or use where the seat can, each naming in its fields the tiles it may go to
        (`bids`, `uses`: for the pictures, renderers/phone/keyflower.py, which show the
        villages a use may go to); its id and label are those it had before."""
        options = [
            option(action, m(f"label.{action}"), **{f"{action}s": tiles})
            for action in ("bid", "use")
            if (tiles := locations(state, seat, action))
        ]
        options.append(plain_option("pass", "label.pass"))
        return offer(m("prompt.action"), options)

    def choose(self, state: KeyflowerState, seat: int, choice: str) -> None:
        if choice == "pass":
            self._pass(state, seat)
        else:
            state.move.action, state.move.stage = choice, "location"

    @staticmethod
    def _pass(state: KeyflowerState, seat: int) -> None:
        """When every player passes in turn, the season ends."""
        state.log.append(m("log.passes", seat=seat_name(seat)))
        state.passes += 1
        if state.passes == state.num_players:
            seasons.end_season(state)
        else:
            state.current = (seat + 1) % state.num_players


class ChooseLocation(TurnStep):
    kind = "location"
    cancellable = True

    def ask(self, state: KeyflowerState, seat: int) -> Offer:
        action = state.move.action
        return offer(
            m("prompt.location_bid" if action == "bid" else "prompt.location_use"),
            (where_option(state, seat, t) for t in locations(state, seat, action)),
        )

    def choose(self, state: KeyflowerState, seat: int, choice: str) -> None:
        state.move.tile, state.move.stage = choice, "colour"


class ChooseColour(TurnStep):
    kind = "colour"
    cancellable = True

    def ask(self, state: KeyflowerState, seat: int) -> Offer:
        move = state.move
        colours = [
            at_location(state, c, self._label(state, c, need), item=c)
            for c, need in needs(state, seat, move.action, move.tile).items()
        ]
        if move.action == "use" and placing.mix_needs(state, seat, move.tile):
            colours.append(at_location(state, "mixed", m("label.mixed"), item="mixed"))
        return offer(m("prompt.colour", doing=doing(state)), colours)

    @staticmethod
    def _label(state: KeyflowerState, colour: str, need: placing.Need) -> Msg:
        """A colour to bid or use with; a boat 4a counter-bid says its workers lie down; a
        colour with outbid workers of the seat's that may come along says so (the next
        question is which of them, EN "Bidding" 5)."""
        move = state.move
        current = placing.colour_of(state.tiles[move.tile])
        label = item(colour)
        if move.action == "bid" and current is not None and colour != current:
            label = m("label.lie_down", colour=item(colour))
        if need.groups:
            label = m("label.with_outbid", colour=label)
        return label

    def choose(self, state: KeyflowerState, seat: int, choice: str) -> None:
        move = state.move
        move.colour = choice
        if choice == "mixed":
            move.stage = "gather" if need(state).groups else "mix"
            skip_empty_mix(state, seat)
        else:
            move.stage = "gather" if need(state).groups else "count"


class GatherOutbid(TurnStep):
    """Outbid workers of the seat's that may come along (EN "Bidding" 5), one group at a
    time, then `next`."""

    kind = "gather"
    cancellable = True

    def ask(self, state: KeyflowerState, seat: int) -> Offer:
        move, now = state.move, need(state)
        brought = sum(now.groups[g] for g in move.groups)
        rest = {g: n for g, n in now.groups.items() if g not in move.groups}
        options = [
            at_location(state, g, self._label(g, n, state), tile=g)
            for g, n in rest.items()
            if placing.feasible(now, brought + n, tuple(v for k, v in rest.items() if k != g))
        ]
        if brought <= now.room and brought + now.screen >= now.least:
            options.append(at_location(state, "next", m("label.next")))
        prompt = (
            m("prompt.gather_brought", doing=doing(state), n=brought)
            if brought
            else m("prompt.gather", doing=doing(state))
        )
        return offer(prompt, options)

    @staticmethod
    def _label(group: str, n: int, state: KeyflowerState) -> Msg:
        colour = state.move.colour
        workers = (
            count("worker", n)
            if colour == "mixed"
            else count("colour_worker", n, colour=item(colour))
        )
        key = "label.move_outbid" if group == state.move.tile else "label.bring_outbid"
        return m(key, workers=workers, tile=tile_label(group))

    def choose(self, state: KeyflowerState, seat: int, choice: str) -> None:
        move = state.move
        if choice != "next":
            move.groups.append(choice)
        elif move.colour == "mixed":
            move.stage = "mix"
            skip_empty_mix(state, seat)
        elif list(placing.screen_range(need(state), gathered(state))) == [0]:
            place_workers(state, seat, 0)
        else:
            move.stage = "count"


class CountWorkers(TurnStep):
    """How many workers from behind the screen."""

    kind = "count"
    cancellable = True

    def ask(self, state: KeyflowerState, seat: int) -> Offer:
        now = need(state)
        brought = gathered(state, now)
        return offer(
            m("prompt.count", doing=doing(state), colour=item(state.move.colour)),
            (
                at_location(state, str(k), self._label(state, seat, k, brought), n=k)
                for k in placing.screen_range(now, brought)
            ),
        )

    @staticmethod
    def _label(state: KeyflowerState, seat: int, screen: int, brought: int) -> Msg:
        """`2 blue` to use; a bid says what it beats, and a raised bid what it becomes:
        `2 more → 3 blue, beats 2`."""
        move = state.move
        tile = state.tiles[move.tile]
        placed = screen + brought
        if move.action != "bid":
            label = amount(placed, move.colour)
            return m("label.from_screen", label=label, n=screen) if brought else label
        mine = placing.bid_of(tile, seat)
        total = placed + (mine.count if mine else 0)
        label = amount(total, move.colour)
        if mine:
            label = m("label.raise", n=placed, total=label)
        if brought:
            label = m("label.from_screen", label=label, n=screen)
        best = placing.best_other(tile, seat)
        return m("label.beats", label=label, n=best) if best else label

    def choose(self, state: KeyflowerState, seat: int, choice: str) -> None:
        place_workers(state, seat, int(choice))


class CountMixed(TurnStep):
    """Boat 4b: how many workers of each screen colour, one colour at a time."""

    kind = "mix"
    cancellable = True

    def ask(self, state: KeyflowerState, seat: int) -> Offer:
        move, mix = state.move, mix_of(state)
        colour = next(c for c in mix.caps if c not in move.mix)
        counts = placing.mix_range(mix, gathered(state), move.mix, colour)
        return offer(
            m("prompt.count", doing=doing(state), colour=item(colour)),
            (at_location(state, str(k), m("number", n=k), n=k) for k in counts),
        )

    def choose(self, state: KeyflowerState, seat: int, choice: str) -> None:
        move, mix = state.move, mix_of(state)
        move.mix[next(c for c in mix.caps if c not in move.mix)] = int(choice)
        skip_empty_mix(state, seat)


STEPS = (
    ChooseAction(),
    ChooseLocation(),
    ChooseColour(),
    GatherOutbid(),
    CountWorkers(),
    CountMixed(),
)
