"""What a move list says (the Moves button, the web page): the players by the names the board
shows, never "seat 2", and Progressive Mancala's bonus move in one word everywhere."""

from __future__ import annotations

import json
import re
from pathlib import Path

from support import ALICE, BOB

from bot.boards import moves_text
from bot.service.history import history_text, replay_history
from bot.words.i18n import Texts
from games.mancala import GAME as MANCALA
from render.mancala import MancalaLabels

ROOT = Path(__file__).resolve().parents[1]


async def empty_pit_ending(service):
    """A match in which Alice's first move, `a`, ends in an empty pit."""
    match = await service.open_match(game_id=MANCALA.id, options={}, host=ALICE, opponent=BOB,
                                     guild_id=1, channel_id=500, first="me")
    match = await service.accept(match.id, BOB.user_id)
    await service.play(match.id, ALICE.user_id, "a", expected_ply=0)
    return match


async def test_the_moves_button_names_the_player_who_gets_the_bonus_move(service):
    match = await empty_pit_ending(service)
    english = await moves_text(service, match.id, Texts("en"))
    assert "1. Alice: `a` (" in english and "ended in an empty pit: Bob gets a bonus move)" \
        in english, english
    japanese = await moves_text(service, match.id, Texts("ja"))
    assert "Bob" in japanese.splitlines()[-1], japanese
    for text in (english, japanese):
        assert not re.search(r"seat \d|\d番席|席 ?\d", text), text


def test_the_web_pages_move_list_names_the_players_too():
    state = MANCALA.new(2)
    log = [("move", "a", 100, 0)]
    entries = replay_history(MANCALA.id, 2, {}, log, [(0, 100, "Alice"), (1, 200, "Bob")],
                             True)
    assert MANCALA.move_effects(state, MANCALA.parse_move(state, "a"),
                                MANCALA.play(state, "a"))  # the move does end in an empty pit
    for language in ("en", "ja"):
        (line,) = history_text(entries, language)
        assert "Bob" in line and "seat" not in line, line


def mancala_english() -> list[str]:
    """Every English text of Progressive Mancala a player reads: its catalog messages, the
    picture's labels, its rules and its lesson."""
    texts = []
    pot = (ROOT / "bot/words/locale/corral.pot").read_text(encoding="utf-8")
    for block in pot.split("\n\n"):
        if "games/mancala/" in block or "render/mancala.py" in block:
            texts += re.findall(r'^msgid(?:_plural)? "(.*)"$', block, re.MULTILINE)
    labels = MancalaLabels()
    texts += [getattr(labels, name) for name in labels.__dataclass_fields__]
    texts.append((ROOT / "games/mancala/rules/en.md").read_text(encoding="utf-8"))

    def english_of(node):
        if isinstance(node, dict):
            if "en" in node and isinstance(node["en"], str):
                yield node["en"]
            for value in node.values():
                yield from english_of(value)
        elif isinstance(node, list):
            for value in node:
                yield from english_of(value)

    lesson = json.loads((ROOT / "games/mancala/lessons.json").read_text(encoding="utf-8"))
    texts += list(english_of(lesson))
    return texts


def test_progressive_mancalas_bonus_move_is_one_word_everywhere():
    """The seed's ボーナス手番, the designer's "bonus move": never an "extra move" that the
    player "owes" (which reads as a penalty for the player who gets it)."""
    texts = mancala_english()
    assert len(texts) > 30
    wrong = [t for t in texts if re.search(r"\bextra\b|\bowes?\b", t, re.IGNORECASE)]
    assert not wrong, wrong
    assert sum("bonus move" in t.lower() for t in texts) >= 6
