"""The analysis runner: works through the queue of post-game analyses (the store's
`analyses`, bot/store/analyses.py), off the event loop and behind live play.

- Durable: each position's judgement is saved as soon as it comes, under a lease; a job cut
  short by a crash or a stop is taken up again where it stopped (by this process at its next
  start, or by another once the lease ends).
- Behind live play: the searches run in worker processes of their own at a lower CPU
  priority (`Workers(nice=...)`), one position at a time, and a position waits while the AI's
  or the pictures' workers have work queued (a live AI move or a board comes first).
- Fair: a job is worked on for a slice of positions, then given back; the next slice goes to
  the server whose jobs were served longest ago, so one server's many requests never starve
  another's.
- Progress: the reply of the request that queued the job is edited ("analysing move 31 of
  60", then "explaining swing 1 of 3", then "finishing") as each position is done, at most
  every `PROGRESS_EVERY` seconds (a new stage always shows), through the interaction's token
  (requests that do not count against the bot's global rate limit) while Discord keeps it.
  Each position's search is cut to `games.analysis.position_cap` seconds and each swing's
  lines to a share of it, so the progress moves at least every couple of seconds.
- The result is stored with the job and posted through the outbox (`outbox.AnalysisPost`), in
  the transaction that finishes the job.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Callable
from typing import Any

import aiohttp

from games import phrase
from games.analysis import assemble_job, explain_job, judge_job
from games.puzzles import puzzles_job

from .ai import seed_for
from .followups import Unsent, edit_follow_up
from .interactions import fit
from .pool import Workers
from .service import Match, Service, ServiceError
from .store import Store
from .store.analyses import AnalysisRow
from .words import strings
from .words.i18n import Texts

log = logging.getLogger(__name__)

SLICE = 8  # positions judged before the job is given back (and the fairest job taken)
LEASE = 120.0  # seconds a job in hand is ours (renewed with every position)
PROGRESS_EVERY = 1.0  # seconds between two edits of a job's progress reply
MAX_ATTEMPTS = 3  # slices that may fail before a job is given up
YIELD_AT_MOST = 30.0  # seconds a position waits for live work to finish before it goes ahead
NICE = 10  # how much lower the analysis workers' CPU priority is


class AnalysisRunner:
    def __init__(self, store: Store, service: Service, workers: Workers, *, worker_id: str,
                 api_base: str, application_id: Callable[[], int | None],
                 busy: Callable[[], bool], on_commit: Callable[[], None],
                 clock: Callable[[], float] = time.time):
        """`workers`: the analysis's own processes; `busy()`: whether live work (an AI move,
        a picture) is waiting for a worker; `on_commit`: wake the outbox. `clock` is the wall
        clock (leases, tokens), never the match clock."""
        self.store = store
        self.service = service
        self.workers = workers
        self.worker_id = worker_id
        self.api_base = api_base
        self.application_id = application_id
        self.busy = busy
        self.on_commit = on_commit
        self.clock = clock
        self._wake = asyncio.Event()
        self._stopping = False
        self._edited: dict[int, tuple[float, str]] = {}  # match -> (when, text) last shown
        self._session: aiohttp.ClientSession | None = None

    def wake(self) -> None:
        self._wake.set()

    async def run(self) -> None:
        async with self.store.transaction(background=True) as tx:
            await tx.release_analysis_claims(self.worker_id)  # what a previous run held
        while not self._stopping:
            self._wake.clear()
            try:
                worked = await self.step()
            except asyncio.CancelledError:
                raise
            except Exception:
                log.exception("analysis step failed")
                worked = False
            if worked:
                continue
            try:
                await asyncio.wait_for(self._wake.wait(), 5.0)
            except TimeoutError:
                pass

    async def stop(self) -> None:
        self._stopping = True
        self._wake.set()
        if self._session is not None:
            await self._session.close()

    async def step(self) -> bool:
        """Take the fairest job and work one slice of it; False when there is none."""
        now = self.clock()
        async with self.store.transaction(background=True) as tx:
            job = await tx.claim_analysis(self.worker_id, now, now + LEASE)
        if job is None:
            return False
        try:
            await self._slice(job)
        except asyncio.CancelledError:
            raise
        except Exception as exc:
            give_up = job.attempts + 1 >= MAX_ATTEMPTS
            log.exception("analysis of match %s failed%s", job.match_id,
                          "; given up" if give_up else "; it will be tried again")
            async with self.store.transaction(background=True) as tx:
                await tx.analysis_failed(job.match_id, repr(exc), self.clock(), give_up=give_up)
            if give_up:
                await self._show(job, phrase(strings.ANALYSIS_FAILED, match_id=job.match_id),
                                 force=True)
        return True

    async def _slice(self, job: AnalysisRow) -> None:
        try:
            match, entries = await self.service.analysable(job.match_id)
        except ServiceError as exc:  # cannot happen to a finished match; never loop on it
            raise RuntimeError(f"match {job.match_id} is not analysable: {exc}") from None
        judged = list(job.judged)[:len(entries)]
        if judged:
            log.info("analysis of match %s: resuming at move %s of %s", match.id,
                     len(judged) + 1, len(entries))
        stop = min(len(entries), len(judged) + SLICE)
        args = (match.game.id, len(match.seats), dict(match.row.options), entries)
        if len(judged) < stop:
            await self._show(job, self._progress(match, len(judged) + 1, len(entries)),
                             force=True)
        while len(judged) < stop and not self._stopping:
            await self._yield_to_live_work()
            found = await self.workers.run(judge_job, *args, len(judged), job.level,
                                           seed_for(match.id, len(judged)))
            judged.append(found)
            if len(judged) < len(entries):  # the next position's, as soon as this one is done
                await self._show(job, self._progress(match, len(judged) + 1, len(entries)))
            now = self.clock()
            async with self.store.transaction(background=True) as tx:
                mine = await tx.save_judged(match.id, judged, self.worker_id, now + LEASE)
            if not mine:
                log.warning("analysis of match %s: the job was taken over", match.id)
                return
        if len(judged) < len(entries):
            async with self.store.transaction(background=True) as tx:
                await tx.release_analysis(match.id, self.worker_id)
            return
        result = await self.workers.run(assemble_job, *args, judged, job.level,
                                        seed_for(match.id, 0))
        await self._explain(job, match, args, result)
        await self._show(job, phrase(strings.ANALYSIS_FINISHING, match_id=match.id,
                                     game=match.game.name), force=True)
        found = await self._puzzles(match, args, judged, job.level)
        now = self.clock()
        async with self.store.transaction(background=True) as tx:
            await tx.finish_analysis(match.id, result, now)
            await self.service.puzzles.store_found(
                tx, game=match.game.id, guild_id=match.row.guild_id or 0, match_id=match.id,
                seats=len(match.seats), options=dict(match.row.options),
                entries=[list(e) for e in entries], found=found, level=job.level, now=now)
            await self.service.analyses.post(tx, match.id, job.channel_id,
                                             match.row.guild_id, now)
        self.on_commit()
        log.info("analysis of match %s done: %s moves", match.id, len(entries))

    async def _explain(self, job: AnalysisRow, match: Match, args: tuple[Any, ...],
                       result: dict[str, Any]) -> None:
        """Each swing's refutation and better line (`games.analysis.explain_job`), one swing
        at a time, into `result`, with the progress shown before each."""
        mistakes = list(result["mistakes"])
        for n, index in enumerate(mistakes, 1):
            await self._show(job, phrase(strings.ANALYSIS_EXPLAINING, match_id=match.id,
                                         game=match.game.name, n=n, total=len(mistakes)),
                             force=n == 1)
            await self._yield_to_live_work()
            note = result["moves"][index - 1]
            note["refutation"], note["better"] = await self.workers.run(
                explain_job, *args, index, note["best"], job.level, seed_for(match.id, 0))

    async def _puzzles(self, match: Match, args: tuple[Any, ...], judged: list[Any],
                       level: str) -> list[dict[str, Any]]:
        """The puzzles of the analysed match, confirmed at a higher budget (none if that
        search fails: the analysis stands without them)."""
        await self._yield_to_live_work()
        try:
            found = await self.workers.run(puzzles_job, *args, judged, level,
                                           seed_for(match.id, 1))
        except asyncio.CancelledError:
            raise
        except Exception:
            log.exception("puzzles of match %s not found", match.id)
            return []
        log.info("puzzles of match %s: %s confirmed", match.id, len(found))
        return list(found)

    @staticmethod
    def _progress(match: Match, n: int, total: int) -> Any:
        return phrase(strings.ANALYSIS_PROGRESS, match_id=match.id, game=match.game.name, n=n,
                      total=total)

    async def _yield_to_live_work(self) -> None:
        """Live AI moves and pictures go first (for a while: an analysis still moves on
        under a steady load)."""
        waited = 0.0
        while self.busy() and waited < YIELD_AT_MOST and not self._stopping:
            await asyncio.sleep(0.05)
            waited += 0.05

    async def _show(self, job: AnalysisRow, text: Any, *, force: bool = False) -> None:
        """Edit the reply of the request with `text`, at a sane rate, while its token lives."""
        application_id = self.application_id()
        now = self.clock()
        if (job.token is None or job.token_expires is None or now >= job.token_expires
                or application_id is None):
            return
        content = fit(Texts(job.language or "en")(text))
        last = self._edited.get(job.match_id)
        if last is not None and (last[1] == content or (
                not force and now - last[0] < PROGRESS_EVERY)):
            return
        self._edited[job.match_id] = (now, content)
        if len(self._edited) > 1000:
            self._edited.clear()
        try:
            await edit_follow_up(self._http(), self.api_base, application_id, job.token,
                                 "@original", {"content": content})
        except Unsent as exc:
            log.info("analysis of match %s: progress not shown (%s)", job.match_id, exc)

    def _http(self) -> aiohttp.ClientSession:
        if self._session is None or self._session.closed:
            self._session = aiohttp.ClientSession()
        return self._session
