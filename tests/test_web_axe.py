"""The web companion's pages pass axe-core's accessibility audit (WCAG 2.x A/AA and best
practice) in Debian's Chromium, in English and Japanese, in light and dark colours: the match
page (being played and finished, Mancala and Consequence, which hides information), its replay,
a player's page and a tournament's page (Swiss and knockout). axe-core comes from the npm
registry, pinned in package-lock.json (`npm ci`), and is put into each page by the test only:
the pages' Content-Security-Policy stays as strict as it is.

Besides the audit: the board's alt text is the kit's description of the public view (what
Discord's board carries), kept up to date by the live stream; each replay frame's alt text is
that frame's; the move list is a live region; the replay steps by keyboard alone; seats are
named, never told apart by colour only. Without /usr/bin/chromium, Playwright or
node_modules/axe-core these tests skip with one line; with CI=true they fail."""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

import pytest
from support import ALICE, BOB, chromium
from test_tournament_service import GUILD, PEOPLE, created, place_all
from test_web import consequence_in_progress, fetch, site  # noqa: F401  (site: a fixture)

from bot.service import Player
from bot.web.pages import CSP, FIRST, LAST, NEXT, PREVIOUS, tournament_url
from bot.words.descriptions import alt_text, view_of
from bot.words.i18n import Texts
from games import get_game

AXE = Path(__file__).resolve().parent.parent / "node_modules" / "axe-core" / "axe.min.js"
TAGS = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22aa", "best-practice"]
BLOCKING = ("serious", "critical")
# what axe reported below serious, for the report (set to a file to keep it)
REPORT = Path(os.environ["CORRAL_AXE_REPORT"]) if os.environ.get("CORRAL_AXE_REPORT") else None

pytestmark = pytest.mark.parametrize("store", ["sqlite"], indirect=True)  # pages, not back ends


@pytest.fixture
async def browser():
    """Headless Chromium (Debian's package) through Playwright, with axe-core at hand."""
    if not AXE.exists():
        why = "axe-core is not installed (npm ci)"
        if os.environ.get("CI") == "true":
            pytest.fail(f"accessibility tests cannot run: {why}", pytrace=False)
        pytest.skip(f"accessibility tests skipped: {why}")
    async with chromium("accessibility tests") as launched:
        yield launched


async def open_page(browser, url: str):
    # the page's policy refuses any inline script, axe's too: the browser lets the test's
    # own through (`bypass_csp`), and the policy the page was sent is checked unchanged
    page = await browser.new_page(viewport={"width": 1280, "height": 800}, bypass_csp=True)
    problems: list[str] = []
    page.on("console", lambda m: problems.append(m.text) if m.type == "error" else None)
    page.on("pageerror", lambda e: problems.append(str(e)))
    response = await page.goto(url)
    assert response is not None and response.status == 200, url
    assert (await response.all_headers())["content-security-policy"] == CSP
    await page.wait_for_function(
        "() => [...document.images].every(i => i.hidden || (i.complete && i.naturalWidth))")
    return page, problems


async def audit(page, what: str) -> list[dict[str, Any]]:
    """axe-core run in the page: its violations (each with its impact and nodes)."""
    if not await page.evaluate("() => typeof axe !== 'undefined'"):
        await page.add_script_tag(path=str(AXE))
    result = await page.evaluate(
        "tags => axe.run(document, {runOnly: {type: 'tag', values: tags},"
        " resultTypes: ['violations', 'incomplete']})", TAGS)
    violations: list[dict[str, Any]] = result["violations"]
    # below serious, and what axe could not decide by itself (to be looked at by a person)
    lesser = [("", v) for v in violations if v["impact"] not in BLOCKING]
    lesser += [("needs review: ", v) for v in result["incomplete"]]
    for said, v in lesser:
        line = (f"{what}: {said}{v['impact']} {v['id']} ({len(v['nodes'])}: "
                f"{' '.join(v['nodes'][0]['target'])}): {v['help']}")
        print(line)
        if REPORT is not None:
            with REPORT.open("a") as out:
                out.write(line + "\n")
    return violations


def blocking(violations: list[dict[str, Any]]) -> list[str]:
    return [f"{v['impact']} {v['id']}: {v['help']} at "
            + "; ".join(" ".join(n["target"]) + " " + n.get("failureSummary", "")[:200]
                        for n in v["nodes"][:4])
            for v in violations if v["impact"] in BLOCKING]


async def audited(browser, url: str, what: str) -> None:
    """No serious or critical violation, in light and dark colours, and nothing failing in
    the page's script."""
    page, problems = await open_page(browser, url)
    try:
        for scheme in ("light", "dark"):
            await page.emulate_media(color_scheme=scheme)
            found = blocking(await audit(page, f"{what} ({scheme})"))
            assert found == [], (what, scheme, found)
        assert problems == [], problems
    finally:
        await page.close()


