"""/puzzle through the real bot.

From the first day (issue 52): a fresh server serves every game's curated set (each game with
a set; tests/kits/tictactoe's hand-checked one too), each puzzle saying whose side and the
goal, drawn without the last move; a wrong answer shows its refutation in words and in a
picture, a right one its point and themes, both the rating's swing; two puzzles in a row never
come from one turn.

From real games (issue 34): a match played to its end and analysed (at the easy level,
CORRAL_ANALYSIS_LEVEL) yields a puzzle the normal level confirmed; it is offered to a player
of the server who did not play in that match (never to those who did), before the curated
ones, drawn from the seat to move, answered with the step components of a real match; one
player solves it, another fails it, and each sees their puzzle rating move; forged and stale
clicks change nothing."""

from __future__ import annotations

import json
import re
import sqlite3
from typing import Any

import pytest
from e2e_helpers import (
    button_with,
    challenge_and_accept,
    components,
    is_ephemeral,
    mover,
    play_button,
    says,
)

from games import PRODUCT, get_game
from games.analysis import replayed
from games.puzzles import curated, turns

GAME = get_game("progressive-mancala")
# a whole game (random play) whose last position has exactly one winning sowing, and most
# other sowings let the opponent win at once: the normal level confirms it
PUZZLE_GAME = ["b", "e", "g", "e", "a", "a", "i", "f", "i", "j", "k", "k", "c", "a", "c", "i",
               "b", "j"]


@pytest.fixture
async def analyst(fake, tmp_path, bot_process):
    process = bot_process(fake, tmp_path / "corral.sqlite3", tmp_path / "bot.log")
    process.extra_env["CORRAL_ANALYSIS_LEVEL"] = "easy"
    await process.start()
    yield process
    await process.stop()
    log = process.log.read_text()
    assert "Traceback" not in log, log[-4000:]


def rows(bot, sql: str, *args: Any) -> list[tuple]:
    db = sqlite3.connect(f"file:{bot.database}?mode=ro", uri=True)
    try:
        return db.execute(sql, args).fetchall()
    finally:
        db.close()


def snapshot(bot) -> list[list[tuple]]:
    return [rows(bot, "SELECT * FROM puzzles ORDER BY id"),
            rows(bot, "SELECT * FROM puzzle_attempts ORDER BY puzzle_id, user_id"),
            rows(bot, "SELECT * FROM puzzle_ratings ORDER BY user_id")]


def looks(message: dict[str, Any]) -> str:
    return json.dumps([message.get("content"), message.get("components")])


async def answer(fake, user: int, message: dict[str, Any], state: Any,
                 notation: str, game: Any = GAME) -> dict[str, Any]:
    """Enter the move with the puzzle's step components, one question at a time."""
    path = list(game.input_path(state, game.parse_move(state, notation)))
    while path:
        wanted = path.pop(0)
        for item in components(message):
            cid = item.get("custom_id", "")
            found = False
            if item["type"] == 2 and cid.startswith("c1:Zs:"):
                last = cid.rsplit(":", 1)[1].split("/")[-1].split(".")
                found = sorted(last) == sorted(wanted)
            elif item["type"] == 3 and cid.startswith("c1:ZS:"):
                found = set(wanted) <= {o["value"] for o in item["options"]}
            if not found:
                continue
            message_id = int(message["id"])
            before = looks(fake.messages[message_id])
            record = await fake.answered(
                await fake.select(user, message, cid, list(wanted)) if item["type"] == 3
                else await fake.click(user, message, cid))
            assert record.kind in (6, 7), record.callbacks
            message = await fake.wait_for(
                lambda m=message_id, b=before: looks(fake.messages[m]) != b
                and fake.messages[m], what="the puzzle updated")
            break
        else:
            raise AssertionError(f"no component for {wanted}: {components(message)}")
    return message


async def offer(fake, user: int, game_id: str = GAME.id) -> dict[str, Any]:
    record = await fake.answered(await fake.slash(user, "puzzle", game=game_id))
    message_id = int(record.original["id"])
    message = await fake.wait_for(lambda: fake.messages[message_id]["attachments"]
                                  and fake.messages[message_id], what="the puzzle")
    assert is_ephemeral(message)
    return message


RATING = re.compile(r"(?:Puzzle rating|パズルレーティング) (\d+)\?? → (\d+)\??")


