"""A tournament as plain immutable data: who plays, which rounds were paired, what they scored.

Nothing here knows Discord or the store. The bot keeps a `Tournament` (as `to_json` text or
its own rows), asks `pair_next_round` for the next `Round` when one ends, opens an ordinary
match for each `Game` with the seats in the order given (first seat = white in the TRF), and
writes each result back with `record`. Every function returns a new value; the same input
always gives the same output (ties are broken by rating, then by id, never at random).
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field, replace
from typing import Any, Literal, cast

Format = Literal["swiss", "round_robin", "knockout", "pods"]
FORMATS: tuple[Format, ...] = ("swiss", "round_robin", "knockout", "pods")
DrawBreak = Literal["extra_game", "minimatch"]
RoundKind = Literal["main", "tiebreak"]
JSON_VERSION = 1


class TournamentError(ValueError):
    """Data that does not describe a possible tournament (bad JSON, unknown player...)."""


class PairingError(RuntimeError):
    """No next round: the tournament is over, the round is still running, or no legal pairing."""


@dataclass(frozen=True)
class Player:
    """A participant. `joined_round` is the first round they may be paired in (a late join
    scores nothing for the rounds before); `withdrawn_round`, once set, the first round they are
    no longer paired in (their earlier results stand)."""

    id: int
    rating: int = 1500
    name: str = ""
    joined_round: int = 1
    withdrawn_round: int | None = None

    def active_in(self, rnd: int) -> bool:
        return self.joined_round <= rnd and (
            self.withdrawn_round is None or rnd < self.withdrawn_round
        )


@dataclass(frozen=True)
class Game:
    """One table of a round. `seats` are player ids in seat order (first seat = white); a single
    seat is a bye. `points` is per seat (None while the game runs). `forfeit` marks a result
    given without play (a withdrawal, an absent opponent): it scores but is not a played game
    for colours or tie-breaks."""

    seats: tuple[int, ...]
    points: tuple[float, ...] | None = None
    forfeit: bool = False

    @property
    def is_bye(self) -> bool:
        return len(self.seats) == 1

    @property
    def finished(self) -> bool:
        return self.points is not None

    @property
    def played(self) -> bool:
        """A game that was actually played to a result (not a bye, not a forfeit)."""
        return self.points is not None and not self.forfeit and len(self.seats) > 1


@dataclass(frozen=True)
class Round:
    """A paired round. Knockout draws are broken in `tiebreak` rounds that belong to the bracket
    stage of the main round before them."""

    number: int
    games: tuple[Game, ...]
    kind: RoundKind = "main"

    @property
    def finished(self) -> bool:
        return all(g.finished for g in self.games)


@dataclass(frozen=True)
class Settings:
    """`rounds`: Swiss and pods only (round robin and knockout derive theirs). `double`: round
    robin twice, seats reversed. `table_min`/`table_max`: pods table sizes. `draw_break`:
    knockout, one extra game at a time or a two-game mini-match; after `max_tiebreaks` drawn
    ones the higher seed goes through. `bye_points`: Swiss pairing-allocated bye."""

    format: Format
    rounds: int = 0
    double: bool = False
    table_min: int = 2
    table_max: int = 2
    draw_break: DrawBreak = "extra_game"
    max_tiebreaks: int = 3
    bye_points: float = 1.0
    name: str = ""


@dataclass(frozen=True)
class Tournament:
    settings: Settings
    players: tuple[Player, ...]
    rounds: tuple[Round, ...] = field(default=())

    def player(self, player_id: int) -> Player:
        for p in self.players:
            if p.id == player_id:
                return p
        raise TournamentError(f"no player {player_id}")

    @property
    def next_round_number(self) -> int:
        return len(self.rounds) + 1


def seed_order(players: Iterable[Player]) -> list[Player]:
    """Initial ranking: rating, highest first, then id. Gives TRF start numbers, Berger numbers,
    knockout seeds and Dutch pairing numbers."""
    return sorted(players, key=lambda p: (-p.rating, p.id))


def add_round(t: Tournament, rnd: Round) -> Tournament:
    if rnd.number != t.next_round_number:
        raise TournamentError(f"round {rnd.number} is not the next one ({t.next_round_number})")
    return replace(t, rounds=(*t.rounds, rnd))


def add_player(t: Tournament, player: Player) -> Tournament:
    """A late join: the player is paired from the next round on and scores 0 for missed ones.
    Round robin and knockout take no one once paired (their schedule and bracket are fixed)."""
    if t.rounds and t.settings.format in ("round_robin", "knockout"):
        raise TournamentError(f"a {t.settings.format} takes no late joins")
    if any(p.id == player.id for p in t.players):
        raise TournamentError(f"player {player.id} already plays")
    late = replace(player, joined_round=max(player.joined_round, t.next_round_number))
    return replace(t, players=(*t.players, late))


def record(
    t: Tournament, round_number: int, game_index: int, points: tuple[float, ...],
    forfeit: bool = False,
) -> Tournament:
    """The result of one game: points per seat (1/0.5/0 for two seats, `pod_points` for pods)."""
    rnd = t.rounds[round_number - 1]
    game = rnd.games[game_index]
    if len(points) != len(game.seats):
        raise TournamentError("one score per seat")
    games = list(rnd.games)
    games[game_index] = replace(game, points=tuple(float(x) for x in points), forfeit=forfeit)
    rounds = list(t.rounds)
    rounds[round_number - 1] = replace(rnd, games=tuple(games))
    return replace(t, rounds=tuple(rounds))


def withdraw(t: Tournament, player_id: int) -> Tournament:
    """A tournament director's withdrawal: results so far stand, the player is paired no more,
    and their unfinished two-seat games become forfeits won by the opponent (in a round robin
    that is every game left in the schedule). Pods tables still running are left to the bot,
    which finishes the match with the player placed last."""
    t.player(player_id)
    rounds = []
    for rnd in t.rounds:
        games = []
        for g in rnd.games:
            if g.points is None and player_id in g.seats and len(g.seats) == 2:
                pts = tuple(0.0 if s == player_id else 1.0 for s in g.seats)
                g = replace(g, points=pts, forfeit=True)
            games.append(g)
        rounds.append(replace(rnd, games=tuple(games)))
    when = t.next_round_number
    players = tuple(
        replace(p, withdrawn_round=p.withdrawn_round or when) if p.id == player_id else p
        for p in t.players
    )
    return replace(t, players=players, rounds=tuple(rounds))


def scores(t: Tournament, upto: int | None = None) -> dict[int, float]:
    """Points per player over the rounds numbered below `upto` (all by default)."""
    out = {p.id: 0.0 for p in t.players}
    for rnd in t.rounds:
        if upto is not None and rnd.number >= upto:
            break
        for g in rnd.games:
            if g.points is not None:
                for pid, pts in zip(g.seats, g.points, strict=True):
                    out[pid] += pts
    return out


# ---- JSON ------------------------------------------------------------------------------


def to_json(t: Tournament) -> str:
    """Versioned, key-sorted JSON: the same tournament always gives the same text."""
    doc = {
        "version": JSON_VERSION,
        "settings": {
            "format": t.settings.format, "rounds": t.settings.rounds,
            "double": t.settings.double, "table_min": t.settings.table_min,
            "table_max": t.settings.table_max, "draw_break": t.settings.draw_break,
            "max_tiebreaks": t.settings.max_tiebreaks, "bye_points": t.settings.bye_points,
            "name": t.settings.name,
        },
        "players": [
            {"id": p.id, "rating": p.rating, "name": p.name, "joined_round": p.joined_round,
             "withdrawn_round": p.withdrawn_round}
            for p in t.players
        ],
        "rounds": [
            {"number": r.number, "kind": r.kind, "games": [
                {"seats": list(g.seats),
                 "points": None if g.points is None else list(g.points),
                 "forfeit": g.forfeit}
                for g in r.games]}
            for r in t.rounds
        ],
    }
    return json.dumps(doc, sort_keys=True, ensure_ascii=False)


def _need(cond: bool, what: str) -> None:
    if not cond:
        raise TournamentError(what)


def _int(v: Any, what: str) -> int:
    _need(isinstance(v, int) and not isinstance(v, bool), f"{what}: an integer")
    return cast(int, v)


def _num(v: Any, what: str) -> float:
    _need(isinstance(v, int | float) and not isinstance(v, bool), f"{what}: a number")
    return float(v)


def from_json(text: str) -> Tournament:
    """Parses and re-validates `to_json` text; anything off raises TournamentError."""
    try:
        doc = json.loads(text)
    except ValueError as e:
        raise TournamentError(f"not JSON: {e}") from e
    _need(isinstance(doc, dict), "a JSON object")
    _need(doc.get("version") == JSON_VERSION, f"version {JSON_VERSION} only")
    s = doc.get("settings")
    _need(isinstance(s, dict), "settings")
    _need(s.get("format") in FORMATS, "format")
    _need(s.get("draw_break") in ("extra_game", "minimatch"), "draw_break")
    _need(isinstance(s.get("double"), bool), "double")
    _need(isinstance(s.get("name"), str), "name")
    settings = Settings(
        format=s["format"], rounds=_int(s.get("rounds"), "rounds"), double=s["double"],
        table_min=_int(s.get("table_min"), "table_min"),
        table_max=_int(s.get("table_max"), "table_max"), draw_break=s["draw_break"],
        max_tiebreaks=_int(s.get("max_tiebreaks"), "max_tiebreaks"),
        bye_points=_num(s.get("bye_points"), "bye_points"), name=s["name"],
    )
    players = []
    _need(isinstance(doc.get("players"), list), "players")
    for p in doc["players"]:
        _need(isinstance(p, dict) and isinstance(p.get("name"), str), "player")
        w = p.get("withdrawn_round")
        players.append(Player(
            id=_int(p.get("id"), "player id"), rating=_int(p.get("rating"), "rating"),
            name=p["name"], joined_round=_int(p.get("joined_round"), "joined_round"),
            withdrawn_round=None if w is None else _int(w, "withdrawn_round"),
        ))
    rounds = []
    _need(isinstance(doc.get("rounds"), list), "rounds")
    for r in doc["rounds"]:
        _need(isinstance(r, dict) and r.get("kind") in ("main", "tiebreak"), "round")
        _need(isinstance(r.get("games"), list), "games")
        games = []
        for g in r["games"]:
            _need(isinstance(g, dict) and isinstance(g.get("seats"), list), "game")
            _need(isinstance(g.get("forfeit"), bool), "forfeit")
            pts = g.get("points")
            _need(pts is None or isinstance(pts, list), "points")
            games.append(Game(
                seats=tuple(_int(x, "seat") for x in g["seats"]),
                points=None if pts is None else tuple(_num(x, "points") for x in pts),
                forfeit=g["forfeit"],
            ))
        rounds.append(Round(number=_int(r.get("number"), "number"), games=tuple(games),
                            kind=r["kind"]))
    t = Tournament(settings=settings, players=tuple(players), rounds=tuple(rounds))
    validate(t)
    return t


def validate(t: Tournament) -> None:
    """What any tournament must satisfy, whichever way it was built."""
    s = t.settings
    _need(s.format in FORMATS, "format")
    _need(s.rounds >= 0 and s.max_tiebreaks >= 0, "counts")
    _need(2 <= s.table_min <= s.table_max, "table sizes")
    if s.format != "pods":
        _need(s.table_min == s.table_max == 2, "two seats for this format")
    ids = [p.id for p in t.players]
    _need(len(set(ids)) == len(ids), "player ids unique")
    known: Mapping[int, Player] = {p.id: p for p in t.players}
    for p in t.players:
        _need(p.joined_round >= 1, "joined_round")
        _need(p.withdrawn_round is None or p.withdrawn_round >= 1, "withdrawn_round")
    for i, rnd in enumerate(t.rounds, 1):
        _need(rnd.number == i, f"round {i} numbered {rnd.number}")
        seen: set[int] = set()
        for g in rnd.games:
            least = 0 if s.format == "knockout" else 1  # a knockout slot both players left
            _need(least <= len(g.seats) <= s.table_max, f"round {i}: table size")
            _need(all(pid in known for pid in g.seats), f"round {i}: unknown player")
            _need(not seen & set(g.seats), f"round {i}: a player seated twice")
            if s.format != "knockout" or rnd.kind == "main":
                seen |= set(g.seats)
            if g.points is not None:
                _need(len(g.points) == len(g.seats), f"round {i}: one score per seat")
                _need(all(x >= 0 for x in g.points), f"round {i}: negative points")
                if len(g.seats) == 2:
                    _need(sorted(g.points) in ([0.0, 1.0], [0.5, 0.5], [0.0, 0.0]),
                          f"round {i}: a two-seat result is 1-0, 0-1, 1/2-1/2 or 0-0")
