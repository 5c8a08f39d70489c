"""Keyflower's words (bot/presenters/keyflower.py): panel labels, emoji and descriptions,
folded lines, a seat's secrets and the rules, read from what the engine gives."""

from __future__ import annotations

import ast
import inspect
from typing import Any

from meeple_hall.bot import presenters
from meeple_hall.bot.presenters import keyflower as presenter
from meeple_hall.games.core import Decision, Msg, Option
from meeple_hall.games.core.catalogues import render
from meeple_hall.games.keyflower import engine
from meeple_hall.games.keyflower.offers import tile_option
from meeple_hall.renderers import keyflower as picture
from meeple_hall.renderers.phone import keyflower as phone
from tests.renderers.test_keyflower import _snapshots


def test_the_bot_finds_keyflower_s_presenter_not_its_renderer() -> None:
    assert presenters.for_game("keyflower") is presenter
    assert presenters.folded_kinds("keyflower") == presenter.FOLDED


def test_the_renderers_draw_and_import_no_words() -> None:
    """renderers/keyflower.py and its phone view keep Pillow only: no option styles, no
    presenter, no message catalogue."""
    for module in (picture, phone):
        tree = ast.parse(inspect.getsource(module))
        imported = {
            node.module or "" for node in ast.walk(tree) if isinstance(node, ast.ImportFrom)
        }
        assert not any("presenters" in name or "words" in name for name in imported), imported
        for name in ("option_style", "chain_style", "private_text", "rules_text", "FOLDED"):
            assert not hasattr(module, name), (module.__name__, name)


def _seen_decision(kind: str, seed: int = 3) -> tuple[Any, Decision]:
    for num_players in (2, 3, 4):
        for state, pending in _snapshots(num_players, seed, every=1):
            for d in pending:
                if d.kind == kind:
                    return state, d
    raise AssertionError(f"no {kind} decision seen")


def test_cells_and_turns_read_as_words_from_their_fields_in_every_language() -> None:
    """`W of Home 2` for a cell, `roads NE W SE` for a turn: from the option's fields, with
    the coordinates and the turn typed in /move left out."""
    _, at = _seen_decision("place_at")
    cell = at.options[0]
    assert cell.fields["at"] == cell.id and cell.fields["near"]
    for lang in ("en", "zh-TW", "ja"):
        label = render(lang, presenter.option_style(at, cell).label, strict=True)
        assert cell.id not in label and render(lang, at.options[0].label).endswith(label)
    _, rot = _seen_decision("place_rot")
    turn = rot.options[0]
    assert turn.fields["rot"] == int(turn.id[1:])
    for lang in ("en", "zh-TW", "ja"):
        label = render(lang, presenter.option_style(rot, turn).label, strict=True)
        assert label and not label.startswith(turn.id), label


def test_every_panel_label_is_short_distinct_and_never_a_bare_id() -> None:
    kinds = set()
    for num_players, seed in ((2, 5), (6, 8)):
        for _state, pending in _snapshots(num_players, seed, every=2):
            for d in pending:
                kinds.add(d.kind)
                styles = [presenters.option_style("keyflower", d, o) for o in d.options]
                labels = [
                    str(style.label or o.label) for style, o in zip(styles, d.options, strict=True)
                ]
                assert len(set(labels)) == len(labels), (d.prompt, labels)
                for o, style, label in zip(d.options, styles, labels, strict=True):
                    assert 0 < len(label) <= 80, label  # Discord cuts a button's label at 80
                    if style.description:
                        description = str(style.description)
                        assert len(description) <= 100 and description != label
                    if d.kind in ("place_at", "place_rot") and o.id != "back":
                        assert label != o.id  # `W of Home 2`, not `-1,0`
    assert {"action", "location", "colour", "count", "boat", "winter", "place_at"} <= kinds


def test_tile_options_say_what_the_tile_does() -> None:
    winter = Decision(0, "winter", "Choose", (tile_option("W06"),))
    style = presenter.option_style(winter, winter.options[0])
    assert str(style.description) == "2 points per green worker"  # rulebook, "Key market"
    flip = Decision(0, "flip", "Flipper", (tile_option("A08"), Option("none", "No")))
    assert str(presenter.option_style(flip, flip.options[0]).description) == "Upgraded: 10 points"
    assert str(presenter.option_style(flip, flip.options[1]).label) == "No upgrade"
    use = Decision(0, "location", "Use which tile?", (tile_option("U06"),))
    described = str(presenter.option_style(use, use.options[0]).description)
    assert described.startswith("1 anvil → 3 iron")


