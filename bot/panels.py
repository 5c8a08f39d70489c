"""The one decision-to-components layer: any game's decision as an ephemeral panel.

- a single choice among a few options: a row of buttons, unless a label would pass a
  button's 80 characters in the reader's words (then a menu, whose lines hold 100);
- more options: select menus of 25, up to four on a page, with page buttons beyond that;
- several choices: one menu when 25 options suffice, else menus whose picks are kept in
  the message itself (as defaults) until **Confirm**;
- a decision that allows choosing nothing gets a button for that.

Fewer clicks: a game names the decision kinds its panels fold into the decision before
them (`presenters.folded_kinds`). An option whose next decision, for the same seat, is of
such a kind, small, and reached without anything hidden drawn or turned over, is shown as
one line per answer to that decision too (Bid → the tile, a colour → how many). Such a
line is a chain of option ids (`bid>S07`), applied as consecutive moves in one submission,
all or none (`TableManager.submit_chain`): the log is what the separate clicks write.

A decision of several choices for which the game names the sets worth offering
(`presenters.pick_sets`: Coffee Traders' coffee for a "different kinds" space) is shown as
one line per set, its ids joined by `PICK_SEP` (`gua,bra`): one answer, so the decision
after it folds into each line as after any other (the coffee, then the Arabica step it
brings), and a folded line may pass through it. The move is the one the menu of several
choices makes with those picks.

Games only add labels, emoji and descriptions (`presenters.option_style`, and
`presenters.chain_style` for chained lines).
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from typing import Any

import discord

from meeple_hall.bot import presenters
from meeple_hall.bot.components import CUSTOM_ID_MAX, Components, Family, button, clip, select
from meeple_hall.bot.i18n import game_text, language, t
from meeple_hall.bot.live_game import LiveGame, decision_hash
from meeple_hall.bot.presenters import BUTTON_LABEL_MAX, DESCRIPTION_MAX, MENU_LABEL_MAX
from meeple_hall.bot.rulebook import add_rules_button
from meeple_hall.games import Action, Decision, Engine, GameError, Option
from meeple_hall.games.core.hidden import hidden_parts
from meeple_hall.games.core.messages import Msg, Text

MENU_SIZE = 25
MENUS_PER_PAGE = 4
MAX_BUTTONS = 10
CONTENT_MAX = 2000
# Separates the option ids of a chained line; the option-id grammar (OPTION_ID) has no ">".
CHAIN_SEP = ">"
# Separates the option ids of one answer of several choices shown as one line (`gua,bra`);
# outside the option-id grammar too.
PICK_SEP = ","
# A decision folded into the one before it has at most this many options, and folding
# never takes a panel past one page of menus.
FOLD_MAX_OPTIONS = MENU_SIZE
FOLD_MAX_LINES = MENU_SIZE * MENUS_PER_PAGE
FOLD_MAX_DEPTH = 4
# An option that only steps back to an earlier decision is never part of a chain.
STEP_BACK = frozenset({"back"})


@dataclass(frozen=True)
class PanelRef:
    """What a panel component was built from: table, move number and decision."""

    table_id: int
    seq: int
    dhash: str

    def id(self, *parts: object) -> str:
        return ":".join(["g", str(self.table_id), str(self.seq), self.dhash, *map(str, parts)])


@dataclass(frozen=True)
class ShownStyle:
    """An option's style in the reader's words: what its button or menu line shows."""

    label: str
    emoji: str | None = None
    description: str | None = None


@dataclass(frozen=True)
class Line:
    """One button or menu line of a panel: an option of the decision, or a chain of options
    answering the seat's next decisions too (`decisions[i]` is what `steps[i]` answers).
    `known`: the options its steps answer where whoever made it had them at hand (the
    unfolding), so that `options` looks nothing up again; not part of what a line is."""

    decisions: tuple[Decision, ...]
    steps: tuple[str, ...]
    known: tuple[Option, ...] | None = field(default=None, compare=False, repr=False)

    @property
    def value(self) -> str:
        return CHAIN_SEP.join(self.steps)

    @property
    def options(self) -> tuple[Option, ...]:
        if self.known is not None:
            return self.known
        found = (step_option(d, step) for d, step in zip(self.decisions, self.steps, strict=True))
        return tuple(o for o in found if o is not None)

    @property
    def moves(self) -> tuple[tuple[str, ...], ...]:
        """The moves the line makes: each step's option ids."""
        return tuple(tuple(step.split(PICK_SEP)) for step in self.steps)


