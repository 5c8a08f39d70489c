"""Every catalogue says what its glossary says (issue 25, items 2 and 5). Each glossary
(`data/<game>/glossary.md`, and `data/core/glossary.md` for the words every game shares)
ends with a "Not used" table: a word a catalogue once used (or a likely wrong variant) in one
language, the glossary's term instead, and where it is checked. No text there may match
the row's pattern."""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from fnmatch import fnmatchcase
from pathlib import Path

import pytest

from meeple_hall.games.core.catalogues import LANGUAGES, catalogue

ROOT = Path(__file__).resolve().parents[2]
NAMESPACES = ("core", "burgundy", "coffee", "keyflower", "village")
CELL = re.compile(r"(?<!\\)\|")


@dataclass(frozen=True)
class Refused:
    namespace: str
    language: str
    pattern: re.Pattern[str]
    instead: str
    where: tuple[str, ...]  # "catalogue", "every catalogue", "bot" or bot keys (fnmatch)


def cells(line: str) -> list[str]:
    return [cell.strip().replace("\\|", "|") for cell in CELL.split(line.strip())[1:-1]]


def refused(namespace: str) -> list[Refused]:
    """The rows of a glossary's "Not used" table."""
    text = (ROOT / "data" / namespace / "glossary.md").read_text(encoding="utf-8")
    section = text.split("\n## Not used\n", 1)[1]
    rows = [cells(line) for line in section.splitlines() if line.startswith("|")]
    assert rows[0] == ["language", "not", "instead", "checked in"], rows[0]
    found = []
    for language, pattern, instead, where in rows[2:]:
        assert language in LANGUAGES and pattern.startswith("`") and pattern.endswith("`")
        places = tuple(place.strip() for place in where.split(","))
        found.append(Refused(namespace, language, re.compile(pattern[1:-1]), instead, places))
    return found


def bot_texts(language: str) -> dict[str, str]:
    path = ROOT / "bot" / "locales" / f"{language}.json"
    return json.loads(path.read_text(encoding="utf-8"))


def catalogue_texts(namespace: str, language: str) -> dict[str, str]:
    out = {}
    for key, entry in catalogue(namespace, language).items():
        forms = {"": entry} if isinstance(entry, str) else entry
        for form, text in forms.items():
            out[f"{key}{'.' + form if form else ''}"] = text
    return out


def texts_checked(row: Refused, bot: dict[str, str]) -> dict[str, str]:
    """The texts a row is checked in, by key; a bot key the row names must exist."""
    out: dict[str, str] = {}
    for place in row.where:
        if place == "catalogue":
            out |= catalogue_texts(row.namespace, row.language)
        elif place == "every catalogue":
            for namespace in NAMESPACES:
                out |= catalogue_texts(namespace, row.language)
        elif place == "bot":
            out |= {f"bot {key}": text for key, text in bot.items()}
        else:
            named = {f"bot {key}": text for key, text in bot.items() if fnmatchcase(key, place)}
            assert named, f"{row.namespace} glossary: no bot key {place}"
            out |= named
    return out


def uses(row: Refused, texts: dict[str, str]) -> list[str]:
    return [f"{key}: {text}" for key, text in texts.items() if row.pattern.search(text)]


@pytest.mark.parametrize("namespace", NAMESPACES)
def test_no_catalogue_uses_a_word_its_glossary_refuses(namespace: str) -> None:
    rows = refused(namespace)
    assert rows, f"{namespace}'s glossary refuses nothing"
    bots = {language: bot_texts(language) for language in LANGUAGES}
    bad = {}
    for row in rows:
        if found := uses(row, texts_checked(row, bots[row.language])):
            bad[f"{row.language} {row.pattern.pattern} (use {row.instead})"] = found
    assert bad == {}


def test_a_refused_word_is_found() -> None:
    rows = {(r.language, r.pattern.pattern): r for n in NAMESPACES for r in refused(n)}
    auction = rows["zh-TW", "拍賣"]
    assert uses(auction, {"focus.auction": "拍賣：板塊、回合順序與船"})
    seat = next(r for (lang, p), r in rows.items() if lang == "ja" and p.startswith("席"))
    assert uses(seat, {"focus.seat": "席 {n}：{name}"})
    assert not uses(seat, {"x": "あなたの席は AI が打ちます"})
    council = rows["ja", "(?<!評)議会"]
    assert uses(council, {"x": "議会"}) and not uses(council, {"x": "評議会"})
    assert uses(rows["zh-TW", "倉庫"], {"focus.depots": "倉庫"})
    depot = next(r for (lang, p), r in rows.items() if lang == "zh-TW" and "號倉庫" in p)
    assert uses(depot, {"x": "從 3 號倉庫拿板塊"}) and uses(depot, {"x": "黑色倉庫"})
    assert not uses(depot, {"tile.warehouse": "倉庫：不用骰子，賣出一種貨物"})
    with pytest.raises(AssertionError, match="no bot key"):
        texts_checked(Refused("x", "ja", re.compile("x"), "", ("focus.nothing",)), {})


def glossary_terms(namespace: str) -> dict[str, list[tuple[str, str]]]:
    """The zh-TW and ja terms of a glossary's tables (above "Not used") that are one plain
    word: no Latin letters or digits, no alternatives (/ , 、), no notes in parentheses."""
    text = (ROOT / "data" / namespace / "glossary.md").read_text(encoding="utf-8")
    terms: dict[str, list[tuple[str, str]]] = {"zh-TW": [], "ja": []}
    header: list[str] = []
    for line in text.split("\n## Not used\n", 1)[0].splitlines():
        if not line.startswith("|"):
            header = []
            continue
        row = cells(line)
        if not header:
            header = row
            continue
        if set(row[0]) <= set("-: ") or "zh-TW" not in header:
            continue
        for language in terms:
            term = row[header.index(language)]
            if re.fullmatch(r"[^\sA-Za-z0-9(（)）/／,、;；]+", term):
                terms[language].append((row[0], term))
    return terms


@pytest.mark.parametrize("namespace", NAMESPACES)
def test_every_glossary_term_is_the_one_its_catalogue_uses(namespace: str) -> None:
    terms = glossary_terms(namespace)
    assert len(terms["zh-TW"]) + len(terms["ja"]) >= 4, terms
    missing = []
    for language, rows in terms.items():
        texts = "\n".join(catalogue_texts(namespace, language).values())
        if namespace == "core":  # the words every game shares are the bot's too
            texts += "\n".join(bot_texts(language).values())
        missing += [f"{language} {what}: {term}" for what, term in rows if term not in texts]
    assert missing == []
