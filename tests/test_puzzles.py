"""Puzzles from real games (games/puzzles.py): exhaustive goals over a match's positions. A
position where one sowing alone wins is a "win" puzzle; one where every sowing wins is none;
an analysed match yields at most MAX_PER_MATCH puzzles, never two of one turn."""

from __future__ import annotations

import pytest

from games import KITS, get_game
from games.analysis import replayed
from games.puzzles import MAX_PER_MATCH, analyse_goals, puzzles_job, turns

GAME = get_game("progressive-mancala")
# the game of tests/e2e/test_puzzle_e2e.py: its last sowing is the only one that wins
ONE_WINS = ["b", "e", "g", "e", "a", "a", "i", "f", "i", "j", "k", "k", "c", "a", "c", "i",
            "b", "j"]
# a self-play game (seed 100) after which six sowings of seven win at once
MANY_WIN = ["k", "h", "a", "f", "c", "g", "f", "a", "e", "f", "j", "g", "g", "k", "b", "c",
            "a", "j", "b", "h", "d", "d", "a"]

def last_position(moves: list[str]):
    states, _ = replayed(GAME, GAME.new(2), [("move", n) for n in moves])
    assert GAME.outcome(states[-1]) is not None
    return states[-2]


def test_the_only_winning_sowing_is_a_win_puzzle_with_a_refutation_for_every_other():
    state = last_position(ONE_WINS)
    found = analyse_goals(GAME, state)
    assert found is not None and found.goal == "win" and found.solution == "j"
    assert found.line[0] == "j" and "finish" in found.themes
    others = set(GAME.legal_notations(state)) - {"j"}
    assert set(found.refutations) == others
    assert all(line[0] == move for move, line in found.refutations.items())


def test_a_position_where_more_than_one_move_wins_is_no_puzzle():
    states, _ = replayed(GAME, GAME.new(2), [("move", n) for n in MANY_WIN])
    assert analyse_goals(GAME, states[-1]) is None


def test_puzzles_job_finds_the_matchs_puzzles_with_the_new_keys():
    entries = [["move", n] for n in ONE_WINS]
    found = puzzles_job(GAME.id, 2, {}, entries, [None] * len(entries), "easy")
    assert 1 <= len(found) <= MAX_PER_MATCH
    states, _ = replayed(GAME, GAME.new(2), entries)
    last_turn = str(turns(GAME, states)[len(ONE_WINS) - 1])
    assert last_turn in {p["turn"] for p in found}  # the winning turn gives one
    for p in found:
        assert {"ply", "seat", "solution", "goal", "line", "refutations", "themes",
                "turn"} <= set(p)
        assert p["line"][0] == p["solution"] and p["solution"] not in p["refutations"]
    assert len({p["turn"] for p in found}) == len(found)  # never two of one turn


def test_turns_count_a_bonus_move_in_its_movers_turn():
    states, _ = replayed(GAME, GAME.new(2), [("move", n) for n in ONE_WINS])
    found = turns(GAME, states)
    assert found[0] == 0 and found == sorted(found)
    seats = [GAME.to_move(s) for s in states[:-1]]
    for i in range(1, len(seats)):
        assert (found[i] == found[i - 1]) == (seats[i] == seats[i - 1])


async def test_the_store_keeps_puzzles_answers_and_ratings_on_both_back_ends(store):
    from test_store import new_match

    from bot.glicko import Glicko

    match = await new_match(store)
    async with store.transaction() as tx:
        for ply in (3, 3, 5):  # the same ply twice: kept once
            await tx.add_puzzle(game="progressive-mancala", guild_id=1, match_id=match.id,
                                ply=ply, seats=2, options={}, entries=[["move", "b"]] * ply,
                                seat=1, solution="j", level="easy", margin=0.4,
                                rating=Glicko(), now=1.0, turn=f"match{match.id}:{ply}")
    found = await store.puzzles_of_match(match.id)
    assert [(p.id, p.ply) for p in found] == [(1, 3), (2, 5)]
    assert (await store.next_puzzle(101, "progressive-mancala", 1)) is None  # Alice played
    offered = await store.next_puzzle(202, "progressive-mancala", 9)
    assert offered is not None and offered.id == 1 and offered.entries[0] == ["move", "b"]
    async with store.transaction() as tx:
        assert await tx.answer_puzzle(1, 202, "j", True, 2.0)
        assert not await tx.answer_puzzle(1, 202, "b", False, 3.0)  # once
        await tx.set_puzzle_ratings(1, Glicko(1400, 300), 202, "progressive-mancala",
                                    Glicko(1600, 300), True)
        await tx.set_puzzle_ratings(2, Glicko(1450, 280), 202, "progressive-mancala",
                                    Glicko(1650, 280), True)
    assert await store.puzzle_attempt(1, 202)
    assert await store.puzzle_rating(202, "progressive-mancala") == Glicko(1650, 280)
    assert (await store.puzzle(1)).rating == Glicko(1400, 300)
    assert (await store.next_puzzle(202, "progressive-mancala", 1)).id == 2


