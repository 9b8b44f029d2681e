"""The bot side of post-game analyses (issue 30), without Discord: who may ask, a job queued
once per match, the fair order of the queue across servers, what stays hidden, and pictures
that read on a phone in English and Japanese. (tests/e2e/test_analysis_e2e.py drives the
whole of it through the real bot.)"""

from __future__ import annotations

import gettext
import io
import random
import re

import pytest
from PIL import Image
from support import ALICE, BOB, CAROL
from test_render import layout_problems

from bot.pictures import analysis_pictures
from bot.service import ServiceError
from bot.words.i18n import translations
from games import get_game
from games.analysis import assemble_job, judge_job, public_at_end
from render import Swing, TextBox
from render import analysis_pictures as draw
from render.analysis import MARK, NUMBERS, WIDTH
from render.common import BACKGROUND, MIN_PHONE_PX, PHONE_WIDTH, contrast, readable

ASK = {"channel_id": 5, "token": None, "token_expires": None, "language": "en"}


async def finished_match(service, guild_id: int = 1, channel_id: int = 5, moves=("k", "c")):
    match = await service.open_match(game_id="progressive-mancala", options={}, host=ALICE,
                                     opponent=BOB, guild_id=guild_id, channel_id=channel_id,
                                     first="me")
    match = await service.accept(match.id, BOB.user_id)
    for notation in moves:
        mover = match.to_move()
        match = await service.play(match.id, mover.user_id, notation) and \
            await service.get(match.id)
    await service.resign(match.id, ALICE.user_id)
    return await service.get(match.id)


async def test_a_match_is_analysed_once_and_only_once_it_is_over(service, store):
    match = await service.open_match(game_id="progressive-mancala", options={}, host=ALICE,
                                     opponent=BOB, guild_id=1, channel_id=5, first="me")
    with pytest.raises(ServiceError, match="is not over"):
        await service.request_analysis(match.id, ALICE.user_id, guild_id=1, **ASK)
    await service.accept(match.id, BOB.user_id)
    await service.play(match.id, ALICE.user_id, "k")
    with pytest.raises(ServiceError, match="is not over"):
        await service.request_analysis(match.id, ALICE.user_id, guild_id=1, **ASK)
    with pytest.raises(ServiceError, match="does not exist"):
        await service.request_analysis(10**12, ALICE.user_id, guild_id=1, **ASK)
    assert await store.analysis(match.id) is None
    await service.resign(match.id, BOB.user_id)
    first = await service.request_analysis(match.id, ALICE.user_id, guild_id=1, **ASK)
    again = await service.request_analysis(match.id, BOB.user_id, guild_id=1, **ASK)
    assert (first.outcome, again.outcome) == ("queued", "running")
    job = await store.analysis(match.id)
    assert job is not None and job.total == 1 and job.requested_by == ALICE.user_id
    outbox = await store.conn.fetch("SELECT kind FROM outbox WHERE kind = 'analysis'")
    assert outbox == []  # nothing to post before it is done


async def test_the_queue_serves_servers_in_turn(service, store):
    """Server 1 asks for three analyses, then server 2 for one: server 2's is taken second,
    not fourth, and a slice of a job given back lets the other server in."""
    ones = [await finished_match(service, guild_id=1, channel_id=10 + i) for i in range(3)]
    two = await finished_match(service, guild_id=2, channel_id=20)
    for match, guild in [(m, 1) for m in ones] + [(two, 2)]:
        await service.request_analysis(match.id, ALICE.user_id, guild_id=guild, **ASK)
    order = []
    now = 1000.0
    for _ in range(4):
        now += 1
        async with store.transaction() as tx:
            job = await tx.claim_analysis("w", now, now + 60)
        assert job is not None
        order.append(job.match_id)
        async with store.transaction() as tx:  # the slice is over: finished
            await tx.finish_analysis(job.match_id, {"moves": []}, now)
    assert order == [ones[0].id, two.id, ones[1].id, ones[2].id]
    async with store.transaction() as tx:
        assert await tx.claim_analysis("w", now + 1, now + 60) is None


