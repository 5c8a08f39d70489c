"""The companion page ships its fonts as the table page does (issue 25, item 4): on a
machine with no CJK or emoji font, a real headless Chromium draws 繁體中文, 日本語 and emoji
on it with the fonts the page serves (SimCord's Noto Sans SC and Noto Color Emoji), not as
boxes from whatever the system has."""

from __future__ import annotations

import aiohttp
import pytest

from meeple_hall.bot.playground.browser import chromium
from meeple_hall.bot.playground.companion import FONTS, Companion, font_faces
from meeple_hall.bot.playground.session import Options, Session
from tests.bot.conftest import LANGUAGES

PROBE = "繁體中文：輪到你 日本語：あなたの手番 🎲🐉"
SERVED = {"Noto Sans SC", "Noto Color Emoji"}


async def test_the_fonts_are_served_beside_the_page(tmp_path) -> None:
    options = Options(game="village", players=2, db=tmp_path / "playground.db")
    async with Session(options) as session, aiohttp.ClientSession() as http:
        companion = Companion(session)
        await companion.start()
        try:
            async with http.get(f"{companion.url}fonts.css") as answer:
                css = await answer.text()
            families = {face["family"] for face in font_faces().values()}
            assert families >= SERVED
            for name in font_faces():
                assert f'url("fonts/{name}")' in css
            name = next(n for n, f in font_faces().items() if f["family"] == "Noto Sans SC")
            async with http.get(f"{companion.url}fonts/{name}") as answer:
                assert answer.status == 200 and answer.content_type == "font/ttf"
                assert await answer.read() == (FONTS / name).read_bytes()
            for stranger in ("manifest.json", "..%2Fmanifest.json", "nothing.ttf"):
                async with http.get(f"{companion.url}fonts/{stranger}") as answer:
                    assert answer.status == 404, stranger
            # without the session's token, nothing
            token_free = companion.url.rsplit("/", 2)[0] + f"/fonts/{name}"
            async with http.get(token_free) as answer:
                assert answer.status in (403, 404)
        finally:
            await companion.close()


@pytest.mark.browser
async def test_chromium_draws_cjk_and_emoji_with_the_served_fonts(tmp_path, chromium_path) -> None:
    """In each language's page, one playground and one browser for all three (a context of
    its own for each page: no font cached from another)."""
    options = Options(game="village", players=2, db=tmp_path / "playground.db")
    async with Session(options) as session, chromium(chromium_path) as browser:
        companion = Companion(session)
        await companion.start()
        try:
            for lang in LANGUAGES:
                context = await browser.new_context()
                page = await context.new_page()
                await page.goto(f"{companion.url}?lang={lang}")
                used = await fonts_drawing_the_probe(page)
                # every glyph of the probe came from a served font: CJK from Noto Sans SC,
                # emoji from Noto Color Emoji, none from a system font that would draw boxes
                assert used >= SERVED, (lang, used)
                assert used <= SERVED | {"Noto Sans"}, (lang, used)
                await context.close()
        finally:
            await companion.close()


async def fonts_drawing_the_probe(page) -> set[str]:
    """The served families (else the fonts' own names) Chromium draws PROBE with, once the
    served fonts have loaded."""
    await page.evaluate(
        """text => { const p = document.createElement("p"); p.id = "probe";
        p.textContent = text; document.body.append(p); }""",
        PROBE,
    )
    await page.evaluate("document.fonts.ready.then(() => true)")
    await page.wait_for_function(
        """() => [...document.fonts].filter(f => f.status === "loaded")
        .map(f => f.family.replaceAll('"', '')).filter(f =>
        ["Noto Sans SC", "Noto Color Emoji"].includes(f)).length >= 2""",
        timeout=15_000,
    )
    return {served_family(name) for name in await platform_fonts(page, "#probe")}


def served_family(name: str) -> str:
    """The served family a font Chromium names is from (it names a variable font's instance:
    `Noto Sans SC Thin`), else the name itself."""
    families = sorted({face["family"] for face in font_faces().values()}, key=len, reverse=True)
    return next((family for family in families if name.startswith(family)), name)


async def platform_fonts(page, selector: str) -> dict[str, int]:
    """The fonts Chromium drew an element's text with, and how many glyphs each (DevTools
    protocol: CSS.getPlatformFontsForNode)."""
    cdp = await page.context.new_cdp_session(page)
    await cdp.send("DOM.enable")
    await cdp.send("CSS.enable")
    root = await cdp.send("DOM.getDocument")
    node = await cdp.send(
        "DOM.querySelector", {"nodeId": root["root"]["nodeId"], "selector": selector}
    )
    text = await cdp.send("DOM.describeNode", {"nodeId": node["nodeId"], "depth": 1})
    fonts = await cdp.send("CSS.getPlatformFontsForNode", {"nodeId": node["nodeId"]})
    assert text["node"]["childNodeCount"] >= 1
    return {f["familyName"]: f["glyphCount"] for f in fonts["fonts"]}