@pytest.mark.parametrize("language", ["en", "ja"])
async def test_a_puzzle_picture_speaks_to_the_solver_in_the_second_person(language):
    """The solver's seat is named "You": the picture said "You to move" (ja: 「あなた の手番」)."""
    from bot.cogs import puzzle as cog
    from bot.glicko import Glicko
    from bot.pictures import picture_language
    from bot.store.puzzles import PuzzleRow
    from bot.words.descriptions import alt_text
    from bot.words.i18n import Texts, translations
    from render import render_observation, without_last_move

    class Pictures:
        calls: list = []

        async def run(self, function, *args):
            self.calls.append(args)
            return function(*args)  # the picture and its alt text, drawn here

    class Service:
        async def puzzle_rating(self, user_id, game):
            class Rating:
                def text(self):
                    return "1500"
            return Rating()

    row = PuzzleRow(id=1, game="progressive-mancala", guild_id=1, match_id=1, ply=2, seats=2,
                    options={}, entries=[["move", "k"], ["move", "c"]], seat=0, solution="a",
                    level="easy", margin=0.4, rating=Glicko())
    pictures = Pictures()
    *_, file = await cog.puzzle_message(Service(), pictures, 202, row, Texts(language))
    game_id, state, viewer, names, result, lang, *you = pictures.calls[0]
    game = get_game(game_id)
    # its alt text: the description of exactly the view drawn (the solver's, no last move)
    assert file.description == alt_text(game, without_last_move(game.observe(
        game.from_json(state), viewer)), Texts(language), names)
    assert you[1:] == [True, False]  # hints drawn, the last move not (board_picture)
    game = get_game(game_id)
    layout: list = []
    render_observation(game_id, game.observe(game.from_json(state), viewer), names=list(names),
                       result=result, tr=translations(picture_language(lang)), layout=layout,
                       you=you[0] if you else None)
    drawn = " ".join(box.text for box in layout)
    assert ("Your turn" in drawn) if language == "en" else ("あなたの手番" in drawn), drawn


# -- Glicko-2 (bot/glicko.py) ------------------------------------------------------------------

def test_glicko_matches_the_worked_example_of_glickmans_paper():
    from bot.glicko import Glicko, rate

    player = Glicko(1500, 200, 0.06)
    after = rate(player, [(Glicko(1400, 30), 1), (Glicko(1550, 100), 0), (Glicko(1700, 300), 0)],
                 tau=0.5, bounds=(0, 1e9))
    assert round(after.rating, 2) == 1464.05  # the paper: 1464.06 (its rounded steps)
    assert round(after.deviation, 2) == 151.52
    assert abs(after.volatility - 0.05999) < 1e-5


def test_a_newcomers_swings_shrink_as_they_answer():
    """The complaint: ±135-176 points per puzzle forever. A newcomer's first answers move a lot;
    after twenty, every swing is well under 100 (and shrinking)."""
    import random

    from bot.glicko import Glicko, answered

    rng = random.Random(7)
    player, swings = Glicko(), []
    for _ in range(40):
        puzzle = Glicko(rng.uniform(1300, 1700), 200)
        after, _ = answered(player, puzzle, rng.random() < 0.6)
        swings.append(abs(after.rating - player.rating))
        player = after
    assert swings[0] > 100
    assert max(swings[20:]) < 60 and max(swings[30:]) < max(swings[10:20])
    assert not player.provisional or player.deviation < 150


def test_openskill_ratings_carry_over_as_the_same_number_shown():
    from bot.glicko import Glicko, from_openskill

    assert from_openskill(25.0, 25 / 3) == Glicko()  # a newcomer is a newcomer
    settled = from_openskill(27.5, 1.5)
    assert settled.display == 1650 and settled.deviation == 90 and not settled.provisional


