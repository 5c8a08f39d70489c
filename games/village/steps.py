"""How Village asks (games/core/steps.py's one step shape): a step kind lists its choices,
each with what it is (`Option.fields`, which is also what `perform` reads); a choice paid
in influence cubes is also offered with more coins in place of cubes; a step with nothing
to offer passes, and some steps answer a single choice themselves.

The pending frames are `state.stack` (`state.Frame`, their stored shape); the kinds are
declared beside the rules they carry out (rounds, actions, market, karla, death, mass)
and gathered in engine.STEPS.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from functools import lru_cache
from typing import Any, ClassVar

from meeple_hall.games.core import Msg, Option
from meeple_hall.games.core.catalogues import LANGUAGES, render
from meeple_hall.games.core.steps import Chosen, Offer, Step
from meeple_hall.games.village.economy import coin_range, coin_split
from meeple_hall.games.village.state import Frame, Player, VillageState
from meeple_hall.games.village.words import cube_count, cubes, m, payment, plus, replaced_in

COINS = "-coins"
"""An option paid with more coins than it must is the plain option's id + `-coins<k>`."""
LABEL_MAX = 80  # a button's label

Fields = Mapping[str, Any]


def option(oid: str, label: Msg, **fields: Any) -> Option:
    """An option and what it is: the fields its step performs and presenters read."""
    return Option(oid, label, fields)


def passing(oid: str, label: Msg) -> Option:
    """The option of doing nothing (skip, pass, done, none)."""
    return Option(oid, label, {"pass": True})


SKIP = passing("skip", m("label.skip"))


class VillageStep(Step[VillageState, Frame]):
    """A step of Village. A kind writes `choices` and `act` (what a choice does); it may
    change `prompt`, `answers_alone`, `passes` (what doing nothing does) and `unanswered`
    (what an empty offer means)."""

    meanings_in_fields = True  # what a choice is, is what it does
    answers_alone: ClassVar[bool] = False
    """A single choice is carried out without asking (Karla's cube, a death, a pass)."""

    def choices(self, state: VillageState, frame: Frame) -> list[Option]:
        raise NotImplementedError

    def prompt(self, state: VillageState, frame: Frame) -> Msg:
        return m(f"prompt.{self.kind}")

    def act(self, state: VillageState, frame: Frame, chosen: Fields) -> None:
        raise NotImplementedError

    def passes(self, state: VillageState, frame: Frame) -> None:
        """The option of doing nothing was chosen (`passing`)."""

    def unanswered(self, state: VillageState, frame: Frame) -> None:
        """Nothing was offered: the step passes."""

    # -- the step shape -----------------------------------------------------------------
    def offer(self, state: VillageState, frame: Frame) -> Offer:
        player = state.players[frame.seat]
        options = tuple(with_coin_choices(player, self.choices(state, frame)))
        return Offer(self.prompt(state, frame), options, {o.id: o.fields for o in options})

    def has_choices(self, state: VillageState, frame: Frame) -> bool:
        """Whether anything is offered (`choices` is not empty): asked after every move of
        the step on top, whose options are not needed then; a kind may say it without making
        them."""
        return bool(self.choices(state, frame))

    def resolves(self, state: VillageState, frame: Frame) -> tuple[str, ...] | None:
        if not self.answers_alone:
            return None if self.has_choices(state, frame) else ()
        choices = self.choices(state, frame)
        if not choices:
            return ()
        # More coins in place of cubes would be a second option (and one choice is all it
        # takes to ask), so only then are the paid variants worked out.
        options = with_coin_choices(state.players[frame.seat], choices)
        return (options[0].id,) if len(options) == 1 else None

    def perform(self, state: VillageState, frame: Frame, chosen: Chosen) -> None:
        if not chosen.ids:
            self.unanswered(state, frame)
            return
        fields = chosen.meaning
        if fields.get("pass"):
            self.passes(state, frame)
            return
        if COINS in chosen.id:
            state.coins_chosen = fields["coins"]
        self.act(state, frame, fields)


def with_coin_choices(player: Player, options: Iterable[Option]) -> list[Option]:
    """Each option paid in cubes (its `cost` field), also offered with more coins in place
    of cubes (BB coins: "2 green, or 1 coin and 1 green, or 2 coins"). The plain option
    pays the fewest coins: its label says so when that is not none."""
    out: list[Option] = []
    for plain in options:
        cost = plain.fields.get("cost")
        if not cost:
            out.append(plain)
            continue
        fewest, *more = coin_range(player, cost)
        out.append(paid_with(plain, plain.id, player, cost, fewest))
        for coins in more:
            out.append(paid_with(plain, f"{plain.id}{COINS}{coins}", player, cost, coins))
    return out


def paid_with(plain: Option, oid: str, player: Player, cost: dict[str, int], coins: int) -> Option:
    """`plain` paid with `coins` coins: its label and fields say which cubes they replace."""
    if not coins:
        return plain if oid == plain.id else Option(oid, plain.label, plain.fields)
    # made once for what it depends on: the cubes of the cost the player holds, the marker
    held = tuple([player.cubes.get(c, 0) for c in cost])
    key = (plain, oid, coins, player.marker_coin, held)
    known = _PAID.get(key)
    if known is None:
        if len(_PAID) >= PAID_KEPT:
            _PAID.clear()
        _, replaced = coin_split(player, cost, coins)
        paid = {"coins": coins, "marker": player.marker_coin, "instead": replaced}
        assert isinstance(plain.label, Msg)
        label = with_coins(plain.label, player, cost, coins)
        known = _PAID[key] = Option(oid, label, {**plain.fields, **paid})
    return known


PAID_KEPT = 4096
_PAID: dict[tuple[Any, ...], Option] = {}


def with_coins(label: Msg, player: Player, cost: dict[str, int], coins: int) -> Msg:
    """The label with its cubes written as they will be paid: `2 green + 1 time` becomes
    `1 green + 1 coin + 1 time` (a coin stands in for any cube), and in solo the
    next-start-player marker is named where it is spent as the first coin. The label's
    words for the cubes are `words.cubes(cost)`; the shorter wording of the marker is used
    where the longer does not fit a button in every language."""
    use, replaced = coin_split(player, cost, coins)
    kept = plus([cube_count(c, n) for c, n in use.items() if n]) if any(use.values()) else None
    shown = label
    for short in (False, True):
        paid = payment(kept, coins, player.marker_coin, cubes(replaced), short=short)
        shown = replaced_in(label, cubes(cost), paid)
        if fits(shown):
            break
    return shown


@lru_cache(maxsize=4096)
def fits(label: Msg) -> bool:
    return all(len(render(lang, label)) <= LABEL_MAX for lang in LANGUAGES)
