"""The playground's JSON endpoints, sent real HTTP requests: a body that is not JSON, of the
wrong shape or too large gets a short plain answer (400, 413 for the size), in the page's
language, never a 500 with a traceback, and changes nothing. The companion page's
endpoints are the playground's own; the table page's are SimCord's preview server's."""

from __future__ import annotations

import json
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import aiohttp
import pytest

from meeple_hall import games
from meeple_hall.bot.i18n import t
from meeple_hall.bot.playground.companion import LOBBY_EXAMPLE, MAX_BODY, SHOW_EXAMPLE, Companion
from meeple_hall.bot.playground.session import Options, Session
from tests.bot.conftest import LANGUAGES, REAL_GAMES

EXAMPLES = {"show": SHOW_EXAMPLE, "lobby": LOBBY_EXAMPLE}
NOT_JSON = [b"{", b'{"channel": "1"', b"\xff\xfe", b"", b"channel=1"]
WRONG_SHAPE = {
    "show": [b"[1]", b'"1"', b"null", b"{}", b'{"channel": [1]}', b'{"channel": "\xef\xbc\x91"}'],
    "lobby": [b"[1]", b"3", b"{}", b'{"game": 5}', b'{"game": null}', b'{"game": ["village"]}'],
}
OVERSIZED = b'{"game": "' + b"x" * (MAX_BODY * 4) + b'"}'


@dataclass
class Playground:
    session: Session
    companion: Companion
    http: aiohttp.ClientSession

    async def post(self, endpoint: str, body: bytes, lang: str = "en") -> tuple[int, str, str]:
        """POST to a companion endpoint as the page does (its Origin): status, type, text."""
        url = f"{self.companion.url}api/{endpoint}?lang={lang}"
        origin = {"Origin": f"http://127.0.0.1:{self.companion.port}"}
        async with self.http.post(url, data=body, headers=origin) as answer:
            return answer.status, answer.content_type, await answer.text()

    def table_post(self, path: str, body: bytes, context: str | None = None) -> Any:
        """POST to the table page's server with the session's capability, as its page does."""
        url = urlsplit(self.session.url)
        headers = {"X-Simcord-Capability": self.session.capability}
        headers["Content-Type"] = "application/json"
        if context is not None:
            headers["X-Simcord-Context"] = context
        return self.http.post(f"{url.scheme}://{url.netloc}{path}", data=body, headers=headers)

    async def what_shows(self) -> tuple[Any, ...]:
        return self.session.current.id, tuple(await self.session.channel_info())


@asynccontextmanager
async def running(tmp_path: Path) -> AsyncIterator[Playground]:
    """A playground session with its companion page. (Not a fixture: a Session is entered
    and left in one task, which pytest-asyncio's fixtures do not promise.)"""
    options = Options(game="village", players=2, db=tmp_path / "playground.db")
    async with Session(options) as session, aiohttp.ClientSession() as http:
        companion = Companion(session)
        await companion.start()
        try:
            yield Playground(session, companion, http)
        finally:
            await companion.close()


def assert_short_plain(status: int, content_type: str, text: str, expected: str) -> None:
    assert (status, content_type, text) == (400, "text/plain", expected)
    assert len(text) < 200 and "Traceback" not in text


@pytest.mark.parametrize("endpoint", ["show", "lobby"])
async def test_the_companion_refuses_bad_bodies_and_changes_nothing(tmp_path, endpoint):
    async with running(tmp_path) as playground:
        before = await playground.what_shows()
        example = EXAMPLES[endpoint]
        for body in NOT_JSON:
            answer = await playground.post(endpoint, body)
            assert_short_plain(*answer, t("en", "playground.api.not_json", example=example))
        for body in WRONG_SHAPE[endpoint]:
            answer = await playground.post(endpoint, body)
            assert_short_plain(*answer, t("en", "playground.api.shape", example=example))
        status, content_type, text = await playground.post(endpoint, OVERSIZED)
        assert (status, content_type) == (413, "text/plain")
        assert text == t("en", "playground.api.too_large", limit=MAX_BODY)
        assert await playground.what_shows() == before


async def test_the_companion_names_an_unknown_channel_or_game(tmp_path):
    async with running(tmp_path) as playground:
        before = await playground.what_shows()
        answer = await playground.post("show", b'{"channel": "123"}')
        assert_short_plain(*answer, t("en", "playground.api.unknown_channel", channel=123))
        answer = await playground.post("lobby", b'{"game": "chess"}')
        unknown = t("en", "playground.api.unknown_game", game="chess", games=", ".join(games.ids()))
        assert_short_plain(*answer, unknown)
        assert await playground.what_shows() == before


@pytest.mark.parametrize("locale", LANGUAGES)
async def test_the_refusals_are_in_the_page_language(tmp_path, locale):
    async with running(tmp_path) as playground:
        answer = await playground.post("show", b"{", lang=locale)
        assert_short_plain(*answer, t(locale, "playground.api.not_json", example=SHOW_EXAMPLE))
        answer = await playground.post("lobby", b"[]", lang=locale)
        assert_short_plain(*answer, t(locale, "playground.api.shape", example=LOBBY_EXAMPLE))
        status, _, text = await playground.post("lobby", OVERSIZED, lang=locale)
        assert (status, text) == (413, t(locale, "playground.api.too_large", limit=MAX_BODY))


async def test_good_bodies_still_open_a_lobby_of_each_game_and_show_it(tmp_path):
    """The same requests, well formed, do what the page asks: the refusals above are not
    the server refusing everything."""
    async with running(tmp_path) as playground:
        session = playground.session
        for game in REAL_GAMES:
            status, _, text = await playground.post("lobby", json.dumps({"game": game}).encode())
            assert status == 200 and json.loads(text)["ok"], text
            assert (await session.bot.store.open_table_in(session.current.id)).game == game
        first = session.world.channels[0].id
        body = json.dumps({"channel": str(first)}).encode()
        assert (await playground.post("show", body))[0] == 200
        assert session.current.id == first


async def test_the_table_page_refuses_bad_bodies(tmp_path):
    """SimCord's own server: 400 for a body that is not JSON, 413 for one too large; an
    action of the wrong shape is a rejected action (200, as SimCord answers every parsed
    action), never a 500."""
    async with running(tmp_path) as playground:
        before = await playground.what_shows()
        for body in NOT_JSON:
            async with playground.table_post("/api/pages", body) as answer:
                assert answer.status == 400, await answer.text()
        for body in (b"[1]", b"null"):
            async with playground.table_post("/api/pages", body) as answer:
                assert answer.status == 400, await answer.text()
        async with playground.table_post("/api/pages", b"{}") as answer:
            assert answer.status == 200
            context = (await answer.json())["context"]["id"]
        for body in NOT_JSON:
            async with playground.table_post("/api/action", body, context) as answer:
                assert answer.status == 400, await answer.text()
        for body in (b"[1]", b"null", b'{"kind": 5}', b'{"kind": "component", "custom_id": [1]}'):
            async with playground.table_post("/api/action", body, context) as answer:
                assert answer.status == 200
                assert (await answer.json())["rejected"] is True
        too_large = b"x" * (256 * 1024 + 1)
        for path in ("/api/pages", "/api/action"):
            async with playground.table_post(path, too_large, context) as answer:
                assert answer.status == 413
        assert await playground.what_shows() == before
