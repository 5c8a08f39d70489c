"""The rules at hand (issue 30, item 2), through the real bot: a decision panel's Rules button
answers with the rulebook's words for that decision, in the player's language; `/rules game:
topic:` shows a topic, refuses one the game does not have and autocompletes them; a forged or
misplaced Rules button is refused.

Every player chooses their language with `/settings language:` (SimCord sends every
interaction as en-US: the choice must win over it)."""

from __future__ import annotations

import copy

import pytest

from meeple_hall.bot import rulebook
from meeple_hall.bot.components import Components, button, select
from meeple_hall.bot.i18n import game_name, t
from tests.bot.conftest import (
    EVERY_GAME,
    LANGUAGES,
    REAL_GAMES,
    awaited_humans,
    click_as_it_was,
    raw_buttons,
    seated_member,
    start_game,
    stored_message,
    table_message,
)

every_game = pytest.mark.parametrize("game_id", EVERY_GAME)
real_games = pytest.mark.parametrize("game_id", REAL_GAMES)
languages = pytest.mark.parametrize("lang", LANGUAGES)


async def open_panel(table, game_id: str, lang: str):
    """A two-player game (Alice and Bob) whose first awaited player reads `lang`: that
    member, their seat's decision and the panel Take turn opened for them."""
    game = await start_game(table, table.bob, game=game_id)
    seat = awaited_humans(game)[0]
    member = seated_member(table, game, seat)
    await member.slash(table.channel, "settings", language=lang)
    opened = await member.click(table_message(table.channel), label="Take turn")
    assert opened.ephemeral
    return member, game.decision_for(seat), opened.response


def rules_button(panel) -> dict:
    found = [b for b in raw_buttons(panel) if b["custom_id"].startswith("k:")]
    assert len(found) == 1, raw_buttons(panel)
    return found[0]


@real_games
@languages
async def test_the_rules_button_shows_the_rule_behind_the_panels_decision(table, game_id, lang):
    member, decision, panel = await open_panel(table, game_id, lang)
    button = rules_button(panel)
    assert button["label"] == t(lang, "rulebook.button")
    topic = rulebook.topic_for_kind(game_id, decision.kind)
    assert topic is not None, f"{game_id}: no topic for {decision.kind!r}"

    answer = await member.click(panel, custom_id=button["custom_id"])

    assert answer.ephemeral
    shown = answer.response.content
    heading = shown.split("\n")[0]
    assert topic.section[lang] in heading and game_name(lang, game_id) in heading
    assert topic.text[lang] in shown
    assert (t(lang, "rulebook.translated") in shown) == (lang in topic.translated)


async def test_on_the_test_game_the_rules_button_says_it_has_no_topics(table):
    member, _, panel = await open_panel(table, "pebbles", "en")
    answer = await member.click(panel, custom_id=rules_button(panel)["custom_id"])
    assert answer.ephemeral
    assert t("en", "rulebook.no_topic_for_kind") in answer.response.content
    assert t("en", "rulebook.none", game=game_name("en", "pebbles")) in answer.response.content


@every_game
async def test_each_panel_through_a_turn_has_one_rules_button(table, game_id):
    """The first option of each panel the seat meets, while its turn lasts: every panel
    shows the Rules button once (beside Undo from the second panel on)."""
    member, _, panel = await open_panel(table, game_id, "en")
    for _ in range(6):
        rules_button(panel)
        options = [b for b in raw_buttons(panel) if ":o:" in b["custom_id"]]
        if not options:
            break
        answered = await member.click(panel, custom_id=options[0]["custom_id"])
        panel = answered.response
        if not [b for b in raw_buttons(panel) if b["custom_id"].startswith("k:")]:
            break  # the seat's turn is over: no panel now


@real_games
@languages
async def test_rules_with_a_topic_shows_it_and_refuses_a_topic_the_game_lacks(table, game_id, lang):
    await table.alice.slash(table.channel, "settings", language=lang)
    topic = rulebook.topics(game_id)[-1]

    shown = await table.alice.slash(table.channel, "rules", game=game_id, topic=topic.id)

    assert shown.ephemeral
    assert shown.response.content == rulebook.topic_text(topic, lang)
    by_name = await table.alice.slash(
        table.channel, "rules", game=game_id, topic=f" {topic.section[lang]} "
    )
    assert by_name.response.content == rulebook.topic_text(topic, lang)
    refused = await table.alice.slash(table.channel, "rules", game=game_id, topic="no_such")
    assert refused.ephemeral
    text = refused.response.content
    assert "no_such" in text and f"/rules game:{game_id} topic:" in text
    assert text == t(
        lang, "rulebook.bad_topic", game=game_name(lang, game_id), topic="no_such", id=game_id
    )