def test_migration_0014_carries_puzzles_answers_and_openskill_ratings_over(tmp_path):
    """A store at 0013 with a found puzzle, an answer and OpenSkill ratings: after 0014 they
    are Glicko ratings showing the same numbers, the puzzle keeps its match and gets a turn."""
    import sqlite3

    from support import database_at

    from bot.store.db import migration_scripts
    from bot.store.sqlite import split_statements

    path = database_at(tmp_path / "old.sqlite3", 13)
    db = sqlite3.connect(path)
    db.execute("INSERT INTO matches (id, game, options, seat_count, guild_id, channel_id,"
               " host_id, status, created_at, updated_at) VALUES"
               " (7, 'progressive-mancala', '{}', 2, 1, 5, 101, 'finished', 1, 1)")
    db.execute("INSERT INTO puzzles VALUES (1, 'progressive-mancala', 1, 7, 3, 2, '{}', '[]', 1,"
               " 'j', 'easy', 0.4, 27.5, 2.0, 1.0)")
    db.execute("INSERT INTO puzzle_attempts VALUES (1, 202, 'j', 1, 2.0)")
    db.execute("INSERT INTO puzzle_ratings VALUES (202, 'progressive-mancala', 25.5, 8.0, 1, 0)")
    for number, _, script in migration_scripts("sqlite"):
        if number == 14:
            for statement in split_statements(script):
                db.execute(statement)
    db.row_factory = sqlite3.Row
    puzzle = dict(db.execute("SELECT * FROM puzzles").fetchone())
    assert puzzle["match_id"] == 7 and puzzle["key"] is None and puzzle["turn"] == "match7:3"
    assert (puzzle["rating"], puzzle["deviation"], puzzle["volatility"]) == (1650, 120, 0.09)
    assert [tuple(r) for r in db.execute("SELECT * FROM puzzle_attempts")] == \
        [(1, 202, "j", 1, 2.0)]
    rating = dict(db.execute("SELECT * FROM puzzle_ratings").fetchone())
    assert (rating["rating"], rating["deviation"], rating["solved"]) == (1530, 350, 1)
    assert db.execute("PRAGMA foreign_key_check").fetchall() == []
    db.close()


async def test_migration_0014_carries_the_same_over_on_postgresql(pg_server):
    import asyncpg

    from bot.store.db import migration_scripts

    url = await pg_server.empty_database("puzzles_0014")
    conn = await asyncpg.connect(url)
    try:
        for number, _, script in migration_scripts("postgresql"):
            if number == 14:
                await conn.execute("INSERT INTO matches (id, game, options, seat_count, guild_id,"
                                   " channel_id, host_id, status, created_at, updated_at) VALUES"
                                   " (7, 'progressive-mancala', '{}', 2, 1, 5, 101, 'finished',"
                                   " 1, 1)")
                await conn.execute("INSERT INTO puzzles VALUES (1, 'progressive-mancala', 1, 7,"
                                   " 3, 2, '{}', '[]', 1, 'j', 'easy', 0.4, 27.5, 2.0, 1.0)")
                await conn.execute("INSERT INTO puzzle_attempts VALUES (1, 202, 'j', 1, 2.0)")
                await conn.execute("INSERT INTO puzzle_ratings VALUES"
                                   " (202, 'progressive-mancala', 25.5, 8.0, 1, 0)")
            await conn.execute(script)
        puzzle = await conn.fetchrow("SELECT * FROM puzzles")
        assert puzzle["match_id"] == 7 and puzzle["turn"] == "match7:3"
        assert (puzzle["rating"], puzzle["deviation"]) == (1650, 120)
        rating = await conn.fetchrow("SELECT * FROM puzzle_ratings")
        assert (rating["rating"], rating["deviation"], rating["last_turn"]) == (1530, 350, "")
        assert await conn.fetchval("SELECT COUNT(*) FROM puzzle_attempts") == 1
        with pytest.raises(asyncpg.ForeignKeyViolationError):  # still tied to the puzzles
            await conn.execute("INSERT INTO puzzle_attempts VALUES (9, 202, 'j', 1, 2.0)")
    finally:
        await conn.close()


# -- curated sets in the store, and the choice of the next puzzle -------------------------------

TTT = "tic-tac-toe"  # tests/kits/tictactoe's hand-checked set (tests/kits/tictactoe/puzzles.json)


