"""zh-TW's one spacing rule, applied where a template is filled (games/core/spacing.py): a
space between a Chinese character and a half-width letter or digit, never doubled, never
inside what is not prose or inside a value filled in; Japanese and English as written."""

from __future__ import annotations

import pytest

from meeple_hall.bot.i18n import t
from meeple_hall.games.core.catalogues import render
from meeple_hall.games.core.messages import Msg
from meeple_hall.games.core.spacing import fill, space


@pytest.mark.parametrize(
    ("text", "shown"),
    [
        ("第1輪", "第 1 輪"),
        ("2號玩家", "2 號玩家"),
        ("Alice的回合", "Alice 的回合"),
        ("由AI代打", "由 AI 代打"),
        ("José說", "José 說"),
        ("#1回到農場", "#1 回到農場"),
        ("卡拉的#2過世", "卡拉的 #2 過世"),
        ("棕色6 ×2", "棕色 6 ×2"),
    ],
)
def test_a_letter_or_digit_and_a_chinese_character_are_spaced(text: str, shown: str) -> None:
    assert space(text) == shown


@pytest.mark.parametrize(
    "text",
    [
        "第 1 輪",  # spaced already: never doubled
        "骰子：1（第 3 排）",  # full-width punctuation takes no space
        "回合順序",  # Chinese beside Chinese
        "Player 2",
        "",
    ],
)
def test_what_is_spaced_already_or_needs_none_stays(text: str) -> None:
    assert space(text) == text


@pytest.mark.parametrize(
    "text",
    [
        "<@123>的回合",
        "<@!123>、<#456>和<@&789>",
        "<t:1700000000:R>截止",
        "得到<:coffee_bean:1234>咖啡",
        "用`/new game:keyflower`開桌",
        "`x中1`",
        "```\n第1輪\n```",
        "</rules:42>",
    ],
)
def test_code_mentions_timestamps_and_emoji_are_left_alone(text: str) -> None:
    assert space(text) == text


def test_a_link_is_left_whole_and_spaced_from_what_follows() -> None:
    assert space("見https://example.com/a1b2號") == "見 https://example.com/a1b2 號"


@pytest.mark.parametrize(
    ("text", "shown"),
    [
        ("**Alice**已取消", "**Alice** 已取消"),
        ("得到**2**金幣", "得到 **2** 金幣"),
        ("Alice**的回合**", "Alice **的回合**"),
        ("選了**Take 2**；", "選了 **Take 2**；"),
        ("||Bob||說", "||Bob|| 說"),
    ],
)
def test_the_space_goes_outside_bold_and_spoilers(text: str, shown: str) -> None:
    assert space(text) == shown


def test_a_value_filled_in_is_spaced_where_it_meets_the_template_never_inside() -> None:
    template = "{user}已經行動過了：{rest}"
    fields = {"user": "阿明123", "rest": "B2區"}
    assert fill("zh-TW", template, fields) == "阿明123 已經行動過了：B2區"
    assert fill("zh-TW", "{a}{b}", {"a": "Bob", "b": "說話"}) == "Bob 說話"


@pytest.mark.parametrize("lang", ["en", "ja"])
def test_japanese_and_english_are_filled_as_written(lang: str) -> None:
    template = "{user}の手番：2枚"
    assert fill(lang, template, {"user": "Alice"}) == "Aliceの手番：2枚"


def test_a_missing_field_raises_as_format_does() -> None:
    with pytest.raises(KeyError):
        fill("zh-TW", "{seat}拿{n}元", {"seat": "x"})


def test_the_bot_and_the_games_render_zh_tw_by_the_rule() -> None:
    assert t("zh-TW", "tournament.has_played", user="Alice").startswith("Alice 已經行動過了")
    assert t("zh-TW", "tournament.has_played", user="<@42>").startswith("<@42>已經行動過了")
    assert t("zh-TW", "review.phase", phase="A") == "A 階段"
    assert t("zh-TW", "export.played_by_ai") == "由 AI 代打至終局"
    assert render("zh-TW", Msg("burgundy.count.workers", n=3)) == "3 個工人"
    assert render("zh-TW", Msg("coffee.label.coins")) == "拿 2 元"
    # Japanese keeps its catalogue's tight numbers.
    assert render("ja", Msg("burgundy.count.workers", n=3)) == "労働者3人"
