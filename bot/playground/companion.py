"""The playground's second page: the person's direct messages from the bot, the table
channels (show one, open another lobby), a button that restarts the bot, and the slash
commands the bot offers. Loopback only; every address carries the session's token.
"""

from __future__ import annotations

import html
import json
import re
import secrets
from functools import cache
from importlib.resources import files
from typing import Any

from aiohttp import web
from discord import app_commands

from meeple_hall import games
from meeple_hall.bot.i18n import SUPPORTED, language, t
from meeple_hall.bot.playground.session import PlaygroundError, Session
from meeple_hall.bot.playground.world import PERSON_NAME

STATIC = files(__package__) / "static"
# The fonts the table page (SimCord's preview) ships, served by the companion too: on a
# machine without CJK or emoji fonts, names and replies in 繁體中文 and 日本語 and emoji would
# otherwise be boxes. Its manifest names each file's family, style and weights.
FONTS = files("simcord.preview") / "static" / "fonts"
JUMP = re.compile(r"https://discord\.com/channels/\d+/(\d+)/\d+")
BOLD = re.compile(r"\*\*(.+?)\*\*")
CODE = re.compile(r"`([^`]+)`")
CHANNEL = re.compile(r"&lt;#(\d+)&gt;")
USER = re.compile(r"&lt;@!?(\d+)&gt;")
SECURITY_HEADERS = {
    "Content-Security-Policy": (
        "default-src 'self'; img-src 'self'; object-src 'none'; base-uri 'none'; "
        "frame-ancestors 'none'"
    ),
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "no-referrer",
    "Cache-Control": "no-store",
}
PAGE_KEYS = (
    "title",
    "intro",
    "open_table",
    "channels",
    "show",
    "showing",
    "free",
    "new_lobby",
    "restart",
    "restart_hint",
    "dms",
    "no_dms",
    "commands",
    "page_language",
    "stopped",
    "jump",
)
# The page's requests are a few bytes: a body this size is not from the page.
MAX_BODY = 4096
SHOW_EXAMPLE = '{"channel": "<channel id>"}'
LOBBY_EXAMPLE = '{"game": "<game id>"}'


def page_locale(request: web.Request) -> str:
    """`?lang=` if given, else the browser's first language the bot speaks."""
    asked = request.query.get("lang")
    if asked in SUPPORTED:
        return asked
    for part in request.headers.get("Accept-Language", "").split(","):
        tag = part.split(";")[0].strip()
        if tag.lower().startswith("zh") and any(x in tag for x in ("TW", "Hant", "HK", "MO")):
            return "zh-TW"
        if tag.lower().startswith(("ja", "en")):
            return language("ja" if tag.lower().startswith("ja") else "en")
    return "en"


