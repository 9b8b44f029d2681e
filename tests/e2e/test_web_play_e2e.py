"""Sign in with Discord and play on the web pages, through the real bot (issue 55), in Chromium:
the same features as tests/test_web_play.py (over HTTP), here with the bot as a process
against the Discord imitation and the pages driven by clicks.

- Two players sign in through the imitation's OAuth2 pages (Sign in with Discord, then
  Authorize) in two browser contexts and play a whole Progressive Mancala match by clicking
  the buttons of the page's move panel (`#move`), options picked by a seeded random.Random;
  the channel gets one board per move, in order, none twice and none missing, the final one
  included; both pages end showing the result; screenshots at 360 px are not blank.
- The Activity: Open board on a Discord board answers LAUNCH_ACTIVITY; the imitation's
  Discord client opens the bot's entry page in its frame, the real SDK signs the player in
  and the frame goes to the match, where the player plays a move by clicking; the channel
  gets that move's board once; the session cookie in the frame is partitioned.
- With CORRAL_ACTIVITY off (the default) no board carries Open board.

One Chromium for the module (Playwright's objects belong to one event loop: the module's
tests and their async fixtures run on the module's loop). Without /usr/bin/chromium or
Playwright the browser tests skip with one line; with CI=true they fail."""

from __future__ import annotations

import asyncio
import json
import random
import re
import sqlite3
from pathlib import Path
from typing import Any

import pytest
import pytest_asyncio
from discord_fake import APP_ID, FakeDiscord
from discord_fake.oauth import open_activity
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
from support import chromium
from test_web_e2e import OVERFLOW, free_port, link_of, not_blank

from bot.web.signin import COOKIE

pytestmark = pytest.mark.asyncio(loop_scope="module")

PLAYED = re.compile(r"\*\*(?P<name>[^*]+)\*\* played `(?P<notation>[^`]+)`")
OPEN_BOARD = "c1:a:"


# -- fixtures, on the module's event loop ---------------------------------------------------
@pytest_asyncio.fixture(loop_scope="module")
async def fake():
    """conftest's `fake`, on the module's loop (the browser's)."""
    server = FakeDiscord()
    await server.start()
    yield server
    await server.stop()
    refused = server.refused()
    if refused and not server.refusals_expected:
        lines = [f"{r.method} {r.path} -> {(r.error or {}).get('code')} "
                 f"{json.dumps((r.error or {}).get('errors'))}" for r in refused]
        pytest.fail(f"Discord would refuse {len(refused)} request(s) of the bot:\n"
                    + "\n".join(lines)[:6000], pytrace=False)


@pytest_asyncio.fixture(scope="module", loop_scope="module")
async def browser():
    """Headless Chromium (Debian's package) through Playwright, once for the module."""
    async with chromium() as launched:
        yield launched


async def start_bot(fake: FakeDiscord, tmp_path: Path, bot_process: Any, *, activity: bool):
    """The bot with its pages on a known port, sign-in at the imitation's OAuth2, and the
    Activity on or off."""
    process = bot_process(fake, tmp_path / "corral.sqlite3", tmp_path / "bot.log")
    port = free_port()
    process.base = f"http://127.0.0.1:{port}"
    process.extra_env = {
        "CORRAL_WEB_BIND": f"127.0.0.1:{port}", "CORRAL_WEB_URL": f"{process.base}/",
        "DISCORD_CLIENT_ID": str(APP_ID), "DISCORD_CLIENT_SECRET": fake.client_secret}
    if activity:
        process.extra_env.update({"CORRAL_ACTIVITY": "on",
                                  "CORRAL_ACTIVITY_FRAME_ANCESTORS": "http://localhost:*"})
    fake.oauth_redirect_uris.add(process.base + "/auth/callback")
    await process.start()
    return process


async def stop_bot(process: Any) -> None:
    await process.stop()
    log = process.log.read_text()
    assert "Traceback" not in log, log[-4000:]


@pytest_asyncio.fixture(loop_scope="module")
async def activity_bot(fake, tmp_path, bot_process):
    process = await start_bot(fake, tmp_path, bot_process, activity=True)
    yield process
    await stop_bot(process)


@pytest_asyncio.fixture(loop_scope="module")
async def signin_bot(fake, tmp_path, bot_process):
    """Sign-in on, CORRAL_ACTIVITY left at its default (off)."""
    process = await start_bot(fake, tmp_path, bot_process, activity=False)
    yield process
    await stop_bot(process)


