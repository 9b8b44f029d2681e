"""The web companion's tournament page over a real store and service (each back end): its
signed address, the standings with their tie-breaks, the crosstable, the current round's
matches linked to their pages, the standings picture, a hostile player's name escaped, and
404 for a forged address or a server that turned links off; the live stream sends a new
version when a match ends."""

from __future__ import annotations

import asyncio
import io
import re

import aiohttp
import test_web
from PIL import Image
from test_tournament_service import GUILD, PEOPLE, created, place_all
from test_web import HOSTILE_NAME, fetch

from bot.service import Player
from bot.web.pages import CSP, tournament_url

BASE = "https://corral.example.org"
site = test_web.site  # the pages over the store and service (a fixture)


async def running_swiss(service, store, hostile: bool = True):
    t = await created(service)
    people = [*PEOPLE[:4], Player(2000, HOSTILE_NAME)] if hostile else PEOPLE[:5]
    for p in people:
        await service.tournaments.join(t.id, p, GUILD)
    await service.tournaments.start(t.id, PEOPLE[0].user_id, is_manager=False, guild_id=GUILD)
    placed = await place_all(service, store)
    assert len(placed) == 2
    return t, placed


async def path_of(store, tournament_id: int) -> str:
    url = await tournament_url(store, BASE, tournament_id)
    assert url.startswith(f"{BASE}/t/{tournament_id}/")
    return url[len(BASE):]


async def test_the_page_shows_standings_crosstable_and_the_rounds_matches(site, service, store):
    base, _ = site
    t, placed = await running_swiss(service, store)
    path = await path_of(store, t.id)
    status, headers, body = await fetch(f"{base}{path}?lang=en")
    assert status == 200 and headers["Content-Security-Policy"] == CSP
    page = body.decode()
    assert f"Tournament #{t.id}: Autumn" in page
    assert "Buchholz" in page and "Sonneborn-Berger" in page
    assert 'id="standings"' in page and "Round 1" in page
    # the hostile name is only a name, everywhere
    assert HOSTILE_NAME not in page and "<img src=x" not in page
    assert html_escaped(HOSTILE_NAME) in page
    # each match of the round links to its page, which exists
    for match_id in placed:
        row = await store.get_match(match_id)
        link = f'/m/{row.web_token}?lang=en'
        assert link in page
        assert (await fetch(base + link))[0] == 200
    assert "(bye)" in page  # five players: one sits out
    # a match ends: the first standings row has a point and the crosstable a result
    first = await service.get(placed[0])
    await service.resign(first.id, first.seats[1].user_id)
    page = (await fetch(f"{base}{path}?lang=en"))[2].decode()
    assert 'id="crosstable"' in page and re.search(r"<td>1</td><th scope=\"row\">", page)
    assert re.search(r"<td>\+\d</td>", page), "a win against a rank in the crosstable"
    # the picture is the bot's standings picture, at the tournament's version
    picture = re.search(r'src="([^"]+\.png)"', page).group(1)
    status, headers, png = await fetch(base + picture)
    assert status == 200 and headers["Content-Type"] == "image/png"
    assert Image.open(io.BytesIO(png)).size[0] == 720
    # a pasted link shows the tournament and that picture (OpenGraph), names escaped
    og = dict(re.findall(r'<meta property="og:([a-z:]+)" content="([^"]*)">', page))
    assert og["url"] == BASE + path and og["image"] == BASE + picture
    assert og["title"].startswith(f"Tournament #{t.id}")
    assert (await fetch(base + og["image"][len(BASE):]))[0] == 200


def html_escaped(text: str) -> str:
    import html

    return html.escape(text)


async def test_japanese_page(site, service, store):
    base, _ = site
    t, _ = await running_swiss(service, store, hostile=False)
    path = await path_of(store, t.id)
    page = (await fetch(f"{base}{path}", headers={"Accept-Language": "ja"}))[2].decode()
    assert '<html lang="ja">' in page
    for english in ("Standings", "Buchholz", "Round 1", "Player", "Points"):
        assert english not in page, english


async def test_forged_addresses_and_links_off_are_404(site, service, store):
    base, _ = site
    t, _ = await running_swiss(service, store, hostile=False)
    path = await path_of(store, t.id)
    sig = path.rsplit("/", 1)[1]
    forged = sig[:-1] + ("A" if sig[-1] != "A" else "B")
    for bad in (f"/t/{t.id}/{forged}", f"/t/{t.id + 1}/{sig}", f"/t/{t.id}/{sig[:-1]}",
                f"/t/{t.id}/{forged}/live", f"/t/{t.id}/{forged}/picture/1-en.png",
                f"/t/{t.id:d}x/{sig}", "/t/", f"/t/{'9' * 30}/{sig}"):
        status, _, body = await fetch(base + bad)
        assert status == 404, bad
        assert b"<" not in body
    assert (await fetch(base + path, "POST"))[0] == 405
    assert (await fetch(base + path))[0] == 200
    await service.update_settings(GUILD, is_manager=True, web_links=False)
    for tail in ("", "/live", "/picture/1-en.png"):
        assert (await fetch(base + path + tail))[0] == 404


