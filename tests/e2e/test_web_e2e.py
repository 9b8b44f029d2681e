"""The web companion through the real bot: with CORRAL_WEB_URL set, every board carries a URL
button to its match's page; the page follows the match live (server-sent events) as moves
are played in Discord; a server manager turns the links off in /corral settings.

In a real browser (Debian's headless Chromium, driven by Playwright with the installed
browser: nothing downloads one): the URL button's page shows each move as it is played,
the replay steps with the keyboard, and screenshots at 360 and 1280 px are not blank; the
same for a finished match's replay. Without /usr/bin/chromium (or Playwright) the browser
tests skip with one line; with CI=true they fail."""

from __future__ import annotations

import asyncio
import io
import json
import os
import socket
from pathlib import Path
from typing import Any

import aiohttp
import pytest
from e2e_helpers import (
    board_buttons,
    boards,
    challenge_and_accept,
    components,
    mover,
    next_board,
    play_button,
    says,
)
from PIL import Image
from support import chromium


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


@pytest.fixture
async def web_bot(fake, tmp_path, bot_process):
    """The bot with its pages on a known port and CORRAL_WEB_URL pointing at them."""
    process = bot_process(fake, tmp_path / "corral.sqlite3", tmp_path / "bot.log")
    port = free_port()
    process.extra_env = {"CORRAL_WEB_BIND": f"127.0.0.1:{port}",
                         "CORRAL_WEB_URL": f"http://127.0.0.1:{port}/"}
    process.base = f"http://127.0.0.1:{port}"
    await process.start()
    yield process
    await process.stop()
    log = process.log.read_text()
    assert "Traceback" not in log, log[-4000:]


def link_of(message: dict[str, Any]) -> str | None:
    links = [c for c in components(message, 2) if c.get("style") == 5]
    assert len(links) <= 1
    return links[0]["url"] if links else None


class Stream:
    """A page's live stream, read as the browser's EventSource reads it."""

    def __init__(self, response: aiohttp.ClientResponse):
        self.response = response

    async def next_state(self, timeout: float = 10.0) -> dict[str, Any]:
        data = b""
        while True:
            line = await asyncio.wait_for(self.response.content.readline(), timeout)
            if line.startswith(b"data: "):
                data = line[6:]
            elif line == b"\n" and data:
                return json.loads(data)

    async def until_version(self, version: int) -> dict[str, Any]:
        state = await self.next_state()
        while state["version"] < version:
            state = await self.next_state()
        return state


async def test_boards_link_to_a_page_that_follows_the_match_live(fake, web_bot):
    alice, bob = fake.add_user("Alice"), fake.add_user("Bob")
    board = await challenge_and_accept(fake, alice, bob, first="me")
    url = link_of(board)
    assert url is not None and url.startswith(web_bot.base + "/m/")
    assert len(url.rsplit("/", 1)[1]) == 22  # the token, not the match number
    async with aiohttp.ClientSession() as session:
        async with session.get(url) as response:
            assert response.status == 200
            page = await response.text()
            assert "Alice" in page and "Bob" in page
            assert 'property="og:image"' in page
        async with session.get(url + "/live?lang=en") as response:
            stream = Stream(response)
            first = await stream.next_state()
            assert first["moves"] == [] and "to move" in first["turn"]
            for n in range(1, 4):
                who = mover(board, [alice, bob])
                value = sorted(board_buttons(fake, board))[0]
                board = await play_button(fake, who, board, value)
                assert link_of(board) == url  # every board links to the same page
                seen = await stream.until_version(first["version"] + n)
                assert len(seen["moves"]) == n and seen["board"].endswith(".png")
            async with session.get(web_bot.base + seen["board"]) as picture:
                assert picture.status == 200 and picture.content_type == "image/png"
                assert "immutable" in picture.headers["Cache-Control"]
        # a server manager turns the links off: no link on the next board, and no page
        mod = fake.add_user("Mod")
        await fake.answered(await fake.slash(mod, "corral", subcommand="settings",
                                             manager=True, web_links=False))
        who = mover(board, [alice, bob])
        board = await play_button(fake, who, board, sorted(board_buttons(fake, board))[0])
        assert link_of(board) is None
        async with session.get(url) as response:
            assert response.status == 404