def step_option(decision: Decision, step: str) -> Option | None:
    """The option a step of a line answers: the decision's own, or for a set of several
    choices (`gua,bra`) one option standing for them, its `picks` the options chosen."""
    if PICK_SEP not in step:
        return decision.option(step)
    picks = tuple(decision.option(i) for i in step.split(PICK_SEP))
    if any(o is None for o in picks):
        return None
    return Option(step, Msg("core.picked", items=[o.label for o in picks if o]), {"picks": picks})


def answer_sets(game_id: str, decision: Decision) -> list[str] | None:
    """A decision's answers as its panel's lines where the game names the sets of several
    choices worth a line each (at most a menu of them), else None."""
    if len(decision.options) > MENU_SIZE:
        return None  # never a panel of several menus kept until Confirm
    sets = presenters.pick_sets(game_id, decision)
    if not sets or len(sets) > FOLD_MAX_OPTIONS:
        return None
    return [PICK_SEP.join(ids) for ids in sets]


def panel_lines(
    engine: Engine, state: Any, seat: int, decision: Decision, folded: frozenset[str]
) -> list[Line]:
    """The lines a panel offers for `decision`: each option, or, where the seat's next
    decision is of a `folded` kind, one line per answer to that one as well (recursively).
    An option is folded less deep, or left as it is, where unfolding it would take the panel
    past one page."""
    sets = answer_sets(engine.id, decision)
    if sets is None:
        plain = [Line((decision,), (o.id,), (o,)) for o in decision.options]
    else:
        plain = [_answer_line(decision, answer) for answer in sets]
    if not folded or (decision.max_choices != 1 and sets is None) or len(plain) > FOLD_MAX_LINES:
        return plain
    walk = _Unfold(engine, seat, folded, hidden_parts(state))
    trees = [_Tree(walk, state, line, decision) for line in plain]
    room = FOLD_MAX_LINES - len(plain)
    unfolded: dict[int, list[Line]] = {}
    # options whose every chain fits first, then the others' chains cut shorter
    for whole in (True, False):
        for index, tree in enumerate(trees):
            if index in unfolded:
                continue
            fitting = tree.fitting(room, whole)
            if fitting and fitting != [plain[index]]:
                unfolded[index] = fitting
                room -= len(fitting) - 1
    return [line for index, one in enumerate(plain) for line in unfolded.get(index, [one])]


def _answer_line(decision: Decision, answer: str) -> Line:
    """A line of one answer (an option's id, or a set of them joined by PICK_SEP)."""
    option = step_option(decision, answer)
    return Line((decision,), (answer,), None if option is None else (option,))


@dataclass(eq=False)
class _Chain:
    """A line being unfolded: the decision its last step answers, whether that step
    applies and, once looked at, what follows it: a chain a step longer for each answer
    that folds, None for the line alone (an answer asked after it)."""

    line: Line
    decision: Decision
    applies: bool = False
    follows: list[_Chain | None] | None = None

    def lines(self, steps: int) -> list[Line]:
        """Its lines cut to `steps` steps: the chains through what follows, else itself
        (none if its last step does not apply)."""
        if not self.applies:
            return []
        if len(self.line.steps) >= steps or not self.follows:
            return [self.line]
        found: list[Line] = []
        for longer in self.follows:
            found += [self.line] if longer is None else longer.lines(steps)
        return found or [self.line]


