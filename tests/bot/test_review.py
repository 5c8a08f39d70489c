"""`/review` and the final scores' Review button (issue 30, item 1) through SimCord on the
four real games, in English and 繁體中文: a finished game's review is posted (the progress
first, then the review with its chart and its points picture), and the same review comes
again at once from `/review`; bad requests are refused, each with its reason.

The games are played to their end through the bot's move path at random (every seat a
person's), and the review runs in its worker process at a tiny budget (about 20 ms a
decision) so that a whole game reviews in seconds.
"""

from __future__ import annotations

import random

import pytest

from meeple_hall.bot.cogs.review import ReviewCog
from meeple_hall.bot.i18n import game_name, t
from meeple_hall.bot.live import Refusal
from meeple_hall.bot.store import Seat, Table, TableStatus
from meeple_hall.games.ai.review import Budget
from tests.bot.conftest import REAL_GAMES, buttons, start_game, stored_message
from tests.bot.every_game import final_scores, near_the_end, waiting_for

TINY = Budget(think=0.001)
QUICK = {("village", "en"), ("coffee", "zh-TW")}  # the default run's; the rest are slow
REVIEW_TIME = pytest.mark.simcord(settle_timeout=600)  # a click waits for its whole review


def fast_reviews(table) -> ReviewCog:
    cog = table.env.bot.get_cog("Review")
    cog.reviews.budget = lambda total: TINY
    cog.reviews.chunk = 40
    return cog


async def finished(table, game_id: str):
    """Alice and Bob play a game to its end at random through the bot's move path."""
    game = await start_game(table, table.bob, game=game_id)
    await near_the_end(table, game, random.Random(5), left=0)
    return game, await final_scores(table)


async def reviewed(table, result, game, locale: str):
    """The ephemeral answer once the review has replaced the progress in it."""
    title = t(locale, "review.title", game=game_name(locale, game.table.game), table=game.id)

    def done():
        shown = stored_message(table.env, result.response)
        return shown if shown.attachments else None

    shown = await waiting_for(table, done, "the review", most_seconds=300)
    assert shown.content.splitlines()[0] == title, shown.content
    return shown


def cases():
    for game_id in REAL_GAMES:
        for locale in ("en", "zh-TW", "ja"):
            marks = [] if (game_id, locale) in QUICK else [pytest.mark.slow]
            yield pytest.param(game_id, locale, marks=marks, id=f"{game_id}-{locale}")


@REVIEW_TIME
@pytest.mark.parametrize(("game_id", "locale"), cases())
async def test_the_review_button_and_review_post_the_review(table, game_id, locale):
    cog = fast_reviews(table)
    if locale != "en":
        await table.alice.slash(table.channel, "settings", language=locale)
    game, scores = await finished(table, game_id)
    label = buttons(scores)
    assert "Review" in label, label  # the server's language is English
    clicked = await table.alice.click(scores, label="Review")
    assert clicked.ephemeral
    shown = await reviewed(table, clicked, game, locale)
    assert [a["filename"] for a in shown.attachments] == ["review.png", "points.png"]
    assert [e["title"] for e in shown.embeds] == ["alice", "bob"]
    costly, well = t(locale, "review.costly"), t(locale, "review.went_well")
    assert all([f["name"] for f in e["fields"]] == [costly, well] for e in shown.embeds)
    # random play costs points: each player's costliest moves, told with both answers
    for embed in shown.embeds:
        told = embed["fields"][0]["value"]
        assert told != t(locale, "review.no_costly") and told.count("•") >= 1, told
    review = cog.reviews.cached(game.id)
    assert review is not None and review.moves
    # the same game again: the review kept, shown at once
    again = await table.bob.slash(table.channel, "review", table=game.id)
    shown_again = await reviewed(table, again, game, "en")
    assert cog.reviews.cached(game.id) is review
    if locale == "en":  # Bob reads English
        assert shown_again.embeds == shown.embeds
    bullets = [[f["value"].count("•") for f in e["fields"]] for e in shown.embeds]
    assert [[f["value"].count("•") for f in e["fields"]] for e in shown_again.embeds] == bullets


async def test_refusals(table, simcord_env):
    game = await start_game(table, table.bob, game="village")
    in_play = await table.alice.slash(table.channel, "review", table=game.id)
    assert in_play.ephemeral and "still in play" in in_play.response.content
    here = await table.alice.slash(table.channel, "review")
    assert "still in play" in here.response.content
    unknown = await table.alice.slash(table.channel, "review", table=999)
    assert "There is no table 999" in unknown.response.content
    elsewhere = simcord_env.create_guild(name="Elsewhere")
    channel = elsewhere.create_text_channel("games")
    stranger = elsewhere.add_member(simcord_env.create_user("eve"))
    other = await stranger.slash(channel, "review", table=game.id)
    assert "cannot see table" in other.response.content
    nothing = await stranger.slash(channel, "review")
    assert "no finished game in this channel" in nothing.response.content
    assert not table.env.bot.get_cog("Review").reviews.jobs  # nothing was started


async def test_refusals_in_traditional_chinese(table):
    await table.alice.slash(table.channel, "settings", language="zh-TW")
    game = await start_game(table, table.bob, game="coffee")
    in_play = await table.alice.slash(table.channel, "review", table=game.id)
    assert in_play.response.content == t("zh-TW", "review.in_play", table=game.id)


def test_a_game_of_ai_seats_only_or_abandoned_is_refused():
    def ended(status: TableStatus, seats: list[Seat], game: str = "village") -> Table:
        return Table(1, 2, 3, 4, game, {}, 5, status, seats)

    ai_only = ended(
        TableStatus.FINISHED, [Seat(None, "AI 1", ai=True), Seat(None, "AI 2", ai=True)]
    )
    with pytest.raises(Refusal) as refused:
        ReviewCog.checked(ai_only)
    assert refused.value.key == "review.only_ai"
    with pytest.raises(Refusal) as refused:
        ReviewCog.checked(ended(TableStatus.ABANDONED, [Seat(7, "Ada")]))
    assert refused.value.key == "review.abandoned"
    with pytest.raises(Refusal) as refused:
        ReviewCog.checked(ended(TableStatus.FINISHED, [Seat(7, "Ada")], game="pebbles"))
    assert refused.value.key == "review.unavailable"
    kept = ended(TableStatus.FINISHED, [Seat(7, "Ada"), Seat(None, "AI 1", ai=True)])
    assert ReviewCog.checked(kept) is kept
