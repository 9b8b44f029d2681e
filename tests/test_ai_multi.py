"""The 3-4 player games' and Consequence's search knowledge (games/ghostone/ai.py,
games/consequence/ai.py, games/ico/ai.py): the playout policies play by the rules, the hard
level's knowledge does what it says, and hard still sees only its seat's observation."""

import collections
import dataclasses
import random

import pytest

from games import get_game
from games.ai import Search, choose_move, estimate
from games.consequence import ai as consequence_ai
from games.consequence import game as c
from games.ghostone import ai as ghostone_ai
from games.ghostone import game as g
from games.ico import ai as ico_ai


def ghostone_positions(seats, count, seed):
    """Play-phase positions (pawns to move) reached by random play."""
    game = get_game("ghostone")
    rng = random.Random(seed)
    found = []
    while len(found) < count:
        state = game.new(seats, {"repetition": "off"})
        while game.outcome(state) is None and len(found) < count:
            if state.phase == g.PLAY and rng.random() < 0.3:
                found.append(state)
            state = game.apply(state, rng.choice(game.legal_moves(state)))
    return game, found


@pytest.mark.parametrize("seats", [3, 4])
def test_the_ghostone_greedy_playouts_play_by_the_rules(seats):
    """Every action of a greedy playout is one of the simulation's legal actions (which the
    simulation's own test holds to the rules), for 200 plies or to the end of the game (the
    simulation does not count repetitions)."""
    _, states = ghostone_positions(seats, 60, seed=seats)
    rng = random.Random(1)
    checked = ended = 0
    for state in states:
        sim = ghostone_ai.GhostSim(state)
        for _ in range(200):
            if sim.ended:
                ended += 1
                break
            if sim.phase == 1:
                action = sim.greedy_action(rng)
                assert action in sim.actions()
                checked += 1
            elif sim.phase == 0:
                action = sim.random_setup(rng)
            else:
                action = rng.choice(sim.actions())
            sim.apply(action)
        rewards = ghostone_ai.greedy_playout(None, state, rng, 40, seats)
        assert len(rewards) == seats and abs(sum(rewards) - 1.0) < 1e-9
    assert checked > 500 and ended > 20


def test_the_ghostone_greedy_playout_takes_the_best_escape(monkeypatch):
    """Offered two escapes, a greedy step (always greedy here) leaves the plate with the most
    rocks, and the cut-off evaluation favours the seat offered them; offered none, the rock
    goes more than one way (a rock always pushed after the pawn froze the playouts)."""
    monkeypatch.setattr(ghostone_ai, "ESCAPE_TAKEN", 1.0)
    game, states = ghostone_positions(3, 1, seed=2)
    a1, b1, c1, a2, b2, a3, b3, c3 = 0, 1, 2, 4, 5, 8, 9, 10
    rocks = [2] * g.PLATES
    rocks[a1], rocks[b2], rocks[a2], rocks[b1] = 0, 5, 1, 0
    pawns = [g.NO_PAWN] * g.PLATES
    pawns[a2], pawns[b2] = 0, 0  # seat 1's pawns: a2 (1 rock) and b2 (5 rocks)
    pawns[c3], pawns[b3] = 1, 2
    state = dataclasses.replace(states[0], rocks=tuple(rocks), pawns=tuple(pawns),
                                flipped=frozenset(), to_move=0)
    for seed in range(20):
        sim = ghostone_ai.GhostSim(state)
        action = sim.greedy_action(random.Random(seed))
        assert action[:3] == (1, b2, b1)  # not a2-a1, which scores 1
        assert action in sim.actions()
    assert ghostone_ai.GhostSim(state).value()[0] > 0.5  # an escape worth 5 + 3 on offer
    # no escape on offer: seat 1's pawns on a2 and c1 (two rocks each)
    rocks = [2] * g.PLATES
    pawns = [g.NO_PAWN] * g.PLATES
    pawns[a2], pawns[c1], pawns[a3] = 0, 0, 1
    pawns[c3] = 2
    state = dataclasses.replace(state, rocks=tuple(rocks), pawns=tuple(pawns))
    ways = set()
    for seed in range(40):
        sim = ghostone_ai.GhostSim(state)
        action = sim.greedy_action(random.Random(seed))
        assert action in sim.actions()
        _, origin, target, d = action
        ways.add(ghostone_ai._STEPS[origin][d][1] == target)
    assert ways == {True, False}