@dataclass
class _Unfold:
    engine: Engine
    seat: int
    folded: frozenset[str]
    secrets: list[str]
    # the folded kinds that may follow a decision of each kind (`presenters.folds_after`)
    after_kind: dict[str, frozenset[str]] = field(default_factory=dict)
    decision_of: Any = field(init=False)

    def __post_init__(self) -> None:
        self.decision_of = getattr(self.engine, "decision_of", None)

    def apply(self, chain: _Chain, before: Any) -> Any:
        """The state after the chain's last step (None if it does not apply)."""
        moves = Action(self.seat, chain.line.moves[-1])
        try:
            after = self.engine.apply(before, moves, decision=chain.decision)
        except GameError:
            return None
        chain.applies = True
        return after

    def follow(self, chain: _Chain, after: Any) -> list[_Chain]:
        """What follows an applied chain (`chain.follows`): a chain a step longer for each
        answer to the seat's next decision where that is of a folded kind (and the rest
        allows), the line alone where an answer does not fold; the longer chains."""
        chain.follows = []
        follows = self._next_decision(chain.decision.kind, after)
        if (
            follows is None
            or follows.kind not in self.folded
            or not presenters.folds_after(self.engine.id, chain.decision.kind, follows.kind)
            or len(follows.options) > FOLD_MAX_OPTIONS
            or hidden_parts(after) != self.secrets
        ):
            return []
        sets = answer_sets(self.engine.id, follows)
        if sets is None and (follows.min_choices, follows.max_choices) != (1, 1):
            return []
        for answer in sets or [o.id for o in follows.options]:
            option = step_option(follows, answer)
            if option is None or answer in STEP_BACK:
                continue
            longer = self._longer(chain.line, follows, answer, option, sets is None)
            if longer is not None:
                chain.follows.append(_Chain(longer, follows))
            elif None not in chain.follows:
                chain.follows.append(None)  # the line alone: this answer is asked after it
        return [c for c in chain.follows if c is not None]

    def _next_decision(self, before: str, after: Any) -> Decision | None:
        """The seat's next decision (None where it is not asked next). An engine with
        `decision_of(state, seat, kinds)` is asked for it only where it is of a kind that
        may fold after `before` (else None: it folds nothing either way), so that the
        decisions of other seats and other kinds, most of the states a panel tries, are not
        worked out."""
        if self.decision_of is None:
            return next((d for d in self.engine.decisions(after) if d.seat == self.seat), None)
        kinds = self.after_kind.get(before)
        if kinds is None:
            game_id = self.engine.id
            kinds = frozenset(k for k in self.folded if presenters.folds_after(game_id, before, k))
            self.after_kind[before] = kinds
        found: Decision | None = self.decision_of(after, self.seat, kinds)
        return found

    def _longer(
        self, line: Line, follows: Decision, answer: str, option: Option, single: bool
    ) -> Line | None:
        """The line a step longer through `answer`, None where that answer does not fold."""
        if single and not presenters.folds_answer(self.engine.id, follows.kind, option):
            return None
        known = (*line.known, option) if line.known is not None else None
        longer = Line((*line.decisions, follows), (*line.steps, answer), known)
        if not presenters.folds_line(self.engine.id, longer.decisions, longer.options):
            return None
        return longer


# A line of more steps than this is never unfolded further (a chain of FOLD_MAX_DEPTH
# folded decisions after its option).
FOLD_MAX_STEPS = FOLD_MAX_DEPTH + 1


class _Tree:
    """An option's chains, unfolded depth first when the panel first asks whether they fit,
    never deeper than lines that could still fit: the room only shrinks as the panel goes
    on, so once its lines cut to d steps are known to pass it, no deeper step is tried
    (`limit`, d - 1), and what any cut gives is what cutting the whole unfolding gives."""

    def __init__(self, walk: _Unfold, state: Any, line: Line, decision: Decision) -> None:
        self.walk, self.state = walk, state
        self.root = _Chain(line, decision)
        self.limit = FOLD_MAX_STEPS
        self.cut = False  # lowered: the lines cut to limit + 1 steps pass the room
        self.most = 0
        # the lines found so far: `exact[d]` of d steps, `ends[d]` of d steps that are
        # lines cut to any more steps too (nothing folds after them, or an answer is asked
        # after them); at least exact[d] + sum(ends[:d]) lines cut to d steps
        self.exact = [0] * (FOLD_MAX_STEPS + 1)
        self.ends = [0] * (FOLD_MAX_STEPS + 1)
        self.found = 0

    def fitting(self, room: int, whole: bool) -> list[Line]:
        """The option's chains if they fit within `room` more lines than the option alone,
        else (unless `whole`) cut short to as many steps as fit (none if not even one
        step does)."""
        if self.state is not None:
            self.most = room + 1
            self._unfold(self.root, self.state)
            self.state = None
        if not self.root.applies:
            return []
        if not self.root.follows:  # nothing folds after the option: the line alone
            return [self.root.line] if whole else []
        if self.cut:
            if whole:
                return []
            deepest = self.limit
        else:
            every = self.root.lines(FOLD_MAX_STEPS)
            if whole:
                return every if len(every) <= room + 1 else []
            deepest = max(len(line.steps) for line in every)
        for steps in range(deepest, 1, -1):
            lines = self.root.lines(steps)
            if len(lines) <= room + 1:
                return lines
        return []

    def _unfold(self, chain: _Chain, before: Any) -> None:
        steps = len(chain.line.steps)
        after = self.walk.apply(chain, before)
        if after is None:
            return
        self._counted(steps, end=False)
        if steps >= self.limit:
            return
        longer = self.walk.follow(chain, after)
        if not longer or None in (chain.follows or ()):
            self._counted(steps, end=True)  # the line itself, cut to any more steps too
        for next_chain in longer:
            if steps + 1 > self.limit:
                break  # lowered meanwhile
            self._unfold(next_chain, after)

    def _counted(self, steps: int, *, end: bool) -> None:
        """One more line of `steps` steps (an `end`: one of lines cut to more steps too);
        the limit lowered to d - 1 where the lines cut to d steps pass the room (none can
        before more lines than that were found at all)."""
        (self.ends if end else self.exact)[steps] += 1
        self.found += 1
        if self.found <= self.most:
            return
        first, last = (steps + 1, self.limit) if end else (steps, min(steps, self.limit))
        for cut in range(first, last + 1):
            if self.exact[cut] + sum(self.ends[:cut]) > self.most:
                self.limit, self.cut = cut - 1, True
                return


