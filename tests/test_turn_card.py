"""Pastoral Square's turn card repeats what the board shows: the README says the board
carries it for everyone (held stones and stocks are public in the rules) and the turn DM,
for those who chose DMs (`/notify mode:dm`), carries it as a card. Checked over random
positions: every number and cell the card states is drawn on the board."""

from __future__ import annotations

import random
import re

from games import Seat
from games.pastoral import GAME
from render.common import TextBox
from render.pastoral import render_pastoral


def card_fields(state, seat: int) -> dict[str, object]:
    card = GAME.turn_card(state, seat)
    assert card is not None
    fields = dict(card.fields)
    inner = fields.get("card")  # a card with the blocked cells wraps the card
    if inner is not None:
        fields.update(dict(inner.fields))
    return fields


def positions(count: int, with_blocked: int) -> list:
    """Random positions with a player to move, some where that player may not place on
    cells of theirs just mutilated (the card names them)."""
    rng = random.Random(50)
    plain, blocked = [], []
    for _ in range(2000):
        state = GAME.new()
        for _ in range(rng.randrange(1, 80)):
            if GAME.outcome(state) is not None:
                break
            state = GAME.play(state, rng.choice(GAME.legal_notations(state)))
            view = GAME.observe(state, None)
            if view.blocked and view.to_move is not None and len(blocked) < with_blocked:
                blocked.append(state)
        if GAME.outcome(state) is None and len(plain) < count:
            plain.append(state)
        if len(plain) == count and len(blocked) == with_blocked:
            break
    assert len(plain) == count and len(blocked) == with_blocked
    return plain + blocked


def test_the_board_shows_everything_the_turn_card_says():
    for state in positions(8, 4):
        seat = GAME.to_move(state)
        view = GAME.observe(state, None)
        layout: list[TextBox] = []
        render_pastoral(view, names=["Alice", "Bob"], layout=layout)
        drawn = " · ".join(box.text for box in layout)
        fields = card_fields(state, seat)
        assert isinstance(fields["opponent"], Seat)
        said = [f"(picked up {fields['picked']})", f"held {fields['n']}",
                f"stock {fields['stock']}", f"held {fields['opp_held']}",
                f"stock {fields['opp_stock']}"]
        for words in said:
            assert re.search(re.escape(words) + r"(?!\d)", drawn), (words, drawn)
        for cell in fields.get("cells", ()):
            assert str(cell) in drawn, (cell, drawn)
        assert bool(view.blocked) == ("cells" in fields)
