"""Keyflower as an engine: the decisions of each phase and what each answer does.

A turn is a short sequence of decisions whose option ids read as a sentence:
`bid S07 red 2`, `use S03 blue next 1`, `use H2 red 1 move S03 wood H2 up H2 done`.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from meeple_hall.games.core import (
    Decision,
    GameEngine,
    IllegalAction,
    Msg,
    Option,
    Result,
    Rng,
    ranks_from_scores,
)
from meeple_hall.games.core.order import in_order
from meeple_hall.games.keyflower import determinize, placing, production, seasons, supply, transport
from meeple_hall.games.keyflower.components import COLOURS, SEASONS, SKILLS, spec
from meeple_hall.games.keyflower.scoring import CATEGORIES
from meeple_hall.games.keyflower.state import KeyflowerState, Move, Player
from meeple_hall.games.keyflower.view import view
from meeple_hall.games.keyflower.village import describe_cell, describe_turn, place, placements
from meeple_hall.games.keyflower.words import (
    amount,
    amounts,
    count,
    item,
    seat_name,
    tile_label,
    tile_name,
)
from meeple_hall.games.keyflower.words import (
    m as msg,
)

LOG_KEPT = 40
CANCELLABLE = ("location", "colour", "gather", "count", "mix")  # before any worker is placed


def _opt(option_id: str, label: Msg) -> Option:
    return Option(option_id, label)


def _item_opt(kind: str) -> Option:
    """A worker colour, resource or skill tile kind, by its name."""
    return Option(kind, item(kind))


def _number_opt(n: int) -> Option:
    return Option(str(n), msg("number", n=n))


def _tile_opt(tile_id: str) -> Option:
    return Option(tile_id, tile_label(tile_id))


def _with_boat_side(state: KeyflowerState, option: Option) -> Option:
    """A summer boat named with the side that lies face up (`U09 Summer boat 1 (side 1a)`):
    its two sides give different abilities, chosen at random when it comes out (EN "Summer
    boats"), and the tile's own text names both."""
    s = spec(option.id)
    tile = state.tiles.get(option.id)
    if not s.is_summer_boat or tile is None or not tile.side:
        return option
    ability = s.front["ability"] if tile.side == "a" else (s.back or {})["ability"]
    return Option(option.id, msg("where.boat_side", tile=option.label, side=ability))


def _boat_scoring(boat: str) -> Msg:
    """A winter boat's end scoring, as the rulebook's "Boats" describes it."""
    e = spec(boat).front
    return msg(f"boat_scoring.{e['effect']}", per=e.get("per", 0), points=e.get("points", 0))


def _where_opt(state: KeyflowerState, seat: int, tile_id: str) -> Option:
    """A location with whose village it is in, or that it shows the start keyple."""
    label = tile_label(tile_id)
    holder = placing.owner(state, tile_id)
    if tile_id == state.start_tile:
        label = msg("where.start", tile=label)
    elif holder == seat:
        label = msg("where.yours", tile=label)
    elif holder is not None:
        label = msg("where.theirs", tile=label, seat=seat_name(holder))
    return _with_boat_side(state, Option(tile_id, label))


class KeyflowerEngine(GameEngine[KeyflowerState]):
    id = "keyflower"
    name = "Keyflower"
    min_players = 2
    max_players = 6
    state_type = KeyflowerState

    def setup(self, num_players: int, rng: Rng, options: dict[str, str]) -> KeyflowerState:
        return seasons.setup(num_players, rng)

    # -- decisions -----------------------------------------------------------------
    def decisions(self, state: KeyflowerState) -> list[Decision]:
        if state.phase == "winter":
            return [
                Decision(
                    seat,
                    "winter",
                    msg("prompt.winter"),
                    tuple(_tile_opt(t) for t in p.winter_hand),
                    1,
                    len(p.winter_hand),
                )
                for seat, p in enumerate(state.players)
                if not p.winter_pick
            ]
        if state.phase == "play":
            return [self._turn(state)]
        if state.phase == "boats":
            seat = state.pick_order[0]
            winter = SEASONS[state.season] == "winter"
            return [
                Decision(
                    seat,
                    "boat",
                    msg("prompt.boat_winter" if winter else "prompt.boat"),
                    tuple(self._boat_opt(state, b) for b in state.boats_left),
                )
            ]
        if state.phase == "place":
            return [
                self._placing(state, seat, p) for seat, p in enumerate(state.players) if p.to_place
            ]
        if state.phase == "flip":
            seat = seasons.flipper_seat(state)
            assert seat is not None
            options = tuple(_tile_opt(t) for t in seasons.flippable(state))
            return [
                Decision(
                    seat,
                    "flip",
                    msg("prompt.flip"),
                    (*options, _opt("none", msg("label.no_upgrade"))),
                )
            ]
        return []

    def _turn(self, state: KeyflowerState) -> Decision:
        decision = self._turn_choices(state)
        if decision.kind in CANCELLABLE:
            return replace(decision, options=(*decision.options, Option("back", msg("label.back"))))
        return decision

    def _turn_choices(self, state: KeyflowerState) -> Decision:
        seat, m = state.current, state.move
        p = state.players[seat]
        if m.stage == "action":
            options = []
            if self._locations(state, seat, "bid", first=True):
                options.append(_opt("bid", msg("label.bid")))
            if self._locations(state, seat, "use", first=True):
                options.append(_opt("use", msg("label.use")))
            options.append(_opt("pass", msg("label.pass")))
            return Decision(seat, "action", msg("prompt.action"), tuple(options))
        if m.stage == "location":
            tiles = self._locations(state, seat, m.action)
            return Decision(
                seat,
                "location",
                msg("prompt.location_bid" if m.action == "bid" else "prompt.location_use"),
                tuple(_where_opt(state, seat, t) for t in tiles),
            )
        if m.stage in ("gather", "count"):
            return self._gathering(state, seat, m)
        if m.stage == "colour":
            needs = self._needs(state, seat, m.action, m.tile)
            colours = [
                _opt(c, self._colour_label(state, seat, c, need)) for c, need in needs.items()
            ]
            if m.action == "use" and placing.mix_needs(state, seat, m.tile):
                colours.append(_opt("mixed", msg("label.mixed")))
            return Decision(
                seat, "colour", msg("prompt.colour", doing=self._doing(state)), tuple(colours)
            )
        if m.stage == "mix":
            mix = placing.mix_needs(state, seat, m.tile)
            assert mix is not None
            colour = next(c for c in mix.caps if c not in m.mix)
            counts = placing.mix_range(mix, self._gathered(state), m.mix, colour)
            return Decision(
                seat,
                "mix",
                msg("prompt.count", doing=self._doing(state), colour=item(colour)),
                tuple(_number_opt(k) for k in counts),
            )
        return self._producing(state, seat, m, p)

    def _gathering(self, state: KeyflowerState, seat: int, m: Move) -> Decision:
        need = self._need(state)
        gathered = sum(need.groups[g] for g in m.groups)
        if m.stage == "gather":
            rest = {g: n for g, n in need.groups.items() if g not in m.groups}
            options = [
                Option(
                    g,
                    msg(
                        "label.move_outbid" if g == m.tile else "label.bring_outbid",
                        workers=self._workers(n, m.colour),
                        tile=tile_label(g),
                    ),
                )
                for g, n in rest.items()
                if placing.feasible(need, gathered + n, tuple(v for k, v in rest.items() if k != g))
            ]
            if gathered <= need.room and gathered + need.screen >= need.least:
                options.append(_opt("next", msg("label.next")))
            prompt = (
                msg("prompt.gather_brought", doing=self._doing(state), n=gathered)
                if gathered
                else msg("prompt.gather", doing=self._doing(state))
            )
            return Decision(seat, "gather", prompt, tuple(options))
        return Decision(
            seat,
            "count",
            msg("prompt.count", doing=self._doing(state), colour=item(m.colour)),
            tuple(
                _opt(str(k), self._count_label(state, seat, k, gathered))
                for k in placing.screen_range(need, gathered)
            ),
        )

    @staticmethod
    def _workers(n: int, colour: str) -> Msg:
        """`2 workers`, or `2 blue workers` where the colour is one."""
        return (
            count("worker", n)
            if colour == "mixed"
            else count("colour_worker", n, colour=item(colour))
        )

    @staticmethod
    def _colour_label(state: KeyflowerState, seat: int, colour: str, need: placing.Need) -> Msg:
        """A colour to bid or use with; a boat 4a counter-bid says its workers lie down; a
        colour with outbid workers of the seat's that may come along says so (the next
        question is which of them, EN "Bidding" 5)."""
        m = state.move
        current = placing.colour_of(state.tiles[m.tile])
        label = item(colour)
        if m.action == "bid" and current is not None and colour != current:
            label = msg("label.lie_down", colour=item(colour))
        if need.groups:
            label = msg("label.with_outbid", colour=label)
        return label

    @staticmethod
    def _count_label(state: KeyflowerState, seat: int, screen: int, gathered: int) -> Msg:
        """`2 blue` to use; a bid says what it beats, and a raised bid what it becomes:
        `2 more → 3 blue, beats 2`."""
        m = state.move
        tile = state.tiles[m.tile]
        placed = screen + gathered
        if m.action != "bid":
            label = amount(placed, m.colour)
            return label if not gathered else msg("label.from_screen", label=label, n=screen)
        mine = placing.bid_of(tile, seat)
        total = placed + (mine.count if mine else 0)
        label = (
            msg("label.raise", n=placed, total=amount(total, m.colour))
            if mine
            else amount(total, m.colour)
        )
        if gathered:
            label = msg("label.from_screen", label=label, n=screen)
        best = placing.best_other(tile, seat)
        return msg("label.beats", label=label, n=best) if best else label

    @staticmethod
    def _doing(state: KeyflowerState) -> Msg:
        """`Bid on Miner (3 to beat)` or `Use Miner (at least 2)`: the turn so far."""
        m = state.move
        tile = state.tiles[m.tile]
        name = tile_name(m.tile)
        if m.action == "bid":
            best = placing.best_other(tile, state.current)
            mine = placing.bid_of(tile, state.current)
            doing = msg("doing.bid", tile=name)
            if mine:
                doing = msg("doing.raise", bid=amount(mine.count, mine.colour), tile=name)
            return msg("doing.to_beat", doing=doing, n=best) if best else doing
        least = (tile.uses[-1] if tile.uses else 0) + 1
        return msg("doing.use", tile=name, workers=count("worker", least))

    def _producing(self, state: KeyflowerState, seat: int, m: Move, p: Player) -> Decision:
        if m.stage == "resource":
            options = placing.effect(state, m.tile)["options"]
            return Decision(
                seat,
                "resource",
                msg("prompt.resource", tile=tile_name(m.tile)),
                tuple(_item_opt(r) for r in options if state.supply.get(r, 0)),
            )
        if m.stage == "skill":
            return Decision(
                seat,
                "skill",
                msg("prompt.skill", tile=tile_name(m.tile)),
                tuple(_item_opt(s) for s in SKILLS if p.skills.get(s, 0)),
            )
        if m.stage == "discard":
            return Decision(
                seat,
                "discard",
                msg("prompt.discard", tile=tile_name(m.tile)),
                tuple(_item_opt(c) for c in COLOURS if p.screen.get(c, 0)),
            )
        if m.stage == "transport":
            options = []
            if m.carry and transport.sources(state, seat):
                options.append(_opt("move", msg("label.move", n=m.carry)))
            if m.upgrades and transport.upgradable(state, seat):
                options.append(_opt("up", msg("label.up", upgrades=count("upgrade", m.upgrades))))
            options.append(_opt("done", msg("label.done")))
            return Decision(
                seat,
                "transport",
                msg("prompt.transport", tile=tile_name(m.tile)),
                tuple(options),
            )
        if m.stage == "from":
            return Decision(
                seat,
                "from",
                msg("prompt.from"),
                tuple(
                    Option(
                        t,
                        msg(
                            "label.holding",
                            tile=tile_label(t),
                            what=amounts(state.tiles[t].resources),
                        ),
                    )
                    for t in transport.sources(state, seat)
                ),
            )
        if m.stage == "what":
            return Decision(
                seat,
                "what",
                msg("prompt.what", tile=tile_name(m.source)),
                tuple(_item_opt(r) for r in sorted(state.tiles[m.source].resources)),
            )
        if m.stage == "to":
            return Decision(
                seat,
                "to",
                msg("prompt.to", resource=item(m.resource), tile=tile_name(m.source)),
                tuple(_tile_opt(t) for t in transport.routes(state, seat, m.source)),
            )
        if m.stage == "upgrade":
            return Decision(
                seat,
                "upgrade",
                msg("prompt.upgrade"),
                tuple(
                    Option(
                        t,
                        msg(
                            "label.upgrade_for",
                            tile=tile_label(t),
                            cost=amounts(spec(t).upgrade or {}),
                        ),
                    )
                    for t in transport.upgradable(state, seat)
                ),
            )
        if m.stage == "pay":
            plans = transport.upgrade_plans(state, seat, m.upgrading)
            return Decision(
                seat,
                "pay",
                msg("prompt.pay", tile=tile_name(m.upgrading)),
                tuple(
                    _opt(
                        transport.payment_token(p),
                        msg("label.paying", paid=amounts(p)) if p else msg("label.free"),
                    )
                    for p in plans
                ),
            )
        raise AssertionError(f"unknown stage {m.stage}")

    def _placing(self, state: KeyflowerState, seat: int, p: Player) -> Decision:
        tile = self._placing_tile(p)
        if not tile:
            return Decision(
                seat,
                "place_tile",
                msg("prompt.place_tile"),
                tuple(_with_boat_side(state, _tile_opt(t)) for t in p.to_place),
            )
        spots = placements(state, p, tile, "2a" in placing.abilities(state, seat))
        back = (Option("back", msg("label.back")),)  # nothing is placed until the turn is chosen
        if not p.placing_at:
            cells = tuple(_opt(at, describe_cell(state, p, at)) for at in spots)
            return Decision(
                seat,
                "place_at",
                msg("prompt.place_at", tile=tile_name(tile)),
                (*cells, *(back if len(p.to_place) > 1 else ())),
            )
        turns = tuple(
            _opt(f"r{r}", describe_turn(state, p, tile, p.placing_at, r))
            for r in spots[p.placing_at]
        )
        return Decision(
            seat,
            "place_rot",
            msg("prompt.place_rot", tile=tile_name(tile)),
            (*turns, *back),
        )

    @staticmethod
    def _boat_opt(state: KeyflowerState, boat: str) -> Option:
        if SEASONS[state.season] == "winter":
            return Option(
                boat, msg("label.boat_scores", tile=tile_label(boat), scoring=_boat_scoring(boat))
            )
        on_board = state.boat_workers[boat]
        workers = amounts(on_board) if any(on_board.values()) else msg("none.worker")
        skills = {k: n for k, n in sorted(state.boat_skills[boat].items()) if n}
        kinds = [amount(n, k) if n > 1 else item(k) for k, n in skills.items()]
        tiles = (
            msg("label.skill_tiles", n=sum(skills.values()), kinds=kinds)
            if kinds
            else msg("none.skill_tile")
        )
        return Option(
            boat, msg("label.boat_brings", tile=tile_label(boat), workers=workers, skills=tiles)
        )

    @staticmethod
    def _placing_tile(p: Player) -> str:
        return p.placing or (p.to_place[0] if len(p.to_place) == 1 else "")

    def _locations(
        self, state: KeyflowerState, seat: int, action: str, first: bool = False
    ) -> list[str]:
        if action == "bid":
            candidates = [*state.offer, *state.turn_order]
        else:
            winter = SEASONS[state.season] == "winter"
            village = [t for p in state.players for t in p.village if state.tiles[t].placed]
            candidates = [*([] if winter else state.offer), *village]
        found = []
        groups = placing.losing_groups(state, seat)
        for t in candidates:
            if self._needs(state, seat, action, t, groups) or (
                action == "use" and placing.mix_needs(state, seat, t, groups)
            ):
                found.append(t)
                if first:
                    break
        return found

    @staticmethod
    def _needs(
        state: KeyflowerState,
        seat: int,
        action: str,
        tile: str,
        groups: dict[str, dict[str, int]] | None = None,
    ) -> dict[str, placing.Need]:
        if action == "bid":
            return placing.bid_needs(state, seat, tile, groups)
        return placing.use_needs(state, seat, tile, groups)

    def _need(self, state: KeyflowerState) -> placing.Need:
        m = state.move
        if not m.colour:
            return placing.Need(0, 0, 0, {})
        if m.colour == "mixed":
            mix = placing.mix_needs(state, state.current, m.tile)
            assert mix is not None
            return mix.need
        return self._needs(state, state.current, m.action, m.tile)[m.colour]

    def _gathered(self, state: KeyflowerState) -> int:
        need = self._need(state)
        return sum(need.groups[g] for g in state.move.groups)

    # -- actions ---------------------------------------------------------------------
    def perform(self, state: KeyflowerState, decision: Decision, choices: tuple[str, ...]) -> None:
        seat, kind = decision.seat, decision.kind
        choice = choices[0] if choices else ""
        if kind == "winter":
            state.players[seat].winter_pick = list(choices)
            if all(p.winter_pick for p in state.players):
                seasons.reveal_winter(state)
        elif kind == "boat":
            seasons.take_boat(state, seat, choice)
            seasons.next_boat(state)
        elif kind.startswith("place_"):
            self._place(state, seat, kind, choice)
        elif kind == "flip":
            if choice != "none":
                transport.upgrade(state, seat, choice)
            seasons.finish(state)
        else:
            self._play(state, seat, kind, choice)
        del state.log[:-LOG_KEPT]

    def _place(self, state: KeyflowerState, seat: int, kind: str, choice: str) -> None:
        p = state.players[seat]
        if kind == "place_tile":
            p.placing = choice
            return
        if choice == "back":
            if kind == "place_rot":
                p.placing_at = ""
            else:
                p.placing = ""
            return
        tile = self._placing_tile(p)
        if kind == "place_at":
            p.placing = tile
            p.placing_at = choice
            rots = placements(state, p, tile, "2a" in placing.abilities(state, seat))[choice]
            if len(rots) > 1:
                return
            choice = f"r{rots[0]}"
        place(state.tiles[tile], p.placing_at, int(choice[1:]))
        p.village.append(tile)
        p.to_place.remove(tile)
        p.placing = p.placing_at = ""
        state.log.append(msg("log.places", seat=seat_name(seat), tile=tile_name(tile)))
        seasons.after_placing(state)

    def _play(self, state: KeyflowerState, seat: int, kind: str, choice: str) -> None:
        m = state.move
        if kind in CANCELLABLE and choice == "back":
            state.move = Move()  # nothing is on the table yet: start the turn again
            return
        if kind == "action":
            if choice == "pass":
                state.log.append(msg("log.passes", seat=seat_name(seat)))
                state.passes += 1
                if state.passes == state.num_players:
                    seasons.end_season(state)
                else:
                    state.current = (seat + 1) % state.num_players
                return
            m.action, m.stage = choice, "location"
        elif kind == "location":
            m.tile, m.stage = choice, "colour"
        elif kind == "colour":
            m.colour = choice
            if choice == "mixed":
                m.stage = "gather" if self._need(state).groups else "mix"
                self._skip_empty_mix(state, seat)
            else:
                m.stage = "gather" if self._need(state).groups else "count"
        elif kind == "mix":
            mix = placing.mix_needs(state, seat, m.tile)
            assert mix is not None
            m.mix[next(c for c in mix.caps if c not in m.mix)] = int(choice)
            self._skip_empty_mix(state, seat)
        elif kind == "gather":
            if choice != "next":
                m.groups.append(choice)
                return
            if m.colour == "mixed":
                m.stage = "mix"
                self._skip_empty_mix(state, seat)
                return
            need = self._need(state)
            if list(placing.screen_range(need, self._gathered(state))) == [0]:
                self._place_workers(state, seat, 0)
            else:
                m.stage = "count"
        elif kind == "count":
            self._place_workers(state, seat, int(choice))
        elif kind == "resource":
            production.choose_resource(state, seat, m.tile, choice)
            self._end_turn(state)
        elif kind == "skill":
            production.pay_skill(state, seat, m.tile, choice)
            self._end_turn(state)
        elif kind == "discard":
            production.discard_worker(state, seat, m.tile, choice)
            self._end_turn(state)
        elif kind == "transport":
            if choice == "done":
                self._end_turn(state)
            else:
                m.stage = "from" if choice == "move" else "upgrade"
        elif kind == "from":
            m.source, m.stage = choice, "what"
        elif kind == "what":
            m.resource, m.stage = choice, "to"
        elif kind == "to":
            transport.carry(state, seat, m.source, m.resource, choice)
            m.carry -= 1
            self._after_transport_step(state, seat)
        elif kind == "upgrade":
            plans = transport.upgrade_plans(state, seat, choice)
            if len(plans) > 1:
                m.upgrading, m.stage = choice, "pay"
                return
            self._upgrade(state, seat, choice, plans[0])
        elif kind == "pay":
            plans = transport.upgrade_plans(state, seat, m.upgrading)
            paid = next(p for p in plans if transport.payment_token(p) == choice)
            self._upgrade(state, seat, m.upgrading, paid)
        else:
            raise IllegalAction(msg("refuse.unknown_decision", kind=kind))

    def _upgrade(self, state: KeyflowerState, seat: int, tile: str, paid: dict[str, int]) -> None:
        transport.upgrade(state, seat, tile, paid)
        m = state.move
        m.upgrades -= 1
        m.upgrading = ""
        self._after_transport_step(state, seat)

    def _place_workers(self, state: KeyflowerState, seat: int, from_screen: int) -> None:
        m = state.move
        need = self._need(state)
        total = from_screen + sum(need.groups[g] for g in m.groups)
        if from_screen:
            supply.take(state.players[seat].screen, m.colour, from_screen)
        if m.action == "bid":
            placing.lift_groups(state, seat, m.groups)
            placing.put_bid(state, seat, m.tile, m.colour, total)
            mine = placing.bid_of(state.tiles[m.tile], seat)
            assert mine is not None
            state.log.append(
                msg(
                    "log.bids",
                    seat=seat_name(seat),
                    bid=amount(mine.count, m.colour),
                    tile=tile_name(m.tile),
                )
            )
            self._end_turn(state)
            return
        placing.put_use(state, seat, m.tile, {m.colour: total})
        placing.lift_groups(state, seat, m.groups)
        self._produce(state, seat)

    def _skip_empty_mix(self, state: KeyflowerState, seat: int) -> None:
        """Boat 4b: once every screen colour is counted (or none is left), the use is made."""
        m = state.move
        if m.stage != "mix":
            return
        mix = placing.mix_needs(state, seat, m.tile)
        assert mix is not None
        if len(m.mix) == len(mix.caps) or placing.mix_done(mix, self._gathered(state), m.mix):
            self._use_mixed(state, seat, mix)

    def _use_mixed(self, state: KeyflowerState, seat: int, mix: placing.Mix) -> None:
        m = state.move
        counts = {c: n for c, n in m.mix.items() if n}
        for colour, n in counts.items():
            supply.take(state.players[seat].screen, colour, n)
        for g in m.groups:
            supply.add(counts, mix.colours[g], mix.groups[g])
        placing.put_use(state, seat, m.tile, counts)
        placing.lift_groups(state, seat, m.groups)
        self._produce(state, seat)

    def _produce(self, state: KeyflowerState, seat: int) -> None:
        m = state.move
        m.stage = production.produce(state, seat, m.tile)
        if not m.stage:
            self._end_turn(state)
        elif m.stage == "transport":
            self._after_transport_step(state, seat)

    def _after_transport_step(self, state: KeyflowerState, seat: int) -> None:
        m = state.move
        can_move = m.carry and transport.sources(state, seat)
        can_upgrade = m.upgrades and transport.upgradable(state, seat)
        if can_move or can_upgrade:
            m.stage = "transport"
        else:
            self._end_turn(state)

    def _end_turn(self, state: KeyflowerState) -> None:
        state.passes = 0
        state.current = (state.current + 1) % state.num_players
        state.move = Move()

    # -- what people see -------------------------------------------------------------
    def resample_private(self, state: KeyflowerState, seat: int, rng: Rng) -> None:
        determinize.resample(state, seat, rng)

    def view(self, state: KeyflowerState, seat: int | None) -> dict[str, Any]:
        return view(state, seat, self.decisions(state))

    def shows_secret(self, before: KeyflowerState, action: Any, after: KeyflowerState) -> bool:
        """Workers or skill tiles leaving a screen show their colours and kinds; winter tiles
        leaving a hand are shown (undo would not hide them again)."""
        for old, new in zip(before.players, after.players, strict=True):
            if any(new.screen.get(c, 0) < n for c, n in old.screen.items()):
                return True
            if any(new.skills.get(k, 0) < n for k, n in old.skills.items()):
                return True
            if not set(old.winter_hand) <= set(new.winter_hand):
                return True
        return False

    def result(self, state: KeyflowerState) -> Result | None:
        if state.phase != "over":
            return None
        breakdown = tuple(in_order(f["breakdown"], CATEGORIES) for f in state.final)
        scores = tuple(sum(b.values()) for b in breakdown)
        return Result(scores, ranks_from_scores(list(scores)), breakdown)
