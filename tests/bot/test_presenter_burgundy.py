"""The Castles of Burgundy's words (bot/presenters/burgundy.py): panel labels, emoji and
descriptions, a die's action folded with its tile, a seat's secrets and the rules, read from
what the engine gives (decisions, their options' fields, views); never from an option id."""

from __future__ import annotations

import ast
import inspect
import random
import re
from dataclasses import replace

import pytest

from meeple_hall.bot import presenters
from meeple_hall.bot.presenters import burgundy as presenter
from meeple_hall.games.burgundy import engine
from meeple_hall.games.burgundy.rules import tile
from meeple_hall.games.burgundy.state import Frame
from meeple_hall.games.burgundy.turn import tile_fields
from meeple_hall.games.burgundy.words import m, tile_name
from meeple_hall.games.core import Action, Decision, Option
from meeple_hall.games.core.catalogues import LANGUAGES, render
from meeple_hall.games.testing import random_choices
from meeple_hall.renderers import burgundy as picture
from meeple_hall.renderers.phone import burgundy as phone
from tests.games.burgundy.helpers import decision, play, setup_player, table, tid


def playout(num_players, seed, stops, to_the_end=False):
    """Views (spectator and seat 0) at the given steps of a random game, and at its last; and
    the first decision of each kind."""
    rng = random.Random(seed)
    state = engine.new(num_players, seed=seed)
    step, out, kinds = 0, [], {}
    while engine.decisions(state) and (to_the_end or step <= max(stops, default=400)):
        pending = engine.decisions(state)[0]
        kinds.setdefault(pending.kind, pending)
        if step in stops:
            out.append((engine.view(state, None), engine.view(state, 0)))
        state = engine.apply(state, Action(pending.seat, random_choices(pending, rng)))
        step += 1
    out.append((engine.view(state, None), engine.view(state, 0)))
    return out, kinds


def opaque(option: Option, n: int) -> Option:
    """The same option under an id that says nothing, its tile's face too."""
    fields = dict(option.fields)
    if "tile" in fields:
        fields["tile"] = "x"
    return replace(option, id=f"x{n}", fields=fields)


# -- where the words live -----------------------------------------------------------------------
def test_the_bot_finds_burgundy_s_presenter_not_its_renderer():
    assert presenters.for_game("burgundy") is presenter
    folded = {
        "action",
        "take",
        "place",
        "buy",
        "discard",
        "ship",
        "shipgoods",
        "castle",
        "effect_take",
    }
    assert presenters.folded_kinds("burgundy") == presenter.FOLDED == folded


@pytest.mark.parametrize("module", [picture, phone])
def test_the_pictures_hold_no_words(module):
    """renderers/ draws (Pillow only): no presenter, no message, no option style."""
    imported = set()
    for node in ast.walk(ast.parse(inspect.getsource(module))):
        if isinstance(node, ast.ImportFrom):
            imported.add(node.module or "")
        elif isinstance(node, ast.Import):
            imported.update(alias.name for alias in node.names)
    assert not any("presenters" in name or name.endswith(".words") for name in imported)
    assert "meeple_hall.games.core" not in imported
    for words in ("option_style", "chain_style", "FOLDED", "private_text", "rules_text"):
        assert not hasattr(module, words), words


def test_every_option_of_a_game_says_what_it_is_in_its_fields():
    _, kinds = playout(4, seed=5, stops=set(), to_the_end=True)
    assert {"die", "action", "take", "place", "buy", "ship", "discard"} <= set(kinds)
    for pending in kinds.values():
        assert all(option.fields for option in pending.options), pending.kind


