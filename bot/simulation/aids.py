"""The help a player has at hand (issue 30), as the simulated players use it: `/hint` before
a move, the 📖 Rules button on a decision panel (whose picture is drawn from the clicking
seat's own view), `/rules` with good and bad topics, and, after a game, the Review button
on its final scores and `/review` of games that cannot be reviewed from here.

Each action checks what it was answered: a hint in a game that counts is refused and
changes nothing, a hint given is on the table's record; the rulebook's words come in the
reader's language; a bad request is refused with its own reason and starts nothing. What
holds for every message (secrets, language) the invariants check; what a review may show
(`review_secrets`) is checked here, as it needs the whole ended game."""

from __future__ import annotations

from collections.abc import Awaitable
from typing import TYPE_CHECKING, Any

from meeple_hall.bot import rulebook
from meeple_hall.bot.hints import hints_taken
from meeple_hall.bot.i18n import game_name, t
from meeple_hall.bot.ratings import table_is_rated
from meeple_hall.bot.store import TableStatus
from meeple_hall.games.ai import review as reviewing
from meeple_hall.games.ai.pool import Workers

from .actions import button_id, open_panel, raw_components, replied
from .invariants import clip
from .world import GAMES, LANGUAGES, Player, Server

if TYPE_CHECKING:
    from .run import Sim

# The cheapest review the bot's review code runs (tests/bot/test_review.py's too): a timed
# budget so short that each decision gets the fewest candidates, estimate rounds and playout
# steps the search takes, about 20 ms. (A fixed budget, `iterations=1`, costs far more: the
# search then weighs every candidate turn, untimed.)
CHEAP_REVIEW = reviewing.Budget(think=0.001)
NO_TOPICS = ("nowhere", "🎲🎲", "x" * 90, "spring?")  # no rulebook has a topic so called
REVIEW_SECONDS = 900.0  # real seconds a review click may take to settle
WORDS_SEEN = 40  # characters of a rulebook text looked for in an answer


# -- /hint -----------------------------------------------------------------------------------
async def counts(sim: Sim, table: Any) -> str | None:
    """Why no hint may be given at the table ("tournament", "rated"), or None (casual)."""
    if await sim.bot.store.tournament_table_of(table.id) is not None:
        return "tournament"
    return "rated" if table_is_rated(table) else None


def head(text: str) -> str:
    """A message's words before its first field (rendered as NUL)."""
    return text.split("\0")[0]


def hint_head(lang: str, seq: object) -> str:
    """How a hint for move `seq` begins (NUL: for any move)."""
    return head(t(lang, "hint.suggestion", seq=seq, choice="\0", reason=""))


async def ask_for_hint(sim: Sim, game: Any, seat: int, player: Player) -> None:
    """The awaited player asks `/hint`: refused in a rated or tournament game, with nothing
    changed; given in a casual one, and kept on the table's record of hints taken."""
    store = sim.bot.store
    channel = sim.world.channel(game.table.channel_id)
    before = await store.get_table(game.id)
    if before is None or before.status is not TableStatus.ACTIVE:
        return
    why_not = await counts(sim, before)
    moves_before = len(await store.actions(game.id))
    result = await player.member.slash(channel, "hint")
    reply, lang = replied(result), player.language or "en"
    sim.report.aids[f"/hint in {why_not or 'casual'} games"] += 1
    after = await store.get_table(game.id)
    taken = [h for h in hints_taken(after) if h not in hints_taken(before)] if after else []
    suggested = hint_head(lang, "\0") in reply
    where = f"table {game.id} ({game.table.game}) seat {seat}"
    if why_not is not None:
        logged = await store.actions(game.id, after=moves_before)
        mine = [e.choices for e in logged if e.user_id == player.id]
        refused = t(lang, f"hint.{why_not}") in reply
        if suggested or (reply and not refused):  # (a reply Discord lost says nothing)
            sim.note("hints", f"{where}: /hint in a {why_not} game answered {clip(reply)!r}")
        if taken or mine:
            sim.note("hints", f"{where}: a refused /hint in a {why_not} game left {taken} {mine}")
    elif suggested and not any(
        s == seat and hint_head(lang, n) in reply for n, s in hints_taken(after)
    ):
        sim.note("hints", f"{where}: a hint shown, not in the table's record {hints_taken(after)}")


# -- the rules at hand ---------------------------------------------------------------------
def rulebook_words(game_id: str, kind_or_topic: str, lang: str, *, kind: bool) -> str | None:
    """The start of the rulebook's words the answer must hold (None: no topic for it)."""
    found = (
        rulebook.topic_for_kind(game_id, kind_or_topic)
        if kind
        else rulebook.topic(game_id, kind_or_topic)
    )
    return found.text[lang][:WORDS_SEEN] if found is not None else None


async def rules_on_panel(sim: Sim, game: Any, seat: int, player: Player) -> None:
    """Take turn, then 📖 Rules on the panel: the rulebook's words for the decision, in the
    player's language (the panel's picture is drawn meanwhile, from the player's view)."""
    panel = await open_panel(sim, game, player)
    lang = player.language or "en"
    rules = button_id(panel, t(lang, "rulebook.button")) if panel is not None else None
    if rules is None:  # no panel (not their turn by now), or one too full for the button
        return
    kind = rules.split(":", 2)[2]
    sim.report.aids["📖 Rules"] += 1
    answer = replied(await player.member.click(panel, custom_id=rules))
    words = rulebook_words(game.table.game, kind, lang, kind=True)
    wanted = words if words is not None else t(lang, "rulebook.no_topic_for_kind")
    if answer and wanted not in answer:
        sim.note(
            "language",
            f"table {game.id} seat {seat}: 📖 Rules on a {kind} decision, for a {lang} reader, "
            f"answered "
            f"{clip(answer)!r}",
        )