def offered_lines(
    game: LiveGame, seat: int, decision: Decision, *, fold: bool = True
) -> list[Line]:
    """The lines of the seat's panel for `decision` (its decision in the game's state now),
    worked out once per state: Take turn, page buttons, menu picks and the move itself read
    the same lines."""
    return _offered(game, seat, decision, fold, decision_hash(decision))


def _offered(game: LiveGame, seat: int, decision: Decision, fold: bool, dhash: str) -> list[Line]:
    """`offered_lines`, the decision's hash already worked out (`decision_hash`)."""
    folded = presenters.folded_kinds(game.table.game) if fold else frozenset()
    return game.worked_out(
        ("lines", seat, dhash, fold),
        lambda: panel_lines(game.engine, game.state, seat, decision, folded),
    )


def known_lines(game: LiveGame, seat: int, decision: Decision) -> list[Line] | None:
    """The seat's folded panel lines if they were worked out for the state now, else None."""
    return game.known(("lines", seat, decision_hash(decision), True))


def line_id_part(line: Line, ref: PanelRef) -> str:
    """A line's option ids in a custom_id, or their indices when the ids would not fit."""
    if len(ref.id("o", line.value)) <= CUSTOM_ID_MAX and ":" not in line.value:
        return line.value
    return _indices(line)


def _indices(line: Line) -> str:
    return CHAIN_SEP.join(
        PICK_SEP.join(f"#{[o.id for o in d.options].index(pick)}" for pick in picks)
        for d, picks in zip(line.decisions, line.moves, strict=True)
    )


def option_id_part(decision: Decision, option: Option, ref: PanelRef) -> str:
    """An option's id in a custom_id, or its index when the id would not fit."""
    return line_id_part(Line((decision,), (option.id,)), ref)


def resolve_option(decision: Decision, part: str) -> str | None:
    if part.startswith("#") and part[1:].isdigit():
        index = int(part[1:])
        return decision.options[index].id if index < len(decision.options) else None
    return part if decision.option(part) is not None else None


def resolve_chain(
    engine: Engine,
    state: Any,
    seat: int,
    decision: Decision,
    part: str,
    lines: list[Line] | None = None,
) -> tuple[tuple[str, ...], ...] | None:
    """The moves a button or menu value stands for (`S07`, `bid>S07`, `#3>#0`): each step
    resolved against the seat's decision after the steps before it; None if any step names
    no option there (a stale or forged value). Where `lines` (the panel's, worked out for
    `state`) hold the value, they say it without applying anything. Whether the chain may
    be applied at all is for `TableManager.submit_chain` to check."""
    if lines is not None:
        by_index = part.startswith("#")
        line = next(
            (line for line in lines if part == (_indices(line) if by_index else line.value)),
            None,
        )
        if line is not None:
            return line.moves
    steps: list[tuple[str, ...]] = []
    for index, token in enumerate(part.split(CHAIN_SEP)):
        if index:
            try:
                state = engine.apply(state, Action(seat, steps[-1]))
            except GameError:
                return None
            following = next((d for d in engine.decisions(state) if d.seat == seat), None)
            if following is None:
                return None
            decision = following
        picks = [resolve_option(decision, pick) for pick in token.split(PICK_SEP)]
        if None in picks or (len(picks) > 1 and decision.max_choices < len(picks)):
            return None
        steps.append(tuple(p for p in picks if p is not None))
    return tuple(steps)


