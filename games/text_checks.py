"""Checks for a game's words (games/core/catalogues.py), run by `check_conformance`.

A game is converted when its catalogue exists in every language (`data/<game>/i18n/`).
Then every prompt, option label, game option, log event and score category it shows must be
a message of its catalogue that renders in English, 繁體中文 and 日本語 with no key or field
missing; option labels fit Discord's 80 characters and differ within a decision in every
language. A game not yet converted is left alone (its plain English text is shown as is).
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from meeple_hall.games.core.catalogues import (
    LANGUAGES,
    catalogue,
    catalogue_problems,
    converted,
    render,
    score_category,
)
from meeple_hall.games.core.contract import Decision, Engine, Result
from meeple_hall.games.core.messages import Msg, from_json, keys_in

LABEL_MAX = 80  # a Discord button or select option label
DESCRIPTION_MAX = 100  # a select option description


def check_catalogues(game_id: str) -> None:
    """Every key in every language, with the same fields as English."""
    problems = catalogue_problems(game_id) + catalogue_problems("core")
    assert not problems, "\n".join(problems)


def rendered(text: Any) -> dict[str, str]:
    """A text in every language, strictly (a missing key or field raises)."""
    return {lang: render(lang, text, strict=True) for lang in LANGUAGES}


def check_message(text: Any, game_id: str, what: str) -> dict[str, str]:
    text = from_json(text)
    assert isinstance(text, Msg), f"{what} is plain text, not a message: {text!r}"
    for key in keys_in(text):
        assert key.split(".", 1)[0] in (game_id, "core"), f"{what} uses another game's {key}"
    return rendered(text)


def check_label(text: Any, game_id: str, what: str, limit: int = LABEL_MAX) -> dict[str, str]:
    shown = check_message(text, game_id, what)
    for lang, words in shown.items():
        assert 0 < len(words) <= limit, f"{what} in {lang} is {len(words)} characters: {words}"
    return shown


def check_decision_texts(game_id: str, decision: Decision) -> None:
    check_message(decision.prompt, game_id, f"the prompt of {decision.kind}")
    seen: dict[str, set[str]] = {lang: set() for lang in LANGUAGES}
    for option in decision.options:
        shown = check_label(option.label, game_id, f"{decision.kind} option {option.id}")
        for lang, words in shown.items():
            assert words not in seen[lang], f"two {decision.kind} options read {words!r} ({lang})"
            seen[lang].add(words)


def check_texts(engine: Engine, state: Any, num_players: int) -> None:
    """The words of one position of a converted game (nothing for other games)."""
    if not converted(engine.id):
        return
    for decision in engine.decisions(state):
        check_decision_texts(engine.id, decision)
    view = engine.view(state, None)
    for event in view.get("log") or []:
        check_message(event, engine.id, "a log event")
    if "status" in view:
        check_message(view["status"], engine.id, "the status line")


def check_game_texts(engine: Engine) -> None:
    """A converted game's name, options and catalogues."""
    if not converted(engine.id):
        return
    check_catalogues(engine.id)
    check_message(Msg(f"{engine.id}.name"), engine.id, "the game's name")
    for spec in engine.options:
        check_label(spec.label, engine.id, f"option {spec.id}")
        if spec.description:
            check_label(spec.description, engine.id, f"option {spec.id}", DESCRIPTION_MAX)
        for choice in spec.choices:
            check_label(choice.label, engine.id, f"option {spec.id}={choice.id}")


def check_result_texts(game_id: str, result: Result) -> None:
    if not converted(game_id):
        return
    for parts in result.breakdown:
        for category in parts:
            name = score_category(game_id, category)
            check_message(name, game_id, f"score category {category!r}")


def unused_keys(game_id: str, sources: Iterable[Path]) -> list[str]:
    """Catalogue keys no source file names: neither quoted whole (`"log.takes"`) nor as a
    family built at run time (`f"effect.k{...}"` covers `effect.k1`..`effect.k26`, and
    `f"tile.{face}"` every `tile.*`); `score.goods_sold` is named by the breakdown
    category `"goods sold"`."""
    text = "\n".join(Path(p).read_text(encoding="utf-8") for p in sources)
    families = {match.group(1) for match in re.finditer(r"""f["']([A-Za-z0-9_.:]+)\{""", text)}
    unused = []
    for key in catalogue(game_id, "en"):
        short = key.split(".", 1)[1]
        if f'"{short}"' in text or f"'{short}'" in text or f'"{key}"' in text:
            continue
        if short == "name":  # the game's name (catalogues.game_name)
            continue
        raw = short.removeprefix("score.")
        category = raw.replace("_", " ")
        named = (f'"{category}"', f'"{category}:', f'"{raw}"')
        if short.startswith("score.") and any(n in text for n in named):
            continue  # a breakdown category (catalogues.score_category), spaces or underscores
        if any(short.startswith(prefix) for prefix in families):
            continue
        unused.append(key)
    return unused