async def test_a_job_in_hand_is_left_alone_and_taken_back_after_a_crash(service, store):
    match = await finished_match(service)
    await service.request_analysis(match.id, ALICE.user_id, guild_id=1, **ASK)
    async with store.transaction() as tx:
        job = await tx.claim_analysis("w1", 100.0, 220.0)
        assert job is not None and job.judged == []
        assert await tx.save_judged(match.id, [None], "w1", 220.0)
    async with store.transaction() as tx:
        assert await tx.claim_analysis("w2", 150.0, 270.0) is None  # w1 holds it
        assert not await tx.save_judged(match.id, [None, None], "w2", 270.0)
    async with store.transaction() as tx:  # w1 restarts: what it held is free again
        await tx.release_analysis_claims("w1")
        again = await tx.claim_analysis("w2", 160.0, 280.0)
    assert again is not None and again.judged == [None]  # what was judged is kept


async def test_hidden_information_stays_hidden(service):
    game = get_game("consequence")
    rng = random.Random(4)
    state = game.new(2)
    seen_public_before_the_end = []
    while game.outcome(state) is None:
        seen_public_before_the_end.append(public_at_end(game, state))
        state = game.apply(state, rng.choice(game.legal_moves(state)))
    assert not any(seen_public_before_the_end) and public_at_end(game, state)
    # a resigned Consequence match kept its hands hidden: no analysis, no button
    match = await service.open_match(game_id="consequence", options={}, host=ALICE,
                                     opponent=CAROL, guild_id=1, channel_id=5, first="me")
    match = await service.accept(match.id, CAROL.user_id)
    mover = match.to_move()
    await service.play(match.id, mover.user_id, match.game.legal_notations(match.state)[0])
    await service.resign(match.id, CAROL.user_id)
    with pytest.raises(ServiceError, match="hidden tile"):
        await service.request_analysis(match.id, ALICE.user_id, guild_id=1, **ASK)


def picture(language: str, swings: bool = True):
    game = get_game("progressive-mancala")
    rng = random.Random(2)
    state = game.new(2, {"pits": "11"})
    entries = []
    for _ in range(10):
        notation = rng.choice(game.legal_notations(state))
        entries.append(["move", notation])
        state = game.play(state, notation)
    judged = [judge_job(game.id, 2, {"pits": "11"}, entries, i, "easy", 3)
              for i in range(len(entries))]
    result = assemble_job(game.id, 2, {"pits": "11"}, entries, judged, "easy", 3)
    if not swings:
        result["mistakes"] = []
    return result, analysis_pictures(game.id, 2, {"pits": "11"}, entries, result,
                                     ["Alice", "Bartholomew-Longname"], language)


def has_mark(png: bytes) -> bool:
    """The swings' colour is in the picture: the chart's marks, or a swing's "Played" label
    and the bar beside its board."""
    colours = {c for _, c in Image.open(io.BytesIO(png)).convert("RGB").getcolors(1 << 20)}
    return bool(colours & {MARK, readable(MARK, BACKGROUND)})


def shapes_problems(pngs: list[bytes], swings: int) -> list[str]:
    """The chart first, then one picture per swing, each 720 wide; the chart is no taller than
    1.2 times its width (Discord previews an attachment in about 550 x 350 px: the chart shows
    whole, where the one tall picture was a sliver)."""
    sizes = [Image.open(io.BytesIO(png)).size for png in pngs]
    problems = []
    if len(pngs) != 1 + swings:
        problems.append(f"{len(pngs)} pictures for {swings} swings")
    if any(width != WIDTH for width, _ in sizes):
        problems.append(f"widths {[width for width, _ in sizes]}")
    if sizes and sizes[0][1] > 1.2 * WIDTH:
        problems.append(f"the chart is {sizes[0]}")
    return problems