@pytest.mark.parametrize("seats", [3, 4])
def test_the_ghostone_greedy_playouts_finish_games(seats):
    """Greedy playouts from the start end nearly every game within 400 plies, as games
    between players do (the rock always pushed after the pawn ended 2.5 % of them, 3 seats):
    a playout that never ends tells the search nothing of who escapes next."""
    game = get_game("ghostone")
    rng = random.Random(seats)
    ended = 0
    for _ in range(40):
        sim = ghostone_ai.GhostSim(game.new(seats, {"repetition": "off"}))
        for _ in range(400):
            if sim.ended:
                break
            if sim.phase == 1:
                sim.apply(sim.greedy_action(rng))
            elif sim.phase == 0:
                sim.apply(sim.random_setup(rng))
            else:
                actions = sim.actions()
                sim.apply(actions[rng.randrange(len(actions))])
        ended += sim.ended
    assert ended >= 36


@pytest.mark.parametrize("seats", [3, 4])
def test_the_ghostone_evaluation_counts_what_a_seat_holds(seats):
    """The cut-off evaluation gives chances that sum to one; a seat ahead in score, or with
    an escape on offer, or with a pawn more, gets more than it did without."""
    _, states = ghostone_positions(seats, 30, seed=7)
    for state in states:
        sim = ghostone_ai.GhostSim(state)
        base = sim.value()
        assert abs(sum(base) - 1.0) < 1e-9 and len(base) == seats
        seat = (sim.to_move + 1) % seats
        sim.scores[seat] += 5
        assert sim.value()[seat] > base[seat]
        sim.scores[seat] -= 5
        free = [p for p in range(g.PLATES) if sim.pawns[p] < 0 and not sim.flipped[p]
                and not any(sim.pawns[t] >= 0 or sim.rocks[t] == 0 or sim.flipped[t]
                            for t in ghostone_ai._TARGETS[p])]
        if free:  # a pawn more, on a plate with no escape beside it
            sim.pawns[free[0]] = seat
            sim.where[seat] = sorted(sim.where[seat] + [free[0]])
            assert sim.value()[seat] > base[seat]


def spy_on_searches(monkeypatch):
    """A list that receives each search's tuning and the iterations it was asked for (the
    searches then run 10 iterations only)."""
    seen = []
    real_init, real_run = Search.__init__, Search.run

    def spy_init(self, game_, sampler, seats, seed, tuning=None, fallible=None):
        seen.append(tuning)
        real_init(self, game_, sampler, seats, seed, tuning, fallible)

    def spy_run(self, iterations, time_cap=None):
        seen.append(iterations)
        real_run(self, 10, time_cap)

    monkeypatch.setattr(Search, "__init__", spy_init)
    monkeypatch.setattr(Search, "run", spy_run)
    return seen


def test_the_ghostone_hard_level_searches_more_with_its_own_tuning(monkeypatch):
    """Hard searches HARD_BUDGET times its level's iterations with greedy playouts; normal
    keeps the level's budget and random playouts."""
    game, states = ghostone_positions(3, 1, seed=5)
    seen = spy_on_searches(monkeypatch)
    for level in ("normal", "hard"):
        move = choose_move(game, states[0], level=level, iterations=100, time_cap=None)
        assert move in game.legal_moves(states[0])
    assert seen == [ghostone_ai.TUNING, 100, ghostone_ai.HARD,
                    round(100 * ghostone_ai.HARD_BUDGET)]
    move, chances = estimate(game, states[0], level="hard", iterations=100, time_cap=None)
    assert move in game.legal_moves(states[0]) and len(chances) == 3


