"""Coffee Traders' words on the panels (bot/presenters/coffee.py): emoji and descriptions
from the options' fields, the folded building lines, the private text and the rules notes."""

from __future__ import annotations

import inspect
import json
import random
import re

import pytest

from meeple_hall.bot import presenters
from meeple_hall.bot.presenters import OptionStyle
from meeple_hall.bot.presenters import coffee as presenter
from meeple_hall.games.coffee import engine
from meeple_hall.games.coffee.words import coffee_name
from meeple_hall.games.core import Action, Decision, Option
from meeple_hall.games.core.catalogues import render
from meeple_hall.games.testing import random_choices
from meeple_hall.renderers.coffee import COFFEE_SHAPES


def snapshots(num_players: int, seed: int, every: int = 60):
    rng = random.Random(seed)
    state = engine.new(num_players, seed)
    step = 0
    while pending := engine.decisions(state):
        if step % every == 0:
            yield state, pending
        decision = rng.choice(pending)
        state = engine.apply(state, Action(decision.seat, random_choices(decision, rng)))
        step += 1
    yield state, []


RAW_TOKEN = re.compile(r"\b(gua|col|bra|eth|ind|kopi\d|wild\d|seoul|b[1-6]|[a-z]+\.[a-z0-9.]+)\b")


@pytest.mark.parametrize("num_players", [2, 5])
def test_panels_read_as_words_a_newcomer_understands(num_players: int) -> None:
    """What the buttons and menus show, at many moments of random games: a prompt that fits a
    menu's placeholder, labels within Discord's 80 characters, distinct within a decision and
    free of option ids, descriptions that add to the prompt rather than repeat it."""
    seen = set()
    for seed in (1, 2):
        for _, pending in snapshots(num_players, seed=seed, every=3):
            for decision in pending:
                prompt = render("en", decision.prompt)
                assert 0 < len(prompt) <= 150, prompt
                labels = []
                for option in decision.options:
                    style = presenters.option_style("coffee", decision, option)
                    label = render("en", style.label or option.label)
                    assert style.emoji, (decision.kind, option.id)
                    assert len(label) <= 80, label
                    assert not RAW_TOKEN.search(label), label
                    description = render("en", style.description) or None
                    assert description is None or len(description) <= 100
                    assert description is None or prompt not in description
                    labels.append(label)
                assert len(set(labels)) == len(labels), (decision.prompt, labels)
                seen.add(decision.kind)
    assert {"work", "staff_own", "trade", "sell", "plant_space", "build_site"} <= seen


@pytest.mark.parametrize(("num_players", "seed"), [(2, 21), (4, 22)])
def test_styles_come_from_the_options_fields_not_their_ids(num_players: int, seed: int) -> None:
    """Every option says what it is in JSON-safe fields; the presenter reads those, never
    the id's format: an option under another id is styled the same."""
    kinds = set()
    for _, pending in snapshots(num_players, seed=seed, every=2):
        for decision in pending:
            kinds.add(decision.kind)
            for option in decision.options:
                assert option.fields, (decision.kind, option.id)
                assert json.loads(json.dumps(option.fields)) == option.fields
                anonymous = Option("x", option.label, option.fields)
                assert presenter.option_style(decision, anonymous) == presenter.option_style(
                    decision, option
                ), option
    assert {"work", "staff_own", "trade", "sell", "sell_second", "penalty"} <= kinds, kinds


def test_a_contract_option_tells_its_reward_from_the_player_board() -> None:
    """The label names the coffee wanted; the description adds what the board gives for it."""
    contract = Option("contract.D", "Fulfil contract D", {"action": "contract", "letter": "D"})
    decision = Decision(0, "sell", "Phase 5 Sell", (contract,))
    style = presenter.option_style(decision, contract)
    assert str(style.description).startswith("+2 coins and a free building, 4 VP at the end")
    assert style.emoji == "📜"


def test_a_plantation_in_a_higher_row_tells_its_arabica_step() -> None:
    """EN Phase 1 A4: a plantation in the 2 row brings an Arabica step, in the 3 row an
    Animal counter too; the 1 row neither."""
    decision = Decision(0, "plant_space", "Where?", ())
    notes = {
        row: presenter.option_style(
            decision, Option(f"gua.{row}.0", "x", {"coffee": "gua", "row": row, "space": 0})
        ).description
        for row in (1, 2, 3)
    }
    assert notes[1] is None
    assert "Arabica" in str(notes[2]) and "Animal" in str(notes[3])


def _first(num_players: int, seed: int, kind: str, action: str):
    """The first state of a random game where `kind` offers an option doing `action`."""
    for state, pending in snapshots(num_players, seed=seed, every=1):
        for decision in pending:
            if decision.kind == kind and any(
                o.fields.get("action") == action for o in decision.options
            ):
                return state, decision
    raise AssertionError(f"no {kind} with {action}")


def test_a_folded_building_line_names_the_building_and_its_space() -> None:
    """Folded with its site, "Build a production station (2 coins): 2 coffee of its
    cooperative, 1 VP · Brazil, space 1 (Arabica step)" was too long for a line, so the
    line showed only "Brazil, space 1 (Arabica step)" while a fair trade post's kept its
    name: every building line now starts with the building."""
    state, trade = _first(3, 5, "trade", "build")
    build = next(o for o in trade.options if o.fields.get("building") == "production")
    after = engine.apply(state, Action(trade.seat, (build.id,)))
    site = engine.decisions(after)[0]
    assert site.kind == "build_site"
    for option in site.options:
        style = presenter.chain_style((trade, site), (build, option))
        label = render("en", style.label)
        coop = render("en", coffee_name(option.fields["coffee"]))
        shape = presenter.SHAPE_SYMBOLS[COFFEE_SHAPES[option.fields["coffee"]]]
        assert label.startswith(f"{shape} Build a production station in {coop}")
        assert f"space {option.fields['space'] + 1}" in label and len(label) <= 80
        assert ("Arabica step" in label) == option.fields["step"]
        assert render("en", style.description).startswith("2 coffee of its cooperative, 1 VP")