async def test_puzzles_from_an_analysed_match_solved_failed_and_rated(fake, analyst):
    alice, bob, carol, dave = (fake.add_user(n) for n in ("Alice", "Bob", "Carol", "Dave"))

    board = await challenge_and_accept(fake, alice, bob, first="me")
    for notation in PUZZLE_GAME:
        board = await play_button(fake, mover(board, [alice, bob]), board, notation)
    assert "🏁" in says(board)
    match_id = int(re.search(r"#(\d+)", says(board)).group(1))
    await fake.answered(await fake.click(alice, board, button_with(board, "c1:A:")))
    await fake.wait_for(lambda: f"analysis of match {match_id} done" in
                        analyst.log.read_text(), timeout=120, what="the analysis and puzzles")
    found = rows(analyst, "SELECT id, ply, seat, solution, entries, level FROM puzzles"
                          " WHERE match_id = ?", match_id)
    assert found, analyst.log.read_text()[-2000:]
    # the winning turn gives one (its sowings found by exhaustive search), stored with its turn
    states, _ = replayed(GAME, GAME.new(2), [["move", n] for n in PUZZLE_GAME])
    winning_turn = f"match{match_id}:{turns(GAME, states)[len(PUZZLE_GAME) - 1]}"
    stored = rows(analyst, "SELECT turn, goal, line, refutations FROM puzzles"
                           " WHERE match_id = ?", match_id)
    assert winning_turn in {t for t, *_ in stored}, stored
    assert all(goal and json.loads(line) and json.loads(refutations)
               for _, goal, line, refutations in stored)

    # the players of the match are never offered it (a curated puzzle, if the game has a set)
    assert curated(GAME.id).puzzles  # the game has a set: they get one of it
    for player in (alice, bob):
        other = served(analyst, await offer(fake, player))
        assert other[2] is not None and other[0] not in {f[0] for f in found}

    message = await offer(fake, carol)
    puzzle_id = int(re.search(r"(?:puzzle|パズル) #(\d+)", says(message))[1])
    puzzle_id, ply, seat, solution, entries, level = next(f for f in found if f[0] == puzzle_id)
    assert level == "easy"  # found at easy, confirmed at normal
    assert json.loads(entries) == [["move", n] for n in PUZZLE_GAME[:ply]]
    states, _ = replayed(GAME, GAME.new(2), json.loads(entries))
    state = states[-1]
    assert GAME.to_move(state) == seat and solution in GAME.legal_notations(state)

    assert f"puzzle #{puzzle_id}" in says(message) and f"match #{match_id}" in \
        says(message)
    assert "puzzle rating 1500?" in says(message)
    assert any(c.get("custom_id", "").startswith(f"c1:Zs:{carol}:{puzzle_id}:")
               for c in components(message))

    # forged and stale ids: refused briefly, nothing changes
    before = snapshot(analyst)
    cid = next(c["custom_id"] for c in components(message)
               if c.get("custom_id", "").startswith("c1:Zs:"))
    for user, forged_id, said in (
            (dave, cid, "offered to someone else"),
            (carol, cid.replace(f":{puzzle_id}:", ":987654321:"), "no longer exists")):
        forged = dict(message, id=str(fake.new_id()), flags=0, components=[
            {"type": 1, "components": [
                {"type": 2, "style": 1, "label": "x", "custom_id": forged_id}]}])
        fake.messages[int(forged["id"])] = forged
        record = await fake.answered(await fake.click(user, forged, forged_id))
        assert record.kind == 4 and said in says(record.original), record.callbacks
    assert snapshot(analyst) == before

    # Carol solves it: her rating goes up
    solved = await answer(fake, carol, message, state, solution)
    assert "✅ Right" in says(solved), says(solved)
    up = RATING.search(says(solved))
    assert up and int(up[2]) > int(up[1]) == 1500
    assert not components(solved)
    # the same puzzle again: stale, and never offered to her again
    stale = dict(message, id=str(fake.new_id()), components=[{"type": 1, "components": [
        {"type": 2, "style": 1, "label": "x", "custom_id": cid}]}])
    fake.messages[int(stale["id"])] = stale
    record = await fake.answered(await fake.click(carol, stale, cid))
    assert "already answered" in says(record.original)
    again = await fake.answered(await fake.slash(carol, "puzzle", game=GAME.id))
    assert f"puzzle #{puzzle_id}**" not in (again.original.get("content") or "")

    # Dave, in Japanese, fails one (of the match's, his server's first): his rating goes down
    fake.set_locale(dave, "ja")
    shown = await offer(fake, dave)
    row = served(analyst, shown)
    assert row[2] is None and row[0] in {f[0] for f in found}
    wrong = next(n for n in GAME.legal_notations(position(row)) if n != row[4])
    assert "パズル" in says(shown) and re.search("あなたは[先後]手（[12]番手）です",
                                                     says(shown)), \
        says(shown)  # Mancala's seats are 先手 and 後手
    failed = await answer(fake, dave, shown, position(row), wrong)
    assert "❌ 不正解" in says(failed) and f"`{row[4]}`" in says(failed)
    assert not re.search(r"[A-Za-z]{3,} [A-Za-z]{3,} [A-Za-z]{3,}", says(failed))
    down = RATING.search(says(failed))
    assert down and int(down[2]) < int(down[1]) == 1500
    assert rows(analyst, "SELECT user_id, solved, failed FROM puzzle_ratings"
                         " WHERE solved + failed > 0 ORDER BY user_id"
                ) == sorted([(carol, 1, 0), (dave, 0, 1)])