async def test_the_pages_as_a_process_of_their_own_follow_the_bot(fake, web_bot, tmp_path):
    """`python -m bot.web` beside the bot, on the same store: it learns of new moves by
    reading the watched matches' versions."""
    import sys

    alice, bob = fake.add_user("Alice"), fake.add_user("Bob")
    board = await challenge_and_accept(fake, alice, bob, first="me")
    token = link_of(board).rsplit("/", 1)[1]
    port = free_port()
    env = web_bot.env()
    env["CORRAL_WEB_BIND"] = f"127.0.0.1:{port}"
    with open(tmp_path / "web.log", "ab") as log:
        proc = await asyncio.create_subprocess_exec(
            sys.executable, "-m", "bot.web", cwd=str(web_bot.database.parent), env=env,
            stdout=log, stderr=log)
    base = f"http://127.0.0.1:{port}"
    try:
        async with aiohttp.ClientSession() as session:
            for _ in range(300):
                try:
                    async with session.get(base + "/healthz") as response:
                        if response.status == 200:
                            break
                except aiohttp.ClientError:
                    pass
                await asyncio.sleep(0.1)
            async with session.get(f"{base}/m/{token}/live") as response:
                stream = Stream(response)
                first = await stream.next_state()
                for n in (1, 2):
                    who = mover(board, [alice, bob])
                    board = await play_button(fake, who, board,
                                              sorted(board_buttons(fake, board))[0])
                    seen = await stream.until_version(first["version"] + n)
                    assert len(seen["moves"]) == n
            async with session.get(f"{base}/metrics") as response:
                assert response.status == 404  # the bot's own figures are the bot's
    finally:
        proc.terminate()
        assert await asyncio.wait_for(proc.wait(), 20) == 0
    assert "Traceback" not in (tmp_path / "web.log").read_text()


# -- in a real browser ------------------------------------------------------------------------
@pytest.fixture
async def browser():
    """Headless Chromium (Debian's package) through Playwright."""
    async with chromium() as launched:
        yield launched


def not_blank(png: bytes) -> None:
    """A screenshot with a page on it: many colours (text, the board), not one flat fill."""
    image = Image.open(io.BytesIO(png)).convert("RGB")
    colours = image.getcolors(maxcolors=1 << 20) or []
    assert len(colours) > 50, f"{len(colours)} colours: blank?"
    assert max(count for count, _ in colours) < 0.97 * image.width * image.height


async def open_page(browser, url: str, width: int = 360):
    page = await browser.new_page(viewport={"width": width, "height": 800},
                                  extra_http_headers={"Accept-Language": "en"})
    problems: list[str] = []
    page.on("console", lambda m: problems.append(m.text) if m.type == "error" else None)
    page.on("pageerror", lambda e: problems.append(str(e)))
    await page.goto(url)
    return page, problems


# what runs past the right or left edge of the screen, outside a box that scrolls by design
OVERFLOW = """() => {
  const width = window.innerWidth, out = [];
  if (document.scrollingElement.scrollWidth > width)
    out.push('page ' + document.scrollingElement.scrollWidth + ' > ' + width);
  for (const el of document.body.querySelectorAll('*')) {
    if (el.closest('.scroll')) continue;
    const r = el.getBoundingClientRect();
    if (r.width && (r.right > width + 0.5 || r.left < -0.5))
      out.push(el.tagName + (el.id ? '#' + el.id : '') + ' ' + r.left + '..' + r.right);
  }
  return out;
}"""
SHOTS = Path(os.environ.get("CORRAL_WEB_SHOTS", "")) if os.environ.get("CORRAL_WEB_SHOTS") \
    else None  # set to a folder to keep the screenshots for a look


async def shots(page, problems: list[str], name: str = "page") -> None:
    """Screenshots at 360 and 1280 px wide, neither blank, nothing past the screen's edge
    (a phone would cut it), nothing refused by the page's Content-Security-Policy or failing
    in its script."""
    for width in (360, 1280):
        await page.set_viewport_size({"width": width, "height": 800})
        await page.wait_for_function(
            "() => [...document.images].every(i => i.hidden || (i.complete && i.naturalWidth))")
        png = await page.screenshot(full_page=True)
        not_blank(png)
        if SHOTS is not None:
            SHOTS.mkdir(parents=True, exist_ok=True)
            lang = await page.evaluate("() => document.documentElement.lang")
            (SHOTS / f"{name}-{lang}-{width}.png").write_bytes(png)
        assert await page.evaluate(OVERFLOW) == [], f"past the edge at {width} px"
    assert problems == [], problems


async def step_replay(page, total: int) -> None:
    """The replay, by the keyboard: Home, → twice, End, ← (each position's picture loads)."""
    async def at(ply: int) -> None:
        await page.wait_for_function(
            f"() => document.getElementById('replayer').dataset.ply === '{ply}'")
        await page.wait_for_function(
            "() => { const i = document.getElementById('frame');"
            " return i.complete && i.naturalWidth > 0; }")
        src = await page.get_attribute("#frame", "src")
        assert src.split("/")[-1].startswith(f"{ply}-"), src
        assert await page.get_attribute("#frame", "alt")
        assert await page.input_value("#slider") == str(ply)

    await at(0)  # a replay opens at the start, as a player expects
    await page.keyboard.press("End")
    await at(total)
    await page.keyboard.press("Home")
    await at(0)
    for ply in (1, 2):
        await page.keyboard.press("ArrowRight")
        await at(ply)
    await page.keyboard.press("End")
    await at(total)
    await page.keyboard.press("ArrowLeft")
    await at(total - 1)
    await page.click("#next")
    await at(total)