class Companion:
    def __init__(self, session: Session, port: int = 0) -> None:
        self.session = session
        self.token = secrets.token_urlsafe(24)
        self._requested_port = port
        self.port: int | None = None
        self.runner: web.AppRunner | None = None

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}/{self.token}/"

    async def start(self) -> None:
        app = web.Application(middlewares=[self._guard], client_max_size=MAX_BODY)
        base = f"/{self.token}"
        app.router.add_get(f"{base}/", self._page)
        app.router.add_get(f"{base}/companion.js", self._script)
        app.router.add_get(f"{base}/companion.css", self._style)
        app.router.add_get(f"{base}/fonts.css", self._fonts_style)
        app.router.add_get(f"{base}/fonts/{{name}}", self._font)
        app.router.add_get(f"{base}/api/state", self._state)
        app.router.add_get(f"{base}/api/attachment/{{message}}/{{index}}", self._attachment)
        app.router.add_post(f"{base}/api/restart", self._restart)
        app.router.add_post(f"{base}/api/show", self._show)
        app.router.add_post(f"{base}/api/lobby", self._lobby)
        self.runner = web.AppRunner(app, access_log=None)
        await self.runner.setup()
        site = web.TCPSite(self.runner, "127.0.0.1", self._requested_port)
        await site.start()
        self.port = int(self.runner.addresses[0][1])  # the port bound (port 0: any free one)

    async def close(self) -> None:
        if self.runner is not None:
            await self.runner.cleanup()
            self.runner = None

    @web.middleware
    async def _guard(self, request: web.Request, handler: Any) -> web.StreamResponse:
        # Only this machine's own names: a web page elsewhere cannot rebind to it.
        allowed = {f"127.0.0.1:{self.port}", f"localhost:{self.port}"}
        if request.headers.get("Host") not in allowed:
            raise web.HTTPForbidden()
        origin = request.headers.get("Origin")
        if request.method != "GET" and origin not in {f"http://{h}" for h in allowed}:
            raise web.HTTPForbidden()
        response = await handler(request)
        response.headers.update(SECURITY_HEADERS)
        return response

    # -- the page and its files ------------------------------------------------------------
    async def _page(self, request: web.Request) -> web.Response:
        locale = page_locale(request)
        text = (STATIC / "companion.html").read_text(encoding="utf-8")
        words = {key: html.escape(t(locale, f"playground.{key}")) for key in PAGE_KEYS}
        options = "".join(
            f'<option value="{g}">{html.escape(games.get(g).name)}</option>' for g in games.ids()
        )
        languages = "".join(
            f'<option value="{code}"{" selected" if code == locale else ""}>'
            f"{html.escape(t(code, 'playground.language_name'))}</option>"
            for code in SUPPORTED
        )
        page = text.format(lang=locale, games=options, languages=languages, **words)
        return web.Response(text=page, content_type="text/html")

    async def _script(self, request: web.Request) -> web.Response:
        text = (STATIC / "companion.js").read_text(encoding="utf-8")
        return web.Response(text=text, content_type="application/javascript")

    async def _style(self, request: web.Request) -> web.Response:
        text = (STATIC / "companion.css").read_text(encoding="utf-8")
        return web.Response(text=text, content_type="text/css")

    async def _fonts_style(self, request: web.Request) -> web.Response:
        return web.Response(text=fonts_css(), content_type="text/css")

    async def _font(self, request: web.Request) -> web.Response:
        name = request.match_info["name"]
        if name not in font_faces():
            raise web.HTTPNotFound()
        return web.Response(body=(FONTS / name).read_bytes(), content_type="font/ttf")

    # -- what the page shows ---------------------------------------------------------------
    async def _state(self, request: web.Request) -> web.Response:
        session = self.session
        locale = page_locale(request)
        channels = []
        names = {}
        for info in await session.channel_info():
            names[info.id] = info.name
            if info.game is None:
                status = t(locale, "playground.free")
            else:
                status = t(
                    locale,
                    f"playground.status.{info.status}",
                    game=games.get(info.game).name,
                )
            channels.append(
                {
                    "id": str(info.id),
                    "name": info.name,
                    "status": status,
                    "busy": info.game is not None,
                    "current": info.id == session.current.id,
                }
            )
        dms = []
        for message in reversed(session.direct_messages()):
            dms.append(
                {
                    "id": str(message.id),
                    "html": dm_html(message.content, names, self._table_link_text(locale)),
                    "time": message.created_at.strftime("%H:%M"),
                    "images": [
                        f"api/attachment/{message.id}/{i}"
                        for i, a in enumerate(message.attachments)
                        if (a.content_type or "").startswith("image/")
                        or a.filename.endswith(".png")
                    ],
                }
            )
        commands = sorted(
            (
                {"name": f"/{c.name}", "description": c.description}
                for c in session.bot.tree.get_commands()
                if not isinstance(c, app_commands.ContextMenu)
            ),
            key=lambda c: c["name"],
        )
        has_settings = any(c["name"] == "/settings" for c in commands)
        body = {
            "tableUrl": session.url,
            "channels": channels,
            "dms": dms,
            "commands": commands,
            "restarted": t(
                locale,
                "playground.restarted",
                count=session.restarts,
                games=len(session.bot.manager.served()),
            )
            if session.restarts
            else "",
            "language": t(
                locale,
                "playground.language_settings" if has_settings else "playground.language_fixed",
            ),
        }
        return web.json_response(body)

    @staticmethod
    def _table_link_text(locale: str) -> str:
        return t(locale, "playground.jump")

    async def _attachment(self, request: web.Request) -> web.Response:
        message_id = request.match_info["message"]
        index = request.match_info["index"]
        for message in self.session.direct_messages():
            if str(message.id) == message_id and index.isdigit():
                attachments = message.attachments
                if int(index) < len(attachments):
                    data = self.session.attachment(attachments[int(index)].url)
                    if data is not None:
                        return web.Response(body=data, content_type="image/png")
        raise web.HTTPNotFound()

    # -- what the page does ------------------------------------------------------------------
    async def _restart(self, request: web.Request) -> web.Response:
        await self.session.restart_bot()
        return web.json_response({"ok": True})

    async def _show(self, request: web.Request) -> web.Response:
        body = await json_object(request, SHOW_EXAMPLE)
        locale = page_locale(request)
        channel = snowflake(body.get("channel"))
        if channel is None:
            raise bad_request(t(locale, "playground.api.shape", example=SHOW_EXAMPLE))
        if channel not in {c.id for c in self.session.world.channels}:
            raise bad_request(t(locale, "playground.api.unknown_channel", channel=channel))
        await self.session.show(channel)
        return web.json_response({"ok": True, "tableUrl": self.session.url})

    async def _lobby(self, request: web.Request) -> web.Response:
        body = await json_object(request, LOBBY_EXAMPLE)
        locale = page_locale(request)
        game = body.get("game")
        if not isinstance(game, str):
            raise bad_request(t(locale, "playground.api.shape", example=LOBBY_EXAMPLE))
        if game not in games.ids():
            known = ", ".join(games.ids())
            raise bad_request(t(locale, "playground.api.unknown_game", game=game, games=known))
        try:
            await self.session.new_lobby(game)
        except PlaygroundError as exc:
            error = t(locale, "playground.error", reason=exc.text(locale))
            return web.json_response({"ok": False, "error": error})
        return web.json_response({"ok": True, "tableUrl": self.session.url})