def chosen_text(
    game_id: str,
    engine: Engine,
    state: Any,
    seat: int,
    steps: tuple[tuple[str, ...], ...],
    lines: list[Line] | None,
    locale: discord.Locale | str | None,
) -> str:
    """What a click chose, in the reader's language: the words of the button or menu line
    the player clicked (a folded line's own label, whole), else each step's labels."""
    chain = tuple(PICK_SEP.join(step) for step in steps)
    line = None
    if lines is not None:
        line = next((line for line in lines if line.steps == chain), None)
    if line is not None:
        chained = (
            presenters.chain_style(game_id, line.decisions, line.options)
            if len(line.options) > 1
            else None
        )
        if chained is not None and chained.label:
            return game_text(locale, chained.label)
        return line_style(game_id, line, locale, full=True).label or "—"
    return " → ".join(
        ", ".join(game_text(locale, label) for label in step) or "—"
        for step in step_labels(engine, state, seat, steps)
    )


def step_labels(
    engine: Engine,
    state: Any,
    seat: int,
    steps: tuple[tuple[str, ...], ...],
) -> list[list[Text]]:
    """The labels of the options each step of a move chooses (to say what was done)."""
    labels: list[list[Text]] = []
    for index, step in enumerate(steps):
        if index:
            try:
                state = engine.apply(state, Action(seat, steps[index - 1]))
            except GameError:
                break
        decision = next((d for d in engine.decisions(state) if d.seat == seat), None)
        if decision is None:
            break
        labels.append([o.label for c in step if (o := decision.option(c)) is not None])
    return labels