def test_the_tic_tac_toe_set_is_true():
    """The test kit's set, checked by looking at every move: exactly the solution reaches the
    goal ("win": the mover wins at once; "safe": the next player cannot win at once), and every
    other legal move has a refutation starting with it that the rules take."""
    from games.puzzles import curated

    game = get_game(TTT)
    for p in curated(TTT).puzzles:
        states, _ = replayed(game, game.new(p.seats), p.entries)
        state = states[-1]
        assert game.to_move(state) == p.seat

        def won(after, seat):
            outcome = game.outcome(after)
            return outcome is not None and not outcome.draw and seat in outcome.winners

        def reaches(move, p=p, state=state):
            after = game.play(state, move)
            if p.goal == "win":
                return won(after, p.seat)
            return game.outcome(after) is not None or not any(
                won(game.play(after, reply), game.to_move(after))
                for reply in game.legal_notations(after))

        legal = game.legal_notations(state)
        assert [m for m in legal if reaches(m)] == [p.solution], p.key
        assert set(p.refutations) == set(legal) - {p.solution}, p.key
        for move, line in p.refutations.items():
            assert line[0] == move and 2 <= len(line) <= 3
            after = state
            for notation in line:
                after = game.play(after, notation)
        assert p.line[0] == p.solution


async def test_curated_sets_enter_the_store_once_and_a_grown_set_adds_its_new_ones(service,
                                                                                   store):
    from dataclasses import replace

    from games.puzzles import GOALS, PuzzleSet, curated

    shipped = curated(TTT)
    assert len(shipped.puzzles) == 4
    assert await service.puzzles.import_curated() >= 4
    assert set(await store.curated_keys(TTT)) == {p.key for p in shipped.puzzles}
    assert await service.puzzles.import_curated() == 0  # at the next start: nothing new
    # a new set: one puzzle more, and one corrected (the same key, another turn and themes)
    fixed = replace(shipped.puzzles[1], turn="corrected:1", themes=[])
    grown = PuzzleSet([shipped.puzzles[0], fixed, *shipped.puzzles[2:],
                       replace(shipped.puzzles[0], key="tic-tac-toe:new:4")], shipped.themes)
    curated.cache_clear()
    import games.puzzles as module

    original = module.curated
    try:
        module.curated = lambda game_id: grown if game_id == TTT else original(game_id)
        import bot.service.puzzles as service_module

        service_module.curated = module.curated
        assert await service.puzzles.import_curated() == 1
    finally:
        module.curated = original
        service_module.curated = original
    from bot.service.puzzles import _told
    from bot.store.puzzles import curated_content

    kept = await store.curated_keys(TTT)  # the store follows the corrected puzzle
    assert kept[fixed.key] == curated_content(**_told(fixed))
    assert kept[fixed.key] != curated_content(**_told(shipped.puzzles[1]))
    puzzle = await store.puzzle(1)
    assert puzzle.match_id is None and puzzle.guild_id == 0 and puzzle.level == "curated"
    assert puzzle.goal in GOALS and puzzle.refutations and puzzle.turn and puzzle.key


async def test_the_next_puzzle_is_never_answered_never_of_the_last_turn_and_near_the_rating(
        service, store):
    from bot.glicko import Glicko

    async with store.transaction() as tx:
        for n, (turn, rating) in enumerate([("a:1", 1500), ("a:1", 1510), ("b:2", 1900),
                                             ("c:3", 1100)]):
            await tx.add_puzzle(key=f"{TTT}:{n}", game=TTT, guild_id=0, match_id=None, ply=0,
                                seats=2, options={}, entries=[], seat=0, solution="b2",
                                level="curated", margin=0.0, rating=Glicko(rating), now=1.0,
                                goal="win", turn=turn)
    first = await service.offer_puzzle(202, TTT, 1)
    assert (first.id, first.turn) == (1, "a:1")  # the nearest to 1500
    second = await service.offer_puzzle(202, TTT, 1)
    assert second.turn != "a:1"  # not the other of turn a:1, though it is nearer
    assert second.id == 3  # 1100 and 1900 are as far: the older
    third = await service.offer_puzzle(202, TTT, 1)
    assert third.turn != second.turn and third.id in (1, 2)
    # answered: never again
    await service.answer_puzzle(202, 202, 1, "b2")
    offered = {(await service.offer_puzzle(202, TTT, 1)).id for _ in range(4)}
    assert 1 not in offered
    # only a puzzle of the last turn left: it comes (rather than none ever again)
    for puzzle_id in (3, 4):
        await service.answer_puzzle(202, 202, puzzle_id, "b2")
    assert (await service.offer_puzzle(202, TTT, 1)).id == 2
    assert (await service.offer_puzzle(202, TTT, 1)).id == 2
    # a strong player is offered the hard one first
    async with store.transaction() as tx:
        await tx.set_puzzle_ratings(3, Glicko(1900), 303, TTT, Glicko(1850, 100), True)
    assert (await service.offer_puzzle(303, TTT, 1)).id == 3


