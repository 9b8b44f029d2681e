"""Hand-checked small cases of every tournament format (bot/tournaments)."""

from __future__ import annotations

import json

import pytest

from bot.tournaments import (
    Game,
    PairingError,
    Player,
    Settings,
    Tournament,
    TournamentError,
    add_player,
    add_round,
    berger_round,
    bracket_order,
    crosstable,
    from_json,
    is_finished,
    pair_next_round,
    pod_points,
    record,
    schedule,
    standings,
    table_sizes,
    to_json,
    to_trf,
    withdraw,
)


def field(n: int) -> tuple[Player, ...]:
    """Players 1..n, seeded in id order (rating falls with the id)."""
    return tuple(Player(id=i, rating=2000 - 10 * i, name=f"P{i}") for i in range(1, n + 1))


def seats(rnd) -> list[tuple[int, ...]]:
    return [g.seats for g in rnd.games]


def play_round(t: Tournament, results) -> Tournament:
    """Pairs the next round and records `results(game) -> points`."""
    rnd = pair_next_round(t)
    t = add_round(t, rnd)
    for i, g in enumerate(rnd.games):
        if g.points is None:
            t = record(t, rnd.number, i, results(g))
    return t


def first_wins(g: Game) -> tuple[float, ...]:
    return (1.0, 0.0)


# ---- round robin -----------------------------------------------------------------------


def test_berger_tables_of_four_and_six_are_fide_s():
    assert [berger_round(4, r) for r in (1, 2, 3)] == [
        [(1, 4), (2, 3)], [(4, 3), (1, 2)], [(2, 4), (3, 1)]]
    assert [berger_round(6, r) for r in range(1, 6)] == [
        [(1, 6), (2, 5), (3, 4)],
        [(6, 4), (5, 3), (1, 2)],
        [(2, 6), (3, 1), (4, 5)],
        [(6, 5), (1, 4), (2, 3)],
        [(3, 6), (4, 2), (5, 1)],
    ]


def test_round_robin_of_five_rests_one_player_a_round_on_the_table_of_six():
    t = schedule(Tournament(Settings("round_robin"), field(5)))
    assert [seats(r) for r in t.rounds] == [
        [(2, 5), (3, 4)], [(5, 3), (1, 2)], [(3, 1), (4, 5)], [(1, 4), (2, 3)], [(4, 2), (5, 1)]]
    resting = [({1, 2, 3, 4, 5} - {p for g in r.games for p in g.seats}).pop() for r in t.rounds]
    assert sorted(resting) == [1, 2, 3, 4, 5]


@pytest.mark.parametrize("n", [2, 3, 4, 5, 6, 7, 8, 11])
def test_round_robin_pairs_everyone_once_with_balanced_seats(n):
    t = schedule(Tournament(Settings("round_robin"), field(n)))
    pairs = [frozenset(g.seats) for r in t.rounds for g in r.games]
    assert len(pairs) == len(set(pairs)) == n * (n - 1) // 2
    for p in range(1, n + 1):
        whites = sum(1 for r in t.rounds for g in r.games if g.seats[0] == p)
        blacks = sum(1 for r in t.rounds for g in r.games if g.seats[1] == p)
        assert abs(whites - blacks) <= 1
    double = schedule(Tournament(Settings("round_robin", double=True), field(n)))
    games = [g.seats for r in double.rounds for g in r.games]
    assert len(games) == len(set(games)) == n * (n - 1)


def test_a_round_robin_withdrawal_forfeits_the_games_left():
    t = schedule(Tournament(Settings("round_robin"), field(4)))
    t = record(t, 1, 0, (1.0, 0.0))  # 1 beats 4
    t = record(t, 1, 1, (0.5, 0.5))  # 2 draws 3
    t = withdraw(t, 4)
    fourth = [g for r in t.rounds for g in r.games if 4 in g.seats]
    assert [(g.points, g.forfeit) for g in fourth] == [
        ((1.0, 0.0), False), ((0.0, 1.0), True), ((1.0, 0.0), True)]
    assert not is_finished(t)
    for r in t.rounds[1:]:
        for i, g in enumerate(r.games):
            if g.points is None:
                t = record(t, r.number, i, (0.5, 0.5))
    assert is_finished(t)
    trf = to_trf(t)
    line4 = next(x for x in trf.splitlines() if x[4:8] == "   4")
    assert line4[91:99] == "0001 b 0" and line4[101:109] == "0003 w -"


# ---- Swiss -----------------------------------------------------------------------------


def test_swiss_round_one_is_top_half_against_bottom_half_colours_alternating():
    t = Tournament(Settings("swiss", rounds=3), field(8))
    assert seats(pair_next_round(t)) == [(1, 5), (6, 2), (3, 7), (8, 4)]


def test_swiss_odd_field_gives_the_bye_to_the_lowest_rated_in_round_one():
    t = Tournament(Settings("swiss", rounds=3), field(7))
    rnd = pair_next_round(t)
    assert seats(rnd) == [(1, 4), (5, 2), (3, 6), (7,)]
    assert rnd.games[-1].points == (1.0,)


