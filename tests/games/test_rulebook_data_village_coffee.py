"""Village's and Coffee Traders' rulebook topics (`data/<game>/rulebook.toml`, issue 30 item 2):
the file parses as written, every step kind the engine declares has exactly one topic and no
topic names a kind the engine lacks, every kind met in 20 seeded random games per player count
has a topic, and a text not marked as our translation is the rulebook's own words.

The checks every game's file shares (length, bold, typography) are in test_rulebook_topics.py."""

from __future__ import annotations

import re
import tomllib
from pathlib import Path

import pytest

from meeple_hall import games
from meeple_hall.bot import rulebook
from meeple_hall.bot.i18n import SUPPORTED
from meeple_hall.games.core.resources import game_data
from tests.games.test_rulebook_topics import kinds_met

GAMES = ("village", "coffee")
# The rulebooks stand beside the work tree (DESIGN.md: `rules/`), not in the repository.
RULES = Path(__file__).resolve().parents[3] / "shared" / "rules"
# The rulebook each language's words are quoted from (a text in another language, or marked
# as translated, is ours).
SOURCES = {
    ("village", "en"): RULES / "en/village-base.en.md",
    ("village", "zh-TW"): RULES / "village-big-box.zh-TW.txt",
    ("coffee", "en"): RULES / "en/coffee-traders.en.md",
    ("coffee", "zh-TW"): RULES / "coffee-traders.zh-TW.txt",
}
SEEDS = range(20)
MAX_STEPS = 20_000
# A quoted text may be trimmed, relaid as a list or given a bold label: most of its sentences
# still stand in the rulebook word for word.
QUOTED_SHARE = 0.6
SENTENCE_END = re.compile(r"(?<=[.!?。！？])\s*|\n+")
MARKUP = re.compile(r"\*+|^\s*(?:[-•]|\d+\.|[A-Za-z]\.|[a-z]\))\s*", re.MULTILINE)
MIN_SENTENCE = 12


def raw_topics(game_id: str) -> list[dict]:
    with (game_data(game_id) / rulebook.RULEBOOK_FILE).open("rb") as f:
        return tomllib.load(f)["topic"]


@pytest.mark.parametrize("game_id", GAMES)
def test_the_file_parses_and_every_topic_has_every_language(game_id):
    for topic in raw_topics(game_id):
        assert set(topic) <= {"id", "kinds", "section", "text", "translated"}, topic["id"]
        assert set(topic["section"]) == set(SUPPORTED), topic["id"]
        assert set(topic["text"]) == set(SUPPORTED), topic["id"]
        assert set(topic.get("translated", ())) <= set(SUPPORTED), topic["id"]
        assert "ja" in topic["translated"], f"{topic['id']}: no Japanese rulebook is at hand"


@pytest.mark.parametrize("game_id", GAMES)
def test_every_step_kind_of_the_engine_has_one_topic_and_every_kind_named_exists(game_id):
    declared = set(games.get(game_id).steps.by_kind)
    named = [kind for topic in raw_topics(game_id) for kind in topic["kinds"]]
    assert sorted(declared - set(named)) == []
    assert sorted(set(named) - declared) == []
    assert len(named) == len(set(named))


def player_counts() -> list:
    return [
        pytest.param(game_id, n, marks=() if (game_id, n) == ("village", 1) else pytest.mark.slow)
        for game_id in GAMES
        for n in range(games.get(game_id).min_players, games.get(game_id).max_players + 1)
    ]


@pytest.mark.parametrize(("game_id", "num_players"), player_counts())
def test_every_kind_met_in_twenty_random_games_has_a_topic(game_id, num_players):
    met = kinds_met(game_id, num_players, SEEDS, MAX_STEPS)
    assert met
    assert sorted(k for k in met if rulebook.topic_for_kind(game_id, k) is None) == []


def sentences(text: str) -> list[str]:
    plain = MARKUP.sub("", text)
    return [s.strip() for s in SENTENCE_END.split(plain) if len(s.strip()) >= MIN_SENTENCE]


@pytest.mark.skipif(not RULES.is_dir(), reason="the rulebooks are not in this checkout")
@pytest.mark.parametrize(("game_id", "lang"), sorted(SOURCES))
def test_a_text_not_marked_translated_is_quoted_from_the_rulebook(game_id, lang):
    source = re.sub(r"\s+", " ", MARKUP.sub("", SOURCES[game_id, lang].read_text()))
    for topic in raw_topics(game_id):
        if lang in topic.get("translated", ()):
            continue
        said = sentences(topic["text"][lang])
        found = [s for s in said if re.sub(r"\s+", " ", s) in source]
        assert len(found) >= QUOTED_SHARE * len(said), (
            topic["id"],
            [s for s in said if s not in found],
        )
