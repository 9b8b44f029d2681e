"""Posting a finished analysis (an `outbox.AnalysisPost` row): its pictures (the chart, then
one per swing), drawn in the picture workers, and the same in words, in one message in the
channel it was asked in and in that server's language; then the reply that showed the progress
says where it is."""

from __future__ import annotations

import dataclasses
import io
from typing import Any

import discord

from games import Game, GameError, Phrase, phrase
from games.analysis import replayed

from .delivery import Delivery
from .interactions import fit
from .outbox import AnalysisPost
from .outbox_worker import Give, Result, Skip
from .pictures import analysis_pictures
from .pool import Workers
from .service import LEVEL_NAMES, Service
from .store import OutboxRow, Store
from .words import strings
from .words.i18n import Texts

KINDS = ("analysis",)
CONCURRENCY = 4


def _name(names: list[str], seat: Any) -> str:
    return names[seat] if isinstance(seat, int) and 0 <= seat < len(names) else "?"


Effects = tuple[Phrase, ...]


def _move(notation: str, effects: Effects) -> Phrase:
    return (phrase(strings.ANALYSIS_MOVE_EFFECTS, move=notation, effects=effects) if effects
            else phrase(strings.ANALYSIS_MOVE, move=notation))


def line_effects(game: Game, start: Any, line: list[list[Any]]) -> list[Effects]:
    """What each ply of a line did, by the game's own words (`Game.move_gist`: scores,
    captures, a turn handed over): the reason a line is better or worse. Empty where the
    line does not replay (an analysis of an older version of the rules)."""
    said: list[Effects] = []
    state = start
    try:
        for _, notation in line:
            move = game.parse_move(state, str(notation))
            after = game.apply(state, move)
            said.append(game.move_gist(state, move, after))
            state = after
    except GameError:
        return []
    return said


def swing_effects(game: Game, seats: int, options: dict[str, str],
                  entries: list[list[str]], result: dict[str, Any]
                  ) -> dict[int, dict[str, list[Effects]]]:
    """Each swing's lines' effects ({index: {"refutation": [...], "better": [...]}})."""
    try:
        states, _ = replayed(game, game.new(seats, options), entries)
    except GameError:
        return {}
    found: dict[int, dict[str, list[Effects]]] = {}
    for index in result.get("mistakes", []):
        note = result["moves"][index - 1]
        if not 0 < index <= len(entries):
            continue
        found[index] = {key: line_effects(game, states[index - 1], note.get(key) or [])
                        for key in ("refutation", "better")}
    return found


def replies(line: list[list[Any]], names: list[str],
            effects: list[Effects] | None = None) -> Phrase | None:
    """The plies of a line after its first, in words ("Bob answers `f` (scored 6 seeds),
    then Alice plays `c`"; "moves again" for a seat that moves twice running), or None if
    the line is its first move alone."""
    said: list[Phrase] = []
    done = effects or []
    for k, ((before, _), (seat, move)) in enumerate(zip(line, line[1:], strict=False), 1):
        said.append(phrase(strings.ANALYSIS_AGAIN_REPLY if seat == before
                           else strings.ANALYSIS_REPLY if not said else strings.ANALYSIS_PLAYS,
                           name=_name(names, seat),
                           move=_move(move, done[k] if k < len(done) else ())))
    if not said:
        return None
    words = said[-1]
    for step in reversed(said[:-1]):
        words = phrase(strings.ANALYSIS_THEN, first=step, rest=words)
    return words


def line_words(note: dict[str, Any], names: list[str],
               effects: dict[str, list[Effects]] | None = None) -> list[Phrase]:
    """A swing's refutation and better line in words, each ply with what it did (none for an
    analysis stored before the lines were searched)."""
    out: list[Phrase] = []
    effects = effects or {}
    refutation, better = note.get("refutation") or [], note.get("better") or []
    if refutation:
        done = effects.get("refutation") or []
        first = _move(refutation[0][1], done[0] if done else ())
        said = replies(refutation, names, done)
        if said is not None:
            out.append(phrase(strings.ANALYSIS_REFUTED, move=first, replies=said))
    if better:
        done = effects.get("better") or []
        first = _move(better[0][1], done[0] if done else ())
        said = replies(better, names, done)
        out.append(phrase(strings.ANALYSIS_BETTER, move=first, replies=said)
                   if said is not None else phrase(strings.ANALYSIS_BETTER_ALONE, move=first))
    return out