def pages(decision: Decision) -> int:
    per_page = MENU_SIZE * MENUS_PER_PAGE
    return max(1, -(-len(decision.options) // per_page))


def menu_option_ids(decision: Decision, page: int, menu: int) -> frozenset[str]:
    """The options listed in one menu of a panel page."""
    start = (page * MENUS_PER_PAGE + menu) * MENU_SIZE
    return frozenset(o.id for o in decision.options[start : start + MENU_SIZE])


def uses_confirm(decision: Decision) -> bool:
    return decision.max_choices > 1 and len(decision.options) > MENU_SIZE


def build_panel(
    game: LiveGame,
    seat: int,
    decision: Decision,
    locale: discord.Locale | str | None,
    *,
    page: int = 0,
    picked: frozenset[str] = frozenset(),
    notice: str | None = None,
    fold: bool = True,
) -> tuple[str, Components]:
    ref = PanelRef(game.id, game.seq, decision_hash(decision))
    view = Components()
    game_id = game.table.game
    lines = _offered(game, seat, decision, fold, ref.dhash)
    page = min(max(page, 0), pages(decision) - 1)
    shown = _on_page(lines, page)
    styles = game.worked_out(
        ("styles", seat, ref.dhash, fold, str(locale), 0 if shown is lines else page),
        lambda: line_styles(game_id, shown, locale),
    )
    # a decision of several choices shown as sets of them is answered by one line too
    single = decision.max_choices == 1 or answer_sets(game_id, decision) is not None
    legend: list[str] = []
    if single and as_buttons(lines, styles):
        # Buttons have no room for a description: the panel's text gives them.
        legend = [
            t(
                locale,
                "panel.legend_line",
                option=_shown(styles[line.value]),
                description=styles[line.value].description,
            )
            for line in lines
            if styles[line.value].description
        ]
        for index, line in enumerate(lines):
            style = styles[line.value]
            view.add_item(
                button(
                    ref.id("o", line_id_part(line, ref)),
                    clip(style.label or "", BUTTON_LABEL_MAX),
                    emoji=style.emoji,
                    style=discord.ButtonStyle.primary,
                    row=index // 5,
                )
            )
    else:
        start = page * MENU_SIZE * MENUS_PER_PAGE
        for menu in range(MENUS_PER_PAGE):
            chunk = lines[start + menu * MENU_SIZE : start + (menu + 1) * MENU_SIZE]
            if not chunk:
                break
            view.add_item(
                _menu(ref, decision, chunk, styles, page, menu, picked, locale, len(lines), single)
            )
        nav_row = 4
        if pages(decision) > 1:
            if page > 0:
                view.add_item(button(ref.id("p", page - 1), t(locale, "panel.prev"), row=nav_row))
            view.add_item(
                button(
                    ref.id("p", page),
                    t(locale, "panel.page", page=page + 1, pages=pages(decision)),
                    row=nav_row,
                    disabled=True,
                )
            )
            if page + 1 < pages(decision):
                view.add_item(button(ref.id("p", page + 1), t(locale, "panel.next"), row=nav_row))
        if uses_confirm(decision):
            view.add_item(
                button(
                    ref.id("c"),
                    t(locale, "panel.confirm", count=len(picked)),
                    style=discord.ButtonStyle.success,
                    row=nav_row,
                )
            )
    if decision.min_choices == 0 and not uses_confirm(decision):
        view.add_item(button(ref.id("c"), t(locale, "panel.choose_none"), row=4))
    add_rules_button(view, game.id, decision.kind, locale)
    return panel_text(game, seat, decision, locale, notice, legend, single), view


def as_buttons(lines: list[Line], styles: dict[str, ShownStyle]) -> bool:
    """Whether a panel of single answers shows its lines as buttons: a few of them, each
    label within a button's 80 characters in the reader's words (a longer one makes the
    panel a menu, whose lines hold 100, rather than a clipped button)."""
    return len(lines) <= MAX_BUTTONS and all(
        len(styles[line.value].label or "") <= BUTTON_LABEL_MAX for line in lines
    )


def _on_page(lines: list[Line], page: int) -> list[Line]:
    """The lines a page of a panel shows (only they are styled): all of them where they fit
    on one. Lines of several steps never take a panel past one page (FOLD_MAX_LINES), so no
    line beyond a page is one whose label a line on it could read like."""
    per_page = MENU_SIZE * MENUS_PER_PAGE
    if len(lines) <= per_page:
        return lines
    return lines[page * per_page : (page + 1) * per_page]


def _menu(
    ref: PanelRef,
    decision: Decision,
    chunk: list[Line],
    styles: dict[str, ShownStyle],
    page: int,
    menu: int,
    picked: frozenset[str],
    locale: discord.Locale | str | None,
    total: int,
    single: bool | None = None,
) -> Family:
    # a placeholder holds 150 characters: room for both ends of the menu's range
    first, last = (_shown(styles[line.value], 70) for line in (chunk[0], chunk[-1]))
    confirm = uses_confirm(decision)
    if single or (single is None and decision.max_choices == 1):
        low, high = 1, 1
    elif confirm:
        low, high = 0, min(len(chunk), decision.max_choices)
    else:
        low, high = max(decision.min_choices, 1), decision.max_choices
    menu_item = select(
        ref.id("s", page, menu),
        (first if len(chunk) == 1 else t(locale, "panel.placeholder", first=first, last=last))
        if total > MENU_SIZE
        else game_text(locale, decision.prompt),
        row=menu,
        low=low,
        high=high,
    )
    for line in chunk:
        style = styles[line.value]
        menu_item.item.add_option(
            label=clip(style.label or "", MENU_LABEL_MAX),
            value=line.value,
            emoji=style.emoji,
            description=clip(style.description, DESCRIPTION_MAX) if style.description else None,
            default=line.value in picked,
        )
    return menu_item


def line_styles(
    game_id: str, lines: list[Line], locale: discord.Locale | str | None
) -> dict[str, ShownStyle]:
    """Each line's style by its value; chained lines whose shortened labels would look
    alike keep their full labels."""
    styles = {line.value: line_style(game_id, line, locale) for line in lines}
    seen = Counter(style.label for style in styles.values())
    for line in lines:
        if len(line.steps) > 1 and seen[styles[line.value].label] > 1:
            styles[line.value] = line_style(game_id, line, locale, full=True)
    return styles


# Line styles kept across panels, states and tables, by what they are made of: the game's
# presenter, the language, each step's decision kind and option (its id, label and fields:
# an option's equality) and whether the label is asked for whole. A presenter's styles read
# no more than that (a decision kind whose option styles read its other options too is
# named in the presenter's STYLED_IN_CONTEXT, and lines through it are worked out afresh),
# and panels offer many of the same options in state after state (the same tiles, dice,
# spaces, offers). Emptied when full.
_STYLES: dict[tuple[Any, ...], ShownStyle] = {}
_STYLES_MAX = 20_000


def line_style(
    game_id: str, line: Line, locale: discord.Locale | str | None, *, full: bool = False
) -> ShownStyle:
    """A line's label, emoji and description in the reader's language: the option's style,
    or for a chain the game's `chain_style`, else its steps' labels joined (without the
    first step's when that is too long for a button, unless `full`)."""
    return _kept_style(game_id, line.decisions, line.options, locale, full)


def _kept_style(
    game_id: str,
    decisions: tuple[Decision, ...],
    options: tuple[Option, ...],
    locale: discord.Locale | str | None,
    full: bool,
) -> ShownStyle:
    """`_line_style`, kept in `_STYLES` where the game's presenter allows."""
    full = full and len(options) > 1  # a single option has no shorter label
    kinds = tuple(d.kind for d in decisions)
    if presenters.styled_in_context(game_id, kinds):
        return _line_style(game_id, decisions, options, locale, full)
    # by the presenter itself: a test may register another under the same game id
    key = (presenters.for_game(game_id), language(locale), full, kinds, options)
    found = _STYLES.get(key)
    if found is None:
        if len(_STYLES) >= _STYLES_MAX:
            _STYLES.clear()
        found = _STYLES[key] = _line_style(game_id, decisions, options, locale, full)
    return found


def _line_style(
    game_id: str,
    decisions: tuple[Decision, ...],
    options: tuple[Option, ...],
    locale: discord.Locale | str | None,
    full: bool,
) -> ShownStyle:
    if len(options) == 1:
        return shown_style(
            presenters.option_style(game_id, decisions[0], options[0]), options[0], locale
        )
    chained = None if full else presenters.chain_style(game_id, decisions, options)
    if chained is not None and chained.label:
        return ShownStyle(
            label=game_text(locale, chained.label),
            emoji=chained.emoji,
            description=game_text(locale, chained.description) if chained.description else None,
        )
    steps = [
        _kept_style(game_id, (d,), (o,), locale, False)
        for d, o in zip(decisions, options, strict=True)
    ]
    label = " · ".join(s.label or "" for s in steps)
    description = next((s.description for s in reversed(steps) if s.description), None)
    if len(label) > BUTTON_LABEL_MAX and not full:
        # Too long for a button: the first step's words move to the description.
        label = " · ".join(s.label or "" for s in steps[1:])
        description = " — ".join(filter(None, [steps[0].label, description]))
    return ShownStyle(
        label=label,
        emoji=next((s.emoji for s in steps if s.emoji), None),
        description=description,
    )


def shown_style(
    style: presenters.OptionStyle, option: Option, locale: discord.Locale | str | None
) -> ShownStyle:
    """An option's style with its words in the reader's language (the engine's label
    unless the renderer gives a shorter one)."""
    return ShownStyle(
        label=game_text(locale, style.label or option.label),
        emoji=style.emoji,
        description=game_text(locale, style.description) if style.description else None,
    )


def _shown(style: ShownStyle, limit: int = BUTTON_LABEL_MAX) -> str:
    """An option as its button or menu line shows it (emoji and label)."""
    label = clip(style.label or "", limit)
    return f"{style.emoji} {label}" if style.emoji else label


def panel_text(
    game: LiveGame,
    seat: int,
    decision: Decision,
    locale: discord.Locale | str | None,
    notice: str | None,
    legend: list[str],
    single: bool = False,
) -> str:
    lines = []
    if notice:
        lines.append(notice)
    lines.append(t(locale, "panel.header", prompt=decision.prompt))
    low, high = decision.min_choices, decision.max_choices
    if not single and low == high != 1:
        lines.append(t(locale, "panel.choose_exactly", n=low))
    elif not single and (high > 1 or low != 1):
        lines.append(t(locale, "panel.choose_range", low=low, high=high))
    secrets = game_text(locale, game.private_text(seat)).strip()
    if secrets:
        lines.append("")
        lines.append(secrets)
    if legend:
        lines.append("")
        lines += legend
    return clip("\n".join(lines), CONTENT_MAX)


def picked_in_message(message: discord.Message | None) -> frozenset[str]:
    """The options a multi-menu panel shows as picked (its selects' defaults)."""
    if message is None:
        return frozenset()
    picked: set[str] = set()
    for row in message.components:
        for child in getattr(row, "children", []):
            for option in getattr(child, "options", []) or []:
                if option.default:
                    picked.add(option.value)
    return frozenset(picked)