async def test_the_stream_sends_a_new_version_when_a_match_ends(site, service, store):
    base, _ = site
    t, placed = await running_swiss(service, store, hostile=False)
    path = await path_of(store, t.id)
    async with aiohttp.ClientSession() as session, session.get(base + path + "/live") as resp:
        assert resp.headers["Content-Type"].startswith("text/event-stream")
        # sent before the handler returns: the stream carries the security headers itself
        assert resp.headers["Content-Security-Policy"] == CSP
        assert resp.headers["X-Content-Type-Options"] == "nosniff"
        seen = await read_until(resp, lambda text: "event: version" in text)
        first = int(re.search(r"data: (\d+)", seen).group(1))
        match = await service.get(placed[0])
        await service.resign(match.id, match.seats[1].user_id)
        more = await read_until(resp, lambda text: len(re.findall("data: ", text)) >= 1)
        assert int(re.search(r"data: (\d+)", more).group(1)) > first


async def read_until(response, done) -> str:
    text = ""
    while not done(text):
        text += (await asyncio.wait_for(response.content.readany(), 10)).decode()
    return text


async def test_the_streams_of_one_tournament_share_their_reads(site, service, store,
                                                               monkeypatch):
    """Many viewers of one tournament's page cost one read of it per poll period, not one
    each; and each of them still sees the new version."""
    import bot.web.pages as webpages

    base, _ = site
    monkeypatch.setattr(webpages, "TOURNAMENT_POLL", 0.05)
    t, placed = await running_swiss(service, store, hostile=False)
    path = await path_of(store, t.id)
    reads = []
    real = type(store).tournament

    async def counted(self, tournament_id):
        reads.append(tournament_id)
        return await real(self, tournament_id)

    monkeypatch.setattr(type(store), "tournament", counted)
    async with aiohttp.ClientSession() as session:
        streams = [await session.get(base + path + "/live") for _ in range(8)]
        firsts = [await read_until(r, lambda text: "event: version" in text) for r in streams]
        reads.clear()
        began = asyncio.get_running_loop().time()
        match = await service.get(placed[0])
        await service.resign(match.id, match.seats[1].user_id)
        for stream, first in zip(streams, firsts, strict=True):
            more = await read_until(stream, lambda text: "event: version" in text)
            assert int(re.search(r"data: (\d+)", more).group(1)) > int(
                re.search(r"data: (\d+)", first).group(1))
        periods = (asyncio.get_running_loop().time() - began) / 0.05
        # one read per period (and one more at a boundary), where eight streams made eight
        assert len(reads) <= periods + 2, (len(reads), periods)
        for stream in streams:
            stream.close()


async def test_a_round_robin_lists_every_game_of_every_round_being_played(site, service, store):
    """A round robin pairs all its rounds at once: the page said "Round 3 is being played"
    and listed round 3's game only, so a player of rounds 1 and 2 could not find theirs."""
    base, _ = site
    t = await created(service, format="round_robin", rounds=None)
    for p in PEOPLE[:4]:
        await service.tournaments.join(t.id, p, GUILD)
    await service.tournaments.start(t.id, PEOPLE[0].user_id, is_manager=False, guild_id=GUILD)
    placed = await place_all(service, store)
    assert len(placed) == 6  # four players: three rounds of two games, all started
    page = (await fetch(f"{base}{await path_of(store, t.id)}?lang=en"))[2].decode()
    for match_id in placed:
        row = await store.get_match(match_id)
        assert f'/m/{row.web_token}?lang=en' in page, f"match #{match_id} is not listed"
    assert all(f"Round {n}</h2>" in page for n in (1, 2, 3))
    assert "Rounds 1 to 3 are being played." in page
    # the crosstable's marks are explained, in both languages
    first = await service.get(placed[0])
    await service.resign(first.id, first.seats[1].user_id)
    page = (await fetch(f"{base}{await path_of(store, t.id)}?lang=en"))[2].decode()
    assert 'id="cross-legend"' in page and "is the opponent" in page
    ja = (await fetch(f"{base}{await path_of(store, t.id)}?lang=ja"))[2].decode()
    assert "相手の順位" in ja and "ラウンドの対局中です" in ja
