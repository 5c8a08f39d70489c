"""Spacing between Chinese and half-width letters or digits: one rule, applied where a
template is filled, so that no template need be written around it.

繁體中文 puts a space between a Chinese character and a half-width letter or digit on either
side (`第 1 輪`, `2 號玩家`, `Alice 的回合`), as the bot's own zh-TW strings, Keyflower's and
Village's do (and Coffee Traders' and Burgundy's now read, through this rule, where their
templates wrote `1個`). Japanese does not: the four games' ja words and Keyflower's ja
rulebook put no space (`労働者3人`, `コイン1枚`; the bot's own ja strings space some Latin
words and numbers by hand, `AI が`, and keep them), so `ja` and English are filled as
`str.format` fills them.

The rule never doubles a space (it only separates characters that touch), never puts one
between two Chinese characters or beside full-width punctuation (`：`, `（`), and leaves alone
what is not prose: code spans (`/new game:keyflower`), Discord's tokens (`<@123>`,
`<t:1700000000:R>`, `<:coffee:123>`) and links. Bold, italics, strike and spoilers (`**`,
`*`, `__`, `~~`, `||`) are looked through: the space goes outside the span, before a marker
that opens one and after a marker that closes one (`**Alice** 的`, `得到 **2**`), so
CommonMark still shows it bold.

A field's value is spaced where it meets the template, never inside: a message field is
already spaced by its own template, and plain text (a player's or a tournament's name, text
rendered before) is shown as it was written.
"""

from __future__ import annotations

import re
import string
from collections.abc import Mapping, Sequence
from functools import cache

# Languages whose filled templates follow the rule.
SPACED_LANGUAGES = frozenset({"zh-TW"})

# Han ideographs (with extension A, compatibility ideographs and the supplementary planes),
# bopomofo, and kana (a Japanese word quoted in Chinese text).
_CJK = (
    "\u3041-\u30ff\u3105-\u312f\u31a0-\u31bf\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff"
    "\U00020000-\U0003134f"
)
# Half-width letters and digits, and Latin letters with accents (José, Zoë): × and ÷ are not.
# A number sign before a digit (`#1`, a villager's generation) starts a word as a digit does.
_ALNUM = "0-9A-Za-z\u00c0-\u00d6\u00d8-\u00f6\u00f8-\u024f"
# Markdown's emphasis and Discord's spoiler and underline markers, as runs.
_MARKER = r"\*{1,3}|__|~~|\|\|"
# What is not prose: code blocks and spans, Discord's mentions, channels, roles, custom
# emoji, timestamps and command mentions, and links.
_KEPT = (
    r"```.*?```|`[^`\n]*`"
    r"|<(?:@[!&]?\d+|#\d+|a?:\w+:\d+|t:-?\d+(?::[tTdDfFR])?|/[^<>\n]+:\d+)>"
    r"|https?://[!-~]+"
)
_KEPT_RE = re.compile(_KEPT, re.S)
# Any place the rule may space (most filled templates have none: they are checked at C speed).
_TOUCHING = re.compile(
    rf"[{_ALNUM}](?:{_MARKER})?[{_CJK}]|[{_CJK}](?:{_MARKER})?(?:[{_ALNUM}]|#\d)"
)
# The rule where the text holds no marker, code, token or link (most texts): spaces put in
# by the regular expression engine alone.
_PLAIN_RULE = re.compile(rf"(?<=[{_ALNUM}])(?=[{_CJK}])|(?<=[{_CJK}])(?=[{_ALNUM}]|#\d)")
_NOT_PLAIN = re.compile(r"[`<*_~|]|://")
_RULE = re.compile(
    rf"(?<=[{_ALNUM}])(?P<after_alnum>{_MARKER})?(?=[{_CJK}])"
    rf"|(?<=[{_CJK}])(?P<before_alnum>{_MARKER})?(?=[{_ALNUM}]|#\d)"
    # Last: a space may go before a link (tried first at its position), never inside one.
    rf"|(?P<kept>{_KEPT})",
    re.S,
)


def space(text: str, fields: Sequence[tuple[int, int]] = ()) -> str:
    """`text` with a space wherever a half-width letter or digit touches a Chinese character
    (through emphasis markers), except inside the spans `fields` ((start, end) offsets of
    values filled in, whose own text is kept as it is) and what is not prose."""
    if not fields and not _NOT_PLAIN.search(text):
        return _PLAIN_RULE.sub(" ", text)

    def one(match: re.Match[str]) -> str:
        found = match.group(0)
        if match.lastgroup == "kept":
            return found
        if not found:  # letter or digit touching a character: one space between
            return " " if _outside(match.start(), fields) else ""
        at = match.start() if _opens(text, match) else match.end()
        if not _outside(at, fields):
            return found
        return " " + found if at == match.start() else found + " "

    return _RULE.sub(one, text)


def _outside(at: int, fields: Sequence[tuple[int, int]]) -> bool:
    return not any(start < at < end for start, end in fields)


def _opens(text: str, match: re.Match[str]) -> bool:
    """Whether a marker run opens its span: the same run seen an even number of times before
    it (code and the like aside)."""
    marker = match.group(0)
    before = _KEPT_RE.sub("", text[: match.start()])
    runs = re.findall(r"\*+|_+|~+|\|+", before)
    return runs.count(marker) % 2 == 0


@cache
def _pieces(template: str) -> tuple[tuple[str, str | None], ...] | None:
    """A template's text and the fields between, or None where a field is not a plain name
    (a format spec, a conversion, a position: left to `str.format`)."""
    pieces = []
    for literal, field, spec, conversion in string.Formatter().parse(template):
        if field is not None and (spec or conversion or not field.isidentifier()):
            return None
        pieces.append((literal, field))
    return tuple(pieces)


@cache
def spaced(lang: str, text: str) -> str:
    """A text with no fields (a catalogue's entry as it is) in the language's spacing."""
    return space(text) if lang in SPACED_LANGUAGES and _TOUCHING.search(text) else text


def fill(lang: str, template: str, fields: Mapping[str, object]) -> str:
    """`template.format(**fields)`, spaced by the rule in a language that follows it. Raises
    what `str.format` raises for a field the template names and `fields` lacks."""
    text = template.format(**fields)
    if lang not in SPACED_LANGUAGES or not _TOUCHING.search(text):
        return text
    if not any(_inner(fields[name]) for name in fields):
        return space(text)  # no value the rule would space inside: its spans do not matter
    pieces = _pieces(template)
    if pieces is None:
        return space(text)
    parts: list[str] = []
    spans: list[tuple[int, int]] = []
    at = 0
    for literal, field in pieces:
        parts.append(literal)
        at += len(literal)
        if field is None:
            continue
        value = format(fields[field])
        parts.append(value)
        spans.append((at, at + len(value)))
        at += len(value)
    return space("".join(parts), spans)


def _inner(value: object) -> bool:
    """Whether the rule could space inside a value, or at a marker on its edge."""
    text = format(value)
    return bool(_TOUCHING.search(text)) or text[:1] in _MARKS or text[-1:] in _MARKS


_MARKS = frozenset("*_~|")
