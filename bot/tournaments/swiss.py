"""Swiss pairing after the FIDE Dutch system (C.04.3), as a maximum-weight matching.

Dutch pairs score bracket by bracket with transpositions and exchanges; bbpPairings showed the
same criteria can be met at once by a maximum-weight matching whose edge weights encode them in
priority order. We do the same with networkx's blossom algorithm, each criterion a "digit" of
an integer weight, most important first:

1. absolute (never broken): no two players meet twice; a player gets the pairing-allocated bye
   (PAB) at most once; withdrawn and not-yet-joined players are not paired.
2. absolute colour (Dutch C.3): two players who both must have the same colour (colour
   difference beyond +-1, or the same colour twice in a row) meet only if no pairing avoids it.
   Dutch makes this absolute; we make it the heaviest weight, so it holds whenever it can.
3. scores (C.6-C.7): minimise the sum of squared score differences of the pairs, so few players
   float and by as little as possible.
4. colour preferences (C.12-C.13): as few pairs as possible where both want the same colour.
5. floats (C.14-C.15): no downfloat (upfloat) twice in a row.
6. inside a score group, the top half meets the bottom half in order (S1[i] v S2[i]); across
   groups the lowest of the higher group meets the highest of the lower one.

Departures from Dutch: the PAB goes to the lowest-ranked player (score, then rating, then id)
who has had no PAB and, if possible, no forfeit win, and whose removal leaves a legal pairing,
chosen before the matching rather than inside it; criterion 3 replaces Dutch's
bracket-by-bracket downfloater rules with one global sum; the top-scorer exceptions of the last
round (C.3/A.7) and the "colour difference +-2 allowed only for top-scorers" nuance are not
modelled; transposition order beyond criterion 6 is not followed literally.

A field of up to `DENSE_UP_TO` players is matched on every legal edge, exactly. A bigger one
(networkx's blossom is pure Python and slow on dense graphs: 500 players, all edges, took
minutes) is matched on each player's `CANDIDATES` cheapest partners plus their neighbours in
the ranking, widened step by step if that leaves someone unpaired (every legal edge last), and
then polished by partner swaps between two pairs (2-opt) under the full weights: the result is
locally optimal, not proven globally so.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

import networkx as nx

from .model import Game, PairingError, Player, Round, Tournament, seed_order

CANDIDATES = 8
DENSE_UP_TO = 24  # players; a small field is matched on every legal edge, exactly
W, B = "w", "b"


@dataclass
class History:
    """What the pairing needs to know about one player before the round."""

    player: Player
    number: int  # pairing number: 1-based place in the initial (rating) order
    score: float = 0.0
    opponents: set[int] = field(default_factory=set)
    colours: list[str] = field(default_factory=list)  # played games only, in order
    colour_by_round: dict[int, str] = field(default_factory=dict)
    byes: int = 0
    unplayed_wins: int = 0  # forfeit wins: Dutch keeps the PAB from them too
    floats: list[str] = field(default_factory=list)  # per round: "down", "up" or ""


def histories(t: Tournament) -> dict[int, History]:
    numbers = {p.id: i for i, p in enumerate(seed_order(t.players), 1)}
    hist = {p.id: History(player=p, number=numbers[p.id]) for p in t.players}
    for rnd in t.rounds:
        before = {pid: h.score for pid, h in hist.items()}
        floated = dict.fromkeys(hist, "")
        for g in rnd.games:
            if g.is_bye:
                h = hist[g.seats[0]]
                h.byes += 1
                floated[h.player.id] = "down"
            else:
                for i, pid in enumerate(g.seats):
                    others = [o for o in g.seats if o != pid]
                    hist[pid].opponents.update(others)
                    if len(g.seats) == 2:
                        d = before[others[0]] - before[pid]
                        floated[pid] = "up" if d > 0 else "down" if d < 0 else ""
                    if g.played and len(g.seats) == 2:
                        c = W if i == 0 else B
                        hist[pid].colours.append(c)
                        hist[pid].colour_by_round[rnd.number] = c
                    if g.forfeit and g.points is not None and g.points[i] > 0:
                        hist[pid].unplayed_wins += 1
            if g.points is not None:
                for pid, pts in zip(g.seats, g.points, strict=True):
                    hist[pid].score += pts
        for pid, f in floated.items():
            hist[pid].floats.append(f)
    return hist


def colour_preference(colours: Sequence[str]) -> tuple[int, str | None]:
    """Dutch A.6: (strength, colour); 3 absolute, 2 strong, 1 mild, 0 none."""
    if not colours:
        return 0, None
    cd = colours.count(W) - colours.count(B)
    last = colours[-1]
    twice = len(colours) >= 2 and colours[-2] == last
    if cd > 1 or (twice and last == W):
        return 3, B
    if cd < -1 or (twice and last == B):
        return 3, W
    if cd == 1:
        return 2, B
    if cd == -1:
        return 2, W
    return 1, B if last == W else W


def allocate_colours(a: History, b: History) -> tuple[int, int]:
    """Dutch E: seats (white first) for a pair, `a` the higher ranked."""
    sa, ca = colour_preference(a.colours)
    sb, cb = colour_preference(b.colours)
    if ca is not None and cb is not None and ca != cb:
        return (a.player.id, b.player.id) if ca == W else (b.player.id, a.player.id)
    if ca is None and cb is None:  # E.5: the initial colour (white) on odd pairing numbers
        a_white = a.number % 2 == 1
    elif ca is None:
        a_white = cb == B
    elif cb is None or sa > sb:
        a_white = ca == W
    elif sb > sa:
        a_white = cb == B
    else:  # E.3: alternate from the latest round in which they had different colours
        a_white = ca == W  # E.4 when there is no such round
        for rnd in sorted(a.colour_by_round, reverse=True):
            x, y = a.colour_by_round[rnd], b.colour_by_round.get(rnd)
            if y is not None and x != y:
                a_white = x == B
                break
    return (a.player.id, b.player.id) if a_white else (b.player.id, a.player.id)


@dataclass(frozen=True)
class _Costs:
    """The criteria 2-6 of one pair, most important first."""

    absolute: int
    score: int
    preference: int
    floats: int
    position: int


@dataclass(frozen=True)
class _Facts:
    """Per player, computed once per round: what the pair costs read."""

    strength: int
    colour: str | None
    score: float
    down_last: bool
    up_last: bool
    group_place: int
    group_size: int


def _facts(h: History, place: tuple[int, int]) -> _Facts:
    strength, colour = colour_preference(h.colours)
    last = h.floats[-1] if h.floats else ""
    return _Facts(strength, colour, h.score, last == "down", last == "up", place[0], place[1])


def _pair_costs(a: _Facts, b: _Facts) -> _Costs:
    absolute = int(a.strength == 3 and b.strength == 3 and a.colour == b.colour)
    preference = 0
    if a.colour is not None and a.colour == b.colour:
        preference = 1 + int(min(a.strength, b.strength) >= 2)
    hi, lo = (a, b) if a.score >= b.score else (b, a)
    diff = round(2 * (hi.score - lo.score))
    if diff:
        floats = int(hi.down_last) + int(lo.up_last)
        position = (hi.group_size - 1 - hi.group_place) + lo.group_place
    else:
        floats = 0
        position = abs(abs(hi.group_place - lo.group_place) - hi.group_size // 2)
    return _Costs(absolute, diff * diff, preference, floats, position)


def _weights(costs: dict[tuple[int, int], _Costs], pairs: int) -> dict[tuple[int, int], int]:
    """The ordered costs folded into one integer each: every digit outweighs all the lower
    ones summed over a whole pairing."""
    if not costs:
        return {}
    top = {
        "position": max(c.position for c in costs.values()),
        "floats": 2,
        "preference": 2,
        "score": max(c.score for c in costs.values()),
        "absolute": 1,
    }
    mult = {}
    m = 1
    for name in ("position", "floats", "preference", "score", "absolute"):
        mult[name] = m
        m *= pairs * top[name] + 1
    out = {}
    for k, c in costs.items():
        cost = (c.absolute * mult["absolute"] + c.score * mult["score"]
                + c.preference * mult["preference"] + c.floats * mult["floats"]
                + c.position * mult["position"])
        out[k] = m - cost  # positive: the matching maximises
    return out


def match(order: Sequence[History]) -> list[tuple[History, History]] | None:
    """A best legal perfect matching of `order` (ranked best first), or None if none exists."""
    if not order:
        return []
    ids = [h.player.id for h in order]
    by_id = {h.player.id: h for h in order}
    groups: dict[float, list[int]] = {}
    for pid in ids:
        groups.setdefault(by_id[pid].score, []).append(pid)
    facts = {}
    for members in groups.values():
        for i, pid in enumerate(members):
            facts[pid] = _facts(by_id[pid], (i, len(members)))
    costs = {}
    for i, x in enumerate(ids):
        met, fx = by_id[x].opponents, facts[x]
        for y in ids[i + 1:]:
            if y not in met:
                costs[(x, y)] = _pair_costs(fx, facts[y])
    pairs = len(ids) // 2
    weights = _weights(costs, pairs)

    def solve(edges: dict[tuple[int, int], int]) -> set[tuple[int, int]] | None:
        g = nx.Graph()
        g.add_nodes_from(ids)
        for (x, y), w in edges.items():
            g.add_edge(x, y, weight=w)
        m = nx.max_weight_matching(g, maxcardinality=True, weight="weight")
        return m if len(m) == pairs else None

    result = None
    limit = CANDIDATES
    while result is None and len(ids) > DENSE_UP_TO and limit < len(ids) - 1:
        result = solve(_candidates(ids, weights, limit))
        limit *= 2
    if result is None:
        result = solve(weights)
    if result is None:
        return None
    rank = {pid: i for i, pid in enumerate(ids)}
    found = [tuple(sorted((x, y), key=rank.__getitem__)) for x, y in result]
    pairs_list = [(p[0], p[1]) for p in found]
    if len(result) * 2 > DENSE_UP_TO:
        pairs_list = _polish(pairs_list, weights, rank)
    return [(by_id[x], by_id[y]) for x, y in pairs_list]


def _candidates(
    ids: list[int], weights: dict[tuple[int, int], int], limit: int,
) -> dict[tuple[int, int], int]:
    """Each player's `limit` best partners, and their legal neighbours in the ranking (so a
    colour-lopsided group still has partners among itself)."""
    near: dict[int, list[tuple[int, tuple[int, int]]]] = {pid: [] for pid in ids}
    for k, w in weights.items():
        near[k[0]].append((-w, k))
        near[k[1]].append((-w, k))
    keep = {}
    for lst in near.values():
        lst.sort()
        for _, k in lst[:limit]:
            keep[k] = weights[k]
    for i, x in enumerate(ids):
        for y in ids[i + 1:i + 1 + limit // 2]:
            if (x, y) in weights:
                keep[(x, y)] = weights[(x, y)]
    return keep


def _polish(
    pairs: list[tuple[int, int]], weights: dict[tuple[int, int], int], rank: dict[int, int],
) -> list[tuple[int, int]]:
    """2-opt: swap partners between two pairs while that raises the total weight (it repairs
    what the candidate limit may have cost; on the full graph it never fires)."""

    def w(x: int, y: int) -> int | None:
        return weights.get((x, y)) if rank[x] < rank[y] else weights.get((y, x))

    def key(x: int, y: int) -> tuple[int, int]:
        return (x, y) if rank[x] < rank[y] else (y, x)

    improved = True
    passes = 0
    while improved and passes < 20:
        improved = False
        passes += 1
        for i in range(len(pairs)):
            for j in range(i + 1, len(pairs)):
                a, b = pairs[i]
                c, d = pairs[j]
                now = w(a, b), w(c, d)
                base = (now[0] or 0) + (now[1] or 0)
                for (p, q), (r, s) in (((a, c), (b, d)), ((a, d), (b, c))):
                    w1, w2 = w(p, q), w(r, s)
                    if w1 is not None and w2 is not None and w1 + w2 > base:
                        pairs[i], pairs[j] = key(p, q), key(r, s)
                        improved = True
                        break
    return pairs


def pair_swiss(t: Tournament) -> Round:
    """The next Swiss round: games in board order (top scores first), the bye last. CPU bound:
    about 4 s of CPU for 500 players (bench/tournament_pairing.py), so the bot should call it
    off the event loop (a thread or its worker pool)."""
    rnd = t.next_round_number
    if t.rounds and not t.rounds[-1].finished:
        raise PairingError("the current round is still running")
    if t.settings.rounds and rnd > t.settings.rounds:
        raise PairingError("the tournament is over")
    hist = histories(t)
    active = [h for h in hist.values() if h.player.active_in(rnd)]
    order = sorted(active, key=lambda h: (-h.score, -h.player.rating, h.player.id))
    if len(order) < 2:
        raise PairingError("fewer than two players left")
    bye: History | None = None
    pairs = None
    if len(order) % 2:
        lowest_first = order[::-1]
        tiers = (
            [h for h in lowest_first if not h.byes and not h.unplayed_wins],
            [h for h in lowest_first if not h.byes and h.unplayed_wins],
        )
        for tier in tiers:
            for cand in tier:
                pairs = match([h for h in order if h is not cand])
                if pairs is not None:
                    bye = cand
                    break
            if bye is not None:
                break
    else:
        pairs = match(order)
    if pairs is None:
        raise PairingError("no legal pairing: every pair left has met, or no bye is left")
    rank = {h.player.id: i for i, h in enumerate(order)}
    boards = sorted(pairs, key=lambda p: (-max(p[0].score, p[1].score),
                                           min(rank[p[0].player.id], rank[p[1].player.id])))
    games = [Game(seats=allocate_colours(a, b)) for a, b in boards]
    if bye is not None:
        games.append(Game(seats=(bye.player.id,), points=(t.settings.bye_points,)))
    return Round(number=rnd, games=tuple(games))
