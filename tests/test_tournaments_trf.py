"""The TRF of a finished Swiss, read back by the column positions of FIDE's TRF16 (C.04 Annex 2):
player lines `001` with the start number at 5-8, name 15-47, rating 49-52, points 81-84, rank
86-89, and per round a block at 92-95 (opponent's start number, 0000 without a game), 97
(colour w/b/-) and 99 (result), the next round 10 columns further on."""

from __future__ import annotations

import random

from bot.tournaments import (
    Player,
    Settings,
    Tournament,
    add_player,
    add_round,
    pair_next_round,
    record,
    standings,
    to_trf,
    withdraw,
)

RESULTS = {"1": 1.0, "=": 0.5, "0": 0.0, "+": 1.0, "-": 0.0, "W": 1.0, "D": 0.5, "L": 0.0,
           "H": 0.5, "F": 1.0, "U": 1.0, "Z": 0.0, " ": 0.0}
OPPOSITE = {"1": "0", "0": "1", "=": "=", "+": "-", "-": "+"}


def finished_swiss() -> Tournament:
    rng = random.Random(7)
    players = tuple(Player(id=100 + i, rating=rng.randint(1200, 2200), name=f"Player {i}")
                    for i in range(1, 12))
    t = Tournament(Settings("swiss", rounds=5, name="Club Swiss"), players)
    for r in range(1, 6):
        if r == 3:
            t = add_player(t, Player(id=999, rating=1800, name="Latecomer"))
        rnd = pair_next_round(t)
        t = add_round(t, rnd)
        if r == 2:
            t = withdraw(t, 104)
        for i, g in enumerate(t.rounds[-1].games):
            if g.points is None:
                x = rng.random()
                pts = (1.0, 0.0) if x < 0.4 else (0.0, 1.0) if x < 0.75 else (0.5, 0.5)
                t = record(t, r, i, pts, forfeit=(r == 4 and i == 0))
    return t


def col(line: str, first: int, last: int) -> str:
    """Columns `first`..`last`, 1-based and inclusive as the specification counts them."""
    return line[first - 1:last].ljust(last - first + 1)


def read_trf(text: str, rounds: int) -> dict[int, dict]:
    """The player lines of a TRF, checked column by column against the specification and
    against each other (an opponent's block mirrors one's own): by start number, each
    player's name, rating, points, rank and round blocks (opponent, colour, result)."""
    assert text.endswith("\r\n")  # Remark 1: every line ends with a carriage return
    lines = text.split("\r\n")[:-1]
    assert all(len(code) == 3 and code.isdigit() or code == "XXR"
               for code in (x[:3] for x in lines))
    players = [x for x in lines if x[:3] == "001"]
    by_start: dict[int, dict] = {}
    for line in players:
        assert col(line, 4, 4) == " " and col(line, 9, 9) == " " and col(line, 14, 14) == " "
        start = int(col(line, 5, 8))
        name = col(line, 15, 47).strip()
        rating = int(col(line, 49, 52))
        points = float(col(line, 81, 84))
        rank = int(col(line, 86, 89))
        assert col(line, 85, 85) == " " and col(line, 90, 91) == "  "
        blocks = []
        for r in range(rounds):
            base = 92 + 10 * r
            opp = col(line, base, base + 3)
            colour = col(line, base + 5, base + 5)
            result = col(line, base + 7, base + 7)
            assert col(line, base + 4, base + 4) == " " and col(line, base + 6, base + 6) == " "
            assert opp.isdigit() and len(opp) == 4
            assert colour in "wb-" and result in RESULTS
            if opp == "0000":
                assert colour == "-" and result in "HFUZ "
            else:
                assert colour in "wb" and result in "1=0+-WDL"
            blocks.append((int(opp), colour, result))
        assert len(line.rstrip()) <= 91 + 10 * rounds - 2
        assert points == sum(RESULTS[b[2]] for b in blocks)  # the points field adds up
        by_start[start] = {"name": name, "rating": rating, "points": points, "rank": rank,
                           "blocks": blocks}
    assert sorted(by_start) == list(range(1, len(players) + 1))
    assert sorted(p["rank"] for p in by_start.values()) == list(range(1, len(players) + 1))
    for start, p in by_start.items():
        for r, (opp, colour, result) in enumerate(p["blocks"]):
            if opp:  # the opponent's block of that round mirrors this one
                o_opp, o_colour, o_result = by_start[opp]["blocks"][r]
                assert o_opp == start and {colour, o_colour} == {"w", "b"}
                assert o_result == OPPOSITE[result]
    return by_start


def test_trf_of_a_finished_swiss_follows_the_specification():
    t = finished_swiss()
    text = to_trf(t)
    assert any(x.startswith("012 Club Swiss") for x in text.split("\r\n"))
    rounds = len(t.rounds)
    table = {row.player_id: row for row in standings(t).rows}
    by_start = read_trf(text, rounds)
    assert len(by_start) == len(t.players) == 12
    assert sorted(by_start) == list(range(1, 13))
    assert sorted(p["rank"] for p in by_start.values()) == list(range(1, 13))
    ratings = [by_start[s]["rating"] for s in sorted(by_start)]
    assert ratings == sorted(ratings, reverse=True)  # start numbers follow the rating order
    for start, p in by_start.items():
        for r, (opp, colour, result) in enumerate(p["blocks"]):
            if opp:  # the opponent's block of that round mirrors this one
                o_opp, o_colour, o_result = by_start[opp]["blocks"][r]
                assert o_opp == start and {colour, o_colour} == {"w", "b"}
                assert o_result == OPPOSITE[result]
    ids = {p.name: p.id for p in t.players}
    for p in by_start.values():
        row = table[ids[p["name"]]]
        assert (p["points"], p["rank"]) == (row.points, row.rank)
    late = next(p for p in by_start.values() if p["name"] == "Latecomer")
    assert late["blocks"][:2] == [(0, "-", "Z"), (0, "-", "Z")]
    gone = next(p for p in by_start.values() if p["name"] == "Player 4")
    assert gone["blocks"][1][2] in "-+" and all(b == (0, "-", "Z") for b in gone["blocks"][2:])
    byes = [b for p in by_start.values() for b in p["blocks"] if b[2] == "U"]
    assert byes and len(byes) <= rounds