def marks_problems(layouts: list[list[TextBox]], swings) -> list[str]:
    """The chart shows each swing's number (①②③) and each swing's picture starts with its
    own: its heading names the number, the move and who played it."""
    problems = []
    chart = {b.text for b in layouts[0]}
    for rank, (swing, boxes) in enumerate(zip(swings, layouts[1:], strict=True)):
        if NUMBERS[rank] not in chart:
            problems.append(f"{NUMBERS[rank]} is not on the chart")
        head = min(boxes, key=lambda b: b.box[1]).text if boxes else ""
        if not head.startswith(NUMBERS[rank]) or str(swing.index) not in head:
            problems.append(f"swing {rank + 1}'s picture starts with {head!r}")
        if any(NUMBERS[other] in b.text for b in boxes for other in range(len(NUMBERS))
               if other != rank):
            problems.append(f"swing {rank + 1}'s picture shows another swing's number")
    return problems


@pytest.mark.parametrize("language", ["en", "ja"])
def test_the_pictures_read_on_a_phone(language, cjk_font):
    result, pngs = picture(language)
    assert 1 <= len(result["mistakes"]) <= 3
    assert not shapes_problems(pngs, len(result["mistakes"]))
    assert all(has_mark(png) for png in pngs)  # the swings are marked, each in its picture
    # every label: digits 9 px at phone width, contrast, nothing over it, no overlap
    game = get_game("progressive-mancala")
    state = game.new(2, {"pits": "11"})
    layouts: list[list[TextBox]] = []
    board_layouts: list[list[TextBox]] = []
    tr = translations(language) if language == "ja" else gettext.NullTranslations()
    notes = result["moves"]
    swings = [Swing(i, notes[i - 1]["seat"], notes[i - 1]["move"], notes[i - 1]["best"],
                    notes[i - 1]["loss"], game.observe(state, None), game.observe(state, None))
              for i in result["mistakes"]]
    drawn = draw(game.id, names=["Alice", "Bartholomew-Longname"],
                 series=[n["win"] for n in notes] + [result["final"]], swings=swings,
                 tr=tr, layouts=layouts, board_layouts=board_layouts)
    assert len(drawn) == len(layouts) == len(board_layouts) == 1 + len(swings)
    texts = [b.text for b in layouts[0]]
    if language == "ja":
        assert "一手ごとの勝つ見込み" in texts
        assert all(any("手目" in b.text for b in boxes) for boxes in layouts[1:])
    else:
        assert "Chance of winning after each move" in texts
    assert not marks_problems(layouts, swings)
    assert not board_layouts[0] and all(board_layouts[1:])
    for png, boxes, board_boxes in zip(drawn, layouts, board_layouts, strict=True):
        assert not _label_problems(png, boxes)
        problems = _board_label_problems(png, board_boxes)
        assert not problems, "\n".join(problems[:20])


def _label_problems(png: bytes, boxes: list[TextBox]) -> list[str]:
    """`layout_problems`, on the picture's own labels (the boards pasted in are the games' own
    pictures: their overlaps and surroundings are checked by their own tests)."""
    return layout_problems(png, boxes)


def _board_label_problems(png: bytes, boxes: list[TextBox]) -> list[str]:
    """The boards' labels as they land in the picture (scaled with their board): each reads
    at phone width (digits 9 px once the picture is 360 px wide), on a contrast of 4.5:1, and
    lies within the picture. Side by side, half as wide, their digits were 4 to 5 px."""
    image = Image.open(io.BytesIO(png))
    problems = []
    for b in boxes:
        if b.height * PHONE_WIDTH / image.width < MIN_PHONE_PX:
            problems.append(f"{b.text!r}: digits {b.height * PHONE_WIDTH / image.width:.1f} px "
                            "at phone width")
        if contrast(b.fg, b.bg) < 4.5:
            problems.append(f"{b.text!r}: contrast {contrast(b.fg, b.bg):.2f}")
        x0, y0, x1, y1 = b.box
        if x0 < 0 or y0 < 0 or x1 > image.width or y1 > image.height:
            problems.append(f"{b.text!r}: outside the picture")
    return problems


GAMES = (("progressive-mancala", 2, {"pits": "11"}), ("progressive-mancala", 2, {"pits": "17"}),
         ("pastoral-square", 2, {}), ("ico", 2, {"level": "1"}), ("ghostone", 3, {}),
         ("consequence", 2, {}))
