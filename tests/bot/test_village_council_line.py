"""A council step folded with its privilege is one button that says both: the member
enters the council, and what the privilege does (H5's V6: with "Take the next-start-player
marker" the line passed 80 characters in en, so the button said only the privilege and the
member's entry went to the description, in every language)."""

from __future__ import annotations

import pytest

from meeple_hall import games
from meeple_hall.bot import presenters
from meeple_hall.games.core import Action
from meeple_hall.games.core.catalogues import LANGUAGES, render
from tests.games.village.test_rulebook_examples import at_turn

BUTTON_LABEL_MAX = 80
ENTERS = {"en": "#1 enters the council", "zh-TW": "#1 進入議會", "ja": "#1が評議会に入る"}
MARKER = {"en": "marker", "zh-TW": "起始玩家標記", "ja": "スタートプレイヤーマーカー"}


@pytest.mark.parametrize("paid", ["green", "scroll"])
def test_entering_the_council_for_the_start_marker_is_one_label(paid: str) -> None:
    engine = games.get("village")
    state = at_turn(engine.new(2, 3, {"compensation": "off"}), 0, council=["pink"])
    player = state.players[0]
    player.cubes["green"], player.coins = 1, 1
    if paid == "scroll":
        player.goods["scroll"] = 1
    state = engine.apply(state, Action(0, ("council-pink",)))
    (enter,) = engine.decisions(state)
    entering = next(o for o in enter.options if o.id.startswith("enter-0-"))
    state = engine.apply(state, Action(0, (entering.id,)))
    (privilege,) = engine.decisions(state)
    marker = privilege.option("p1")
    assert marker is not None
    style = presenters.chain_style("village", (enter, privilege), (entering, marker))
    assert style is not None
    for lang in LANGUAGES:
        label = render(lang, style.label)
        assert ENTERS[lang] in label and MARKER[lang] in label, (lang, label)
        assert len(label) <= BUTTON_LABEL_MAX, (lang, label)


COLONS = (":", "：")
FIRST = {
    "en": "First, #1 enters the council",
    "zh-TW": "先 #1 進入議會",
    "ja": "先に#1が評議会に入る",
}


def test_solo_s_start_marker_and_the_entry_read_apart() -> None:
    """Solo's start marker ("a coin to spend this round") folded with the entry passes 80
    characters in en: the button says the privilege, the panel's legend the entry, said as
    done first (session 18's V2: `Take the start marker: a coin to spend this round：#1
    enters the council：1 scroll + 1 time` read as one chain of colons); neither holds a
    colon of its own, the legend's being the only one."""
    engine = games.get("village")
    state = at_turn(engine.new(1, 1), 0, council=["pink"])
    state.players[0].goods["scroll"] = 1
    state = engine.apply(state, Action(0, ("council-pink",)))
    (enter,) = engine.decisions(state)
    entering = next(o for o in enter.options if o.id == "enter-0-scroll")
    state = engine.apply(state, Action(0, (entering.id,)))
    (privilege,) = engine.decisions(state)
    marker = privilege.option("p1")
    assert marker is not None
    style = presenters.chain_style("village", (enter, privilege), (entering, marker))
    assert style is not None and style.description is not None
    for lang in LANGUAGES:
        label, description = render(lang, style.label), render(lang, style.description)
        assert MARKER[lang] in label and ENTERS[lang] not in label, (lang, label)
        assert description.startswith(FIRST[lang]), (lang, description)
        assert not any(c in label + description for c in COLONS), (lang, label, description)
        assert len(label) <= BUTTON_LABEL_MAX and len(description) <= 100, lang