def consequence_positions(count, seed):
    game = get_game("consequence")
    rng = random.Random(seed)
    found = []
    while len(found) < count:
        state = game.new()
        while game.outcome(state) is None and len(found) < count:
            if state.phase == c.PLAY:
                found.append(state)
            state = game.apply(state, rng.choice(game.legal_moves(state)))
    return game, found


def test_the_consequence_greedy_placement_is_legal_and_adds_the_most_pairs():
    """`best_place` puts a tile of the seat's hand on an empty square where it adds the most
    pairs for the seat less the opponent's (a legal Place), or gives None when nothing adds."""
    game, states = consequence_positions(150, seed=3)
    rng = random.Random(2)
    symbol = [kind[1] for kind in c.KINDS]
    found = 0
    for state in states:
        seat = state.to_move
        grid, hand = list(state.grid), list(state.hands[seat])

        def gain(tile, square, grid=grid, seat=seat):
            kind = symbol[tile]
            if kind == "D":
                return 0
            n = sum(1 for sq in consequence_ai._NEIGHBOURS[square]
                    if grid[sq] >= 0 and symbol[grid[sq]] == kind)
            return n if kind == "MS"[seat] else -n

        best = max(gain(t, sq) for t in hand for sq in range(c.SQUARES) if grid[sq] < 0)
        action = consequence_ai.best_place(grid, hand, seat, rng)
        if best <= 0:
            assert action is None
            continue
        found += 1
        kind, tile, square = action
        assert kind == "place" and tile in hand and grid[square] < 0
        assert gain(tile, square) == best
        assert c.Place(c.KINDS[tile], square) in game.legal_moves(state)
    assert found > 20
    for state in states[:40]:
        rewards = consequence_ai.greedy_playout(game, state, rng, 400, 2)
        assert len(rewards) == 2 and abs(sum(rewards) - 1.0) < 1e-9


def test_consequence_hard_searches_only_deals_of_its_observation(monkeypatch):
    """Hard's search, with its larger budget and greedy playouts, still gets only a sampler
    built from the seat's observation: no true state in it, and every deal it makes looks to
    the seat exactly like the true position."""
    game, states = consequence_positions(6, seed=9)
    seen = []
    real_init = Search.__init__

    def spy(self, game_, sampler, seats, seed, tuning=None, fallible=None):
        seen.append((sampler, tuning))
        real_init(self, game_, sampler, seats, seed, tuning, fallible)

    monkeypatch.setattr(Search, "__init__", spy)
    rng = random.Random(4)
    for state in states:
        seat = state.to_move
        move = choose_move(game, state, level="hard", iterations=20, time_cap=None)
        assert move in game.legal_moves(state)
        sampler, tuning = seen[-1]
        assert tuning is consequence_ai.HARD
        cells = [cell.cell_contents for cell in sampler.__closure__ or ()]
        assert not any(isinstance(cell, type(state)) for cell in cells)
        view = game.observe(state, seat)
        for _ in range(5):
            dealt = game.observe(sampler(rng), seat)
            assert (dealt.grid, dealt.hand, dealt.hand_sizes) == \
                (view.grid, view.hand, view.hand_sizes)


class _Replay:
    """The random numbers a playout drew, to replay them on the rules."""

    def __init__(self, seed):
        self.rng = random.Random(seed)
        self.drawn = []

    def random(self):
        self.drawn.append(self.rng.random())
        return self.drawn[-1]


