"""The pages' templates (bot/web/templates): a player's name with HTML in it stays text on the
match page, its replay and the player's page, whatever part of the page it lands in (element
text, attributes, Open Graph tags); the test sees it when autoescaping is off; nothing in the
templates turns escaping off; and every template in the folder is one some page uses."""

from __future__ import annotations

import re
from html.parser import HTMLParser
from pathlib import Path

import jinja2
import pytest
from support import ALICE, BOB
from test_tournament_service import GUILD, PEOPLE, created, place_all
from test_web import fetch, site  # noqa: F401  (site: a fixture)

import bot.web.pages as webpages
from bot.service import Player
from bot.web.pages import tournament_url

SQLITE = pytest.mark.parametrize("store", ["sqlite"], indirect=True)  # pages, not back ends

TEMPLATES = Path(webpages.__file__).resolve().parent / "templates"
SCRIPT = "<script>alert(1)</script>"
ATTRIBUTE = '"onmouseover="alert(2)'
HOSTILE = SCRIPT + ATTRIBUTE  # a script, and a way out of an attribute's quotes


class Parsed(HTMLParser):
    """The elements and text of a page, as a browser would read them."""

    def __init__(self, page: str) -> None:
        super().__init__(convert_charrefs=True)
        self.scripts: list[dict[str, str | None]] = []
        self.attributes: list[tuple[str, str | None]] = []
        self.text = ""
        self.feed(page)

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag == "script":
            self.scripts.append(dict(attrs))
        self.attributes += attrs

    def handle_data(self, data: str) -> None:
        self.text += data


def assert_only_text(page: str, where: str) -> None:
    parsed = Parsed(page)
    # the page's one script is its own file; no attribute is an event handler
    assert parsed.scripts == [{"src": "/static/web.js", "defer": None}], (where, parsed.scripts)
    assert not [name for name, _ in parsed.attributes if name.startswith("on")], where
    assert SCRIPT not in page and ATTRIBUTE not in page, where
    # and the name is there, as text: in an element and in attributes (alt texts, og tags)
    assert HOSTILE in parsed.text, where
    assert any(value and HOSTILE in value for _, value in parsed.attributes), where


async def hostile_pages(base: str, service, pages) -> dict[str, str]:
    """The match page (finished: its analysis hint's code marks too), its replay and the
    hostile player's page, each as a hostile player's name is on it."""
    hostile = Player(ALICE.user_id, HOSTILE)
    match = await service.open_match(game_id="progressive-mancala", options={}, host=hostile,
                                     opponent=BOB, guild_id=1, channel_id=610, first="me",
                                     rated=True)
    match = await service.accept(match.id, BOB.user_id)
    for _ in range(2):
        mover = match.to_move()
        notation = service.legal_moves_for(match, mover.user_id)[0]
        match = (await service.play(match.id, mover.user_id, notation)).match
    match = await service.resign(match.id, BOB.user_id)
    token = match.row.web_token
    player = await pages.player_path(ALICE.user_id, 1)
    got = {}
    for path in (f"/m/{token}", f"/m/{token}/replay", player):
        status, _, body = await fetch(base + path)
        assert status == 200, (path, status)
        got[path] = body.decode()
    return got


@SQLITE
async def test_a_hostile_name_is_text_on_the_match_replay_and_player_pages(site, service):  # noqa: F811
    base, server = site
    pages = await hostile_pages(base, service, server.pages)
    for path, page in pages.items():
        assert_only_text(page, path)
    match_page = next(page for path, page in pages.items() if path.count("/") == 2)
    # the analysis hint's command is code, the rest of its words escaped
    assert re.search(r'<p id="analysis" class="note">[^<]*<code>/analysis match:\d+</code>',
                     match_page)


@SQLITE
async def test_the_check_sees_a_page_without_autoescaping(site, service, monkeypatch):  # noqa: F811
    """The test above is not blind: the same templates without autoescaping let the name
    out, and it says so on every one of the three pages."""
    base, server = site
    unsafe = jinja2.Environment(loader=webpages.TEMPLATES.loader, autoescape=False,
                                undefined=jinja2.StrictUndefined, trim_blocks=True,
                                lstrip_blocks=True)
    unsafe.filters.update(webpages.TEMPLATES.filters)
    monkeypatch.setattr(webpages, "TEMPLATES", unsafe)
    for path, page in (await hostile_pages(base, service, server.pages)).items():
        assert SCRIPT in page, path
        with pytest.raises(AssertionError):
            assert_only_text(page, path)


def test_no_template_turns_escaping_off() -> None:
    for template in TEMPLATES.glob("*.html"):
        text = template.read_text()
        assert not re.search(r"\|\s*safe\b|autoescape\s+false|Markup", text), template.name


@SQLITE
async def test_every_template_is_used_by_a_page(site, service, store, monkeypatch):  # noqa: F811
    base, server = site
    used: set[str] = set()
    real = webpages.TEMPLATES.get_template

    def recorded(name, *args, **kwargs):  # a page's own and those it extends
        used.add(str(name))
        return real(name, *args, **kwargs)

    monkeypatch.setattr(webpages.TEMPLATES, "get_template", recorded)
    await hostile_pages(base, service, server.pages)
    tournament = await created(service)
    for p in PEOPLE[:4]:
        await service.tournaments.join(tournament.id, p, GUILD)
    await service.tournaments.start(tournament.id, PEOPLE[0].user_id, is_manager=False,
                                    guild_id=GUILD)
    await place_all(service, store)
    status, _, _ = await fetch(await tournament_url(store, base, tournament.id))
    assert status == 200
    assert {"layout.html", "match.html", "replay.html", "player.html"} <= used
    # the signed-in pages' own (home, message, activity) are used in tests/test_web_play.py
    signed_in = {"home.html", "message.html", "activity.html"}
    assert used == {template.name for template in TEMPLATES.iterdir()} - signed_in, used
