"""FIDE TRF16 (TRF-2006, C.04 Annex 2) export for the two-player formats.

Start numbers follow the initial ranking (rating, then id). Each round is a block at columns
92-99 (+10 per round): the opponent's start number (0000 for a bye or an absence), the colour
(w for the first seat, b for the second, - without a game) and the result: 1 = 0 for played
games, + - for forfeits, U for the pairing-allocated bye, Z for a round not played (late join,
withdrawal, round robin rest). A game still running is written with a blank result. A knockout
mini-match's two games of one round take two blocks.
"""

from __future__ import annotations

from .model import Game, Tournament, TournamentError, seed_order
from .standings import result_code, standings


def to_trf(t: Tournament) -> str:
    if t.settings.format == "pods":
        raise TournamentError("TRF describes two-player games; export pods as JSON")
    start = {p.id: i for i, p in enumerate(seed_order(t.players), 1)}
    table = {row.player_id: row for row in standings(t).rows}
    lines = [
        f"012 {t.settings.name or 'Corral tournament'}",
        f"062 {len(t.players)}",
        f"092 {t.settings.format.replace('_', ' ')}",
    ]
    for p in seed_order(t.players):
        row = table[p.id]
        name = (p.name or str(p.id))[:33]
        # 1-3 "001", 5-8 start number, 10 sex, 11-13 title, 15-47 name, 49-52 rating
        line = f"001 {start[p.id]:4d}      {name:<33} {min(max(p.rating, 0), 9999):4d}"
        line = f"{line:<80}{row.points:4.1f} {row.rank:4d}"  # 81-84 points, 86-89 rank
        for rnd in t.rounds:
            games: list[Game | None] = [g for g in rnd.games if p.id in g.seats]
            for g in games or [None]:
                if g is None:
                    block = "0000 - Z"
                elif g.is_bye:
                    block = f"0000 - {result_code(g, 0)}"
                else:
                    seat = g.seats.index(p.id)
                    opp = g.seats[1 - seat]
                    code = " " if g.points is None else result_code(g, seat)
                    block = f"{start[opp]:04d} {'wb'[seat]} {code}"
                line = f"{line}  {block}"
        lines.append(line.rstrip())
    return "\r\n".join(lines) + "\r\n"
