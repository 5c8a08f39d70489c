"""The table page as the person opens it: SimCord's preview, served through a small proxy
on its own loopback port that adds the playground's script (`static/table.js`) to the
page and, when the page is opened, points it at the newest table of the channel.

SimCord's preview has no place for a host's script; the proxy forwards every request
(its capability header included) to the preview unchanged but for the Host and Origin,
which name the preview's own address so that its checks pass as before.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from importlib.resources import files
from urllib.parse import urlsplit

from aiohttp import ClientSession, ClientTimeout, web

STATIC = files(__package__) / "static"
SCRIPT_PATH = "/meeple-hall-table.js"
PAGE_SCRIPT = '<script type="module" src="/app.js"></script>'
# The preview's requests that wait for the bot (an action answered after a move and its
# picture) can take a while on a loaded machine.
TIMEOUT = ClientTimeout(total=None, sock_read=300)
HOP_HEADERS = {"host", "origin", "content-length", "transfer-encoding", "connection"}


class TableProxy:
    """Serves the preview found at `upstream()` (its base address, which changes when the
    page shows another channel) on 127.0.0.1:`port`. `on_open` runs before each page load."""

    def __init__(
        self,
        upstream: Callable[[], str],
        on_open: Callable[[], Awaitable[None]],
        port: int = 0,
    ) -> None:
        self.upstream = upstream
        self.on_open = on_open
        self._requested_port = port
        self.port: int | None = None
        self.runner: web.AppRunner | None = None
        self.client: ClientSession | None = None

    def url(self, capability: str) -> str:
        return f"http://127.0.0.1:{self.port}/#{capability}"

    async def start(self) -> None:
        app = web.Application(client_max_size=64 * 1024 * 1024)
        app.router.add_get(SCRIPT_PATH, self._script)
        app.router.add_route("*", "/{path:.*}", self._forward)
        self.client = ClientSession(timeout=TIMEOUT, auto_decompress=False)
        self.runner = web.AppRunner(app, access_log=None)
        await self.runner.setup()
        site = web.TCPSite(self.runner, "127.0.0.1", self._requested_port)
        await site.start()
        self.port = int(self.runner.addresses[0][1])  # the port bound (port 0: any free one)

    async def close(self) -> None:
        if self.runner is not None:
            await self.runner.cleanup()
            self.runner = None
        if self.client is not None:
            await self.client.close()
            self.client = None

    def _own_host(self, request: web.Request) -> bool:
        return request.headers.get("Host") in {
            f"127.0.0.1:{self.port}",
            f"localhost:{self.port}",
        }

    async def _script(self, request: web.Request) -> web.Response:
        if not self._own_host(request):
            raise web.HTTPForbidden()
        text = (STATIC / "table.js").read_text(encoding="utf-8")
        return web.Response(text=text, content_type="application/javascript")

    async def _forward(self, request: web.Request) -> web.Response:
        # Only this machine's own names: a web page elsewhere cannot rebind to it.
        if not self._own_host(request) or self.client is None:
            raise web.HTTPForbidden()
        if request.path == "/" and request.method == "GET":
            await self.on_open()
        base = self.upstream()
        origin = f"{urlsplit(base).scheme}://{urlsplit(base).netloc}"
        headers = {k: v for k, v in request.headers.items() if k.lower() not in HOP_HEADERS}
        if "Origin" in request.headers:
            headers["Origin"] = origin
        async with self.client.request(
            request.method,
            origin + request.rel_url.path_qs,
            headers=headers,
            data=await request.read() if request.can_read_body else None,
            allow_redirects=False,
        ) as answer:
            body = await answer.read()
            out_headers = {k: v for k, v in answer.headers.items() if k.lower() not in HOP_HEADERS}
        if request.path == "/" and answer.status == 200:
            body = with_script(body)
        return web.Response(status=answer.status, body=body, headers=out_headers)


def with_script(page: bytes) -> bytes:
    """The preview's page with the playground's script loaded before the page's own."""
    text = page.decode("utf-8")
    ours = f'<script type="module" src="{SCRIPT_PATH}"></script>\n    '
    if PAGE_SCRIPT not in text:
        raise RuntimeError("SimCord's page no longer loads /app.js: update bot/playground/table.py")
    return text.replace(PAGE_SCRIPT, ours + PAGE_SCRIPT, 1).encode("utf-8")