NAMES = ["Alice", "Bartholomew-Longname", "Carol", "Dave"]


def played_swings(game_id: str, seats: int, options: dict[str, str], seed: int = 1):
    """A seeded random playout and three of its moves as swings: the public view after the
    move played and after another legal move (what the AI preferred, as far as the picture
    cares), the series of chances made up."""
    game = get_game(game_id)
    rng = random.Random(seed)
    state = game.new(seats, game.draw_options(options, rng))
    chosen = []
    while game.outcome(state) is None and len(chosen) < 30:
        notations = game.legal_notations(state)
        move, best = rng.choice(notations), rng.choice(notations)
        chosen.append((game.observe(game.play(state, move), None),
                       game.observe(game.play(state, best), None), move, best))
        state = game.play(state, move)
    picks = sorted(rng.sample(range(1, len(chosen) + 1), min(3, len(chosen))))
    swings = [Swing(i, (i - 1) % seats, chosen[i - 1][2], chosen[i - 1][3], 0.2,
                    chosen[i - 1][0], chosen[i - 1][1]) for i in picks]
    series = [[1 / seats] * seats for _ in range(len(chosen) + 1)]
    return swings, series


@pytest.mark.parametrize("language", ["en", "ja"])
@pytest.mark.parametrize("game_id,seats,options", GAMES)
def test_every_label_of_every_game_reads_on_a_phone(game_id, seats, options, language,
                                                    cjk_font):
    """Every label of every picture, the boards' own included (scores, counts, coordinates,
    status lines), reads at phone width, in every game; the chart fits Discord's preview."""
    swings, series = played_swings(game_id, seats, options)
    tr = translations(language) if language == "ja" else gettext.NullTranslations()
    layouts: list[list[TextBox]] = []
    board_layouts: list[list[TextBox]] = []
    pngs = draw(game_id, names=NAMES[:seats], series=series, swings=swings, tr=tr,
                layouts=layouts, board_layouts=board_layouts)
    assert len(swings) == 3 and not shapes_problems(pngs, len(swings))
    assert not marks_problems(layouts, swings)
    assert not board_layouts[0]  # the chart has no board
    assert all(len(boxes) > 2 * 3 for boxes in board_layouts[1:])  # both boards' labels
    for png, boxes, board_boxes in zip(pngs, layouts, board_layouts, strict=True):
        assert not _label_problems(png, boxes)
        problems = _board_label_problems(png, board_boxes)
        assert not problems, "\n".join(problems[:20])


def test_a_calm_game_says_so():
    result, pngs = picture("en", swings=False)
    assert not shapes_problems(pngs, 0)  # the chart alone
    layouts: list[list[TextBox]] = []
    notes = result["moves"]
    only = draw("progressive-mancala", names=["Alice", "Bob"],
                series=[n["win"] for n in notes] + [result["final"]], swings=[],
                layouts=layouts)
    assert len(only) == len(layouts) == 1
    assert "No move gave away a noticeable chance of winning" in [b.text for b in layouts[0]]
    assert not _label_problems(only[0], layouts[0])
    assert not has_mark(only[0])


class FailingWorkers:
    """Analysis workers whose every search fails (a bug, a crashed native library)."""

    waiting = 0

    async def run(self, fn, *args):
        raise RuntimeError("the search failed")


class InlineWorkers:
    """Analysis workers that run the job at once, counting the calls."""

    waiting = 0

    def __init__(self):
        self.calls = 0

    async def run(self, fn, *args):
        self.calls += 1
        return fn(*args)


def runner(service, store, workers, busy=lambda: False):
    from bot.analysis_runner import AnalysisRunner

    return AnalysisRunner(store, service, workers, worker_id="t", api_base="http://x",
                          application_id=lambda: None, busy=busy, on_commit=lambda: None)