async def test_in_a_browser_the_page_shows_each_move_live_and_replays(fake, web_bot, browser):
    alice, bob = fake.add_user("Alice"), fake.add_user("Bob")
    board = await challenge_and_accept(fake, alice, bob, first="me")
    url = link_of(board)
    assert url is not None
    page, problems = await open_page(browser, url)
    await page.wait_for_function("() => document.getElementById('match').dataset.moves === '0'")
    for n in range(1, 5):
        who = mover(board, [alice, bob])
        board = await play_button(fake, who, board, sorted(board_buttons(fake, board))[0])
        await page.wait_for_function(
            f"() => document.getElementById('match').dataset.moves === '{n}'", timeout=10_000)
        assert await page.locator("#moves li").count() == n
        version = await page.get_attribute("#match", "data-version")
        assert (await page.get_attribute("#board", "src")).endswith(f"/{version}-en.png")
    assert "to move" in await page.inner_text("#turn")
    await shots(page, problems, "match")
    await page.click("#replay")
    await page.wait_for_selector("#replayer")
    await step_replay(page, 4)
    await shots(page, problems, "replay")


async def test_in_a_browser_a_finished_match_replays_with_its_downloads(fake, web_bot, browser):
    alice, bob = fake.add_user("Alice"), fake.add_user("Bob")
    board = await challenge_and_accept(fake, alice, bob, first="me")
    for _ in range(3):
        who = mover(board, [alice, bob])
        board = await play_button(fake, who, board, sorted(board_buttons(fake, board))[0])
    confirm = await fake.answered(await fake.slash(alice, "resign"))
    before = len(boards(fake))
    await fake.answered(await fake.click(alice, confirm.original,
                                         fake.custom_ids(confirm.original)[0]))
    final = await next_board(fake, before, what="the final board")
    url = link_of(final)
    assert url is not None
    page, problems = await open_page(browser, url + "/replay", width=1280)
    await page.wait_for_selector("#replayer")
    assert "resigned" in await page.inner_text("#result")
    await step_replay(page, 3)
    await shots(page, problems, "replay-finished")
    # the finished match's own page says it is over (nothing live to follow)
    await page.goto(url + "?lang=ja")
    assert "対局は終了しました" in await page.inner_text("#live")
    await shots(page, problems, "match-finished")
    async with aiohttp.ClientSession() as session:
        for link in await page.locator("a[download]").all():
            async with session.get(web_bot.base + await link.get_attribute("href")) as got:
                assert got.status == 200 and len(await got.read()) > 50


async def test_in_a_browser_the_tournament_page_follows_its_thread(fake, web_bot, browser):
    """A tournament's sign-up message and round announcement carry a URL button to its page;
    in the browser the page shows the standings (a hostile name as text), the round's match
    linked to its page, and reloads itself when the match ends."""
    from test_tournament_e2e import (
        announcements,
        create,
        join_all,
        match_thread,
        pairings,
        resign,
        signup_message,
    )

    mod = fake.add_user("Mod")
    people = [fake.add_user(name) for name in ("Ann", "<b>Bo</b>", "Cy")]
    tid, thread = await create(fake, mod, game="progressive-mancala", format="swiss",
                               rounds=1, time="1d", round_time="2d", signup="1d", title="Cup")
    await join_all(fake, thread, people)
    url = link_of(await signup_message(fake, thread))
    assert url is not None and url.startswith(f"{web_bot.base}/t/{tid}/")
    assert len(url.rsplit("/", 1)[1]) == 22  # a signature, not guessable from the number
    start = await fake.answered(await fake.slash(mod, "tournament", subcommand="start",
                                                 channel_id=thread, manager=True))
    assert "starts" in says(start.original)
    announced = (await announcements(fake, thread, f"Tournament #{tid}, round 1", 1))[0]
    assert link_of(announced) == url
    [(match_id, _first, second)] = pairings(announced)
    page, problems = await open_page(browser, url)
    assert await page.inner_text("#title") == f"Tournament #{tid}: Cup"
    assert "<b>Bo</b>" in await page.inner_text("#standings")
    href = await page.get_attribute("#round-matches a", "href")
    assert href is not None and href.startswith("/m/")
    version = await page.get_attribute("#tournament", "data-version")
    await resign(fake, second, await match_thread(fake, match_id))
    await page.wait_for_function(
        "v => { const t = document.getElementById('tournament');"
        " return t && t.dataset.version !== v; }", arg=version, timeout=10_000)
    assert "over" in await page.inner_text("#status")
    assert "+" in await page.inner_text("#crosstable")  # the win, against rank 2 or 3
    assert "rank" in await page.inner_text("#cross-legend")
    await shots(page, problems, "tournament")
    response = await page.goto(web_bot.base + href)
    assert response is not None and response.status == 200
    assert f"Match #{match_id}" in await page.inner_text("#title")
    # a server manager turns links off: the tournament has no page any more
    await fake.answered(await fake.slash(mod, "corral", subcommand="settings",
                                         manager=True, web_links=False))
    async with aiohttp.ClientSession() as session, session.get(url) as gone:
        assert gone.status == 404