@pytest.mark.parametrize("num_players", [2, 4])
def test_styles_do_not_read_option_ids(num_players):
    """Each option and each folded line styled the same under ids that say nothing: the
    presenter reads fields, labels and prompts, never an id's format."""
    rng = random.Random(num_players)
    state = engine.new(num_players, seed=30 + num_players)
    checked, chains = set(), 0
    while engine.decisions(state):
        pending = engine.decisions(state)[0]
        for n, option in enumerate(pending.options):
            style = presenter.option_style(pending, option)
            assert presenter.option_style(pending, opaque(option, n)) == style
        if pending.kind == "action":
            chains += check_chains(state, pending)
        checked.add(pending.kind)
        state = engine.apply(state, Action(pending.seat, random_choices(pending, rng)))
    assert {"die", "action", "take", "place"} <= checked and chains


def check_chains(state, pending: Decision) -> int:
    found = 0
    for action in pending.options:
        after = engine.apply(state, Action(pending.seat, (action.id,)))
        following = next(iter(engine.decisions(after)), None)
        if following is None or following.kind not in presenter.FOLDED:
            continue
        for n, option in enumerate(following.options):
            steps = (pending, following)
            style = presenter.chain_style(steps, (action, option))
            assert style is not None and style.label
            renamed = (opaque(action, 99), opaque(option, n))
            assert presenter.chain_style(steps, renamed) == style
            found += 1
    return found


# -- the panels ---------------------------------------------------------------------------------
def test_option_styles_for_every_kind_of_decision():
    _, kinds = playout(4, seed=5, stops=set())
    assert {"die", "action", "take", "place"} <= set(kinds)
    for pending in kinds.values():
        for option in pending.options:
            style = presenters.option_style("burgundy", pending, option)
            assert isinstance(style, presenters.OptionStyle)
            if style.label:
                assert all(len(render(lang, style.label)) <= 80 for lang in LANGUAGES)


RAW_ID = re.compile(r"\b(k\d+|(cow|sheep|pig|hen)\d|townhall|boarding(?! house))\b")


def every_panel(num_players, seed):
    """Each decision of a random game, with what its buttons and menus show; then every line
    of the game's log."""
    rng = random.Random(seed)
    state = engine.new(num_players, seed=seed)
    log = {render("en", e) for e in state.log}
    while engine.decisions(state):
        pending = engine.decisions(state)[0]
        yield pending, [presenters.option_style("burgundy", pending, o) for o in pending.options]
        state = engine.apply(state, Action(pending.seat, random_choices(pending, rng)))
        log.update(render("en", e) for e in state.log)
    yield None, sorted(log)


@pytest.mark.parametrize("num_players", [2, 4])
def test_every_label_is_short_distinct_and_named_as_in_the_rulebook(num_players):
    kinds = set()
    for pending, styles in every_panel(num_players, seed=20 + num_players):
        if pending is None:
            assert not any(RAW_ID.search(line) for line in styles), styles
            break
        kinds.add(pending.kind)
        for lang in LANGUAGES:
            labels = [
                render(lang, s.label or o.label)
                for s, o in zip(styles, pending.options, strict=True)
            ]
            prompt = render(lang, pending.prompt)
            assert all(0 < len(label) <= 80 for label in labels), labels
            assert len(set(labels)) == len(labels), (prompt, labels)
            assert not any(RAW_ID.search(label) for label in labels), labels
            assert not RAW_ID.search(prompt), prompt
            assert "{" not in prompt, prompt
            for style, label in zip(styles, labels, strict=True):
                described = render(lang, style.description)
                assert len(described) <= 100
                assert described != label
    assert {"die", "action", "take", "place", "discard"} <= kinds


def test_prompts_name_the_die_and_the_depot_the_tile_comes_from():
    state = engine.new(2, seed=4)
    rolled = state.players[state.active].dice[0]
    state = engine.apply(state, Action(state.active, (str(rolled),)))
    assert str(decision(state).prompt) == f"Die {rolled}: choose an action"
    labels = {o.id: str(o.label) for o in decision(state).options}
    assert labels["take"] == f"Take a tile from depot {rolled}"
    assert labels["workers"] == "Take 2 workers"
    state = engine.apply(state, Action(state.active, ("take",)))
    assert (
        str(decision(state).prompt) == f"Die {rolled}: take a tile from depot {rolled} into storage"
    )