def test_swiss_round_two_pairs_inside_score_groups_and_alternates_colours():
    t = play_round(Tournament(Settings("swiss", rounds=3), field(8)), first_wins)
    # winners 1, 6, 3, 8 (1.0) and losers 5, 2, 7, 4 (0.0)
    rnd = pair_next_round(t)
    groups = [set(g.seats) for g in rnd.games]
    assert all(s <= {1, 3, 6, 8} or s <= {2, 4, 5, 7} for s in groups)
    for g in rnd.games:  # everyone had white in round 1 or black; now the other
        white, black = g.seats
        assert white in {5, 2, 7, 4} or black in {1, 6, 3, 8}


def test_swiss_withdrawal_forfeits_the_running_game_and_is_paired_no_more():
    t = Tournament(Settings("swiss", rounds=3), field(6))
    t = add_round(t, pair_next_round(t))
    t = withdraw(t, 5)
    g = next(g for g in t.rounds[0].games if 5 in g.seats)
    assert g.forfeit and g.points == ((0.0, 1.0) if g.seats[0] == 5 else (1.0, 0.0))
    for i, g in enumerate(t.rounds[0].games):
        if g.points is None:
            t = record(t, 1, i, (1.0, 0.0))
    rnd = pair_next_round(t)
    assert 5 not in {p for g in rnd.games for p in g.seats}
    assert any(g.is_bye for g in rnd.games)


def test_swiss_late_join_scores_nothing_for_missed_rounds():
    t = play_round(Tournament(Settings("swiss", rounds=3), field(4)), first_wins)
    t = add_player(t, Player(id=9, rating=2500))
    assert t.player(9).joined_round == 2
    t = play_round(t, first_wins)
    assert 9 in {p for g in t.rounds[1].games for p in g.seats}
    row = next(r for r in crosstable(t) if r.player_id == 9)
    assert row.cells[0].code == "Z" and row.cells[0].points is None
    line = next(x for x in to_trf(t).splitlines() if x[14:47].strip() == "9")
    assert line[4:8] == "   1" and line[91:99] == "0000 - Z"  # seeded first by rating


def test_swiss_ends_when_no_legal_pairing_is_left():
    t = Tournament(Settings("swiss"), field(4))
    for _ in range(3):
        t = play_round(t, first_wins)
    with pytest.raises(PairingError):
        pair_next_round(t)
    assert is_finished(t)


# ---- knockout --------------------------------------------------------------------------


def test_bracket_order_is_standard_seeding():
    assert bracket_order(8) == [1, 8, 4, 5, 2, 7, 3, 6]
    assert bracket_order(4) == [1, 4, 2, 3]


def test_knockout_of_six_gives_byes_to_seeds_one_and_two():
    t = Tournament(Settings("knockout"), field(6))
    rnd = pair_next_round(t)
    assert seats(rnd) == [(1,), (4, 5), (2,), (3, 6)]
    assert rnd.games[0].points == (1.0,) and rnd.games[2].points == (1.0,)
    t = add_round(t, rnd)
    t = record(t, 1, 1, (0.0, 1.0))  # 5 beats 4
    t = record(t, 1, 3, (1.0, 0.0))  # 3 beats 6
    assert seats(pair_next_round(t)) == [(1, 5), (2, 3)]
    t = play_round(t, first_wins)
    assert seats(pair_next_round(t)) == [(1, 2)]
    t = play_round(t, lambda g: (0.0, 1.0))
    assert is_finished(t)
    ranks = [r.player_id for r in standings(t).rows]
    assert ranks[:2] == [2, 1] and set(ranks[2:4]) == {3, 5}


def test_knockout_draw_goes_to_an_extra_game_with_seats_swapped():
    t = Tournament(Settings("knockout"), field(2))
    t = play_round(t, lambda g: (0.5, 0.5))
    rnd = pair_next_round(t)
    assert rnd.kind == "tiebreak" and seats(rnd) == [(2, 1)]
    t = add_round(t, rnd)
    t = record(t, 2, 0, (1.0, 0.0))
    assert is_finished(t) and standings(t).rows[0].player_id == 2


def test_knockout_minimatch_and_the_higher_seed_after_the_last_tiebreak():
    t = Tournament(Settings("knockout", draw_break="minimatch", max_tiebreaks=1), field(2))
    t = play_round(t, lambda g: (0.5, 0.5))
    rnd = pair_next_round(t)
    assert seats(rnd) == [(2, 1), (1, 2)]
    t = add_round(t, rnd)
    t = record(t, 2, 0, (1.0, 0.0))
    t = record(t, 2, 1, (1.0, 0.0))  # 1-1 in the mini-match, tiebreaks exhausted
    assert is_finished(t) and standings(t).rows[0].player_id == 1


def test_knockout_withdrawal_sends_the_opponent_through():
    t = Tournament(Settings("knockout"), field(4))
    t = add_round(t, pair_next_round(t))  # 1-4, 2-3
    t = withdraw(t, 4)
    t = record(t, 1, 1, (1.0, 0.0))
    assert seats(pair_next_round(t)) == [(1, 2)]


# ---- pods ------------------------------------------------------------------------------


