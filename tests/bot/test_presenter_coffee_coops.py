"""Coffee Traders' cooperatives linked without words (issue 29 item 5): a decision pictured
on the cooperatives (renderers/phone/coffee.py) names them by country in its labels, while
the picture tells them apart by colour and shape. Every option naming a cooperative there
wears that coffee's emoji (bot/presenters/coffee.py, `coop_emoji`), in the colour of the
cooperative's frame, whatever it does; the labels are those the options had."""

from __future__ import annotations

import random

import pytest

from meeple_hall.bot import presenters
from meeple_hall.bot.panel_clicks import model_game
from meeple_hall.bot.panels import build_panel
from meeple_hall.bot.presenters import coffee as presenter
from meeple_hall.games import get
from meeple_hall.games.coffee import engine
from meeple_hall.games.coffee.data import COFFEES
from meeple_hall.games.core import Action
from meeple_hall.games.testing import random_choices
from meeple_hall.renderers import coffee as table
from meeple_hall.renderers.phone import coffee as phone

# each emoji in the colour of its cooperative's frame in the picture: its hue's order
HUE = {"🟧": "orange", "🟫": "brown", "🩷": "pink", "🟩": "green", "🟦": "teal"}


def decisions(num_players: int, seed: int):
    rng = random.Random(seed)
    state = engine.new(num_players, seed)
    while pending := engine.decisions(state):
        yield from pending
        decision = rng.choice(pending)
        state = engine.apply(state, Action(decision.seat, random_choices(decision, rng)))


def test_the_kinds_on_the_cooperatives_are_the_pictures() -> None:
    pictured = {
        k for k, parts in phone.DECISION_PARTS.items() if set(parts) & set(phone.COOP_PARTS)
    }
    assert pictured == presenter.ON_COOPS
    assert {"work", "trade", "plant_space", "staff_own", "build_site"} <= pictured


def test_every_coffee_has_its_own_emoji_in_its_frames_colour() -> None:
    emoji = [presenter.COFFEE_EMOJI[coffee] for coffee in COFFEES]
    assert len(set(emoji)) == len(COFFEES)
    assert [HUE[e] for e in emoji] == ["orange", "brown", "pink", "green", "teal"]
    r, g, b = table.COFFEE_COLOURS["gua"]
    assert r > g > b  # orange
    r, g, b = table.COFFEE_COLOURS["bra"]
    assert r > b > g  # pink
    r, g, b = table.COFFEE_COLOURS["eth"]
    assert g > r > b  # green
    r, g, b = table.COFFEE_COLOURS["ind"]
    assert g > b > r  # teal


@pytest.mark.parametrize(("num_players", "seed"), [(2, 1), (4, 2)])
def test_an_option_naming_a_cooperative_wears_its_emoji(num_players: int, seed: int) -> None:
    """On the cooperatives, an option naming one (sending workers, placing a trader,
    planting, staffing, a site...) wears its coffee's emoji; elsewhere (a delivery, buying
    coffee) and options naming none keep theirs."""
    named = set()
    for decision in decisions(num_players, seed):
        for option in decision.options:
            style = presenters.option_style("coffee", decision, option)
            assert style is not None and style.emoji
            coffee = option.fields.get("coffee")
            if decision.kind in presenter.ON_COOPS and coffee in COFFEES:
                assert style.emoji == presenter.COFFEE_EMOJI[coffee], (decision.kind, option)
                named.add((decision.kind, option.fields.get("action")))
            else:
                assert style.emoji not in HUE or coffee in COFFEES, (decision.kind, option)
    assert {("work", "send"), ("trade", "trader"), ("plant_space", None)} <= named


def test_a_folded_build_line_and_a_plantation_with_its_farm_wear_the_cooperatives() -> None:
    state = engine.new(3, 5)
    rng = random.Random(5)
    builds = farms = 0
    for _ in range(3000):
        pending = engine.decisions(state)
        if not pending or (builds and farms):
            break
        decision = rng.choice(pending)
        if decision.kind == "trade":
            for build in (o for o in decision.options if "bonus" in o.fields):
                after = engine.apply(state, Action(decision.seat, (build.id,)))
                site = next((d for d in engine.decisions(after) if d.kind == "build_site"), None)
                for option in site.options if site is not None else ():
                    style = presenter.chain_style((decision, site), (build, option))
                    assert style.emoji == presenter.COFFEE_EMOJI[option.fields["coffee"]]
                    builds += 1
        if decision.kind == "plant_space":
            for planted in decision.options:
                after = engine.apply(state, Action(decision.seat, (planted.id,)))
                farm = next((d for d in engine.decisions(after) if d.kind == "farm"), None)
                for option in farm.options if farm is not None else ():
                    style = presenter.farm_style((planted, option))
                    assert style.emoji == presenter.COFFEE_EMOJI[planted.fields["coffee"]]
                    farms += 1
        state = engine.apply(state, Action(decision.seat, random_choices(decision, rng)))
    assert builds


@pytest.mark.parametrize("locale", ["en-US", "zh-TW", "ja"])
def test_the_work_panel_links_each_line_to_its_cooperative(locale: str) -> None:
    """The Work panel as Discord is sent it, in each language: each "send workers" line's
    emoji is its cooperative's, and the line names it."""
    coffee = get("coffee")
    game = model_game(coffee, coffee.new(3, 2), 3)
    decision = game.decisions()[0]
    assert decision.kind == "work"
    _, view = build_panel(game, decision.seat, decision, locale)
    lines = [
        option
        for row in view.to_components()
        for item in row.get("components", [])
        for option in item.get("options", [])
    ]
    sends = {o.fields["coffee"]: o for o in decision.options if o.fields.get("action") == "send"}
    assert sends
    shown = {line["emoji"]["name"] for line in lines}
    for coop in sends:
        assert presenter.COFFEE_EMOJI[coop] in shown
    assert "👷" not in shown