def test_a_folded_piggyback_build_names_the_building_the_space_and_the_payment() -> None:
    state, piggy = _first(3, 11, "piggy_build", "join")
    join = next(o for o in piggy.options if o.fields["action"] == "join")
    after = engine.apply(state, Action(piggy.seat, (join.id,)))
    pay = engine.decisions(after)[0]
    assert pay.kind == "piggy_pay"
    paid = pay.options[0]
    style = presenter.chain_style((piggy, pay), (join, paid))
    label = render("en", style.label)
    building = {"warehouse": "warehouse", "production": "production station"}.get(
        join.fields["building"], "fair trade post"
    )
    assert label.startswith(f"Build a {building}") and label.endswith(
        f"for 1 {render('en', coffee_name(paid.fields['coffee']))}"
    )


def test_lines_that_are_not_buildings_are_not_restyled() -> None:
    """Adding a plantation folds its row into the Work action; its options' own labels say
    it (no building line)."""
    state = engine.new(3, seed=1)
    work = engine.decisions(state)[0]
    plant = work.option("plant")
    after = engine.apply(state, Action(work.seat, ("plant",)))
    rows = engine.decisions(after)[0]
    assert rows.kind == "plant_row" and rows.kind in presenter.FOLDED
    assert presenter.chain_style((work, rows), (plant, rows.options[0])) is None


def test_private_text_shows_only_the_seats_company() -> None:
    state = engine.new(3, seed=2)
    text = str(presenter.private_text(engine.view(state, 1)))
    assert "P2" in text and "coins" in text
    assert "watching" in str(presenter.private_text(engine.view(state, None)))


def test_private_text_names_every_coffee_beside_its_colour() -> None:
    """/hand names each coffee (Gua, Col, ...) beside its coloured emoji, spells out the bonus
    supply and stock counters, and shows no data ids."""
    view = engine.view(engine.new(4, seed=2), 0)
    player = view["players"][0]
    player["coffee"] = dict.fromkeys(player["coffee"], 1)
    player["stocks"], player["bonus"] = ["gua", "wild"], ["marker", "trader", "coins"]
    text = str(presenter.private_text(view))
    for emoji, name in (("🟧", "Gua"), ("🟫", "Col"), ("🩷", "Bra"), ("🟩", "Eth"), ("🟦", "Ind")):
        assert text.count(emoji) == text.count(emoji + name) > 0
    assert "Stock counters**: Guatemala, wild" in text
    assert "an Action marker, a trader, 3 coins" in text


@pytest.mark.parametrize("num_players", [4, 5])
def test_the_action_markers_left_are_told(num_players: int) -> None:
    """The Work phase spends Action markers (EN Phase 1: "some actions require more than 1
    Action marker"): how many a company has left is in its text."""
    view = engine.view(engine.new(num_players, seed=2), 0)
    shown = render("en", presenter.private_text(view))
    left = 4 if num_players == 4 else 3  # the colour marker at 4 players (EN Player Board 2)
    assert f"**Your company (P1)**: {left} Action markers, " in shown


@pytest.mark.parametrize("locale", ["zh-TW", "ja"])
def test_private_text_and_rules_in_every_language(locale: str) -> None:
    view = engine.view(engine.new(3, seed=2), 1)
    for text in (presenter.private_text(view), presenter.rules_text()):
        shown = render(locale, text)
        assert shown and shown != render("en", text)
        assert not re.search(r"\bcoffee\.[a-z_.]+\b", shown), shown


def test_rules_text_is_short_and_names_the_reconstructed_parts() -> None:
    text = str(presenter.rules_text())
    assert len(text) < 1500
    assert "Coffee Traders" in text and "Reconstructed components" in text
    assert "André" in text and "vicious" in text
    # the legend of the coffee shapes, for whoever cannot tell the colours apart
    assert "● Guatemala, ■ Colombia, ▲ Brazil, ◆ Ethiopia, ⧗ Indonesia" in text


def test_the_presenter_is_the_one_the_panels_ask() -> None:
    assert presenters.for_game("coffee") is presenter
    folded = {"plant_row", "build_site", "piggy_pay", "sell_second", "farm"}
    folded |= {"mixed_pay", "advance", "gain_coffee"}
    assert presenters.folded_kinds("coffee") == folded
    assert isinstance(presenters.option_style("coffee", *_any_option()), OptionStyle)


def _any_option() -> tuple[Decision, Option]:
    decision = engine.decisions(engine.new(3, seed=1))[0]
    return decision, decision.options[0]


def test_the_table_picture_modules_hold_no_words() -> None:
    """renderers/coffee.py and its phone view draw; what the panels say is the presenter's."""
    from meeple_hall.renderers import coffee as renderer
    from meeple_hall.renderers.phone import coffee as phone

    for module in (renderer, phone):
        source = inspect.getsource(module)
        assert "presenters" not in source and "coffee.words" not in source
        assert ".id.split" not in source
        for name in ("option_style", "chain_style", "private_text", "rules_text", "FOLDED"):
            assert not hasattr(module, name), name
    assert not hasattr(renderer, "COFFEE_EMOJI")