def tile_options(kind: str, *faces: str) -> Decision:
    options = tuple(
        Option(face, tile_name(face), tile_fields(tid(face), depot=1)) for face in faces
    )
    return Decision(0, kind, "Die 1: take a tile from depot 1 into storage", options)


def test_tile_options_explain_knowledge_tiles_and_buildings():
    pending = tile_options("take", "k12", "bank")
    styles = [presenter.option_style(pending, o) for o in pending.options]
    assert "taking a tile" in render("en", styles[0].description)
    assert "2 silverlings" in render("en", styles[1].description)
    assert "拿板塊" in render("zh-TW", styles[0].description)
    assert all(render("ja", s.description, strict=True) for s in styles)


def test_tile_labels_use_the_rulebook_names_and_say_what_a_tile_does():
    pending = tile_options("take", "pig3", "townhall", "ship")
    styles = [presenter.option_style(pending, o) for o in pending.options]
    assert [s.emoji for s in styles] == ["🐖", "🏠", "⛵"]
    said = [str(s.description) for s in styles]
    assert "3 points" in said[0] and "pasture" in said[0]
    assert "another tile" in said[1]
    assert "turn order" in said[2]


def test_a_die_option_says_what_its_value_is_good_for():
    state = table()
    setup_player(state, dice=(6, 6), workers=1)
    turned = next(o for o in decision(state).options if o.fields["value"] == 1)
    assert str(turned.label) == "Die 6 as 1 (1 worker)"
    style = presenter.option_style(decision(state), turned)
    assert str(style.description) == (
        "Take from depot 1, place on a 1 hex, sell red 1 goods or take workers"
    )
    for lang in LANGUAGES:
        assert render(lang, style.description, strict=True)


def test_a_castle_die_says_its_value_and_ending_the_turn_says_what_it_does():
    state = table()
    setup_player(state, dice=(2, 2))
    state.players[0].used = [True, True]
    state.stack.append(Frame("castle"))
    castle = decision(state)
    assert castle.kind == "castle"
    four = next(o for o in castle.options if o.fields["value"] == 4)
    assert "depot 4" in str(presenter.option_style(castle, four).description)
    state.stack.clear()
    (ending,) = decision(state).options
    style = presenter.option_style(decision(state), ending)
    assert (style.emoji, str(style.label)) == ("⏹️", "End turn")
    for lang in LANGUAGES:
        assert render(lang, style.description, strict=True)


def test_a_discarded_tile_s_effect_reads_as_lost_not_as_gained():
    """A discard puts the tile back in the box: its description must not read as if
    discarding a Bank brought 2 silverlings."""
    bank = Option("bank", "Discard Bank", tile_fields(tid("bank")))
    pending = Decision(0, "discard", "Storage is full", (bank,))
    style = presenter.option_style(pending, pending.options[0])
    assert str(style.description) == "Lost with its effect (Take 2 silverlings.)"
    for lang in LANGUAGES:
        assert render(lang, style.description, strict=True)


def test_a_die_action_folded_with_its_tile_reads_as_one_move():
    """Take and place are folded into the action (bot/panels.py): the line says the move in
    the rulebook's words, "Take Castle from depot 2", not the two steps' labels joined."""
    from meeple_hall.bot.panels import line_styles, panel_lines

    state = table()
    setup_player(state, dice=(3, 3), storage=["bank", "mine", "ship"])
    state = play(state, "3")
    lines = panel_lines(engine, state, 0, engine.decisions(state)[0], presenter.FOLDED)
    for lang in LANGUAGES:
        styles = line_styles("burgundy", lines, lang)
        assert all(len(s.label) <= 80 and s.description for s in styles.values())
    styles = line_styles("burgundy", lines, "en")
    taken = {v: s.label for v, s in styles.items() if v.startswith("take>")}
    placed = {v: s.label for v, s in styles.items() if v.startswith("place>")}
    face = state.depots[2][0]
    name = str(tile_name(tile(face).face))
    # the storage is full: the discard is folded in too (issue 29)
    assert taken[f"take>{tile(face).face}>bank"] == f"Take {name} from depot 3, discarding Bank"
    assert placed == {
        "place>bank@12": "Place Bank on building 3 (row 3, space 3)",
        "place>bank@26": "Place Bank on building 3 (row 5, space 4)",
    }
    assert styles["place>bank@12"].emoji == "🧩"
    assert styles["place>bank@12"].description == "Take 2 silverlings."