# -- helpers ----------------------------------------------------------------------------------
def watch(context: Any) -> list[str]:
    """Script errors, console errors and failed loads in every page of a context (the
    browser's favicon requests left out)."""
    problems: list[str] = []
    context.on("console", lambda m: problems.append(m.text) if m.type == "error" and not
               m.text.startswith("Failed to load resource") else None)
    context.on("weberror", lambda e: problems.append(str(e.error)))
    context.on("response", lambda r: problems.append(f"{r.status} {r.url}") if r.status >= 400
               and not r.url.endswith("/favicon.ico") else None)
    return problems


def played_in(text: str) -> list[str]:
    """The moves a board's words announce."""
    return [found["notation"] for found in PLAYED.finditer(text)]


def logged_moves(database: Path, match_id: int) -> list[tuple[str, int]]:
    db = sqlite3.connect(f"file:{database}?mode=ro", uri=True, timeout=10)
    try:
        return db.execute("SELECT notation, actor_id FROM moves WHERE match_id = ? AND "
                          "kind = 'move' ORDER BY seq", (match_id,)).fetchall()
    finally:
        db.close()


def match_id_of(board: dict[str, Any]) -> int:
    ids = {int(c["custom_id"].split(":")[2]) for c in components(board, 2)
           if c.get("custom_id", "").startswith(("c1:s:", "c1:m:", OPEN_BOARD))}
    assert len(ids) == 1, ids
    return ids.pop()


def showings(fake: FakeDiscord, channel_id: int) -> list[Any]:
    """Every board the channel was shown, in order, as it was then: a new message with a
    picture, or a board edited in place to show the next position (bot/quick.py); a picture
    shown again unchanged (a retired board's layout sent again) is the same showing."""
    public = {int(m["id"]) for m in fake.channel_messages(channel_id)}
    seen: dict[int, tuple[str | None, str]] = {}
    shown = []
    for picture in fake.pictures:
        if picture.channel_id != channel_id or picture.message_id not in public:
            continue
        said = (picture.alt, picture.text)
        if seen.get(picture.message_id) == said:
            continue
        seen[picture.message_id] = said
        shown.append(picture)
    return shown


async def check_one_board_per_move(fake: FakeDiscord, database: Path, match_id: int,
                                   first: int) -> list[Any]:
    """The channel's boards from showing `first` (the match's first board) on: one for the
    start and one per logged move, each announcing its move, in order (none twice, none
    missing), still so after a moment (nothing late)."""
    log = logged_moves(database, match_id)
    channel = fake.channel_id
    await fake.wait_for(lambda: len(showings(fake, channel)) >= first + len(log) + 1,
                        what=f"{len(log) + 1} boards", timeout=20)
    await fake.settle(0.5)
    shown = showings(fake, channel)[first:]
    announced = [played_in(p.text) for p in shown]
    assert announced == [[]] + [[notation] for notation, _ in log], (announced, log)
    return shown


PAGE_STATE = """() => {
  const m = document.getElementById('match');
  if (!m || document.readyState === 'loading') return null;
  return {version: m.dataset.version, moves: m.dataset.moves ?? null, live: m.dataset.live,
          result: document.getElementById('result').textContent.trim(),
          move: !!document.getElementById('move'), url: location.href};
}"""


async def page_state(page: Any) -> dict[str, Any] | None:
    try:
        return await page.evaluate(PAGE_STATE)
    except Exception:  # between two documents (the page reloads itself when the match moves)
        return None


async def settled(pages: list[Any], moves: int, timeout: float = 15.0) -> list[dict[str, Any]]:
    """Every page at the same version, each confirmed current by its live stream (data-moves
    is set by the stream's first event, when its version is the page's) with `moves` moves,
    or the match over (the result said; a finished match's page has no stream)."""
    loop = asyncio.get_running_loop()
    end = loop.time() + timeout
    while True:
        states = [await page_state(p) for p in pages]
        if all(states) and len({s["version"] for s in states}) == 1 and all(  # type: ignore[index]
                s["moves"] == str(moves) or (s["result"] and not s["live"])  # type: ignore[index]
                for s in states):
            return states  # type: ignore[return-value]
        if loop.time() > end:
            texts = [(p.url, (await p.inner_text("body"))[:300]) for p in pages]
            raise AssertionError(f"pages not settled at {moves} moves: {states} {texts}")
        await asyncio.sleep(0.02)


