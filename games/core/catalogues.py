"""Catalogues: every word of a game in English, 繁體中文 and 日本語, and messages rendered
from them in a reader's language.

A message key's first part names its catalogue: `burgundy.log.takes` is looked up in
`data/burgundy/i18n/<language>.toml` (read through importlib.resources), `core.*` in
`data/core/i18n/`. A catalogue is TOML: tables nest keys (`[log]` then `takes = "..."` is
`log.takes`), an entry is a `str.format` template with named fields, and an entry that varies
with a count is a table `{ one = "...", other = "..." }` chosen by the field `n`.

A catalogue is complete when a game is converted; then a missing key is a bug that the tests
catch (`strict=True` raises). At run time a missing entry falls back to English, then to the
key itself, so a player always reads something. Plain strings (a game not yet converted)
are shown as they are.
"""

from __future__ import annotations

import logging
import string
import tomllib
from functools import cache
from typing import Any

from meeple_hall.games.core.messages import Msg, from_json
from meeple_hall.games.core.resources import game_data
from meeple_hall.games.core.spacing import fill

log = logging.getLogger(__name__)

LANGUAGES = ("en", "zh-TW", "ja")
DEFAULT = "en"
PLURAL_FORMS = frozenset({"one", "other"})
# Discord locale codes (and our own) that read one of our catalogues.
_ALIASES = {"en": "en", "en-US": "en", "en-GB": "en", "zh-TW": "zh-TW", "ja": "ja"}

Entry = str | dict[str, str]


class MissingMessage(KeyError):
    """A key (or a field of its template) that a converted catalogue lacks."""


def language(locale: Any) -> str:
    """One of LANGUAGES for a locale code (`en-US`, `zh-TW`, a `discord.Locale`, None)."""
    code = getattr(locale, "value", locale) or DEFAULT
    return _ALIASES.get(str(code), DEFAULT)


@cache
def catalogue(namespace: str, lang: str) -> dict[str, Entry]:
    """The flattened catalogue of one namespace in one language (empty if it has none)."""
    path = game_data(namespace) / "i18n" / f"{lang}.toml"
    if not path.is_file():
        return {}
    with path.open("rb") as f:
        raw = tomllib.load(f)
    out: dict[str, Entry] = {}
    _flatten(raw, namespace, out)
    return out


def _flatten(table: dict[str, Any], prefix: str, out: dict[str, Entry]) -> None:
    for name, value in table.items():
        key = f"{prefix}.{name}"
        if isinstance(value, dict) and value and set(value) <= PLURAL_FORMS:
            out[key] = {k: str(v) for k, v in value.items()}
        elif isinstance(value, dict):
            _flatten(value, key, out)
        elif isinstance(value, str):
            out[key] = value
        else:
            raise ValueError(f"{key}: an entry is text or a {{one, other}} table")


def converted(namespace: str) -> bool:
    """Whether a namespace has its catalogue in every language."""
    return all(catalogue(namespace, lang) for lang in LANGUAGES)


def entry(lang: str, key: str, *, strict: bool = False) -> Entry | None:
    namespace = key.split(".", 1)[0]
    found = catalogue(namespace, lang).get(key)
    if found is not None:
        return found
    if strict:
        raise MissingMessage(f"{key} is not in the {lang} catalogue")
    if lang != DEFAULT:
        if converted(namespace):
            log.warning("%s is missing from the %s catalogue", key, lang)
        return catalogue(namespace, DEFAULT).get(key)
    return None


_PLAIN = frozenset({str, int})


def render(locale: Any, value: Any, *, strict: bool = False) -> str:
    """A text in the locale's language: a `Msg` (or its JSON form) from the catalogues,
    a plain string as it is, a list joined as the language joins lists, None as ""."""
    if type(value) in _PLAIN:  # most of a message's parameters: nothing to look up
        return str(value)
    lang = language(locale)
    value = from_json(value)
    if value is None:
        return ""
    if isinstance(value, Msg):
        return _render_msg(lang, value, strict)
    if isinstance(value, list | tuple):
        sep = entry(lang, "core.list_separator", strict=strict) or ", "
        return str(sep).join(render(lang, v, strict=strict) for v in value)
    return str(value)


# Messages rendered, by language. A panel renders the same names and labels for many of its
# lines (and in every language, where a presenter checks a label's length), and again on the
# next move; a message never changes, nor does a catalogue once read. Emptied when full.
_RENDERED: dict[tuple[str, Msg], str] = {}
_RENDERED_MAX = 20_000


