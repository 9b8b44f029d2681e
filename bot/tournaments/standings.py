"""Standings and crosstables for every format.

Swiss and round robin rank by points, Buchholz, Sonneborn-Berger, head-to-head, rating, id.
Buchholz and Sonneborn-Berger count games actually played only (a bye or a forfeit adds
nothing), uncut: simpler than FIDE's virtual opponents (C.07 16.4), and it keeps a player who
lost a game to a withdrawal from being lifted by it. Head-to-head is the points scored among
the players still level after those. Pods rank by points, then the opponents' points (a
Buchholz over table mates), then the number of first places. Knockout ranks by how far a player
went, then by seed.
"""

from __future__ import annotations

from dataclasses import dataclass

from .model import Game, Tournament, scores, seed_order

SWISS_TIEBREAKS = ("buchholz", "sonneborn_berger", "head_to_head")
PODS_TIEBREAKS = ("opponents_points", "wins")
KNOCKOUT_TIEBREAKS = ("stage",)


@dataclass(frozen=True)
class Standing:
    rank: int
    player_id: int
    points: float
    tiebreaks: tuple[float, ...]  # named by Standings.tiebreak_names
    played: int


@dataclass(frozen=True)
class Standings:
    tiebreak_names: tuple[str, ...]
    rows: tuple[Standing, ...]


def standings(t: Tournament) -> Standings:
    pts = scores(t)
    rating = {p.id: p.rating for p in t.players}
    opponents: dict[int, list[tuple[int, float]]] = {pid: [] for pid in pts}
    played = dict.fromkeys(pts, 0)
    firsts = dict.fromkeys(pts, 0)
    for rnd in t.rounds:
        for g in rnd.games:
            if not g.played or g.points is None:
                continue
            best = max(g.points)
            for pid, got in zip(g.seats, g.points, strict=True):
                played[pid] += 1
                firsts[pid] += got == best
                for other in g.seats:
                    if other != pid:
                        opponents[pid].append((other, got))
    fmt = t.settings.format
    if fmt == "knockout":
        return _knockout_standings(t, pts, played)
    keys: dict[int, tuple[float, ...]] = {}
    names: tuple[str, ...]
    if fmt == "pods":
        names = PODS_TIEBREAKS
        for pid in pts:
            opp = sum(pts[o] for o, _ in opponents[pid])
            keys[pid] = (opp, float(firsts[pid]))
    else:
        names = SWISS_TIEBREAKS
        for pid in pts:
            bh = sum(pts[o] for o, _ in opponents[pid])
            sb = sum(pts[o] * got for o, got in opponents[pid])
            keys[pid] = (bh, sb)
        level: dict[tuple[float, ...], list[int]] = {}
        for pid in pts:
            level.setdefault((pts[pid], *keys[pid]), []).append(pid)
        for group in level.values():
            members = set(group)
            for pid in group:
                h2h = float(sum(got for o, got in opponents[pid] if o in members))
                keys[pid] = (*keys[pid], h2h)
    order = sorted(pts, key=lambda pid: (-pts[pid], *(-k for k in keys[pid]), -rating[pid], pid))
    rows = tuple(
        Standing(rank=i, player_id=pid, points=pts[pid], tiebreaks=keys[pid], played=played[pid])
        for i, pid in enumerate(order, 1)
    )
    return Standings(tiebreak_names=names, rows=rows)


def _knockout_standings(t: Tournament, pts: dict[int, float], played: dict[int, int]) -> Standings:
    from .formats import knockout_stages

    seeds = {p.id: i for i, p in enumerate(seed_order(t.players), 1)}
    reached = dict.fromkeys(pts, 0.0)
    for stage, ties in enumerate(knockout_stages(t), 1):
        for tie in ties:
            for pid in tie.seats:
                reached[pid] = float(stage)
            if tie.winner is not None and len(ties) == 1:
                reached[tie.winner] = float(stage + 1)  # the champion
    order = sorted(pts, key=lambda pid: (-reached[pid], seeds[pid]))
    rows = tuple(
        Standing(rank=i, player_id=pid, points=pts[pid], tiebreaks=(reached[pid],),
                 played=played[pid])
        for i, pid in enumerate(order, 1)
    )
    return Standings(tiebreak_names=KNOCKOUT_TIEBREAKS, rows=rows)


@dataclass(frozen=True)
class Cell:
    """One player's round: opponents by standings rank (empty for a bye or an absence), the
    seat taken (0 = first/white), points (None while playing or absent) and a TRF-like code:
    1 = 0 win/draw/loss, + - forfeit win/loss, U bye, Z absent, * playing, p<place> for pods."""

    round: int
    opponents: tuple[int, ...]
    seat: int | None
    points: float | None
    code: str


@dataclass(frozen=True)
class CrosstableRow:
    rank: int
    player_id: int
    points: float
    cells: tuple[Cell, ...]


def crosstable(t: Tournament) -> tuple[CrosstableRow, ...]:
    table = standings(t)
    rank = {row.player_id: row.rank for row in table.rows}
    rows = []
    for row in table.rows:
        cells = []
        for rnd in t.rounds:
            games = [g for g in rnd.games if row.player_id in g.seats]
            if not games:
                cells.append(Cell(rnd.number, (), None, None, "Z"))
                continue
            for g in games:  # a knockout mini-match has two games in one round
                seat = g.seats.index(row.player_id)
                opp = tuple(rank[o] for o in g.seats if o != row.player_id)
                got = None if g.points is None else g.points[seat]
                cells.append(Cell(rnd.number, opp, seat, got, result_code(g, seat)))
        rows.append(CrosstableRow(row.rank, row.player_id, row.points, tuple(cells)))
    return tuple(rows)


def result_code(g: Game, seat: int) -> str:
    if g.points is None:
        return "*"
    got = g.points[seat]
    if g.is_bye:
        return "U" if got > 0 else "Z"
    if len(g.seats) > 2:
        place = 1 + sum(1 for x in g.points if x > got)
        return f"p{place}"
    if g.forfeit:
        return "+" if got > 0 else "-"
    return "1" if got == 1 else "=" if got == 0.5 else "0"
