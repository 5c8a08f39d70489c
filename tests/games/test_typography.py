"""Every catalogue text as a native reader expects to see it (issue 25, items 3 and 5): bold
that CommonMark (and Discord) shows as bold, no space between two Chinese or Japanese
characters, and full-width punctuation inside Chinese and Japanese text. Checked on every
entry of the game catalogues (`data/*/i18n/`) and of the bot's (`bot/locales/`), and on
the texts the four games show in two played games, rendered in 繁體中文 and 日本語 with the
fields the games really give (a template's own spaces beside a field only show there)."""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from pathlib import Path

import pytest
from markdown_it import MarkdownIt

from meeple_hall.games.core.catalogues import LANGUAGES, catalogue, render
from tests.games.shown_texts import shown_messages

ROOT = Path(__file__).resolve().parents[2]
NAMESPACES = ("core", "burgundy", "coffee", "keyflower", "village")
REAL_GAMES = ("burgundy", "coffee", "keyflower", "village")
CJK_LANGUAGES = ("zh-TW", "ja")

# Ideographs and kana: the characters between which no space belongs.
CJK_LETTER = r"\u3041-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff"
# Full-width punctuation and symbols (、。「」（）：？ and the rest).
CJK_MARK = r"\u3000-\u303f\uff01-\uff0f\uff1a-\uff20\uff3b-\uff40\uff5b-\uff65"
CJK = f"[{CJK_LETTER}{CJK_MARK}]"
SPACED = re.compile(rf"{CJK} +{CJK}")
HALF_WIDTH = re.compile(rf"(?<=[{CJK_LETTER}])[(),:;?!]|[(),:;?!](?=[{CJK_LETTER}])")
CODE = re.compile(r"`[^`]*`")
FIELD = re.compile(r"\{[A-Za-z_][A-Za-z0-9_]*\}")
COMMONMARK = MarkdownIt("commonmark")


def entries(lang: str) -> Iterator[tuple[str, str]]:
    """Every text of every catalogue in one language: (where, text)."""
    for namespace in NAMESPACES:
        for key, entry in catalogue(namespace, lang).items():
            forms = [entry] if isinstance(entry, str) else list(entry.values())
            for form in forms:
                yield key, form
    bot = json.loads((ROOT / "bot" / "locales" / f"{lang}.json").read_text(encoding="utf-8"))
    for key, text in bot.items():
        yield f"bot {key}", text


def filled(template: str, lang: str) -> str:
    """A template with each field given a word, as a reader sees it."""
    return FIELD.sub("字" if lang in CJK_LANGUAGES else "word", template)


def stray_asterisks(text: str) -> bool:
    """Whether CommonMark leaves `**` standing where bold was meant."""
    shown = re.sub(r"<code>.*?</code>", "", COMMONMARK.render(text), flags=re.S)
    return "**" in shown


def spaced_words(text: str) -> list[str]:
    """Spaces between two CJK characters (code spans aside)."""
    return SPACED.findall(CODE.sub("`x`", text))


def half_width_marks(text: str) -> list[str]:
    """ASCII ( ) : ; ? ! , touching a Chinese or Japanese character (code spans and fields
    aside: `bid S07`, `{seat}`)."""
    plain = FIELD.sub("x", CODE.sub("`x`", text))
    return [plain[max(0, m.start() - 3) : m.end() + 3] for m in HALF_WIDTH.finditer(plain)]


@pytest.mark.parametrize("lang", LANGUAGES)
def test_bold_is_bold_in_commonmark(lang: str) -> None:
    bad = [
        f"{where}: {text!r}" for where, text in entries(lang) if stray_asterisks(filled(text, lang))
    ]
    assert bad == []


@pytest.mark.parametrize("lang", CJK_LANGUAGES)
def test_no_space_between_cjk_words_in_the_catalogues(lang: str) -> None:
    bad = [f"{where}: {found}" for where, text in entries(lang) if (found := spaced_words(text))]
    assert bad == []


@pytest.mark.parametrize("lang", CJK_LANGUAGES)
def test_full_width_punctuation_in_the_catalogues(lang: str) -> None:
    bad = [
        f"{where}: {found}" for where, text in entries(lang) if (found := half_width_marks(text))
    ]
    assert bad == []


@pytest.mark.parametrize("game_id", REAL_GAMES)
@pytest.mark.parametrize("lang", CJK_LANGUAGES)
def test_what_a_played_game_shows_is_spaced_and_punctuated_natively(
    game_id: str, lang: str
) -> None:
    bad = {}
    for message in shown_messages(game_id):
        text = render(lang, message, strict=True)
        if spaced_words(text) or half_width_marks(text) or stray_asterisks(text):
            bad.setdefault(message.key, text)
    assert bad == {}


def test_the_checks_find_what_the_issue_found() -> None:
    assert stray_asterisks(filled("**輪到你：**{prompt}", "zh-TW"))
    assert stray_asterisks(filled("**あなたの手番：**{prompt}", "ja"))
    assert not stray_asterisks(filled("**輪到你**：{prompt}", "zh-TW"))
    assert not stray_asterisks("`**` in code")
    assert spaced_words("把瞭望塔 放到 建築 3") == ["塔 放", "到 建"]
    assert spaced_words("輪到 2 號玩家：用 `/悔棋 x` 或 Alice 的") == []
    assert half_width_marks("安德烈的圖板(自動玩家)") == ["的圖板(自動玩", "動玩家)"]
    assert half_width_marks("輸入 `bid S07 red 2`，或 {seat}:") == []
    assert half_width_marks("並列第一：(10 + 6) / 2 = 各 8 分") == []