async def test_a_wrong_answer_brings_its_refutation_and_both_ratings_move(service, store):
    from bot.service import BadRequest

    await service.puzzles.import_curated()
    puzzle = await service.offer_puzzle(202, TTT, 1)
    assert puzzle.key == f"{TTT}:g1:4" and puzzle.solution == "c1"
    try:
        await service.answer_puzzle(202, 202, puzzle.id, "zz")
    except BadRequest:
        pass
    else:
        raise AssertionError("a move that is none is refused")
    assert not await store.puzzle_attempt(puzzle.id, 202)
    result = await service.answer_puzzle(202, 202, puzzle.id, "a2")
    assert not result.solved and result.refutation == ["a2", "c3"]
    assert result.after.rating < result.before.rating == 1500
    assert (await store.puzzle(puzzle.id)).rating.rating > 1500
    solved = await service.answer_puzzle(
        202, 202, (await service.offer_puzzle(202, TTT, 1)).id, "c1")
    assert solved.solved and solved.refutation == [] and solved.after.rating > \
        solved.before.rating


# -- what the player reads ------------------------------------------------------------------------

def _row(**changes):
    from dataclasses import replace

    from bot.glicko import Glicko
    from bot.store.puzzles import PuzzleRow
    from games.puzzles import curated

    p = curated(TTT).puzzles[0]
    row = PuzzleRow(id=1, game=TTT, guild_id=0, match_id=None, ply=len(p.entries), seats=2,
                    options={}, entries=p.entries, seat=p.seat, solution=p.solution,
                    level="curated", margin=0.0, rating=Glicko(), key=p.key, goal=p.goal,
                    line=p.line, refutations=p.refutations, themes=p.themes, turn=p.turn)
    return replace(row, **changes)


@pytest.mark.parametrize("language", ["en", "ja"])
def test_the_puzzle_says_whose_side_and_the_goal(language):
    from bot.cogs.puzzle import side_and_goal
    from bot.words.i18n import Texts

    side, goal = side_and_goal(_row(), Texts(language))
    if language == "en":
        assert (side, goal) == ("You play seat 1.", "Goal: Win this turn.")
    else:
        assert (side, goal) == ("あなたは1番手です。", "目標：この手番で勝つ。")
    mancala = _row(game="progressive-mancala", seat=1, goal="safe")
    side, goal = side_and_goal(mancala, Texts(language))
    assert side == ("You play the second player (seat 2)." if language == "en"
                    else "あなたは後手（2番手）です。"), side
    assert goal.startswith("Goal: Do not hand over the win" if language == "en" else "目標：勝ちを")


@pytest.mark.parametrize("language", ["en", "ja"])
def test_feedback_shows_the_refutation_the_point_the_themes_and_the_swing(language):
    from dataclasses import replace

    from bot.cogs.puzzle import feedback
    from bot.glicko import Glicko
    from bot.service import PuzzleResult
    from bot.words.i18n import Texts

    row = _row()
    texts = Texts(language)
    wrong = feedback(PuzzleResult(row, "a2", False, Glicko(), Glicko(1459, 300)), texts)
    right = feedback(PuzzleResult(row, "c1", True, Glicko(1459, 300), Glicko(1480, 290)),
                     texts)
    if language == "en":
        assert wrong == ["❌ Not quite: you played `a2`; the move was `c1`.",
                         "Why not `a2`: You play `a2`, then they play `c3`. They win.",
                         "The point: You play `c1`. You win.",
                         "Puzzle rating 1500? → 1459? (-41)"]
        assert right == ["✅ Right: `c1`.", "The point: You play `c1`. You win.",
                         "Themes: Three in a row", "Puzzle rating 1459? → 1480? (+21)"]
        # a miss of "Win this turn" where the game goes on says so; "most" says the gains
        blocked = feedback(PuzzleResult(row, "c3", False, Glicko(), Glicko(1459, 300)), texts)
        # (the reply that wins nothing is left out: the line ends with the solver's turn)
        assert row.refutations["c3"] == ["c3", "c1"]
        assert blocked[1] == "Why not `c3`: You play `c3`. No win this turn."
        most = replace(row, goal="most", gains={"c3": 1.0, "c1": 3.5})
        gains = feedback(PuzzleResult(most, "c3", False, Glicko(), Glicko(1459, 300)), texts)
        assert gains[2] == "`c3` gains 1; `c1` gains 3.5."
    else:
        assert wrong[1] == "`a2` がだめな理由：あなたが `a2`、続いて相手が `c3`。相手の勝ちです。"
        assert right[2] == "テーマ：三つ並び" and right[3] == "パズルレーティング 1459? → 1480?（+21）"


