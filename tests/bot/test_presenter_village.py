"""Village's words on the panels (bot/presenters/village.py): option labels, emoji and
descriptions from the options' fields, the private text and the rules notes."""

from __future__ import annotations

import inspect
import re

import pytest

from meeple_hall.bot import presenters
from meeple_hall.bot.presenters import OptionStyle
from meeple_hall.bot.presenters import village as presenter
from meeple_hall.games.core import Action, Option
from meeple_hall.games.village import engine
from tests.renderers.test_village import every_decision, playout


def test_option_styles_for_every_kind_of_decision() -> None:
    kinds: dict = {}
    for n, seed in ((4, 5), (1, 2), (3, 8)):
        kinds.update(playout(n, seed, set())[1])
    assert {"turn", "die", "market"} <= set(kinds)
    for decision in kinds.values():
        for option in decision.options:
            style = presenter.option_style(decision, option)
            assert isinstance(style, OptionStyle)
            assert style.label and len(str(style.label)) <= 80


def test_private_text_shows_only_the_seats_customers() -> None:
    views, _ = playout(2, seed=3, stops=set())
    _, seat_view = views[-1]
    text = str(presenter.private_text(seat_view))
    assert "customers" in text
    for tile in seat_view["you"]["customers"]:
        assert f"**{tile['points']}**" in text
    assert str(presenter.private_text(views[-1][0])) == "Nothing secret."


def test_rules_text_is_short_and_names_the_reconstructed_parts() -> None:
    text = str(presenter.rules_text())
    assert len(text) < 1500
    assert "Karla" in text and "Reconstructed" in text
    # The picture's colour-blind cues, in words.
    for word in ("dot", "triangle", "bar", "cross", "square", "diamond", "hexagon", "shield"):
        assert word in text


@pytest.mark.parametrize(("num_players", "seed"), [(1, 31), (2, 32), (5, 33)])
def test_panel_labels_are_short_distinct_and_in_words(num_players: int, seed: int) -> None:
    # Python reprs, customer ids (c07) or an option's own id.
    raw = re.compile(r"[{}\[\]]|\bNone\b|\bc\d\d\b")
    for decision in every_decision(num_players, seed):
        prompt = str(decision.prompt)
        assert len(prompt) <= 100 and not raw.search(prompt)
        labels = []
        for option in decision.options:
            style = presenters.option_style("village", decision, option)
            label = str(style.label or option.label)
            assert len(label) <= 80 and len(str(option.label)) <= 80, option.label
            assert not raw.search(label), label
            assert "-" not in option.id or option.id not in label, label
            if style.description:
                description = str(style.description)
                assert len(description) <= 100, description
                assert description != label
            labels.append(label)
        assert len(set(labels)) == len(labels), labels


def test_descriptions_say_what_a_label_cannot() -> None:
    """A cube's action, a trip's city on the map, where a death goes in the chronicle."""
    seen: dict[str, list[str]] = {}
    for num_players, seed in ((2, 41), (4, 42), (1, 43)):
        for decision in every_decision(num_players, seed):
            for option in decision.options:
                if option.id in ("skip", "pass", "none", "done"):
                    continue
                style = presenters.option_style("village", decision, option)
                seen.setdefault(decision.kind, []).append(str(style.description or ""))
    assert {"turn", "travel", "die", "council"} <= set(seen)
    assert all("then:" in d.lower() for d in seen["turn"])
    assert all("of the travel map" in d for d in seen["travel"])
    assert all(d.startswith("Into the chronicle's") for d in seen["die"])


def test_a_privilege_prompt_names_the_stage() -> None:
    for decision in every_decision(3, 44):
        if decision.kind == "privilege":
            assert re.search(r"stage \d or below", str(decision.prompt))
            return
    pytest.fail("no council privilege in this game")


def test_a_coin_payment_is_described_as_the_cubes_it_stands_in_for() -> None:
    """The label writes the coins in the cubes' place; the description says which cubes
    they replace (in solo the start marker too), after what the option does, within a
    menu line's 100 characters."""
    from tests.games.village.test_rulebook_examples import at_turn

    state = at_turn(engine.new(2, 3, {"compensation": "off"}), 0, council=["pink"])
    player = state.players[0]
    player.cubes["green"], player.coins, player.cubes["brown"] = 1, 1, 2
    well = next(o for o in engine.decisions(state)[0].options if o.id == "well-brown-crafts")
    style = presenters.option_style("village", engine.decisions(state)[0], well)
    assert str(style.label) == "Well: 2 brown + 1 coin → Crafts"
    assert str(style.description).startswith("Pay 2 brown + 1 coin, then: make a good")
    state = engine.apply(state, Action(0, ("council-pink",)))
    (decision,) = engine.decisions(state)
    enter = decision.option("enter-0-green")
    style = presenters.option_style("village", decision, enter)
    assert str(style.label) == "#1 enters the council (1 green + 1 coin + 1 time)"
    assert str(style.description) == (
        "Then a privilege of the member's stage or below · Paying 1 coin instead of 1 green"
    )
    player = state.players[0]
    player.marker_coin, player.coins = True, 0
    (decision,) = engine.decisions(state)
    style = presenters.option_style("village", decision, decision.option("enter-0-green"))
    assert str(style.description).endswith("· Paying start marker instead of 1 green")
    plain = presenters.option_style("village", decision, decision.option("skip"))
    assert plain.description is None


@pytest.mark.parametrize(("num_players", "seed"), [(1, 51), (3, 52), (5, 53)])
def test_styles_come_from_the_options_fields_not_their_ids(num_players: int, seed: int) -> None:
    """The presenter reads what an option is (`Option.fields`), never its id's format: an
    option under another id is styled the same."""
    kinds = set()
    for decision in every_decision(num_players, seed):
        kinds.add(decision.kind)
        for option in decision.options:
            anonymous = Option("x", option.label, option.fields)
            assert presenter.option_style(decision, anonymous) == presenter.option_style(
                decision, option
            ), option
    assert {"turn", "crafts", "council", "market"} <= kinds, kinds


def test_the_table_picture_module_holds_no_words() -> None:
    """renderers/village.py draws; what the panels say is the presenter's."""
    from meeple_hall.renderers import village as renderer

    source = inspect.getsource(renderer)
    assert "presenters" not in source and "village.words" not in source
    for name in ("option_style", "private_text", "rules_text", "FOLDED", "EMOJI"):
        assert not hasattr(renderer, name), name