@cache
def font_faces() -> dict[str, dict[str, Any]]:
    """The table page's fonts by file name, as its manifest lists them."""
    manifest = json.loads((FONTS / "manifest.json").read_text(encoding="utf-8"))
    return {face["filename"]: face for face in manifest["fonts"]}


@cache
def fonts_css() -> str:
    """An @font-face rule for each of them, its file fetched beside this stylesheet."""
    rules = []
    for name, face in font_faces().items():
        rules.append(
            f'@font-face {{ font-family: "{face["family"]}"; '
            f'src: url("fonts/{name}") format("{face["format"]}"); '
            f"font-style: {face['style']}; font-weight: {face['weights']}; "
            "font-display: swap; }"
        )
    return "\n".join(rules) + "\n"


def snowflake(value: object) -> int | None:
    """A Discord id as the page sends it (a string of digits), or as a JSON number."""
    if isinstance(value, str) and value.isascii() and value.isdigit() and len(value) < 25:
        return int(value)
    if type(value) is int and value >= 0:
        return value
    return None


def bad_request(text: str) -> web.HTTPBadRequest:
    return web.HTTPBadRequest(text=text)


async def json_object(request: web.Request, example: str) -> dict[str, Any]:
    """The request's body, a JSON object; else a short plain answer saying what to send
    (400), or that the body is too large (413)."""
    locale = page_locale(request)
    try:
        raw = await request.read()
    except web.HTTPRequestEntityTooLarge:
        text = t(locale, "playground.api.too_large", limit=MAX_BODY)
        raise web.HTTPRequestEntityTooLarge(
            MAX_BODY, request.content_length or MAX_BODY, text=text
        ) from None
    try:
        body = json.loads(raw)
    except ValueError:  # not JSON, or not UTF-8
        raise bad_request(t(locale, "playground.api.not_json", example=example)) from None
    if not isinstance(body, dict):
        raise bad_request(t(locale, "playground.api.shape", example=example))
    return body


def dm_html(text: str, channels: dict[int, str], jump_text: str) -> str:
    """A DM's Discord markdown as safe HTML: bold, code, channel and user mentions, and
    message links turned into a link to the table page."""
    out = html.escape(text)
    out = BOLD.sub(r"<strong>\1</strong>", out)
    out = CODE.sub(r"<code>\1</code>", out)
    out = CHANNEL.sub(lambda m: "#" + channels.get(int(m.group(1)), "channel"), out)
    out = USER.sub(f"@{PERSON_NAME}", out)
    return JUMP.sub(
        lambda m: f'<a href="#" class="jump" data-channel="{m.group(1)}">{jump_text}</a>', out
    )