def test_a_die_folded_with_its_action_and_tile_reads_as_one_move_in_every_language():
    """The die panel (issue 29: two clicks a turn): one line a die, its action and the tile or
    hex, worded "Die 3: Place Bank on …"; the engine's steps are unchanged."""
    from meeple_hall.bot.panels import line_styles, panel_lines

    state = table()
    setup_player(state, dice=(3, 3), storage=["bank", "mine", "ship"])
    lines = panel_lines(engine, state, 0, engine.decisions(state)[0], presenter.FOLDED)
    by_value = {line.value: line for line in lines}
    assert by_value["3>place>bank@12"].steps == ("3", "place", "bank@12")
    words = {
        "en": ("Die 3: Place Bank on building 3 (row 3, space 3)", "Die 3: Take 2 workers"),
        "zh-TW": ("骰子 3：把銀行放到建築 3（第 3 排第 3 格）", "骰子 3：拿取 2 個工人"),
        "ja": ("【ダイス3】置く：銀行を建物3（3段目の3番目）に", "【ダイス3】労働者2人を得る"),
    }
    for lang, (placed, workers) in words.items():
        styles = line_styles("burgundy", lines, lang)
        assert styles["3>place>bank@12"].label == placed
        assert styles["3>workers"].label == workers
        assert all(len(s.label) <= 100 and s.description for s in styles.values())
    styles = line_styles("burgundy", lines, "en")
    assert (styles["3>place>bank@12"].emoji, styles["3>workers"].emoji) == ("🧩", "👷")
    assert styles["3>place>bank@12"].description == "Take 2 silverlings."


def test_a_turned_die_s_placing_says_its_workers_once():
    """ "Die 6 as 3 (3 workers): Place Bank on building 3 (row 3, space 3)": the die's label
    says what turning it costs; the placing folded after it does not say it again (", paying
    3 workers" read as paying 6), in any language; the place step's own line still says it."""
    from meeple_hall.bot.panels import line_styles, panel_lines

    state = table()
    setup_player(state, dice=(6, 6), storage=["bank"], workers=5)
    lines = panel_lines(engine, state, 0, engine.decisions(state)[0], presenter.FOLDED)
    words = {
        "en": "Die 6 as 3 (3 workers): Place Bank on building 3 (row 3, space 3)",
        "zh-TW": "骰子 6 當作 3（3 個工人）：把銀行放到建築 3（第 3 排第 3 格）",
        "ja": "【ダイス6を3として（労働者3人）】置く：銀行を建物3（3段目の3番目）に",
    }
    for lang, placed in words.items():
        styles = line_styles("burgundy", lines, lang)
        assert styles["6+3>place>bank@12"].label == placed
        assert all(len(s.label) <= 100 for s in styles.values())
    place = engine.decisions(play(state, "6+3", "place"))[0]
    assert "paying 3 workers" in str(place.option("bank@12").label)


def test_a_black_depot_tile_s_line_wears_its_number_s_keycap():
    """The die panel's buy lines (folded: "Buy Bank from the black depot for 2 silverlings")
    each wear the keycap of the tile's number (`mark`, 1, 2, … in the black depot's order),
    the number the picture writes on the tile: the line names the tile, not only its kind."""
    from meeple_hall.bot.panels import line_styles, panel_lines

    state = table()
    setup_player(state, dice=(3, 3), silver=2)
    lines = panel_lines(engine, state, 0, engine.decisions(state)[0], presenter.FOLDED)
    styles = line_styles("burgundy", lines, "en")
    bought = [v for v in styles if v.startswith("buy>")]
    faces = [tile(t).face for t in state.black if t >= 0]
    assert bought == [f"buy>{face}" for face in faces]
    numbers = {face: n for n, face in enumerate(dict.fromkeys(faces), 1)}
    for value in bought:
        face = value.removeprefix("buy>")
        assert styles[value].emoji == presenters.KEYCAPS[numbers[face] - 1], value