@pytest.mark.parametrize("seats", [2, 3, 4])
def test_the_light_ico_plays_by_the_rules(seats):
    """The light game the three- and four-seat search plays on (LightIco, IcoPos) and its
    playouts, against the rules on random games of every level: the same moves, the same
    positions and end, `winning_move` exactly the placements that win at once, each random
    playout the same game as the rules given the same random numbers, and each pattern
    playout a legal game of the rules that takes every win on offer."""
    game = get_game("ico")
    light = ico_ai.LIGHT
    rng = random.Random(seats)
    plies = wins = replayed = 0
    chosen: collections.Counter[str] = collections.Counter()
    for options in ({"level": "1"}, {"level": "1+"}, {"level": "2"}, {"level": "2+"},
                    {"level": "2+", "antipodal": "yes"}):
        for _ in range(8):
            state = game.new(seats, {"start": f"f{rng.randrange(20)}", **options})
            pos = ico_ai.IcoPos.enter(state)
            while True:
                entered = ico_ai.IcoPos.enter(state)
                assert [getattr(pos, k) for k in pos.__slots__] == \
                    [getattr(entered, k) for k in entered.__slots__]
                outcome = game.outcome(state)
                assert light.outcome(pos) == (None if outcome is None else dataclasses.replace(
                    outcome, ending=None))
                if outcome is not None:
                    assert light.legal_moves(pos) == []
                    break
                legal = game.legal_moves(state)
                assert [ico_ai.to_rules(m) for m in light.legal_moves(pos)] == legal
                winning = [m for m in legal
                           if (end := game.outcome(game.apply(state, m))) and not end.draw]
                found = ico_ai.winning_move(light, pos)
                assert (found is None) == (not winning)
                assert found is None or ico_ai.to_rules(found) in winning
                wins += bool(winning)
                if rng.random() < 0.1:
                    replayed += _replays_on_the_rules(game, state, pos, seats, rng)
                    _pattern_playout_on_the_rules(game, state, pos, seats, rng, chosen)
                index = rng.randrange(len(legal))
                state = game.apply(state, legal[index])
                pos = light.apply(pos, light.legal_moves(pos)[index])
                plies += 1
    assert plies > 1000 and wins > 20 and replayed > 50
    # the pattern playout takes every win, mostly places nearest to a pattern, and wanders
    assert chosen["win"] > 20 and not chosen["missed win"]
    assert chosen["wander"] > 10
    assert chosen["nearest"] > 0.8 * (chosen["nearest"] + chosen["wander"])


def _replays_on_the_rules(game, state, pos, seats, rng):
    """Whether a random playout from `pos` ends as the rules do with its random numbers."""
    replay = _Replay(rng.randrange(10**6))
    rewards = ico_ai.random_playout(ico_ai.LIGHT, pos, replay, 400, seats)
    drawn = iter(replay.drawn)
    while (outcome := game.outcome(state)) is None:
        legal = game.legal_moves(state)
        state = game.apply(state, legal[int(next(drawn) * len(legal))] if len(legal) > 1
                           else legal[0])
    assert next(drawn, None) is None
    assert rewards == [1.0 / seats if outcome.draw else float(s in outcome.winners)
                       for s in range(seats)]
    return 1


def _pattern_playout_on_the_rules(game, state, pos, seats, rng, chosen):
    """Replays a pattern playout from `pos` on the rules: legal moves, the same end, and at
    each placement with a choice, whether it took a win, a placement nearest to one of the
    mover's patterns (counted independently, from `patterns`), or wandered."""
    trace: list[int] = []
    rewards = ico_ai.pattern_playout(ico_ai.LIGHT, pos, rng, 400, seats, trace)
    masks = ico_ai.patterns(state.level, state.antipodal)
    for light_move in trace:
        move = ico_ai.to_rules(light_move)
        legal = game.legal_moves(state)
        assert move in legal
        placements = [m.edge for m in legal if m.place]
        if len(placements) > 1:
            mine = ico_ai.IcoPos.enter(state).has[state.to_move]

            def missing(edge, mine=mine):
                bit = 1 << edge
                return min((m & ~(mine | bit)).bit_count() for m in masks if m & bit)

            fewest = min(missing(e) for e in placements)
            kind = ("win" if missing(move.edge) == 0 else "missed win" if fewest == 0
                    else "nearest" if missing(move.edge) == fewest else "wander")
            chosen[kind] += 1
        state = game.apply(state, move)
    outcome = game.outcome(state)
    assert outcome is not None
    assert rewards == [1.0 / seats if outcome.draw else float(s in outcome.winners)
                       for s in range(seats)]


