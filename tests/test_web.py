"""The web companion's pages over a real store and service (each back end): a page shows what a
channel spectator sees and nothing more (Consequence's hidden tiles), names are escaped,
every answer carries a strict Content-Security-Policy, only GET and HEAD are served, and
malformed or hostile requests get a plain 4xx and change nothing."""

from __future__ import annotations

import asyncio
import io
import json
import random
import re

import aiohttp
import pytest
from PIL import Image
from support import ALICE, BOB

from bot.pictures import board_picture, replay_frame
from bot.pool import Workers
from bot.service import Player
from bot.web.pages import CSP
from bot.web.server import WebServer, _Standalone
from games import get_game

HOSTILE_NAME = "<img src=x onerror=alert(1)>"


@pytest.fixture
async def site(store, service):
    workers = Workers(1, "thread")
    server = WebServer(_Standalone(store, service, workers), None, "127.0.0.1", 0,  # type: ignore[arg-type]
                       base_url="https://corral.example.org")
    await server.start()
    yield f"http://127.0.0.1:{server.port}", server
    await server.stop()
    workers.shutdown()


async def fetch(url: str, method: str = "GET", **kw) -> tuple[int, dict[str, str], bytes]:
    async with aiohttp.ClientSession() as session, session.request(
            method, url, allow_redirects=False, **kw) as response:
        return response.status, dict(response.headers), await response.read()


async def consequence_in_progress(service, moves: int = 6, host: Player = ALICE):
    match = await service.open_match(game_id="consequence", options={}, host=host,
                                     opponent=BOB, guild_id=1, channel_id=830, first="me")
    match = await service.accept(match.id, BOB.user_id)
    rng = random.Random(5)
    played = []
    for _ in range(moves):
        mover = match.to_move()
        before = match.state
        notation = rng.choice(service.legal_moves_for(match, mover.user_id))
        played.append((before, notation))
        match = (await service.play(match.id, mover.user_id, notation)).match
    return match, played


def private_notations(game, played) -> set[str]:
    """Each move as its player wrote it, where that says more than the public notation."""
    secret = set()
    for before, notation in played:
        move = game.parse_move(before, notation)
        full, public = game.format_move(before, move), game.public_notation(before, move)
        if full != public:
            secret.add(full)
    return secret


async def every_page(base: str, token: str, version: int, plies: int) -> dict[str, bytes]:
    """Every page, picture, stream event and download of a match, both languages."""
    got: dict[str, bytes] = {}
    for lang in ("en", "ja"):
        for path in (f"/m/{token}?lang={lang}", f"/m/{token}/replay?lang={lang}",
                     f"/m/{token}/state.json?lang={lang}", f"/m/{token}/record.txt",
                     f"/m/{token}/board/{version}-{lang}.png", f"/m/{token}/replay-{lang}.gif",
                     *(f"/m/{token}/frame/{version}/{ply}-{lang}.png"
                       for ply in range(plies + 1))):
            status, _, body = await fetch(base + path)
            assert status == 200, (path, status, body[:200])
            got[path] = body
        got[f"live-{lang}"] = await first_event(base + f"/m/{token}/live?lang={lang}")
    return got


async def first_event(url: str) -> bytes:
    async with aiohttp.ClientSession() as session, session.get(url) as response:
        assert response.headers["Content-Type"].startswith("text/event-stream")
        data = b""
        while b"\n\n" not in data:
            data += await asyncio.wait_for(response.content.readany(), 10)
        return data