async def played(service, game_id: str, moves: int, host: Player = ALICE, channel: int = 600):
    match = await service.open_match(game_id=game_id, options={}, host=host, opponent=BOB,
                                     guild_id=1, channel_id=channel, first="me", rated=True)
    match = await service.accept(match.id, BOB.user_id)
    for _ in range(moves):
        mover = match.to_move()
        notation = service.legal_moves_for(match, mover.user_id)[0]
        match = (await service.play(match.id, mover.user_id, notation)).match
    return match


def public_alt(match, language: str) -> str:
    """The board's alt text as Discord's board carries it: the kit's words for the public
    view."""
    game = get_game(match.row.game)
    return alt_text(game, view_of(game, match.row.state, None), Texts(language),
                    match.names())


async def test_every_match_page_passes_the_audit_in_both_languages(site, service, browser):  # noqa: F811
    base, server = site
    mancala = await played(service, "progressive-mancala", 3)
    finished_mancala = await service.resign(
        (await played(service, "progressive-mancala", 2, channel=601)).id, BOB.user_id)
    finished_consequence, _ = await consequence_in_progress(service, moves=4)
    finished_consequence = await service.resign(finished_consequence.id, ALICE.user_id)
    consequence, _ = await consequence_in_progress(service, moves=4)  # the same channel
    for match in (mancala, consequence, finished_mancala, finished_consequence):
        token = match.row.web_token
        for lang in ("en", "ja"):
            for path in (f"/m/{token}?lang={lang}", f"/m/{token}/replay?lang={lang}"):
                await audited(browser, base + path, f"{match.row.game} {match.status} {path}")
    player = await server.pages.player_path(ALICE.user_id, 1)
    for lang in ("en", "ja"):
        await audited(browser, f"{base}{player}?lang={lang}", f"player page {lang}")


async def test_tournament_pages_pass_the_audit_in_both_languages(site, service, store, browser):  # noqa: F811
    base, _ = site
    swiss = await created(service)
    for p in PEOPLE[:5]:
        await service.tournaments.join(swiss.id, p, GUILD)
    await service.tournaments.start(swiss.id, PEOPLE[0].user_id, is_manager=False,
                                    guild_id=GUILD)
    placed = await place_all(service, store)
    first = await service.get(placed[0])
    await service.resign(first.id, first.seats[1].user_id)  # a crosstable with a result
    knockout = await created(service, format="knockout", rounds=None, name="Cup")
    for p in PEOPLE[:4]:
        await service.tournaments.join(knockout.id, p, GUILD)
    await service.tournaments.start(knockout.id, PEOPLE[0].user_id, is_manager=False,
                                    guild_id=GUILD)
    await place_all(service, store)
    for t in (swiss, knockout):
        url = await tournament_url(store, base, t.id)
        for lang in ("en", "ja"):
            await audited(browser, f"{url}?lang={lang}", f"tournament {t.id} {lang}")


async def test_the_audit_finds_what_it_must(site, service, browser):  # noqa: F811
    """The audit is not blind: a board without alt text and a nameless button are found."""
    base, _ = site
    match = await played(service, "progressive-mancala", 1)
    page, _ = await open_page(browser, f"{base}/m/{match.row.web_token}?lang=en")
    await page.evaluate("() => { document.getElementById('board').removeAttribute('alt');"
                        " document.body.appendChild(document.createElement('button')); }")
    found = {v["id"] for v in await audit(page, "broken on purpose")
             if v["impact"] in BLOCKING}
    assert {"image-alt", "button-name"} <= found, found
    await page.close()


async def board_alt(page) -> str:
    return await page.get_attribute("#board", "alt") or ""


@pytest.mark.parametrize("game_id", ["progressive-mancala", "consequence"])
async def test_the_boards_alt_text_is_the_kits_and_follows_the_match(site, service, browser,  # noqa: F811
                                                                     game_id):
    """The board's alt text is Discord's (the kit's words for the public view), in the page,
    its state.json and its live updates; the move list is a live region that gets only the
    new move appended."""
    base, _ = site
    if game_id == "consequence":
        match, _ = await consequence_in_progress(service, moves=3)
    else:
        match = await played(service, game_id, 3)
    token = match.row.web_token
    for lang in ("en", "ja"):
        _, _, body = await fetch(f"{base}/m/{token}/state.json?lang={lang}")
        assert json.loads(body)["alt"] == public_alt(match, lang)
    page, problems = await open_page(browser, f"{base}/m/{token}?lang=ja")
    assert await board_alt(page) == public_alt(match, "ja")
    assert await page.get_attribute("#moves", "aria-live") == "polite"
    assert await page.locator("#moves li").count() == 3
    await page.evaluate("() => { document.querySelector('#moves li').dataset.kept = 'yes'; }")
    await page.wait_for_function("() => document.body && !document.body.classList.contains("
                                 "'offline') && document.getElementById('match')")
    for n in (4, 5):
        mover = match.to_move()
        notation = service.legal_moves_for(match, mover.user_id)[0]
        match = (await service.play(match.id, mover.user_id, notation)).match
        await page.wait_for_function(
            f"() => document.getElementById('match').dataset.moves === '{n}'", timeout=10_000)
        assert await board_alt(page) == public_alt(match, "ja")
        assert await page.locator("#moves li").count() == n
        # the lines already there stayed (a screen reader hears only the new one)
        assert await page.get_attribute("#moves li >> nth=0", "data-kept") == "yes"
    assert problems == [], problems
    await page.close()