def test_ico_hard_with_three_seats_takes_a_win_and_plays_legal_moves():
    """Three seats, hard (full playouts on the light game): a legal move at every turn of a random
    game, and a winning placement whenever one is on offer."""
    game = get_game("ico")
    rng = random.Random(5)
    for options in ({"level": "1+"}, {"level": "2"}):
        state = game.new(3, {"start": "f0", **options})
        while game.outcome(state) is None:
            legal = game.legal_moves(state)
            if len(legal) > 1:
                move = choose_move(game, state, level="hard", iterations=30, time_cap=None,
                                   seed=rng.randrange(1000))
                assert move in legal
                winning = [m for m in legal
                           if (end := game.outcome(game.apply(state, m))) and not end.draw]
                if winning:
                    assert move in winning
            state = game.apply(state, rng.choice(legal))

@pytest.mark.parametrize("seats", [3, 4])
def test_ico_levels_with_more_seats_search_a_wide_step_apart(monkeypatch, seats):
    """With three or four seats each ICO level searches many times the iterations of the
    level below (all full playouts, hard's for the mover's patterns; hard takes a win at once
    as won), so that each beats the one below clearly (issue 30); two seats keep their own
    searches."""
    from games.ai import LEVELS

    game = get_game("ico")
    state = game.new(seats, {"level": "2", "start": "f0"})
    while len(game.legal_moves(state)) < 2:
        state = game.apply(state, game.legal_moves(state)[0])
    seen = spy_on_searches(monkeypatch)
    for level in ("easy", "normal", "hard"):
        assert choose_move(game, state, level=level, time_cap=None) in game.legal_moves(state)
    budgets = {level: round(LEVELS[level].iterations * ico_ai.MULTI_BUDGET[level])
               for level in ("easy", "normal", "hard")}
    assert seen == [ico_ai.MULTI, budgets["easy"], ico_ai.MULTI, budgets["normal"],
                    ico_ai.MULTI_HARD, budgets["hard"]]
    assert ico_ai.MULTI.playout is ico_ai.random_playout
    assert ico_ai.MULTI_HARD.playout is ico_ai.pattern_playout
    assert budgets["normal"] >= 10 * budgets["easy"] and budgets["hard"] >= 10 * budgets["normal"]


def _settled(results, legal=2):
    """The root's result after `Search.settle`, its children (seat 0's moves) decided as
    `results` (None: still open)."""
    from games.search import Node, Search

    seats = len(next(r for r in results if r is not None))
    root = Node(None, seats)
    moves = [f"m{i}" for i in range(legal)]
    root.info = (False, moves, None)
    for move, result in zip(moves, results, strict=False):
        child = root.children[move] = Node(0, seats)
        child.info = (False, [], result)
    Search.settle([root, next(iter(root.children.values()))])
    return root.info[2]


def test_a_mover_indifferent_between_other_seats_fates_proves_nothing():
    """With three seats, a seat that loses whatever it does but whose choice decides which
    other seat wins leaves its position open (max^n would crown whichever result it met
    first: a kingmaker's whim taken as proof, which made the search's proofs, and so its
    moves, arbitrary). A win is still taken, the same result by every move still proved,
    and two seats' proofs are as before."""
    assert _settled([[0.0, 1.0, 0.0], [0.0, 0.0, 1.0]]) is None
    assert _settled([[0.0, 1.0, 0.0], [0.0, 1.0, 0.0]]) == [0.0, 1.0, 0.0]
    assert _settled([[0.0, 1.0, 0.0], [1 / 3] * 3]) == [1 / 3] * 3  # a draw beats a loss
    assert _settled([[1.0, 0.0, 0.0], None]) == [1.0, 0.0, 0.0]
    assert _settled([[0.0, 1.0, 0.0], None]) is None
    assert _settled([[0.0, 1.0], [0.0, 1.0]]) == [0.0, 1.0]
    assert _settled([[0.5, 0.5], [0.0, 1.0]]) == [0.5, 0.5]