def test_upgrade_payments_read_as_words() -> None:
    paid = {"gold": 1, "iron": 1}
    pay = Decision(0, "pay", "Upgrade", (Option("1gold+1iron", "1gold+1iron", {"paid": paid}),))
    assert str(presenter.option_style(pay, pay.options[0]).label) == "1 gold, 1 iron"
    free = Decision(0, "pay", "Upgrade", (Option("free", "free", {"paid": {}}),))
    assert str(presenter.option_style(free, free.options[0]).label) == "Free"


def test_private_text_shows_only_the_seat_s_own_secrets() -> None:
    state = engine.new(3, seed=9)
    mine = str(presenter.private_text(engine.view(state, 1)))
    for colour, n in state.players[1].screen.items():
        assert f"{presenter.EMOJI[colour]} {n}" in mine
    for tile in state.players[1].winter_hand:
        assert tile in mine
    for tile in state.players[0].winter_hand:
        if tile not in state.players[1].winter_hand:
            assert tile not in mine
    assert str(presenter.private_text(engine.view(state, None))) == "You are watching."


def test_rules_text_is_short_and_names_every_reconstructed_kind_of_component() -> None:
    from meeple_hall.games.keyflower.components import tiles

    text = str(presenter.rules_text())
    assert len(text) < 1800  # /rules adds a header line and clips at 2000
    assert "Reconstructed" in text
    assert all(mark in text for mark in "●▲◆■")  # how to read the workers' shapes
    words = {"home": "home", "spring": "spring", "summer": "summer", "autumn": "autumn"}
    words |= {"boat": "boat", "turn_order": "turn-order", "winter": "every tile"}
    for kind in {t.kind for t in tiles().values() if not t.verified}:
        assert words[kind] in text


def test_every_tile_s_words_render_in_every_language_within_discord_s_limits() -> None:
    from meeple_hall.games.core.catalogues import LANGUAGES, render
    from meeple_hall.games.keyflower.components import tiles

    for tile_id in tiles():
        for kind in presenter.TILE_DECISIONS:
            decision = Decision(0, kind, "?", (tile_option(tile_id),))
            style = presenter.option_style(decision, decision.options[0])
            for lang in LANGUAGES:
                label = render(lang, style.label, strict=True)
                assert 0 < len(label) <= 80 and "keyflower." not in label, (tile_id, lang)
                if style.description:
                    words = render(lang, style.description, strict=True)
                    assert len(words) <= 100 and "keyflower." not in words, (tile_id, kind, words)


def test_a_folded_transport_and_an_upgrade_read_from_the_options_fields() -> None:
    from meeple_hall.games.keyflower.offers import item_option
    from meeple_hall.games.keyflower.words import tile_name

    steps = (("from", tile_option("S03")), ("what", item_option("wood")), ("to", tile_option("H2")))
    decisions = tuple(Decision(0, kind, "?", (o,)) for kind, o in steps)
    style = presenter.chain_style(decisions, tuple(o for _, o in steps))
    assert style is not None and style.emoji == presenter.EMOJI["wood"]
    for lang in ("en", "zh-TW", "ja"):
        line = render(lang, style.label, strict=True)
        assert render(lang, tile_name("S03")) in line and render(lang, tile_name("H2")) in line
    paid = Option("1gold", "1gold", {"paid": {"gold": 1}})
    upgrade = (Decision(0, "upgrade", "?", (tile_option("S03"),)), Decision(0, "pay", "?", (paid,)))
    style = presenter.chain_style(upgrade, (upgrade[0].options[0], paid))
    assert style is not None
    assert render("en", style.label) == "Upgrade Gold mine, paying 1 gold"


def test_a_count_wears_the_emoji_of_the_colour_chosen() -> None:
    """How many workers of the colour chosen: each line wears that colour's emoji, as the
    colour's own lines do (🔶 for yellow), whatever the count."""
    for colour in ("blue", "red", "yellow", "green"):
        options = tuple(
            Option(
                str(n),
                Msg("keyflower.amount", item=Msg(f"keyflower.item.{colour}"), n=n),
                {"n": n},
            )
            for n in (1, 2)
        )
        decision = Decision(
            seat=0, kind="count", prompt=Msg("keyflower.prompt.count"), options=options
        )
        for option in options:
            style = presenter.option_style(decision, option)
            assert style is not None and style.emoji == presenter.EMOJI[colour], colour
