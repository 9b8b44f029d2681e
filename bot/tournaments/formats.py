"""Round robin (Berger tables), knockout (standard seeding), pods, and `pair_next_round`."""

from __future__ import annotations

from dataclasses import dataclass

from .model import Game, PairingError, Player, Round, Tournament, scores, seed_order
from .swiss import pair_swiss

# ---- round robin -----------------------------------------------------------------------


def berger_round(n: int, r: int) -> list[tuple[int, int]]:
    """FIDE Berger table (C.05 Annex 1): round `r` (1-based) for an even `n`, as (white,
    black) pairs of numbers 1..n. Player n is fixed; the others turn n/2 places a round."""
    m = n - 1
    s = ((r - 1) * (n // 2)) % m
    fixed = s + 1
    pairs = [(n, fixed) if r % 2 == 0 else (fixed, n)]
    for k in range(1, n // 2):
        pairs.append(((s + k) % m + 1, (s - k) % m + 1))
    return pairs


def round_robin_rounds(players: tuple[Player, ...], double: bool) -> list[list[tuple[int, ...]]]:
    """Every round's seatings, by seed numbers; an odd field adds a dummy whose opponent sits
    out that round (no game, no points, as round robins score it). The second cycle of a double
    round robin repeats the first with seats reversed."""
    seeds = [p.id for p in seed_order(players)]
    n = len(seeds) + len(seeds) % 2
    cycle = []
    for r in range(1, n):
        games: list[tuple[int, ...]] = []
        for w, b in berger_round(n, r):
            if w > len(seeds) or b > len(seeds):
                continue
            games.append((seeds[w - 1], seeds[b - 1]))
        cycle.append(games)
    if double:
        cycle += [[(b, w) for w, b in games] for games in cycle]
    return cycle


def pair_round_robin(t: Tournament) -> Round:
    """The next Berger round; it does not depend on results, so the bot may open every round's
    matches at once (correspondence style) by calling `schedule`. A withdrawn player's games are
    forfeits won by the opponent (see `withdraw`); late joins are not part of a round robin."""
    field = tuple(p for p in t.players if p.joined_round == 1)
    plan = round_robin_rounds(field, t.settings.double)
    rnd = t.next_round_number
    if rnd > len(plan):
        raise PairingError("the tournament is over")
    games = []
    for seats in plan[rnd - 1]:
        gone = [pid for pid in seats if not t.player(pid).active_in(rnd)]
        if gone:
            pts = tuple(0.0 if pid in gone else 1.0 for pid in seats)
            games.append(Game(seats=seats, points=pts, forfeit=True))
        else:
            games.append(Game(seats=seats))
    return Round(number=rnd, games=tuple(games))


# ---- knockout --------------------------------------------------------------------------


def bracket_order(size: int) -> list[int]:
    """Standard seeding: 1 v size, and seeds 1 and 2 can meet only in the final."""
    order = [1]
    while len(order) < size:
        n = 2 * len(order)
        order = [x for s in order for x in (s, n + 1 - s)]
    return order


@dataclass(frozen=True)
class Tie:
    """One knockout pairing and where it stands: `winner` is None while undecided."""

    seats: tuple[int, ...]
    winner: int | None
    tiebreaks: int  # tie-break units (games or mini-matches) played so far
    pending: bool


def knockout_stages(t: Tournament) -> list[list[Tie]]:
    """The bracket so far: per stage, its ties in bracket order."""
    seeds = {p.id: i for i, p in enumerate(seed_order(t.players), 1)}
    stages: list[list[Tie]] = []
    for rnd in t.rounds:
        if rnd.kind == "main":
            stages.append([Tie(g.seats, None, 0, g.points is None) for g in rnd.games])
        ties = stages[-1]
        for i, tie in enumerate(ties):
            games = [g for g in rnd.games if set(g.seats) == set(tie.seats)]
            if not games:
                continue
            if any(g.points is None for g in games):
                ties[i] = Tie(tie.seats, None, tie.tiebreaks + (rnd.kind == "tiebreak"), True)
                continue
            if len(tie.seats) < 2:
                ties[i] = Tie(tie.seats, tie.seats[0] if tie.seats else None, 0, False)
                continue
            got = dict.fromkeys(tie.seats, 0.0)
            for g in games:
                for pid, pts in zip(g.seats, g.points or (), strict=True):
                    got[pid] += pts
            a, b = tie.seats
            units = tie.tiebreaks + (rnd.kind == "tiebreak")
            winner = a if got[a] > got[b] else b if got[b] > got[a] else None
            if winner is None and units >= t.settings.max_tiebreaks:
                winner = min(tie.seats, key=seeds.__getitem__)  # the higher seed goes through
            ties[i] = Tie(tie.seats, winner, units, False)
    return stages


def _active(t: Tournament, pid: int | None, rnd: int) -> int | None:
    return pid if pid is not None and t.player(pid).active_in(rnd) else None


def pair_knockout(t: Tournament) -> Round:
    """First round by standard seeding (byes to the top seeds), then winners in bracket order;
    a drawn tie gets a tiebreak round (one extra game, or a two-game mini-match, seats
    swapped). A withdrawn player's opponent goes through on a bye."""
    rnd = t.next_round_number
    if t.rounds and not t.rounds[-1].finished:
        raise PairingError("the current round is still running")
    if not t.rounds:
        field = seed_order(p for p in t.players if p.active_in(1))
        if len(field) < 2:
            raise PairingError("fewer than two players")
        size = 1
        while size < len(field):
            size *= 2
        slots: list[int | None] = [
            field[s - 1].id if s <= len(field) else None for s in bracket_order(size)
        ]
        return Round(number=1, games=_knockout_games(slots))
    stages = knockout_stages(t)
    last = stages[-1]
    open_ties = [tie for tie in last if tie.winner is None and len(tie.seats) == 2]
    if open_ties:
        games = []
        for tie in open_ties:
            previous = [g for r in t.rounds for g in r.games if set(g.seats) == set(tie.seats)]
            first = previous[-1].seats[::-1]
            games.append(Game(seats=first))
            if t.settings.draw_break == "minimatch":
                games.append(Game(seats=first[::-1]))
        return Round(number=rnd, games=tuple(games), kind="tiebreak")
    winners = [_active(t, tie.winner, rnd) for tie in last]
    if len(winners) == 1:
        raise PairingError("the tournament is over")
    return Round(number=rnd, games=_knockout_games(winners))


def _knockout_games(slots: list[int | None]) -> tuple[Game, ...]:
    games = []
    for a, b in zip(slots[::2], slots[1::2], strict=True):
        if a is not None and b is not None:
            games.append(Game(seats=(a, b)))
        elif a is not None:
            games.append(Game(seats=(a,), points=(1.0,)))
        elif b is not None:
            games.append(Game(seats=(b,), points=(1.0,)))
        else:  # both withdrew: an empty slot keeps the bracket's shape
            games.append(Game(seats=(), points=()))
    return tuple(games)


# ---- pods ------------------------------------------------------------------------------


def table_sizes(n: int, smallest: int, largest: int) -> list[int]:
    """Tables for n players, largest first: as few tables as possible, sizes as even as
    possible (7 at 3-4 -> 4+3, 6 -> 3+3). Players who cannot be seated (5 at 3-4) sit out."""
    for seated in range(n, smallest - 1, -1):
        k = -(-seated // largest)
        if k * smallest <= seated:
            base, extra = divmod(seated, k)
            return [base + 1] * extra + [base] * (k - extra)
    return []


def pod_points(places: tuple[int, ...], largest: int) -> tuple[float, ...]:
    """Points by placement (1 = first; equal places share): winner largest-1, last 0, evenly
    between, so a win at a smaller table is worth as much as at a full one. Ties average."""
    s = len(places)

    def base(place: int) -> float:
        return (s - place) * (largest - 1) / (s - 1)

    out = []
    for p in places:
        tied = sum(1 for q in places if q == p)
        out.append(sum(base(p + k) for k in range(tied)) / tied)
    return tuple(out)


def pair_pods(t: Tournament) -> Round:
    """Players of similar score at the same table: the standings order cut into tables,
    bigger tables first. Those who cannot be seated get a bye worth the mean placement points,
    lowest-ranked first among those with the fewest byes. Seats rotate: the player who sat
    latest so far sits first."""
    rnd = t.next_round_number
    if t.rounds and not t.rounds[-1].finished:
        raise PairingError("the current round is still running")
    if t.settings.rounds and rnd > t.settings.rounds:
        raise PairingError("the tournament is over")
    pts = scores(t)
    lateness = dict.fromkeys(pts, 0.0)
    byes = dict.fromkeys(pts, 0)
    for r in t.rounds:
        for g in r.games:
            if len(g.seats) == 1:
                byes[g.seats[0]] += 1
            for i, pid in enumerate(g.seats):
                if len(g.seats) > 1:
                    lateness[pid] += i / (len(g.seats) - 1) - 0.5
    order = sorted((p for p in t.players if p.active_in(rnd)),
                   key=lambda p: (-pts[p.id], -p.rating, p.id))
    sizes = table_sizes(len(order), t.settings.table_min, t.settings.table_max)
    if not sizes:
        raise PairingError("too few players for a table")
    out = len(order) - sum(sizes)
    rank = {p.id: i for i, p in enumerate(order)}
    sitting_out = sorted(order, key=lambda p: (byes[p.id], -rank[p.id]))[:out]
    seated = [p for p in order if p not in sitting_out]
    games = []
    at = 0
    for size in sizes:
        table = seated[at:at + size]
        at += size
        table.sort(key=lambda p: (-lateness[p.id], rank[p.id]))
        games.append(Game(seats=tuple(p.id for p in table)))
    mean = (t.settings.table_max - 1) / 2
    games += [Game(seats=(p.id,), points=(mean,)) for p in sitting_out]
    return Round(number=rnd, games=tuple(games))


# ---- any format ------------------------------------------------------------------------


def pair_next_round(t: Tournament) -> Round:
    """The next round of any format; add it with `add_round`. Raises PairingError when the
    round before is unfinished, the tournament is over or no legal pairing exists."""
    if t.rounds and not t.rounds[-1].finished:
        raise PairingError("the current round is still running")
    fmt = t.settings.format
    if fmt == "swiss":
        return pair_swiss(t)
    if fmt == "round_robin":
        return pair_round_robin(t)
    if fmt == "knockout":
        return pair_knockout(t)
    return pair_pods(t)


def schedule(t: Tournament) -> Tournament:
    """A round robin with every round paired at once (the correspondence way)."""
    from .model import add_round

    while True:
        try:
            rnd = pair_round_robin(t)
        except PairingError:
            return t
        t = add_round(t, rnd)


def is_finished(t: Tournament) -> bool:
    """Every round played and no further one can be paired (this may run a pairing)."""
    if t.rounds and not t.rounds[-1].finished:
        return False
    if t.settings.format in ("swiss", "pods") and 0 < t.settings.rounds <= len(t.rounds):
        return True
    if t.settings.format == "round_robin":
        return all(r.finished for r in t.rounds) and len(t.rounds) == len(
            round_robin_rounds(tuple(p for p in t.players if p.joined_round == 1),
                               t.settings.double))
    try:
        pair_next_round(t)
    except PairingError:
        return True
    return False


def paired_json(text: str) -> str | None:
    """`text` (the tournament as `to_json` writes it) with its next round added, or None
    when no round can be paired: the pairing as a job for a worker process (plain text in
    and out, picklable)."""
    from .model import add_round, from_json, to_json

    t = from_json(text)
    try:
        return to_json(add_round(t, pair_next_round(t)))
    except PairingError:
        return None
