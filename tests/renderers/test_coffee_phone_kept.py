"""Coffee Traders' phone parts (a cooperative, the band's parts, a company's own area) are
kept by what they show (renderers/phone/coffee.py, `kept_picture`), and cut from the rows of
the table they lie in, drawn alone (renderers/coffee.py, `render`'s `rows`): a decision's
picture made from kept parts, after other tables' pictures, must be the very picture drawn
with nothing kept, and a part cut from its rows the same pixels as cut from the whole
table."""

from __future__ import annotations

from typing import Any

import pytest

from meeple_hall.games.coffee import engine
from meeple_hall.renderers import coffee, phone
from meeple_hall.renderers.phone import coffee as phone_coffee
from tests.renderers.moments import pixels, played

Asked = tuple[dict[str, Any], tuple[str, ...], tuple[Any, ...]]  # view, parts, marks


def decisions_of_a_game(num_players: int, seed: int, every: int) -> list[Asked]:
    """Every `every`-th decision of a seeded random game as its panel pictures it: the
    deciding seat's view, the parts and the marks (`phone.decision_picture`)."""
    asked = []
    for step, state, decision in played(engine, num_players, seed):
        if decision is not None and step % every == 0:
            view = engine.view(state, decision.seat)
            fields = [option.fields for option in decision.options]
            parts, marks = phone.decision_picture("coffee", view, decision.kind, fields)
            if parts:
                asked.append((view, parts, marks))
    return asked


def forget() -> None:
    phone_coffee.kept_picture.cache_clear()
    coffee.kept_part.cache_clear()


def drawn(asked: Asked) -> tuple[tuple[int, int], int]:
    view, parts, marks = asked
    return pixels(phone.render_decision("coffee", view, parts, marks))


def drawn_fresh(asked: Asked) -> tuple[tuple[int, int], int]:
    forget()
    return drawn(asked)


# the default run every 4th decision at 3 players; the slow part every 2nd at the others
@pytest.mark.parametrize(
    ("num_players", "every"),
    [(3, 4), *(pytest.param(n, 2, marks=pytest.mark.slow) for n in (2, 4, 5))],
)
def test_a_decision_picture_after_others_is_the_picture_drawn_fresh(
    num_players: int, every: int
) -> None:
    """Every `every`-th decision of a game, each pictured after the one before (the parts its
    table's worker keeps), then some after another game's: the pictures drawn fresh."""
    game = decisions_of_a_game(num_players, seed=num_players, every=every)
    other = decisions_of_a_game(num_players % 4 + 2, seed=9, every=15)
    fresh = [drawn_fresh(asked) for asked in game]
    forget()
    assert [drawn(asked) for asked in game] == fresh
    for asked, alone in zip(game[::9], fresh[::9], strict=True):
        for between in other:
            drawn(between)
        assert drawn(asked) == alone


def test_the_turn_arrows_over_a_cooperative_are_in_its_key() -> None:
    """The arrows under the turn order reach over the cooperatives' top edge: a cooperative
    kept with one seat's arrow over it is not pasted for another's."""
    view = decisions_of_a_game(4, seed=4, every=1000)[0][0]
    pictures = set()
    for k, seat in enumerate(view["order"]):
        acting = dict(view, active=[seat])
        kept = pixels(phone_coffee.render_focus(acting, "coops"))
        forget()
        assert kept == pixels(phone_coffee.render_focus(acting, "coops")), k
        pictures.add(kept)
    assert len(pictures) == len(view["order"])  # each arrow is in the picture


@pytest.mark.parametrize("focus", [*phone_coffee.COOPS, "arabica", "bars", "market"])
def test_a_part_cut_from_its_rows_is_cut_from_the_whole_table(focus: str) -> None:
    forget()
    for view, _, _ in decisions_of_a_game(3, seed=7, every=40):
        whole = phone.fit(
            phone.crops(coffee.render(view), phone_coffee._boxes(view, focus), coffee.BACKGROUND)
        )
        assert pixels(phone.render_focus("coffee", view, focus)) == pixels(whole)


def test_the_pictures_kept_are_bounded() -> None:
    assert phone_coffee.kept_picture.cache_info().maxsize == phone_coffee.PICTURES_KEPT
    forget()
    for asked in decisions_of_a_game(5, seed=1, every=10):
        drawn(asked)
    assert phone_coffee.kept_picture.cache_info().currsize <= phone_coffee.PICTURES_KEPT
    assert phone_coffee.kept_picture.cache_info().hits > 0