async def choose(page: Any, rng: random.Random) -> None:
    """Answer the move panel's question once: a button, a menu's option or check boxes,
    picked by `rng`; then the page the form leads to."""
    options = page.locator("#move .options button")
    count = await options.count()
    if count:
        target = options.nth(rng.randrange(count))
    elif await page.locator("#move select").count():
        values = await page.eval_on_selector_all("#move select option", "os => os.map(o => o.value)")
        await page.select_option("#move select", rng.choice(values))
        target = page.locator("#move button.choose")
    else:
        boxes = page.locator("#move input[type=checkbox]")
        picks = int(re.search(r"\d+", await page.inner_text("#move legend"))[0])
        for index in rng.sample(range(await boxes.count()), picks):
            await boxes.nth(index).check()
        target = page.locator("#move button.choose")
    async with page.expect_navigation(wait_until="domcontentloaded"):
        await target.click()


async def sign_in(browser: Any, fake: FakeDiscord, user: int, url: str, name: str):
    """A browser context logged in at the imitation, on the match page, signed in to Corral
    through Sign in with Discord and the imitation's Authorize."""
    context = await browser.new_context(viewport={"width": 360, "height": 800},
                                        extra_http_headers={"Accept-Language": "en"})
    await context.add_cookies(fake.login_cookies(user))
    problems = watch(context)
    page = await context.new_page()
    await page.goto(url)
    assert await page.locator("#move").count() == 0  # signed out: no move panel
    await page.click("#sign-in")
    await page.wait_for_url(lambda u: u.startswith(fake.authorize_url + "?"))
    await page.click("button[value=authorize]")
    await page.wait_for_url(lambda u: u.startswith(url.split("?")[0] + "?"))
    assert await page.inner_text("#signed-in") == f"Signed in as {name}"
    return context, page, problems


async def shot(page: Any, folder: Path, name: str) -> None:
    """The page at 360 px wide, full length: not blank, nothing past the screen's edge."""
    await page.wait_for_function(
        "() => [...document.images].every(i => i.hidden || (i.complete && i.naturalWidth))")
    png = await page.screenshot(full_page=True)
    not_blank(png)
    folder.mkdir(parents=True, exist_ok=True)
    (folder / f"{name}-360.png").write_bytes(png)
    assert await page.evaluate(OVERFLOW) == [], f"{name}: past the edge at 360 px"


# -- the tests ----------------------------------------------------------------------------------
async def test_two_players_sign_in_and_play_a_whole_match_on_the_pages(
        fake, activity_bot, browser, tmp_path):
    alice, bob = fake.add_user("Alice"), fake.add_user("Bob")
    first = len(showings(fake, fake.channel_id))
    board = await challenge_and_accept(fake, alice, bob, first="me")
    match_id = match_id_of(board)
    url = link_of(board)
    assert url is not None and url.startswith(activity_bot.base + "/m/")
    contexts, pages, problems = [], {}, []
    for user, name in ((alice, "Alice"), (bob, "Bob")):
        context, page, seen = await sign_in(browser, fake, user, url, name)
        contexts.append(context)
        pages[user] = page
        problems.append(seen)
    rng = random.Random(31)  # a whole match of 28 moves (random play, as the page offers)
    moves, clicks, shots = 0, 0, 0
    try:
        while True:
            states = dict(zip(pages, await settled(list(pages.values()), moves), strict=True))
            to_move = [user for user, state in states.items() if state["move"]]
            if not to_move:
                break
            assert len(to_move) == 1, states  # only the player to move has the panel
            page = pages[to_move[0]]
            if shots < 1:  # the move panel at 360 px
                await shot(page, tmp_path / "shots", "move-panel")
                shots += 1
            for _ in range(10):  # a move's steps, one question at a time
                await choose(page, rng)
                clicks += 1
                if "answers=" not in page.url:
                    break
            else:
                raise AssertionError("a move that never ends")
            # the form's answer is the page saying what was played (not a reload by the
            # page's own live stream, which would abort it)
            assert (await page.inner_text("#flash")).startswith("Played: "), page.url
            moves += 1
            assert moves < 400, "the match does not end"
        # both pages say how it ended; the channel had one board per move, the final one too
        results = {state["result"] for state in states.values()}
        assert len(results) == 1 and results != {""}, states
        for page in pages.values():
            assert await page.locator("#move").count() == 0
            assert await page.locator("#moves li").count() == moves
        await shot(pages[alice], tmp_path / "shots", "finished")
        log = logged_moves(activity_bot.database, match_id)
        assert len(log) == moves and {actor for _, actor in log} == {alice, bob}
        shown = await check_one_board_per_move(fake, activity_bot.database, match_id, first)
        assert "🏁" in shown[-1].text
        assert not board_buttons(fake, fake.messages[shown[-1].message_id])
        assert all(not problem for problem in problems), problems
        assert clicks >= moves >= 20
    finally:
        for context in contexts:
            await context.close()