async def test_a_consequence_page_in_progress_shows_no_hidden_tile(site, service, store):
    base, _ = site
    match, played = await consequence_in_progress(service)
    game = get_game("consequence")
    row = match.row
    assert row.web_token and len(row.web_token) == 22
    pages = await every_page(base, row.web_token, row.version, len(played))
    secret = private_notations(game, played)
    assert secret, "the moves chosen hide nothing: the test would prove nothing"
    hands = [sorted(h) for h in match.state.hands]
    assert any(hands)
    for path, body in pages.items():
        if path.endswith((".png", ".gif")):
            continue
        text = body.decode()
        for notation in secret:
            assert notation not in text, (path, notation)
    # pictures: each is the public observation's, and a player's own view (their hand) differs
    names = match.names()
    for lang in ("en", "ja"):
        public = board_picture("consequence", row.state, None, names, None, lang)
        assert pages[f"/m/{row.web_token}/board/{row.version}-{lang}.png"] == public
        for seat in (0, 1):
            assert board_picture("consequence", row.state, seat, names, None, lang) != public
    entries = [["move", n] for _, n in played]
    for ply in range(len(played) + 1):
        frame = pages[f"/m/{row.web_token}/frame/{row.version}/{ply}-en.png"]
        expected, _ = replay_frame("consequence", 2, row.options, entries, ply, names, None,
                                   "en", False)
        assert frame == expected
    gif = Image.open(io.BytesIO(pages[f"/m/{row.web_token}/replay-en.gif"]))
    assert gif.n_frames == len(played) + 1
    # what the stream sends is the page's own view
    event = pages["live-en"].decode()
    data = json.loads(re.search(r"^data: (.*)$", event, re.M).group(1))
    assert data["version"] == row.version and len(data["moves"]) == len(played)


async def test_after_the_end_the_record_shows_what_the_rules_reveal(site, service):
    base, _ = site
    match, played = await consequence_in_progress(service)
    game = get_game("consequence")
    secret = private_notations(game, played)
    match = await service.resign(match.id, ALICE.user_id)
    token = match.row.web_token
    _, _, record = await fetch(f"{base}/m/{token}/record.txt")
    assert all(notation in record.decode() for notation in secret)
    status, _, page = await fetch(f"{base}/m/{token}?lang=en")
    assert status == 200 and b"Result:" in page
    # a finished match's page no longer says it follows the match, nor opens a stream
    assert b"Live: this page follows" not in page and b"The match is over" in page
    assert b'data-live=""' in page
    # and it says how to reach its analysis (none was offered: issue 50), in either language
    assert f"<code>/analysis match:{match.id}</code> in Discord".encode() in page
    _, _, japanese = await fetch(f"{base}/m/{token}?lang=ja")
    assert f"<code>/分析 対局番号:{match.id}</code>".encode() in japanese


async def test_names_are_escaped_and_pages_send_a_strict_policy(site, service):
    base, _ = site
    hostile = Player(ALICE.user_id, HOSTILE_NAME)
    match = await service.open_match(game_id="progressive-mancala", options={}, host=hostile,
                                     opponent=BOB, guild_id=1, channel_id=500, first="me")
    match = await service.accept(match.id, BOB.user_id)
    token = match.row.web_token
    for path in (f"/m/{token}", f"/m/{token}/replay", f"/m/{token}/state.json"):
        status, headers, body = await fetch(base + path)
        assert status == 200
        assert headers["Content-Security-Policy"] == CSP and "'unsafe-inline'" not in CSP
        assert headers["X-Content-Type-Options"] == "nosniff"
        text = body.decode()
        assert HOSTILE_NAME not in text and "<img src=x" not in text, path
        assert "&lt;img src=x onerror=alert(1)&gt;" in text or "\\u003cimg" in text or \
            "<img src" not in text
    _, _, page = await fetch(f"{base}/m/{token}")
    assert "&lt;img src=x onerror=alert(1)&gt;" in page.decode()
    assert "<script>" not in page.decode() and 'style="' not in page.decode()
    # OpenGraph: the board picture's URL, at the public base URL
    assert re.search(r'<meta property="og:image" content="https://corral\.example\.org/m/'
                     + re.escape(token) + r'/board/\d+-en\.png">', page.decode())


async def snapshot(store, match_id: int):
    row = await store.get_match(match_id)
    return row.version, len(await store.moves(match_id)), await store.outbox_backlog()