async def test_a_failing_analysis_is_tried_again_then_given_up(service, store):
    from bot.analysis_runner import MAX_ATTEMPTS

    match = await finished_match(service)
    await service.request_analysis(match.id, ALICE.user_id, guild_id=1, **ASK)
    work = runner(service, store, FailingWorkers())
    for attempt in range(1, MAX_ATTEMPTS + 1):
        assert await work.step()
        job = await store.analysis(match.id)
        assert job is not None and job.attempts == attempt
        assert job.status == ("failed" if attempt == MAX_ATTEMPTS else "queued")
    assert not await work.step()  # nothing left to do; asking again queues it afresh
    again = await service.request_analysis(match.id, BOB.user_id, guild_id=1, **ASK)
    assert again.outcome == "queued" and again.job.status == "queued"


async def test_the_runner_judges_each_position_once_in_slices_and_posts_once(service, store):
    from bot.analysis_runner import SLICE

    moves = ["k", "c", "h", "k", "d", "j", "g", "c", "a", "i"]
    service.analyses.level = "easy"  # a host's setting (CORRAL_ANALYSIS_LEVEL): a short test
    match = await finished_match(service, moves=moves)
    await service.request_analysis(match.id, ALICE.user_id, guild_id=1, **ASK)
    workers = InlineWorkers()
    work = runner(service, store, workers)
    steps = 0
    while await work.step():
        steps += 1
    job = await store.analysis(match.id)
    assert job is not None and job.status == "done" and len(job.judged) == job.total
    assert steps == -(-job.total // SLICE)  # slices, each given back to the queue
    # each position once, the assembly, each swing's lines, the puzzles
    assert workers.calls == job.total + 2 + len(job.result["mistakes"])
    posts = await store.conn.fetch("SELECT payload FROM outbox WHERE kind = 'analysis'")
    assert len(posts) == 1


async def test_the_progress_moves_after_every_position_then_each_swing(service, store,
                                                                         monkeypatch):
    """The reply shows the next position as soon as one is done (the edits spaced at least
    PROGRESS_EVERY apart: here the clock moves that much between two), then each swing being
    explained, then the finish; the posted result has each swing's lines."""
    from bot import analysis_runner
    from games import analysis

    shown: list[str] = []

    async def edit(session, api_base, application_id, token, message, payload):
        shown.append(payload["content"])

    monkeypatch.setattr(analysis_runner, "edit_follow_up", edit)
    monkeypatch.setattr(analysis, "noise", lambda game, level: 0.0)  # every loss a swing
    service.analyses.level = "easy"
    moves = ["k", "c", "h", "k", "d", "j", "g", "c", "a", "i"]
    match = await finished_match(service, moves=moves)
    await service.request_analysis(match.id, ALICE.user_id, guild_id=1, **{
        **ASK, "token": "tok", "token_expires": 1e12})
    now = [0.0]

    def clock():
        now[0] += analysis_runner.PROGRESS_EVERY
        return now[0]

    work = analysis_runner.AnalysisRunner(
        store, service, InlineWorkers(), worker_id="t", api_base="http://x",
        application_id=lambda: 1, busy=lambda: False, on_commit=lambda: None, clock=clock)
    while await work.step():
        pass
    await work.stop()
    job = await store.analysis(match.id)
    assert job is not None and job.status == "done"
    total = job.total
    moved = [int(n) for text in shown for n in re.findall(r"analysing move (\d+) of", text)]
    assert moved == list(range(1, total + 1))  # every position, in order, none skipped
    swings = len(job.result["mistakes"])
    assert swings
    explained = [text for text in shown if "explaining swing" in text]
    assert explained == [f"📈 Analysis of match #{match.id} (Progressive Mancala): every move "
                         f"analysed; explaining swing {n} of {swings}…"
                         for n in range(1, swings + 1)]
    assert "finishing" in shown[-1]
    for index in job.result["mistakes"]:
        note = job.result["moves"][index - 1]
        assert note["refutation"][0][1] == note["move"] and note["better"][0][1] == note["best"]


async def test_live_work_goes_first(service, store, monkeypatch):
    """While the AI's or the pictures' workers have work waiting, no position is searched."""
    import asyncio

    from bot import analysis_runner

    monkeypatch.setattr(analysis_runner, "YIELD_AT_MOST", 0.5)
    service.analyses.level = "easy"
    match = await finished_match(service)
    await service.request_analysis(match.id, ALICE.user_id, guild_id=1, **ASK)
    workers = InlineWorkers()
    busy = [True]
    work = runner(service, store, workers, busy=lambda: busy[0])
    task = asyncio.ensure_future(work.step())
    await asyncio.sleep(0.2)
    assert workers.calls == 0  # waiting behind the live work
    busy[0] = False
    assert await task and workers.calls >= 1


async def test_analysis_workers_run_at_a_lower_priority():
    import os

    from bot.pool import Workers

    workers = Workers(1, nice=10)
    try:
        assert await workers.run(os.nice, 0) == min(19, os.nice(0) + 10)
    finally:
        workers.shutdown()


@pytest.mark.parametrize("language", ["en", "ja"])
def test_a_swing_is_told_with_its_refutation_and_better_line(language):
    from bot.analysis_post import analysis_lines
    from bot.words.i18n import Texts

    note = {"index": 5, "seat": 0, "move": "d", "best": "h", "win": [0.6, 0.4], "loss": 0.23,
            "refutation": [[0, "d"], [1, "g"], [0, "c"]],
            "better": [[0, "h"], [1, "e"], [1, "f"]]}
    calm = {"index": 1, "seat": 0, "move": "k", "best": "k", "win": [0.5, 0.5], "loss": 0.0}
    result = {"moves": [calm, calm, calm, calm, note], "mistakes": [5], "final": [0.0, 1.0]}
    texts = Texts(language)
    said = [texts(line, ["Alice", "Bob"]) for line in analysis_lines(
        7, "Progressive Mancala", "hard", ["Alice", "Bob"], result)]
    if language == "en":
        assert said[-2:] == ["   After `d`, Bob answers `g`, then Alice plays `c`.",
                             "   Better was `h`: Bob answers `e`, then Bob moves again, `f`."]
    else:
        assert said[-2:] == ["   `d`のあとは：Bob の応手 `g`、続いて Alice の手 `c`。",
                             "   より良いのは`h`でした：Bob の応手 `e`、続いて Bob の続けての手 "
                             "`f`。"]
    # with what each ply did, by the game's own words: the reason one line is better
    from bot.analysis_post import swing_effects
    from games import get_game

    game = get_game("progressive-mancala")
    entries = [["move", m] for m in ["j", "c", "k", "d", "c"]]
    state = game.new(2, {})
    for _, m in entries[:4]:
        state = game.apply(state, game.parse_move(state, m))
    assert game.to_move(state) == 0 or game.to_move(state) == 1
    mover = game.to_move(state)
    legal = [game.format_move(state, m) for m in game.legal_moves(state)]
    told = {}
    for first in legal:  # the first ply with something to say (a relay, a score...)
        after = game.apply(state, game.parse_move(state, first))
        if game.move_gist(state, game.parse_move(state, first), after):
            told = {"index": 5, "seat": mover, "move": first, "best": first,
                    "win": [0.5, 0.5], "loss": 0.2, "refutation": [[mover, first]],
                    "better": [[mover, first]]}
            break
    assert told, "some first move of this position does something worth saying"
    plain = {"index": 1, "seat": 0, "move": "j", "best": "j", "win": [0.5, 0.5], "loss": 0.0}
    result2 = {"moves": [plain, plain, plain, plain, told], "mistakes": [5], "final": [0, 1]}
    effects = swing_effects(game, 2, {}, entries, result2)
    said = [texts(line, ["Alice", "Bob"]) for line in analysis_lines(
        7, "Progressive Mancala", "hard", ["Alice", "Bob"], result2, effects)]
    wanted = texts(game.move_gist(state, game.parse_move(state, told["move"]),
                                     game.apply(state, game.parse_move(
                                         state, told["move"])))[0], ["Alice", "Bob"])
    assert wanted in said[-1] and f"`{told['move']}`" in said[-1]
    # an analysis stored before the lines were searched still reads
    del note["refutation"], note["better"]
    said = [texts(line, ["Alice", "Bob"]) for line in analysis_lines(
        7, "Progressive Mancala", "hard", ["Alice", "Bob"], result)]
    assert "`h`" in said[-1] and "`g`" not in "".join(said)