def test_a_puzzle_picture_draws_no_last_move_on_any_kit():
    """The previous complaint: each picture's "Last:" line gave away the previous puzzle's
    answer. A puzzle's picture (`last_move` False) is the position drawn as if no move had been
    made: no "Last" under it, nothing marked on it."""
    import dataclasses
    from random import Random

    from bot.pictures import board_picture
    from bot.words.i18n import translations
    from games import KITS
    from render import render_observation

    for game_id in KITS:
        game = get_game(game_id)
        setup = KITS[game_id].setups[0]
        state = game.new(setup.seats, game.draw_options(dict(setup.options), Random(1)))
        for _ in range(3):  # a few moves (a die roll is one too): a last move to hide
            if game.outcome(state) is None:
                state = game.apply(state, game.legal_moves(state)[0])
        viewer = game.to_move(state)
        names = [f"P{n}" for n in range(setup.seats)]
        drawn = board_picture(game_id, game.to_json(state), viewer, names, last_move=False)
        observation = game.observe(state, viewer)
        if dataclasses.is_dataclass(observation) and any(
                f.name == "last" for f in dataclasses.fields(observation)):
            observation = dataclasses.replace(observation, last=None)
        layout: list = []
        plain = render_observation(game_id, observation, names=names, layout=layout,
                                   tr=translations("en"), last_move=False)
        assert drawn == plain, game_id
        assert not any("Last" in box.text for box in layout), game_id


def test_a_line_of_a_game_of_more_seats_names_each_opponent_by_its_seat():
    from bot.cogs.puzzle import line_words
    from bot.words.i18n import Texts

    game = next(g for g in (get_game(k) for k in KITS) if g.info.min_seats >= 3)
    state = game.new(3)
    first = game.legal_notations(state)[0]
    second = game.legal_notations(game.play(state, first))[0]
    row = _row(game=game.id, seats=3, entries=[], seat=0, goal="win", line=[first, second])
    words = line_words(row, [first, second], Texts("en"))
    assert words == f"You play `{first}`, then seat 2 plays `{second}`.", words
    assert line_words(row, [first, second], Texts("ja")) == \
        f"あなたが `{first}`、続いて2番手が `{second}`。"


@pytest.mark.parametrize("language", ["en", "ja"])
def test_a_line_says_what_each_ply_did(language):
    """The why of a line: a ply that scores or hands over a bonus move says so, in the
    game's own words (`Game.move_gist`)."""
    from bot.cogs.puzzle import line_words
    from bot.words.i18n import Texts
    from games.puzzles import curated

    texts = Texts(language)
    told = 0
    for p in curated("progressive-mancala").puzzles:
        game = get_game(p.game)
        row = _row(game=p.game, seats=p.seats, options=p.options, entries=p.entries,
                   seat=p.seat, goal=p.goal, line=p.line, solution=p.solution)
        words = line_words(row, p.line, texts)
        state = game.new(p.seats, p.options)
        for _, notation in p.entries:
            state = game.play(state, notation)
        for notation in p.line:
            after = game.play(state, notation)
            gist = game.move_gist(state, game.parse_move(state, notation), after)
            for effect in gist:
                titles = [texts(game.seat_title(s)) for s in range(p.seats)]
                assert texts(effect, titles) in words, (p.key, words)
            told += bool(gist)
            state = after
    assert told  # the shipped set's lines score and hand over bonus moves


def test_a_most_goal_says_what_it_counts_where_the_kit_declares_it():
    """"Gain the most this turn" did not say of what: a kit that offers "most" puzzles says
    what it counts in its own goal sentence; every kit's sentences exist in Japanese."""
    from bot.words.i18n import Texts
    from games.puzzles import GOALS, curated, goal_words

    for game_id in KITS:
        goals = {p.goal for p in curated(game_id).puzzles}
        for goal in goals:
            words = goal_words(game_id, goal)
            assert words is not None
            if goal == "most":
                assert words != GOALS["most"] and "points" in words, game_id
            assert Texts("ja")(words) != words, (game_id, goal)
    assert goal_words("progressive-mancala", "nonsense") is None
