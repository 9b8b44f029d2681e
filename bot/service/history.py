"""A match's moves in words, and its game record."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from games import Phrase, get_game, phrase
from games.record import format_record

from ..words import strings
from .core import Context, Match
from .moves import effective_log


@dataclass(frozen=True)
class HistoryEntry:
    ply: int
    kind: str  # move, roll or skip
    name: str | None  # who played it (None for the host's roll)
    notation: str  # as the channel may see it
    effects: tuple[Phrase, ...]
    # the players' names by seat, as the board shows them: an effect naming a seat ("Bob
    # gets a bonus move") names the player, not "seat 2"; empty where a name is unknown
    names: tuple[str, ...] = ()


LogEntry = tuple[str, str, int | None, int]  # kind, notation, actor, ply before it


def replay_history(game_id: str, seat_count: int, options: dict[str, str],
                   log: Sequence[LogEntry], seats: Sequence[tuple[int, int, str]],
                   revealed: bool) -> list[HistoryEntry]:
    """A match's effective log replayed into history entries (plain arguments: it also runs
    in a worker process, for the web pages). `seats`: (seat, user id, name)."""
    return list(replay_more(game_id, seat_count, options, log, seats, revealed, None).entries)


@dataclass(frozen=True)
class Replayed:
    """A replay's end: the log it replayed, its history entries, and the state after them,
    from which a longer log goes on (`replay_more`)."""

    log: tuple[LogEntry, ...]
    entries: tuple[HistoryEntry, ...]
    state: Any
    revealed: bool

    def continues(self, log: Sequence[LogEntry], revealed: bool) -> bool:
        """Whether `log` is this replay's log and then more (no takeback since)."""
        return (revealed == self.revealed and len(log) >= len(self.log)
                and tuple(log[:len(self.log)]) == self.log)


def replay_more(game_id: str, seat_count: int, options: dict[str, str],
                log: Sequence[LogEntry], seats: Sequence[tuple[int, int, str]],
                revealed: bool, before: Replayed | None) -> Replayed:
    """`log` replayed, going on from `before` where `log` continues it (a web page watching
    a match replays only the new moves at each version), else from the start."""
    game = get_game(game_id)
    names = {user_id: name for _, user_id, name in seats}
    by_seat = {seat: name for seat, _, name in seats}
    seat_names = tuple(by_seat[seat] for seat in range(seat_count)) \
        if all(seat in by_seat for seat in range(seat_count)) else ()
    if before is not None and before.continues(log, revealed):
        entries, state, done = list(before.entries), before.state, len(before.log)
    else:
        entries, state, done = [], game.new(seat_count, options), 0
    for kind, notation, actor_id, ply in log[done:]:
        if kind == "skip":
            absent = game.to_move(state)
            state = game.skip(state)
            entries.append(HistoryEntry(ply + 1, "skip",
                                        by_seat.get(absent) if absent is not None else None,
                                        "skip", (), seat_names))
            continue
        move = game.parse_move(state, notation)
        after = game.apply(state, move)
        shown = game.format_move(state, move) if revealed else game.public_notation(state, move)
        entries.append(HistoryEntry(ply + 1, "roll" if actor_id is None else "move",
                                    names.get(actor_id or 0), shown,
                                    game.move_effects(state, move, after), seat_names))
        state = after
    return Replayed(tuple(log), tuple(entries), state, revealed)


def history_text(entries: Sequence[HistoryEntry], language: str) -> list[str]:
    """History entries as the Moves button says them, in `language`."""
    from ..words.i18n import Texts

    texts = Texts(language)
    return [texts(History.history_line(entry), entry.names or None) for entry in entries]


class History:
    """A match's moves replayed from its log: in words, as a state, as a game record."""

    def __init__(self, ctx: Context):
        self.ctx = ctx

    async def history(self, match_id: int) -> tuple[Match, list[HistoryEntry]]:
        """The moves in order, replayed from the log: public notation while hidden
        information is still hidden, and what each move did where the game says."""
        match = await self.ctx.get(match_id)
        if match.state is None:
            return match, []
        revealed = match.status == "finished" or not match.game.info.hidden_information
        log = effective_log(await self.ctx.store.moves(match.id))
        return match, replay_history(
            match.game.id, len(match.seats), match.row.options,
            [(e.kind, e.notation, e.actor_id, e.ply) for e in log],
            [(s.seat, s.user_id, s.name) for s in match.seats], revealed)

    async def rebuild(self, match_id: int) -> object:
        """The state replayed from the move log (the log is the source of truth): moves,
        rolls and skips in order, each takeback removing the entry before it."""
        match = await self.ctx.get(match_id)
        game = match.game
        state = game.new(len(match.seats), match.row.options)
        for entry in effective_log(await self.ctx.store.moves(match_id)):
            state = game.skip(state) if entry.kind == "skip" else game.play(state, entry.notation)
        return state

    async def record(self, match_id: int) -> tuple[Match, str, bool]:
        """The match as a game record (`python -m games replay` reads it). While hidden
        information is hidden, the moves are in public notation. Returns (match, text,
        complete)."""
        match, entries = await self.history(match_id)
        game = match.game
        complete = match.status == "finished" or not game.info.hidden_information
        meta = {"match": f"#{match.id}", "players": ", ".join(match.names()),
                "status": match.status}
        if match.status == "finished" and match.outcome() is not None:
            outcome = match.outcome()
            assert outcome is not None
            meta["result"] = ("draw" if outcome.draw else
                              "winners " + " ".join(str(w + 1) for w in outcome.winners))
        if not complete:
            meta["note"] = "public notation only: the hidden tiles are shown once the game is over"
        if match.state is None:
            start = None
        else:
            start = game.new(len(match.seats), match.row.options)
        if start is None:
            text = f"# game: {game.id}\n" + "".join(f"# {k}: {v}\n" for k, v in meta.items())
            return match, text, complete
        moves = [e.notation for e in entries if e.kind != "skip"]
        if any(e.kind == "skip" for e in entries):
            meta["note"] = "turns skipped after a timeout are not moves of the record"
        return match, format_record(game, start, moves, meta=meta), complete

    @staticmethod
    def history_line(entry: HistoryEntry) -> Phrase:
        if entry.kind == "skip":
            return phrase(strings.MOVES_SKIP, ply=entry.ply, name=entry.name or "?")
        if entry.kind == "roll":
            return phrase(strings.MOVES_ROLL, ply=entry.ply, notation=entry.notation,
                          effects=entry.effects or (entry.notation,))
        if entry.effects:
            return phrase(strings.MOVES_ENTRY_EFFECTS, ply=entry.ply, name=entry.name or "?",
                          notation=entry.notation, effects=entry.effects)
        return phrase(strings.MOVES_ENTRY, ply=entry.ply, name=entry.name or "?",
                      notation=entry.notation)