async def test_hostile_requests_get_a_plain_4xx_and_change_nothing(site, service, store):
    base, _ = site
    match = await service.open_match(game_id="progressive-mancala", options={}, host=ALICE,
                                     opponent=BOB, guild_id=1, channel_id=500, first="me")
    match = await service.accept(match.id, BOB.user_id)
    token = match.row.web_token
    before = await snapshot(store, match.id)
    page = f"{base}/m/{token}"
    for method in ("POST", "PUT", "DELETE", "PATCH", "OPTIONS"):
        for url in (page, f"{base}/m/{token}/live", f"{base}/healthz", f"{base}/nothing"):
            status, headers, body = await fetch(url, method, data=b"x=1")
            assert status == 405 and headers["Allow"] == "GET, HEAD", (method, url)
            assert body == b"Method not allowed\n"
    status, headers, body = await fetch(page, "HEAD")
    assert status == 200 and body == b""
    other = "A" * 22 if token != "A" * 22 else "B" * 22
    for path in (f"/m/{other}", f"/m/{token[:-1]}", f"/m/{token}x", f"/m/{match.id}",
                 "/m/" + "%E2%91%A0" * 22, f"/m/{token}/board/99999-en.png".replace(
                     "99999", "9" * 12), f"/m/{token}/frame/{match.row.version}/999-en.png",
                 f"/m/{token}/board/1-fr.png", "/m/", "/m", "/static/../bot/config.py",
                 "/static/%2e%2e/%2e%2e/bot/config.py", "/static/..%2fweb.js",
                 "/static/web.py", "/%00", "/m/" + token + "%00", "/" + "a" * 5000):
        status, headers, body = await fetch(base + path)
        assert 400 <= status < 500, (path, status)
        assert headers["Content-Security-Policy"] == CSP, path
        assert len(body) < 100 and b"Traceback" not in body, path
    # a stale board URL leads to the current one (a link pasted yesterday still shows a board)
    assert match.row.version != 0
    status, headers, _ = await fetch(f"{page}/board/0-en.png")
    assert status == 302 and headers["Location"].endswith(f"/{match.row.version}-en.png")
    # odd headers: a page all the same, never an error
    for headers in ({"Accept-Language": "x" * 5000}, {"Accept-Language": "ja;q=abc,,;;"},
                    {"If-None-Match": 'W/"x", *, "' * 50}, {"Range": "bytes=-1-2"},
                    {"Cookie": "a" * 4000}, {"Accept-Language": "ja;q=0.9, en;q=0.1"}):
        status, _, _ = await fetch(page, headers=headers)
        assert status == 200, headers
    # a request too large for a server to read: a plain 4xx from the HTTP parser
    reader, writer = await asyncio.open_connection("127.0.0.1", int(base.rsplit(":", 1)[1]))
    writer.write(b"GET /" + b"a" * 20000 + b" HTTP/1.1\r\nHost: x\r\n\r\n")
    await writer.drain()
    line = await asyncio.wait_for(reader.readline(), 10)
    writer.close()
    assert line.split()[1][:1] == b"4", line
    reader, writer = await asyncio.open_connection("127.0.0.1", int(base.rsplit(":", 1)[1]))
    writer.write(b"GARBAGE\r\n\r\n")
    await writer.drain()
    line = await asyncio.wait_for(reader.readline(), 10)
    writer.close()
    assert line.split()[1][:1] == b"4", line
    assert await snapshot(store, match.id) == before


async def test_a_server_that_turned_links_off_has_no_pages(site, service, store):
    base, _ = site
    match = await service.open_match(game_id="progressive-mancala", options={}, host=ALICE,
                                     opponent=BOB, guild_id=1, channel_id=500, first="me")
    match = await service.accept(match.id, BOB.user_id)
    status, _, _ = await fetch(f"{base}/m/{match.row.web_token}")
    assert status == 200
    await service.update_settings(1, is_manager=True, web_links=False)
    status, _, _ = await fetch(f"{base}/m/{match.row.web_token}")
    assert status == 404


async def test_the_stream_sends_each_new_version(site, service, store):
    base, server = site
    match = await service.open_match(game_id="progressive-mancala", options={}, host=ALICE,
                                     opponent=BOB, guild_id=1, channel_id=500, first="me")
    match = await service.accept(match.id, BOB.user_id)
    async with aiohttp.ClientSession() as session, session.get(
            f"{base}/m/{match.row.web_token}/live?lang=ja") as response:
        events = response.content

        async def next_state() -> dict:
            data = b""
            while True:
                line = await asyncio.wait_for(events.readline(), 10)
                if line.startswith(b"data: "):
                    data = line[6:]
                elif line == b"\n" and data:
                    return json.loads(data)

        first = await next_state()
        assert first["version"] == match.row.version and first["moves"] == []
        for _ in range(3):
            mover = match.to_move()
            notation = service.legal_moves_for(match, mover.user_id)[0]
            match = (await service.play(match.id, mover.user_id, notation)).match
            server.kick()  # as the bot does when a change commits (else the next poll)
            seen = await next_state()
            while seen["version"] < match.row.version:
                seen = await next_state()
            assert seen["version"] == match.row.version
            assert len(seen["moves"]) == match.ply()
            assert "番" in seen["turn"] or "手番" in seen["turn"] or seen["turn"]


