"""Puzzles from real games (games/puzzles.py): exhaustive goals over a match's positions. A
position where one sowing alone wins is a "win" puzzle; one where every sowing wins is none;
an analysed match yields at most MAX_PER_MATCH puzzles, never two of one turn."""

from __future__ import annotations

import pytest

from games import get_game
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

    match = await new_match(store)
    async with store.transaction() as tx:
        for ply in (3, 3, 5):  # the same ply twice: kept once
            await tx.add_puzzle(game="progressive-mancala", guild_id=1, match_id=match.id,
                                ply=ply, seats=2, options={}, entries=[["move", "b"]] * ply,
                                seat=1, solution="j", level="easy", margin=0.4, mu=25.0,
                                sigma=8.3, now=1.0)
    found = await store.puzzles_of_match(match.id)
    assert [(p.id, p.ply) for p in found] == [(1, 3), (2, 5)]
    assert (await store.next_puzzle(101, "progressive-mancala", 1)) is None  # Alice played
    offered = await store.next_puzzle(202, "progressive-mancala", 9)
    assert offered is not None and offered.id == 1 and offered.entries[0] == ["move", "b"]
    async with store.transaction() as tx:
        assert await tx.answer_puzzle(1, 202, "j", True, 2.0)
        assert not await tx.answer_puzzle(1, 202, "b", False, 3.0)  # once
        await tx.set_puzzle_ratings(1, 24.0, 8.0, 202, "progressive-mancala", 26.0, 8.0, True)
        await tx.set_puzzle_ratings(2, 24.0, 8.0, 202, "progressive-mancala", 27.0, 7.5, True)
    assert await store.puzzle_attempt(1, 202)
    assert await store.puzzle_rating(202, "progressive-mancala") == (27.0, 7.5)
    assert (await store.next_puzzle(202, "progressive-mancala", 1)).id == 2


@pytest.mark.parametrize("language", ["en", "ja"])
async def test_a_puzzle_picture_speaks_to_the_solver_in_the_second_person(language):
    """The solver's seat is named "You": the picture said "You to move" (ja: 「あなた の手番」)."""
    from bot.cogs import puzzle as cog
    from bot.i18n import Texts, translations
    from bot.pictures import picture_language
    from bot.store_puzzles import PuzzleRow
    from render import render_observation

    class Pictures:
        calls: list = []

        async def run(self, function, *args):
            self.calls.append(args)
            return b""

    class Service:
        async def puzzle_rating(self, user_id, game):
            class Rating:
                def text(self):
                    return "1500"
            return Rating()

    row = PuzzleRow(id=1, game="progressive-mancala", guild_id=1, match_id=1, ply=2, seats=2,
                    options={}, entries=[["move", "k"], ["move", "c"]], seat=0, solution="a",
                    level="easy", margin=0.4, mu=25.0, sigma=8.3)
    pictures = Pictures()
    await cog.puzzle_message(Service(), pictures, 202, row, Texts(language))
    game_id, state, viewer, names, result, lang, *you = pictures.calls[0]
    game = get_game(game_id)
    layout: list = []
    render_observation(game_id, game.observe(game.from_json(state), viewer), names=list(names),
                       result=result, tr=translations(picture_language(lang)), layout=layout,
                       you=you[0] if you else None)
    drawn = " ".join(box.text for box in layout)
    assert ("Your turn" in drawn) if language == "en" else ("あなたの手番" in drawn), drawn
