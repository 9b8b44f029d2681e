"""Puzzles from real games (games/puzzles.py): a candidate is confirmed only when the next
level up finds its best move clearly better than every other; a position where every move
wins is no puzzle."""

from __future__ import annotations

import pytest

from games import get_game
from games.analysis import replayed
from games.puzzles import MARGIN, candidates, confirm, move_values

GAME = get_game("progressive-mancala")
# the game of tests/e2e/test_puzzle_e2e.py: its last sowing is the only one that wins
ONE_WINS = ["b", "e", "g", "e", "a", "a", "i", "f", "i", "j", "k", "k", "c", "a", "c", "i",
            "b", "j"]
# a game whose last position wins with every sowing
ALL_WIN = ["g", "g", "a", "f", "i", "i", "e", "j", "k", "d", "h", "g", "e", "k", "c", "f",
           "c", "b", "g", "i", "d", "e", "a", "d", "h", "i", "j", "b"]


def last_position(moves: list[str]):
    states, _ = replayed(GAME, GAME.new(2), [("move", n) for n in moves])
    assert GAME.outcome(states[-1]) is not None
    return states[-2]


def test_the_only_winning_sowing_is_confirmed_and_no_other_move():
    state = last_position(ONE_WINS)
    values = move_values(GAME, state, level="normal", seed=3)
    assert values is not None and values["j"] == 1.0  # exact: the game ends, won
    assert all(v <= 1.0 - MARGIN for m, v in values.items() if m != "j")
    assert confirm(GAME, state, "j", level="easy", seed=3) is not None
    assert confirm(GAME, state, "b", level="easy", seed=3) is None  # not the best


def test_a_position_where_every_move_wins_is_no_puzzle():
    state = last_position(ALL_WIN)
    assert confirm(GAME, state, "b", level="easy", seed=3) is None


def test_candidates_need_a_choice_and_a_good_chance_for_the_mover():
    states, _ = replayed(GAME, GAME.new(2), [("move", n) for n in ONE_WINS])
    seat = GAME.to_move(states[-2])
    judged = [None] * (len(states) - 1)
    judged[-1] = ["j", [1.0 if s == seat else 0.0 for s in range(2)]]
    judged[-2] = ["b", [0.5, 0.5]]
    assert candidates(GAME, states, judged) == [len(states) - 2]


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
    from bot.i18n import Texts, translations
    from bot.pictures import picture_language
    from bot.glicko import Glicko
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
                    level="easy", margin=0.4, rating=Glicko())
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