async def test_open_board_launches_the_activity_which_signs_in_and_plays_a_move(
        fake, activity_bot, browser, tmp_path):
    alice, bob = fake.add_user("Alice"), fake.add_user("Bob")
    board = await challenge_and_accept(fake, alice, bob, first="me")
    assert mover(board, [alice, bob]) == alice
    match_id = match_id_of(board)
    opener = [c for c in components(board, 2) if c.get("custom_id", "").startswith(OPEN_BOARD)]
    assert [c["label"] for c in opener] == ["Open board"], components(board, 2)
    record = await fake.answered(await fake.click(alice, board, opener[0]["custom_id"]))
    assert record.kind == 12, record.callbacks  # LAUNCH_ACTIVITY
    [launch] = fake.activity_launches
    assert (launch.user_id, launch.channel_id) == (alice, fake.channel_id)
    before = len(boards(fake))
    context = await browser.new_context(viewport={"width": 360, "height": 800},
                                        extra_http_headers={"Accept-Language": "en"})
    problems = watch(context)
    try:
        await context.add_cookies(fake.login_cookies(alice))
        main = await context.new_page()
        popout, frame = await open_activity(
            main, fake.activity_url(activity_bot.base + "/", launch=launch))
        assert frame is not None and frame.url.startswith(activity_bot.base + "/?"), frame
        for _ in range(300):  # the SDK signs in, then the page goes to the channel's match
            if frame.url.startswith(activity_bot.base + "/m/"):
                break
            await popout.wait_for_timeout(50)
        client = fake.frame()
        assert frame.url.startswith(activity_bot.base + "/m/"), (
            problems, frame.url, client.commands, client.answers)
        assert client.launch_id == launch.launch_id
        assert [c for c in client.names() if c != "CAPTURE_LOG"] == ["AUTHORIZE", "AUTHENTICATE"]
        assert all(a[1].get("evt") != "ERROR" for a in client.answers), client.answers
        await frame.wait_for_selector("#match #move")
        assert await frame.inner_text("#signed-in") == "Signed in as Alice"
        # the session cookie, kept partitioned under the top site (Discord's, here the
        # imitation's localhost), SameSite=None and Secure as a cross-site frame needs
        [kept] = [c for c in await context.cookies() if c["name"] == COOKIE]
        assert kept.get("partitionKey") == "http://localhost", kept
        assert kept["sameSite"] == "None" and kept["secure"] and kept["httpOnly"], kept
        # one move from inside the frame, by clicks
        rng = random.Random(12)
        for _ in range(10):
            options = frame.locator("#move .options button")
            count = await options.count()
            assert count, await frame.inner_html("#match")
            async with frame.expect_navigation():
                await options.nth(rng.randrange(count)).click()
            if "answers=" not in frame.url:
                break
        assert (await frame.inner_text("#flash")).startswith("Played: ")
        await frame.wait_for_function(
            "() => document.getElementById('match').dataset.moves === '1'", timeout=10_000)
        assert await frame.locator("#moves li").count() == 1
        [(notation, actor)] = logged_moves(activity_bot.database, match_id)
        assert actor == alice
        after = await next_board(fake, before, what="the board of the frame's move")
        await fake.settle(0.5)
        assert len(boards(fake)) == before + 1 and played_in(says(after)) == [notation]
        assert any(c.get("custom_id", "").startswith(OPEN_BOARD) for c in components(after, 2))
        assert not problems, problems
    finally:
        await context.close()


async def test_without_the_activity_no_board_carries_open_board(fake, signin_bot):
    alice, bob = fake.add_user("Alice"), fake.add_user("Bob")
    board = await challenge_and_accept(fake, alice, bob, first="me")
    for _ in range(2):
        board = await play_button(fake, mover(board, [alice, bob]), board,
                                  sorted(board_buttons(fake, board))[0])
    shown = boards(fake)
    assert len(shown) == 3
    for message in shown:
        assert link_of(message) is not None  # the web page's link, with sign-in on
        assert not any(c.get("custom_id", "").startswith(OPEN_BOARD)
                       for c in components(message, 2)), components(message, 2)
        assert "Open board" not in [c.get("label") for c in components(message, 2)]