def served(bot, message: dict[str, Any]) -> tuple[Any, ...]:
    """The stored puzzle a message shows: (id, game, key, turn, solution, entries, seats,
    options, refutations)."""
    puzzle_id = int(re.search(r"(?:puzzle|パズル) #(\d+)", says(message))[1])
    return rows(bot, "SELECT id, game, key, turn, solution, entries, seats, options,"
                     " refutations FROM puzzles WHERE id = ?", puzzle_id)[0]


def position(row: tuple[Any, ...]) -> Any:
    game = get_game(row[1])
    states, _ = replayed(game, game.new(row[6], json.loads(row[7])), json.loads(row[5]))
    return states[-1]


async def test_a_fresh_server_serves_every_games_curated_puzzles_and_refutes(fake, kit_bot):
    with_sets = [g for g in (*PRODUCT, "tic-tac-toe") if curated(g).puzzles]
    assert "tic-tac-toe" in with_sets
    count = rows(kit_bot, "SELECT game, COUNT(*) FROM puzzles WHERE key IS NOT NULL"
                        " GROUP BY game ORDER BY game")
    assert count == sorted((g, len(curated(g).puzzles)) for g in with_sets)
    erin = fake.add_user("Erin")
    for game_id in with_sets:
        message = await offer(fake, erin, game_id)
        row = served(kit_bot, message)
        assert row[1] == game_id and row[2] is not None  # a curated puzzle
        assert "Goal: " in says(message) and "You play " in says(message), \
            says(message)
        assert "match #" not in says(message)  # it comes from no match
        assert fake.attachment_bytes(message)[0][:8] == b"\x89PNG\r\n\x1a\n"
        # a wrong answer: its refutation, in words and in a picture
        refutations = json.loads(row[8])
        wrong = sorted(refutations)[0]
        failed = await answer(fake, erin, message, position(row), wrong, get_game(game_id))
        # its line, or for a "most" puzzle whose wrong move did nothing of note, the gains
        assert f"Why not `{wrong}`: You play `{wrong}`" in says(failed) or (
            next(p.goal for p in curated(game_id).puzzles if p.key == row[2]) == "most"
            and f"`{wrong}` gains " in says(failed)), says(failed)
        assert [a["filename"] for a in failed["attachments"]] == ["refutation.png"]


async def test_a_wrong_answer_shows_its_refutation_a_right_one_its_point(fake, kit_bot):
    game = get_game("tic-tac-toe")
    frank = fake.add_user("Frank")
    message = await offer(fake, frank, game.id)
    row = served(kit_bot, message)
    assert row[2] == "tic-tac-toe:g1:4"  # all rated alike: the first of the set
    assert "You play seat 1.\nGoal: Win this turn." in says(message), says(message)
    failed = await answer(fake, frank, message, position(row), "a2", game)
    assert "❌ Not quite: you played `a2`; the move was `c1`." in says(failed)
    assert "Why not `a2`: You play `a2`, then they play `c3`. They win." in says(failed)
    assert re.search(r"Puzzle rating 1500\? → \d+\? \(-\d+\)", says(failed)), \
        says(failed)
    assert [a["filename"] for a in failed["attachments"]] == ["refutation.png"]
    assert not components(failed)

    fake.set_locale(frank, "ja")
    message = await offer(fake, frank, game.id)
    row = served(kit_bot, message)
    assert row[2] == "tic-tac-toe:g2:3" and "目標：勝ちを渡さない" in says(message)
    solved = await answer(fake, frank, message, position(row), "c1", game)
    assert "✅ 正解：`c1`。" in says(solved) and "テーマ：ブロック" in says(solved)
    assert re.search(r"パズルレーティング \d+\? → \d+\?（\+\d+）", says(solved))
    assert [a["filename"] for a in solved["attachments"]] == ["puzzle.png"]  # the same picture


async def test_two_puzzles_in_a_row_never_come_from_one_turn(fake, kit_bot):
    """The set has two puzzles of one turn (g3:5, the same position): answering or not, the
    next puzzle is never the other one of the turn just served while another is left."""
    game = get_game("tic-tac-toe")
    grace = fake.add_user("Grace")
    turns = []
    for _ in range(6):  # unanswered: the same few come round, never one turn twice in a row
        turns.append(served(kit_bot, await offer(fake, grace, game.id))[3])
    for _ in range(3):  # answered: each once, until only the turn just served has one left
        message = await offer(fake, grace, game.id)
        row = served(kit_bot, message)
        turns.append(row[3])
        await answer(fake, grace, message, position(row), row[4], game)
    assert all(a != b for a, b in zip(turns, turns[1:], strict=False)), turns
    assert "g3:5" in turns
    # and in every game's set: four in a row, four turns
    for game_id in (g for g in PRODUCT if curated(g).puzzles):
        shown = [served(kit_bot, await offer(fake, grace, game_id))[3] for _ in range(4)]
        assert all(a != b for a, b in zip(shown, shown[1:], strict=False)), (game_id, shown)