async def look_up_rules(sim: Sim, server: Server, player: Player) -> None:
    """`/rules game: topic:` with a topic's id, its section's name in some language, or a
    topic no rulebook has (refused, saying how to find one)."""
    rng, lang = sim.rng, player.language or "en"
    game_id = rng.choice(GAMES)
    topics = rulebook.topics(game_id)
    roll = rng.random()
    if topics and roll < 0.5:
        typed = rng.choice(topics).id
    elif topics and roll < 0.7:
        typed = rng.choice(topics).section[rng.choice(LANGUAGES)]
    else:
        typed = rng.choice(NO_TOPICS)
    channel = rng.choice(server.channels)
    sim.report.aids["/rules"] += 1
    answer = replied(await player.member.slash(channel, "rules", game=game_id, topic=typed))
    words = rulebook_words(game_id, typed, lang, kind=False)
    name = game_name(lang, game_id)
    if not answer:  # Discord lost the reply
        return
    if words is not None and words not in answer:
        sim.note(
            "language",
            f"/rules {game_id} topic:{typed!r} for a {lang} reader answered {clip(answer)!r}",
        )
    elif words is None and not answer.startswith(
        head(t(lang, "rulebook.bad_topic", game=name, topic="\0", id=game_id))
    ):
        sim.note("refusals", f"/rules {game_id} topic:{typed!r} answered {clip(answer)!r}")


# -- /review -------------------------------------------------------------------------------
def cheap_reviews(bot: Any) -> Any:
    """The bot's review cog, set to review at the cheapest budget, in a worker at the
    season's own priority (None: no such cog). The bot's review worker runs `nice`d below
    the bot; under the season's `nice` on a shared machine it hardly ran at all, and a
    click on Review is settled only once its review is done."""
    cog = bot.get_cog("Review")
    if cog is not None:
        cog.reviews.budget = lambda total: CHEAP_REVIEW
        if type(cog.reviews.worker) is not Workers and not cog.reviews.jobs:
            cog.reviews.worker.shutdown()
            cog.reviews.worker = Workers(max_workers=1)
    return cog


def review_button(channel: Any, table_id: int) -> Any:
    """The final-scores message of the table with its Review button, if still there."""
    wanted = f"rv:{table_id}"
    for message in reversed(channel.history()):
        if any(b.get("custom_id") == wanted for b in raw_components(message, 2)):
            return message
    return None


async def review_a_game(sim: Sim, server: Server, player: Player) -> None:
    """Review on the final scores of a game of the server, or `/review` of a game that
    cannot be reviewed from here: one of another server, or one still in play."""
    cog = cheap_reviews(sim.bot)
    if cog is None:
        return
    ended = [
        t
        for t in await sim.bot.store.guild_tables(server.guild.id)
        if t.status is TableStatus.FINISHED
    ]
    if ended and sim.rng.random() < 0.6:
        await press_review(sim, sim.rng.choice(ended), player)
    else:
        await review_refused(sim, cog, server, player)


async def press_review(sim: Sim, table: Any, player: Player) -> None:
    channel = sim.world.channel(table.channel_id)
    scores = review_button(channel, table.id) if channel is not None else None
    if scores is None:  # its channel or message deleted since
        return
    clicked = await waiting_for_review(sim, player.member.click(scores, custom_id=f"rv:{table.id}"))
    if clicked.response is not None:
        reviews = sim.memory.setdefault("reviews", {})
        reviews[clicked.response.id] = (table.id, player.id)
        sim.report.aids["Review pressed"] += 1


async def waiting_for_review(sim: Sim, click: Awaitable[Any]) -> Any:
    """A Review click settles only once its review is done, in its worker process: longer
    than a move's settle may take on a loaded machine."""
    settle = sim.env.settle_timeout
    sim.env.settle_timeout = REVIEW_SECONDS
    try:
        return await click
    finally:
        sim.env.settle_timeout = settle


async def review_refused(sim: Sim, cog: Any, server: Server, player: Player) -> None:
    """`/review table:` of another server's game or of a game in play: refused, saying why,
    and no review started."""
    elsewhere = [s for s in sim.world.servers if s is not server]
    if elsewhere and sim.rng.random() < 0.5:
        other = sim.rng.choice(elsewhere)
        candidates = await sim.bot.store.guild_tables(other.guild.id)
        key = "history.unseen_table"
    else:
        candidates = await sim.bot.store.guild_tables(server.guild.id)
        candidates = [c for c in candidates if c.status is TableStatus.ACTIVE]
        key = "review.in_play"
    if not candidates:
        return
    table = sim.rng.choice(candidates)
    started = table.id in cog.reviews.jobs or cog.reviews.cached(table.id) is not None
    channel = sim.rng.choice(server.channels)
    answer = replied(await player.member.slash(channel, "review", table=table.id))
    wanted = t(player.language or "en", key, table=table.id)
    now_started = table.id in cog.reviews.jobs or cog.reviews.cached(table.id) is not None
    sim.report.aids["/review refused"] += 1
    if (answer and wanted not in answer) or (now_started and not started):
        sim.note(
            "refusals",
            f"/review table:{table.id} ({key}) answered {clip(answer)!r}, review started: "
            f"{now_started and not started}",
        )