def analysis_lines(match_id: int, game: str, level: str, names: list[str],
                   result: dict[str, Any],
                   effects: dict[int, dict[str, list[Effects]]] | None = None) -> list[Phrase]:
    """The analysis in words: what the picture shows, and its three biggest swings, each with
    the line that refutes the move played and the better line, and what their plies did."""
    lines = [phrase(strings.ANALYSIS_HEADER, match_id=match_id, game=game,
                    level=phrase(LEVEL_NAMES.get(level, strings.AI_LEVEL_HARD)))]
    notes = result["moves"]
    if not result["mistakes"]:
        lines.append(phrase(strings.ANALYSIS_NO_SWINGS))
        return lines
    lines.append(phrase(strings.ANALYSIS_SWINGS))
    for rank, index in enumerate(result["mistakes"], 1):
        note = notes[index - 1]
        seat = note["seat"]
        lines.append(phrase(
            strings.ANALYSIS_SWING, rank=rank, index=index,
            name=names[seat] if seat is not None and 0 <= seat < len(names) else "?",
            move=note["move"], best=note["best"], loss=f"−{round(note['loss'] * 100)}%"))
        lines += line_words(note, names, (effects or {}).get(index))
    return lines


def analysis_alts(match_id: int, names: list[str], result: dict[str, Any],
                  texts: Texts) -> list[str]:
    """The alt text of each analysis picture: the chart (each seat's chance at the start and
    at the end), then each swing (its move, the loss, the better move)."""
    notes = result["moves"]
    series = [list(note["win"]) for note in notes] + [list(result["final"])]
    chances = ", ".join(texts(phrase(
        strings.ALT_ANALYSIS_CHANCE, name=name, start=f"{round(series[0][seat] * 100)}%",
        end=f"{round(series[-1][seat] * 100)}%"))
        for seat, name in enumerate(names) if seat < len(series[0]))
    alts = [texts(phrase(strings.ALT_ANALYSIS_CHART, match_id=match_id, chances=chances))]
    for rank, index in enumerate(result["mistakes"], 1):
        note = notes[index - 1]
        seat = note["seat"]
        alts.append(texts(phrase(
            strings.ALT_ANALYSIS_SWING, rank=rank, index=index,
            name=names[seat] if seat is not None and 0 <= seat < len(names) else "?",
            move=note["move"], best=note["best"], loss=f"−{round(note['loss'] * 100)}%")))
    return alts


class AnalysisPoster:
    def __init__(self, store: Store, service: Service, delivery: Delivery, pictures: Workers):
        self.store = store
        self.service = service
        self.delivery = delivery
        self.pictures = pictures

    async def deliver(self, row: OutboxRow, post: AnalysisPost) -> Result:
        job = await self.store.analysis(post.match_id)
        if job is None or job.result is None:
            raise Give(f"no analysis of match {post.match_id} to post")
        match, entries = await self.service.analysable(post.match_id)
        # where Corral may only answer interactions (a DM or group DM between players, a
        # server that did not add it), an analysis done minutes later cannot go into the
        # channel: it goes to the DM of the player who asked for it, in their language
        unreachable = match.row.by_interactions and post.channel_id == match.row.channel_id
        texts = (Texts(job.language or "en") if unreachable
                 else Texts(await self.service.channel_language(post.guild_id)))
        names = match.names()
        effects = swing_effects(match.game, len(match.seats), dict(match.row.options), entries,
                                job.result)
        content = fit("\n".join(texts(line, names) for line in analysis_lines(
            match.id, match.game.name, job.level, names, job.result, effects)))
        message_id = post.message_id
        channel_id = post.channel_id
        if message_id is None:
            pngs: list[bytes] = await self.pictures.run(
                analysis_pictures, match.game.id, len(match.seats), dict(match.row.options),
                entries, job.result, names, texts.language)
            # the chart first, then the swings in rank order (at most 1 + 3 of Discord's 10
            # attachments a message)
            suffixes = ["chart", *(str(rank) for rank in range(1, len(pngs)))]
            alts = analysis_alts(match.id, names, job.result, texts)
            files = [discord.File(io.BytesIO(png), filename=f"analysis-{match.id}-{suffix}.png",
                                  description=alts[at] if at < len(alts) else None)
                     for at, (png, suffix) in enumerate(zip(pngs, suffixes, strict=True))]
            where, key = post.channel_id, ""
            for attempt in range(2):
                if unreachable or attempt:
                    where, key = await self.delivery.dm_channel(job.requested_by), "d"
                    for file in files:
                        file.reset()
                try:
                    message = await self.delivery.post(
                        row, where, key=key, content=content, files=files,
                        allowed_mentions=discord.AllowedMentions.none())
                    break
                except discord.Forbidden:
                    if unreachable or attempt:
                        raise Skip(f"cannot post in channel {where}") from None
                    unreachable = True  # a channel the bot is not in: the DM then
                except discord.NotFound:
                    raise Skip(f"channel {where} is gone") from None
            message_id, channel_id = message.id, message.channel.id
            if channel_id != post.channel_id:  # in the DM, where the link below leads
                post = dataclasses.replace(post, guild_id=None)
        if job.token is not None and job.token_expires is not None \
                and self.delivery.clock() < job.token_expires:
            guild = post.guild_id or "@me"
            link = f"https://discord.com/channels/{guild}/{channel_id}/{message_id}"
            await self.delivery.edit_reply(job.token, fit(Texts(job.language or "en")(
                phrase(strings.ANALYSIS_READY, match_id=match.id, link=link))))
        return {"message_id": message_id}