def test_table_sizes_split_fields_sensibly():
    assert table_sizes(7, 3, 4) == [4, 3]
    assert table_sizes(6, 3, 4) == [3, 3]
    assert table_sizes(8, 3, 4) == [4, 4]
    assert table_sizes(9, 3, 4) == [3, 3, 3]
    assert table_sizes(10, 3, 4) == [4, 3, 3]
    assert table_sizes(5, 3, 4) == [4]  # one sits out
    assert table_sizes(2, 3, 4) == []


def test_pod_points_by_placement():
    assert pod_points((1, 2, 3, 4), 4) == (3.0, 2.0, 1.0, 0.0)
    assert pod_points((2, 1, 3), 4) == (1.5, 3.0, 0.0)
    assert pod_points((1, 1, 3, 4), 4) == (2.5, 2.5, 1.0, 0.0)


def test_pods_of_seven_seat_four_and_three_by_score():
    t = Tournament(Settings("pods", rounds=3, table_min=3, table_max=4), field(7))
    rnd = pair_next_round(t)
    assert [len(g.seats) for g in rnd.games] == [4, 3]
    assert set(rnd.games[0].seats) == {1, 2, 3, 4}
    t = add_round(t, rnd)
    t = record(t, 1, 0, pod_points((4, 3, 2, 1), 4))  # the last seat wins
    t = record(t, 1, 1, pod_points((1, 2, 3), 4))
    rnd = pair_next_round(t)
    top = set(rnd.games[0].seats)
    assert rnd.games[0].seats[0] == 4  # who sat last sits first
    assert set(t.rounds[0].games[1].seats[:1]) <= top  # the small table's winner moves up
    table = standings(add_round(t, rnd))
    assert table.rows[0].points == 3.0


def test_pods_of_five_at_three_to_four_rotate_the_bye():
    t = Tournament(Settings("pods", rounds=4, table_min=3, table_max=4), field(5))
    out = []
    for _ in range(4):
        rnd = pair_next_round(t)
        out.append(next(g.seats[0] for g in rnd.games if g.is_bye))
        t = add_round(t, rnd)
        for i, g in enumerate(rnd.games):
            if g.points is None:
                t = record(t, rnd.number, i, pod_points(tuple(range(1, 5)), 4))
    assert len(set(out)) == 4


# ---- standings, JSON -------------------------------------------------------------------


def test_buchholz_and_sonneborn_berger_by_hand():
    t = schedule(Tournament(Settings("round_robin"), field(4)))
    # r1: 1-4 1-0, 2-3 =; r2: 4-3 0-1, 1-2 =; r3: 2-4 1-0, 3-1 0-1
    for rnd, i, pts in ((1, 0, (1, 0)), (1, 1, (.5, .5)), (2, 0, (0, 1)), (2, 1, (.5, .5)),
                        (3, 0, (1, 0)), (3, 1, (0, 1))):
        t = record(t, rnd, i, pts)
    rows = standings(t).rows
    assert [(r.player_id, r.points) for r in rows] == [(1, 2.5), (2, 2.0), (3, 1.5), (4, 0.0)]
    one = rows[0]
    assert one.tiebreaks[:2] == (2.0 + 1.5 + 0.0, 0.5 * 2.0 + 1.5)
    ct = crosstable(t)
    assert [c.code for c in ct[0].cells] == ["1", "=", "1"]


def test_json_round_trips_and_refuses_bad_input():
    t = play_round(Tournament(Settings("swiss", rounds=2, name="Club"), field(5)), first_wins)
    t = withdraw(t, 2)
    text = to_json(t)
    assert from_json(text) == t and to_json(from_json(text)) == text
    doc = json.loads(text)
    for broken in (
        {**doc, "version": 99},
        {**doc, "players": doc["players"] + doc["players"][:1]},
        {**doc, "rounds": [{**doc["rounds"][0], "number": 2}]},
        {**doc, "settings": {**doc["settings"], "format": "ladder"}},
    ):
        with pytest.raises(TournamentError):
            from_json(json.dumps(broken))
    bad = json.loads(text)
    bad["rounds"][0]["games"][0]["seats"] = [1, 99]
    with pytest.raises(TournamentError):
        from_json(json.dumps(bad))
    with pytest.raises(TournamentError):
        from_json("{")


def test_pairing_is_deterministic():
    def run() -> str:
        t = Tournament(Settings("swiss", rounds=4), tuple(
            Player(id=i, rating=1500) for i in range(1, 12)))  # equal ratings: ids decide
        for _ in range(4):
            t = play_round(t, lambda g: (0.5, 0.5) if sum(g.seats) % 3 else (1.0, 0.0))
        return to_json(t)
    assert run() == run()


def test_late_joins_only_where_the_format_allows():
    t = schedule(Tournament(Settings("round_robin"), field(4)))
    with pytest.raises(TournamentError):
        add_player(t, Player(id=9))
    t = Tournament(Settings("pods", rounds=2, table_min=3, table_max=4), field(6))
    t = add_round(t, pair_next_round(t))
    assert add_player(t, Player(id=9)).player(9).joined_round == 2