@real_games
@languages
async def test_rules_without_a_topic_lists_the_topics_after_the_games_options(table, game_id, lang):
    await table.alice.slash(table.channel, "settings", language=lang)
    before = len(table.channel.history())

    answer = await table.alice.slash(table.channel, "rules", game=game_id)

    # say_all answers a long text in several ephemeral messages: the list ends the last one
    pieces = [answer.response, *answer.followups]
    assert all(piece.ephemeral for piece in pieces)
    shown = "\n".join(piece.content for piece in pieces)
    for topic in rulebook.topics(game_id):
        line = t(lang, "rulebook.topic_line", id=topic.id, section=topic.section[lang])
        assert line in shown
    assert pieces[-1].content.endswith(rulebook.topic_list(game_id, lang).split("\n")[-1])
    assert len(table.channel.history()) == before  # nothing posted in the channel


@real_games
@languages
async def test_topics_autocomplete_by_id_and_by_section_in_the_readers_language(
    table, game_id, lang
):
    await table.alice.slash(table.channel, "settings", language=lang)
    every = await table.alice.autocomplete(table.channel, "rules", "topic", "", game=game_id)
    assert [c["value"] for c in every] == [topic.id for topic in rulebook.topics(game_id)][:25]
    topic = rulebook.topics(game_id)[1]
    by_id = await table.alice.autocomplete(table.channel, "rules", "topic", topic.id, game=game_id)
    assert topic.id in [c["value"] for c in by_id]
    section = topic.section[lang]
    by_name = await table.alice.autocomplete(
        table.channel, "rules", "topic", section[:4], game=game_id
    )
    found = {c["value"]: c["name"] for c in by_name}
    assert topic.id in found and section in found[topic.id]


async def test_topics_autocomplete_nothing_before_a_game_is_chosen(table):
    found = await table.alice.autocomplete(table.channel, "rules", "topic", "")
    assert found == []


async def click_forged(table, member, channel, custom_id: str):
    """Click `custom_id` as a button on a copy of the newest message in `channel`, as
    Discord delivers a click someone made up (or on an old message)."""
    shown = copy.deepcopy(stored_message(table.env, channel.last_message))
    button = {"type": 2, "style": 2, "label": "forged", "custom_id": custom_id}
    shown.components = [{"type": 1, "components": [button]}]
    return await click_as_it_was(member, shown, custom_id)


@every_game
async def test_a_forged_or_misplaced_rules_button_is_refused(table, game_id):
    member, _, _ = await open_panel(table, game_id, "en")
    table_id = table.env.bot.manager.in_channel(table.channel.id).id

    def click(custom_id: str, channel=table.channel):
        return click_forged(table, member, channel, custom_id)

    gone = await click(f"k:{table_id + 999}:action")
    assert gone.ephemeral and gone.response.content == t("en", "game.over")
    too_big = await click(f"k:{2**64}:action")
    assert too_big.ephemeral and too_big.response.content == t("en", "component.unknown")
    unknown_kind = await click(f"k:{table_id}:no_such_kind")
    assert unknown_kind.ephemeral
    assert unknown_kind.response.content.startswith(t("en", "rulebook.no_topic_for_kind"))
    other = table.guild.create_text_channel("elsewhere")
    await table.alice.slash(other, "new", game=game_id)
    elsewhere = await click(f"k:{table_id}:action", channel=other)
    assert elsewhere.ephemeral and elsewhere.response.content == t("en", "component.elsewhere")


def panel_like(*rows: tuple[str, int]) -> Components:
    """A view shaped like a panel: (family, row) items, "button" or "menu"."""
    view = Components()
    for index, (kind, row) in enumerate(rows):
        custom_id = f"g:1:2:abcd:o:x{index}" if kind == "button" else f"g:1:2:abcd:s:0:{row}"
        view.add_item((button if kind == "button" else select)(custom_id, "x", row=row))
    return view


def rows_of(view: Components) -> dict[str, int]:
    return {item.custom_id: item._rendered_row for item in view.children}


@pytest.mark.parametrize(
    ("shape", "expected_row"),
    [
        ([("button", 0)] * 3, 0),  # a few option buttons: beside them
        ([("button", 0)] * 5 + [("button", 1)] * 5, 2),  # ten buttons: a row of its own
        ([("button", 0)] * 3 + [("button", 4)], 4),  # beside Choose none
        ([("menu", 0), ("menu", 1)], 2),  # under the menus
        ([("menu", r) for r in range(4)] + [("button", 4)] * 3, 4),  # beside the page buttons
        ([("menu", r) for r in range(4)] + [("button", 4)] * 4, None),  # full: none
    ],
)
def test_the_rules_button_takes_the_last_row_with_room_and_leaves_undo_its_place(
    shape, expected_row
):
    view = panel_like(*shape)
    rulebook.add_rules_button(view, 7, "action", "en")
    assert rows_of(view).get("k:7:action") == expected_row
    # Undo comes after the panel is built, always in the last row: it still fits
    view.add_item(button("u:7:3", "Undo", row=4))