def frame_alts_of(game_id: str, entries: list[list[str]], names: list[str],
                  language: str) -> list[str]:
    """Each replay position's alt text, the public view of the position after each entry."""
    game = get_game(game_id)
    state = game.new(2, {})
    states = [state]
    for kind, notation in entries:
        state = game.skip(state) if kind == "skip" else game.play(state, notation)
        states.append(state)
    return [alt_text(game, view_of(game, s, None), Texts(language), names) for s in states]


FOCUS = """() => { const el = document.activeElement, s = getComputedStyle(el);
  return [el.id || el.tagName, s.outlineStyle !== 'none' && parseFloat(s.outlineWidth) >= 2]; }"""


async def tab_to(page, element_id: str, presses: int = 40) -> None:
    """Tab until the element has the focus, which it shows (a visible outline)."""
    for _ in range(presses):
        await page.keyboard.press("Tab")
        focused, outlined = await page.evaluate(FOCUS)
        if focused == element_id:
            assert outlined, f"#{element_id} has the focus but does not show it"
            return
    raise AssertionError(f"#{element_id} never gets the focus by Tab")


@pytest.mark.parametrize("game_id", ["progressive-mancala", "consequence"])
async def test_the_replay_steps_by_keyboard_with_each_frames_alt(site, service, browser,  # noqa: F811
                                                                  game_id):
    """Without a mouse: Tab to the buttons and Enter, the arrow keys, Home and End, the
    slider's own arrows; at each position the frame's alt text is that position's."""
    base, _ = site
    if game_id == "consequence":
        match, _ = await consequence_in_progress(service, moves=4)
        match = await service.resign(match.id, ALICE.user_id)  # revealed: still public words
    else:
        match = await played(service, game_id, 4)
    _, entries = await service.replay_log(match.id)
    total = len(entries)
    for lang in ("en", "ja"):
        alts = frame_alts_of(game_id, entries, match.names(), lang)
        page, problems = await open_page(
            browser, f"{base}/m/{match.row.web_token}/replay?lang={lang}")
        assert await page.get_attribute("#replayer", "data-start-alt") == alts[0]
        steps = await page.eval_on_selector_all("#steps li", "els => els.map(e => e.dataset.alt)")
        assert steps == alts[1:]

        async def at(ply: int, alts: list[str] = alts, page: Any = page) -> None:
            await page.wait_for_function(
                f"() => document.getElementById('replayer').dataset.ply === '{ply}'")
            assert await page.get_attribute("#frame", "alt") == alts[ply]
            assert (await page.get_attribute("#frame", "src")).split("/")[-1] \
                .startswith(f"{ply}-")
            # the slider says the position in words, as the text beside it does
            assert await page.get_attribute("#slider", "aria-valuetext") \
                == await page.inner_text("#position")

        await at(0)
        # each button is named in words (its symbol is for the eye only)
        for name in (FIRST, PREVIOUS, NEXT, LAST):
            assert await page.get_by_role("button", name=Texts(lang)(name), exact=True) \
                .count() == 1, name
        await tab_to(page, "next")
        await page.keyboard.press("Enter")
        await at(1)
        await page.keyboard.press("Space")
        await at(2)
        await page.keyboard.press("ArrowRight")
        await at(3)
        await page.keyboard.press("Home")
        await at(0)
        await page.keyboard.press("End")
        await at(total)
        await tab_to(page, "first")  # Tab goes round the page and back to the buttons
        await page.keyboard.press("Enter")
        await at(0)
        await tab_to(page, "slider")
        await page.keyboard.press("ArrowRight")
        await at(1)
        await page.keyboard.press("ArrowLeft")
        await at(0)
        assert problems == [], problems
        await page.close()


# elements that tell something by colour alone: a filled box with no words in it
SWATCHES = """() => [...document.body.querySelectorAll('*')].filter(el => {
  const bg = getComputedStyle(el).backgroundColor;
  return bg !== 'rgba(0, 0, 0, 0)' && bg !== 'transparent' && !el.textContent.trim()
    && !['IMG', 'INPUT'].includes(el.tagName);
}).map(el => el.tagName + (el.id ? '#' + el.id : ''))"""


async def test_seats_are_named_not_only_coloured(site, service, browser):  # noqa: F811
    """Each seat is named in words on the match and replay pages; nothing on them is a
    colour swatch without words (the pictures' own shapes are the renderer's)."""
    base, _ = site
    match = await played(service, "progressive-mancala", 2, host=Player(ALICE.user_id, "花子"))
    assert match.names() == ["花子", BOB.name]
    token = match.row.web_token
    for path in (f"/m/{token}?lang=en", f"/m/{token}/replay?lang=ja"):
        page, _ = await open_page(browser, base + path)
        text = await page.inner_text("main")
        for name in match.names():
            assert name in text, (path, name)
        assert await page.evaluate(SWATCHES) == [], path
        await page.close()
