"""The rules at hand (issue 30, item 2): every real game's `data/<game>/rulebook.toml` explains
every decision its engine asks, in all three languages, within one Discord message.

The kinds are the ones met in seeded random games at every player count the engine plays;
each must map to a topic (one topic may explain several kinds, a kind belongs to one topic)."""

from __future__ import annotations

import random
import re
from collections.abc import Iterable

import pytest
from markdown_it import MarkdownIt

from meeple_hall import games
from meeple_hall.bot import rulebook
from meeple_hall.bot.i18n import SUPPORTED
from meeple_hall.games import Action
from meeple_hall.games.testing import random_choices
from tests.games.test_typography import half_width_marks, spaced_words
from tests.slow_marks import real_games

SEEDS = (1, 2, 3)
MAX_STEPS = 5_000
TOPIC_ID = re.compile(r"[a-z0-9_]+")
COMMONMARK = MarkdownIt("commonmark")


def kinds_met(
    game_id: str, num_players: int, seeds: Iterable[int] = SEEDS, max_steps: int = MAX_STEPS
) -> set[str]:
    """Every Decision.kind asked in seeded random games at that player count."""
    engine = games.get(game_id)
    met: set[str] = set()
    for seed in seeds:
        rng = random.Random(seed)
        state = engine.new(num_players=num_players, seed=seed)
        for _ in range(max_steps):
            pending = engine.decisions(state)
            if not pending:
                break
            decision = rng.choice(pending)
            met.add(decision.kind)
            state = engine.apply(state, Action(decision.seat, random_choices(decision, rng)))
    return met


def player_counts():
    """Every real game at every player count; the default run plays the smallest (the
    others repeat it at more seats: `pytest -m slow`)."""
    for game_id in real_games():
        engine = games.get(game_id)
        for num_players in range(engine.min_players, engine.max_players + 1):
            marks = () if num_players == engine.min_players else (pytest.mark.slow,)
            yield pytest.param(game_id, num_players, marks=marks, id=f"{game_id}-{num_players}")


@pytest.mark.parametrize(("game_id", "num_players"), player_counts())
def test_every_decision_kind_met_in_random_games_has_a_topic(game_id, num_players):
    assert rulebook.topics(game_id), f"no data/{game_id}/rulebook.toml"
    met = kinds_met(game_id, num_players)
    missing = sorted(k for k in met if rulebook.topic_for_kind(game_id, k) is None)
    assert missing == [], f"{game_id}: decision kinds with no rulebook topic: {missing}"


@pytest.mark.parametrize("game_id", real_games())
def test_topic_ids_are_ascii_unique_and_each_kind_belongs_to_one_topic(game_id):
    ids = [topic.id for topic in rulebook.topics(game_id)]
    assert all(TOPIC_ID.fullmatch(i) for i in ids), ids
    assert len(ids) == len(set(ids)), ids
    kinds = [kind for topic in rulebook.topics(game_id) for kind in topic.kinds]
    assert len(kinds) == len(set(kinds)), sorted(k for k in kinds if kinds.count(k) > 1)


@pytest.mark.parametrize("game_id", real_games())
@pytest.mark.parametrize("lang", SUPPORTED)
def test_every_topic_names_its_section_and_fits_one_message_in_every_language(game_id, lang):
    for topic in rulebook.topics(game_id):
        assert topic.section.get(lang, "").strip(), f"{topic.id}: no {lang} section"
        assert topic.text.get(lang, "").strip(), f"{topic.id}: no {lang} text"
        assert topic.translated <= set(SUPPORTED), topic.translated
        shown = rulebook.topic_text(topic, lang)
        assert len(shown) <= rulebook.MESSAGE_MAX, f"{topic.id} in {lang}: {len(shown)}"
        assert not shown.endswith("…"), f"{topic.id} in {lang} was cut to fit"
        assert topic.section[lang] in shown.split("\n")[0]
        assert topic.text[lang] in shown
        marked = rulebook.t(lang, "rulebook.translated") in shown
        assert marked == (lang in topic.translated), topic.id


@pytest.mark.parametrize("game_id", real_games())
@pytest.mark.parametrize("lang", SUPPORTED)
def test_bold_and_italics_in_every_topic_show_as_such(game_id, lang):
    """CommonMark (as Discord) leaves no `**` standing: a bold closing right after
    punctuation and before a letter would show its asterisks."""
    for topic in rulebook.topics(game_id):
        html = COMMONMARK.render(rulebook.topic_text(topic, lang))
        assert "**" not in html, f"{topic.id} in {lang}: {html}"


def test_a_game_without_a_rulebook_file_has_no_topics_and_says_so():
    assert rulebook.topics("pebbles") == ()
    assert rulebook.topic_for_kind("pebbles", "take") is None
    listed = rulebook.topic_list("pebbles", "en")
    assert listed == rulebook.t("en", "rulebook.none", game=rulebook.game_name("en", "pebbles"))


@pytest.mark.parametrize("game_id", real_games())
@pytest.mark.parametrize("lang", ("zh-TW", "ja"))
def test_our_words_follow_the_house_typography(game_id, lang):
    """Section names, and texts that are our translation, set as a native reader expects
    (full-width punctuation, no spaces between CJK words); a rulebook's own words are quoted
    as printed."""
    for topic in rulebook.topics(game_id):
        ours = [topic.section[lang]] + ([topic.text[lang]] if lang in topic.translated else [])
        for text in ours:
            assert spaced_words(text) == [], (topic.id, text)
            assert half_width_marks(text) == [], (topic.id, text)