def test_a_die_line_too_long_for_a_menu_moves_the_die_s_words_to_its_description():
    """Discord cuts a menu line at 100 characters: the move keeps the label, the die (as
    turned, and what that cost) goes to the description rather than being cut off."""
    die = Option("2+1", m("label.die_as", die=2, value=3, paying=m("label.free_step")), {})
    long_sale = "Sell pink 3 goods (2 tiles: 6 points, 1 silverling), paying 1 worker " + "x" * 20
    sale = Option("sell", long_sale, {"action": "sell", "goods": 3})
    steps = (Decision(0, "die", "", (die,)), Decision(0, "action", "", (sale,)))
    style = presenter.chain_style(steps, (die, sale))
    assert style.label == long_sale and style.description == die.label
    short = Option("workers", "Take 2 workers", {"action": "workers"})
    style = presenter.chain_style(steps, (die, short))
    assert str(style.label) == "Die 2 as 3 (free: knowledge tile): Take 2 workers"


def test_a_folded_take_says_its_own_worker_cost_as_the_action_did():
    """A take dearer than the die's label said (knowledge tiles 9-12 make other uses
    cheaper) says its own cost; the folded line keeps it, as it keeps a full storage."""
    for seed in range(40):
        found = dearer_take(seed)
        if found:
            break
    assert found, "no take dearer than its die in 40 random games"
    steps, (action, chosen) = found
    style = presenter.chain_style(steps, (action, chosen))
    for lang in LANGUAGES:
        assert render(lang, style.label, strict=True)
    label = str(style.label)
    workers = action.fields["workers"]
    assert f"paying {workers} worker" in label, label
    assert label.startswith(f"Take {chosen.label} from depot {action.fields['depot']}"), label


def dearer_take(seed: int):
    rng = random.Random(seed)
    state = engine.new(2, seed=seed)
    while engine.decisions(state):
        pending = engine.decisions(state)[0]
        take = pending.option("take") if pending.kind == "action" else None
        if take is not None and "workers" in take.fields:
            after = engine.apply(state, Action(pending.seat, ("take",)))
            following = engine.decisions(after)[0]
            return (pending, following), (take, following.options[0])
        state = engine.apply(state, Action(pending.seat, random_choices(pending, rng)))
    return None


# -- the secrets and the rules ------------------------------------------------------------------
def test_private_text_shows_the_seat_and_its_sold_goods():
    views, _ = playout(2, seed=3, stops={100})
    spectator, mine = views[0]
    text = render("en", presenter.private_text(mine))
    assert "Seat 1" in text and "Sold" in text and "Storage" in text
    assert render("en", presenter.private_text(spectator)) == "You are watching."
    assert "存放區" in render("zh-TW", presenter.private_text(mine))
    assert render("ja", presenter.private_text(mine), strict=True)


def test_private_text_strikes_through_a_used_die():
    """The panel repeats the seat's dice under every prompt of its turn: a die already used
    must not read as still free."""
    state = table()
    setup_player(state, dice=(5, 2))
    state = play(state, "5", "workers")
    text = render("en", presenter.private_text(engine.view(state, 0)))
    assert "Dice: ~~5~~ 2 ·" in text


def test_rules_text_is_short_and_lists_what_is_reconstructed():
    text = render("en", presenter.rules_text())
    assert all(len(render(lang, presenter.rules_text())) < 1500 for lang in LANGUAGES)
    assert "tiebreak" in text and "board 1" in text and "Reconstructed" in text