async def test_a_players_page_has_their_rating_chart_and_recent_public_matches(site, service):
    base, _ = site
    match = await service.open_match(game_id="progressive-mancala", options={}, host=ALICE,
                                     opponent=BOB, guild_id=1, channel_id=500, first="me",
                                     rated=True)
    match = await service.accept(match.id, BOB.user_id)
    for _ in range(2):  # resigned after two moves: rated
        mover = match.to_move()
        notation = service.legal_moves_for(match, mover.user_id)[0]
        match = (await service.play(match.id, mover.user_id, notation)).match
    match = await service.resign(match.id, BOB.user_id)
    assert match.status == "finished"
    _, _, page = await fetch(f"{base}/m/{match.row.web_token}?lang=en")
    paths = re.findall(r'href="(/p/\d+/\d+/[A-Za-z0-9_-]{22})\?lang=en">([^<]*)<',
                       page.decode())
    assert sorted(name for _, name in paths) == ["Alice", "Bob"]
    alice = next(path for path, name in paths if name == "Alice")
    assert alice.split("/")[2:4] == ["1", str(ALICE.user_id)]  # her page in server 1
    status, headers, body = await fetch(f"{base}{alice}?lang=ja")
    text = body.decode()
    assert status == 200 and headers["Content-Security-Policy"] == CSP
    assert f'/m/{match.row.web_token}?lang=ja' in text and "Bob" in text
    chart = re.search(r'<img id="chart" src="([^"]+)" alt="([^"]+)"', text)
    assert chart and "Alice" in chart.group(2)
    status, headers, png = await fetch(base + chart.group(1))
    assert status == 200 and headers["Content-Type"] == "image/png"
    Image.open(io.BytesIO(png)).verify()
    # another player's number or another server's under Alice's signature, or a forged
    # one: no page
    sig = alice.rsplit("/", 1)[1]
    for path in (f"/p/1/{BOB.user_id}/{sig}", f"/p/2/{ALICE.user_id}/{sig}",
                 f"/p/1/{ALICE.user_id}/{'A' * 22}", f"/p/1/{ALICE.user_id}/{sig[:-1]}",
                 f"/p/1/{ALICE.user_id}", f"/p/{ALICE.user_id}/{sig}"):
        status, _, _ = await fetch(base + path)
        assert status == 404, path
    # her matches in another server are not on the page server 1's match pages link
    other = await service.open_match(game_id="progressive-mancala", options={}, host=ALICE,
                                     opponent=BOB, guild_id=2, channel_id=501, first="me")
    other = await service.accept(other.id, BOB.user_id)
    other = await service.resign(other.id, BOB.user_id)
    _, _, body = await fetch(f"{base}{alice}")
    assert match.row.web_token in body.decode()
    assert other.row.web_token not in body.decode()
    _, _, page = await fetch(f"{base}/m/{other.row.web_token}?lang=en")
    elsewhere = re.search(r'href="(/p/2/\d+/[^"?]+)\?lang=en">Alice<', page.decode()).group(1)
    _, _, body = await fetch(f"{base}{elsewhere}")
    assert other.row.web_token in body.decode()
    assert match.row.web_token not in body.decode()
    # a server that turned its links off: no page of its own for her any more
    await service.update_settings(1, is_manager=True, web_links=False)
    status, _, body = await fetch(f"{base}{alice}")
    assert status == 404 and match.row.web_token not in body.decode()


