"""Two Japanese players in a Japanese server: a whole match in which no English sentence
reaches them (channel, ephemeral replies, DMs), and pictures that differ from the English
ones only inside their labels."""

from __future__ import annotations

import io
import re

from babel.messages.pofile import read_po
from e2e_helpers import challenge_and_accept, play_button, says, slash_move
from PIL import Image, ImageChops

from bot.words.catalogs import TEMPLATE
from bot.words.i18n import translations
from games.mancala import GAME
from render import render_observation

GAME2 = ["k", "c", "h", "k", "d", "j", "g", "c", "a", "i", "f", "e", "i", "a", "f"]


def english_fragments() -> set[str]:
    """Runs of three or more English words from every message of the catalog: none may
    reach a Japanese reader (names, notation and numbers are not sentences)."""
    with TEMPLATE.open("rb") as source:
        catalog = read_po(source)
    found: set[str] = set()
    for message in catalog:
        for text in (message.id if isinstance(message.id, tuple) else (message.id,)):
            for part in re.split(r"\{[^}]*\}|[`*_()\[\]:;.,!?…—–\n]", text or ""):
                words = part.split()
                if len(words) >= 3 and all(re.fullmatch(r"[A-Za-z']+", w) for w in words):
                    found.add(" ".join(words))
    return found


def contents(messages) -> list[str]:
    return [says(m) for m in messages if m]


async def test_a_whole_match_in_japanese(cjk_font, fake, bot):
    fake.set_guild_locale(fake.guild_id, "ja")
    alice, bob = fake.add_user("Alice"), fake.add_user("Bob")
    for user in (alice, bob):
        fake.set_locale(user, "ja")
    chose = await fake.answered(await fake.slash(bob, "notify", mode="both"))
    board = await challenge_and_accept(fake, alice, bob, first="me")
    state = GAME.new(2)
    for ply, notation in enumerate(GAME2):
        user = alice if state.to_move == 0 else bob
        if ply % 2 == 0:
            board = await play_button(fake, user, board, notation)
        else:
            _, board = await slash_move(fake, user, notation, expect="を着手しました")
        state = GAME.play(state, notation)
    assert GAME.outcome(state) is not None
    mine = await fake.answered(await fake.slash(alice, "matches"))
    await fake.settle(0.5)
    seen = contents(fake.channel_messages())
    seen += contents(fake.dm_messages(alice) + fake.dm_messages(bob))
    for record in list(fake.interactions.values()) + [chose, mine]:
        seen += contents([record.original, *record.followups])
    assert len(seen) > 20 and any("手番" in text for text in seen)
    english = english_fragments()
    assert len(english) > 100
    leaks = sorted({f for text in seen for f in english if f in text})
    assert not leaks, leaks
    final = fake.attachment_bytes(board)[0]
    view = GAME.observe(state, None)
    boxes_ja: list = []
    boxes_en: list = []
    text_ja = says(board)
    assert "ボブ" in text_ja or "Bob" in text_ja
    japanese = render_observation(GAME.id, view, names=["Alice", "Bob"],
                                  result=_result_line(text_ja), tr=translations("ja"),
                                  layout=boxes_ja)
    assert final == japanese, text_ja  # the picture the players got is the Japanese one
    english_picture = render_observation(GAME.id, view, names=["Alice", "Bob"],
                                         result="Bob reached 28 seeds (first to 28)",
                                         layout=boxes_en)
    difference = ImageChops.difference(Image.open(io.BytesIO(japanese)).convert("RGB"),
                                       Image.open(io.BytesIO(english_picture)).convert("RGB"))
    mask = Image.new("L", difference.size, 0)
    for box in boxes_ja + boxes_en:
        x0, y0, x1, y1 = box.box
        mask.paste(255, (x0 - 2, y0 - 2, x1 + 2, y1 + 2))
    outside = ImageChops.multiply(difference.convert("L"), ImageChops.invert(mask))
    assert outside.getbbox() is None, "the pictures differ outside their labels"
    assert difference.getbbox() is not None  # and they do differ in them


def _result_line(content: str) -> str:
    """The result sentence of the final board, as the bot wrote it (its first 🏁 line)."""
    line = next(line for line in content.splitlines() if "🏁" in line)
    return re.split("[:：]", line, maxsplit=1)[1].strip().rstrip("。")  # (Japanese: ：)
