"""A match's moves in words, and its game record."""

from __future__ import annotations

from dataclasses import dataclass

from games import Phrase, phrase
from games.record import format_record

from .. import strings
from .core import Context, Match
from .moves import effective_log


@dataclass(frozen=True)
class HistoryEntry:
    ply: int
    kind: str  # move, roll or skip
    name: str | None  # who played it (None for the host's roll)
    notation: str  # as the channel may see it
    effects: tuple[Phrase, ...]


class History:
    """A match's moves replayed from its log: in words, as a state, as a game record."""

    def __init__(self, ctx: Context):
        self.ctx = ctx

    async def history(self, match_id: int) -> tuple[Match, list[HistoryEntry]]:
        """The moves in order, replayed from the log: public notation while hidden
        information is still hidden, and what each move did where the game says."""
        match = await self.ctx.get(match_id)
        game = match.game
        entries: list[HistoryEntry] = []
        if match.state is None:
            return match, entries
        revealed = match.status == "finished" or not game.info.hidden_information
        names = {s.user_id: s.name for s in match.seats}
        state = game.new(len(match.seats), match.row.options)
        for entry in effective_log(await self.ctx.store.moves(match.id)):
            if entry.kind == "skip":
                absent = game.to_move(state)
                state = game.skip(state)
                who = match.row.user_at(absent) if absent is not None else None
                entries.append(HistoryEntry(entry.ply + 1, "skip", who.name if who else None,
                                            "skip", ()))
                continue
            move = game.parse_move(state, entry.notation)
            after = game.apply(state, move)
            shown = game.format_move(state, move) if revealed else game.public_notation(state,
                                                                                      move)
            kind = "roll" if entry.actor_id is None else "move"
            entries.append(HistoryEntry(entry.ply + 1, kind, names.get(entry.actor_id or 0),
                                        shown, game.move_effects(state, move, after)))
            state = after
        return match, entries

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