async def test_japanese_pages_read_in_japanese(site, service):
    """What a Japanese viewer reads (the words between the tags, the pictures' alt texts,
    the live state) has no English but the language switch's own name."""
    from html.parser import HTMLParser

    from test_japanese_screens import english_words

    class Words(HTMLParser):
        def __init__(self) -> None:
            super().__init__()
            self.out: list[str] = []

        def handle_data(self, data: str) -> None:
            self.out.append(data)

        def handle_starttag(self, tag: str, attrs: list) -> None:
            self.out += [v or "" for k, v in attrs if k in ("alt", "aria-label", "data-alt")]

    base, _ = site
    hanako, taro = Player(ALICE.user_id, "花子"), Player(BOB.user_id, "太郎")
    for game in ("progressive-mancala", "consequence"):
        match = await service.open_match(game_id=game, options={}, host=hanako, opponent=taro,
                                         guild_id=1, channel_id=700, first="me")
        match = await service.accept(match.id, BOB.user_id)
        for _ in range(2):
            mover = match.to_move()
            notation = service.legal_moves_for(match, mover.user_id)[0]
            match = (await service.play(match.id, mover.user_id, notation)).match
        match = await service.resign(match.id, BOB.user_id)
        token = match.row.web_token
        _, _, page = await fetch(f"{base}/m/{token}?lang=ja")
        player = re.search(r'href="(/p/[^"?]+)', page.decode()).group(1)
        for path in (f"/m/{token}?lang=ja", f"/m/{token}/replay?lang=ja", f"{player}?lang=ja"):
            _, _, body = await fetch(base + path)
            words = Words()
            words.feed(body.decode())
            text = " ".join(words.out).replace("English", "").replace("Corral", "")
            assert not english_words(text), (path, english_words(text))


async def rated_game(service, guild_id: int, channel_id: int):
    """A rated Mancala match in `guild_id`, Bob resigning after two moves."""
    match = await service.open_match(game_id="progressive-mancala", options={}, host=ALICE,
                                     opponent=BOB, guild_id=guild_id, channel_id=channel_id,
                                     first="me", rated=True)
    match = await service.accept(match.id, BOB.user_id)
    for _ in range(2):
        mover = match.to_move()
        notation = service.legal_moves_for(match, mover.user_id)[0]
        match = (await service.play(match.id, mover.user_id, notation)).match
    return await service.resign(match.id, BOB.user_id)


async def test_a_players_page_counts_only_its_own_servers_rated_games(site, service):
    """Issue 51 point 7: server 1's page of Alice counted and charted her rated games in
    server 2, which turned pages off; a server that said no to pages must not show through."""
    base, _ = site
    await service.update_settings(2, is_manager=True, web_links=False)
    here = await rated_game(service, 1, 500)
    for _ in range(3):
        await rated_game(service, 2, 501)
    _, _, page = await fetch(f"{base}/m/{here.row.web_token}?lang=en")
    alice = re.search(r'href="(/p/1/\d+/[^"?]+)\?lang=en">Alice<', page.decode()).group(1)
    _, _, body = await fetch(f"{base}{alice}?lang=en")
    alt = re.search(r'<img id="chart" src="([^"]+)" alt="([^"]+)"', body.decode())
    assert alt and "last 1 rated games" in alt.group(2), alt and alt.group(2)


async def test_a_signed_link_to_a_player_with_no_finished_match_is_a_page(site, service):
    """Issue 51 point 10: a valid signed link to a member with no finished match was a 404;
    it is a page that says there is nothing to show yet, with no chart. A bad signature
    stays 404."""
    base, server = site
    match = await service.open_match(game_id="progressive-mancala", options={}, host=ALICE,
                                     opponent=BOB, guild_id=1, channel_id=840, first="me")
    await service.accept(match.id, BOB.user_id)  # being played: the link on its page
    path = await server.pages.player_path(BOB.user_id, 1)
    status, _, body = await fetch(f"{base}{path}?lang=en")
    assert status == 200, status
    assert "No finished matches to show." in body.decode()
    assert 'id="chart"' not in body.decode()
    assert f"<h1>{BOB.name} on Corral</h1>" in body.decode()  # named by their seat
    status, _, _ = await fetch(f"{base}{path[:-1]}{'B' if path[-1] != 'B' else 'C'}")
    assert status == 404