def _render_msg(lang: str, message: Msg, strict: bool) -> str:
    if strict:  # a test's check: every entry looked up
        return _render_fresh(lang, message, strict)
    key = (lang, message)
    text = _RENDERED.get(key)
    if text is None:
        if len(_RENDERED) >= _RENDERED_MAX:
            _RENDERED.clear()
        text = _RENDERED[key] = _render_fresh(lang, message, strict)
    return text


def _render_fresh(lang: str, message: Msg, strict: bool) -> str:
    found = entry(lang, message.key, strict=strict)
    args = message.args
    if found is None:
        if not args:
            return message.key
        return f"{message.key}(" + ", ".join(f"{k}={v}" for k, v in args.items()) + ")"
    template = choose_form(found, args.get("n"))
    fields = {k: render(lang, v, strict=strict) for k, v in args.items()}
    try:
        return fill(lang, template, fields)
    except (KeyError, IndexError, ValueError) as exc:
        if strict:
            raise MissingMessage(f"{message.key} ({lang}): {exc!r}") from exc
        log.warning("cannot format %s in %s: %r", message.key, lang, exc)
        return template


def choose_form(found: Entry, n: Any) -> str:
    if isinstance(found, str):
        return found
    if n == 1 and "one" in found:
        return found["one"]
    return found.get("other") or next(iter(found.values()))


# -- checks for the tests ----------------------------------------------------------------
def placeholders(found: Entry) -> set[str]:
    """The named fields of an entry (all its plural forms together)."""
    forms = [found] if isinstance(found, str) else list(found.values())
    names: set[str] = set()
    for form in forms:
        for _, field, _, _ in string.Formatter().parse(form):
            if field is not None:
                names.add(field)
    return names


def catalogue_problems(namespace: str) -> list[str]:
    """Keys missing from a language, placeholders that differ from English, bad templates."""
    problems = []
    books = {lang: catalogue(namespace, lang) for lang in LANGUAGES}
    every = set().union(*books.values())
    for lang, book in books.items():
        for key in sorted(every - set(book)):
            problems.append(f"{key} is missing in {lang}")
    english = books[DEFAULT]
    for lang, book in books.items():
        for key, found in sorted(book.items()):
            try:
                names = placeholders(found)
            except ValueError as exc:
                problems.append(f"{key} ({lang}) is not a template: {exc}")
                continue
            if any(not n.isidentifier() for n in names):
                problems.append(f"{key} ({lang}) has a field that is not a name: {names}")
            wanted = placeholders(english[key]) if key in english else names
            if key in english and isinstance(english[key], dict):
                # `n` chooses the English form; a language without plurals may leave it out.
                names, wanted = names - {"n"}, wanted - {"n"}
            if key in english and names != wanted:
                problems.append(
                    f"{key}: {lang} has fields {sorted(names)}, English {sorted(wanted)}"
                )
            if isinstance(found, dict) and "other" not in found:
                problems.append(f"{key} ({lang}) has no 'other' form")
    return problems


def game_name(game_id: str, fallback: str) -> Msg | str:
    """A game's name as its catalogue gives it (`<game>.name`), else the engine's own."""
    return (
        Msg(f"{game_id}.name") if catalogue(game_id, DEFAULT).get(f"{game_id}.name") else fallback
    )


def _score_key(game_id: str, category: str) -> str:
    return f"{game_id}.score.{category.replace(' ', '_')}"


def score_category(game_id: str, category: str) -> Msg | str:
    """A result's breakdown category (a plain id such as `goods sold`) as its catalogue names
    it (`<game>.score.goods_sold`), else the id itself."""
    key = _score_key(game_id, category)
    return Msg(key) if key in catalogue(game_id, DEFAULT) else category


def in_score_order(game_id: str, breakdown: dict[str, int]) -> list[tuple[str, int]]:
    """A breakdown's categories in the order the game's catalogue lists them (the rulebook's
    scoring order), whatever order a store kept them in (JSON objects and PostgreSQL's jsonb
    do not keep one); categories the catalogue lacks come last, as they were."""
    keys = list(catalogue(game_id, DEFAULT))
    place = {key: i for i, key in enumerate(keys)}
    return sorted(
        breakdown.items(), key=lambda kv: place.get(_score_key(game_id, kv[0]), len(keys))
    )
