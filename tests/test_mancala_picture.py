"""The Mancala board as a player reads it: the last move's trail names the goal, the captions
a player reads to play are larger than the legibility floor, and the picture ends where its
text does (issue 50, findings 2 and 8)."""

import io
import random

import pytest
from PIL import Image
from test_render import LONGEST, layout_problems

from games.mancala import GAME
from games.mancala.game import pit_letter
from render import render_observation
from render.common import PHONE_WIDTH, TextBox, translated
from render.mancala import CAPTION_PHONE_PX, FOOTER_Y, HEIGHT, WIDTH, MancalaLabels


def playout(pits: str, seed: int) -> list:
    rng = random.Random(seed)
    state = GAME.new(options={"pits": pits})
    states = [state]
    while GAME.outcome(state) is None:
        state = GAME.apply(state, rng.choice(GAME.legal_moves(state)))
        states.append(state)
    return states


def draw(state, language: str, names=None, result=None) -> tuple[bytes, list[TextBox]]:
    from bot.words.i18n import translations

    boxes: list[TextBox] = []
    png = render_observation(GAME.id, GAME.observe(state, None), names=names, result=result,
                             tr=translations(language), layout=boxes)
    return png, boxes


def trail_steps(boxes: list[TextBox], labels: MancalaLabels, names: list[str]) -> list[str]:
    """The pits the footer's "Last:" line names, in order (its wrapped lines joined)."""
    start = next(i for i, b in enumerate(boxes) if b.text.startswith(labels.last.split("{")[0]))
    # the bonus moves' line, under the trail, is not part of it
    owes = {labels.owes.format(name=name, n=n) for name in names for n in range(1, 30)}
    text = " ".join(b.text.strip() for b in boxes[start:]
                    if b.box[1] >= boxes[start].box[1] and b.text.strip() not in owes)
    for name in names:
        text = text.replace(name, "")
    trail = text.split(":")[-1].split("(")[0]
    return [step.strip() for step in trail.split("→")]


@pytest.mark.parametrize("language", ["en", "ja"])
@pytest.mark.parametrize("pits", ["11", "17"])
def test_a_trail_ending_in_the_goal_names_the_goal(pits, language, request):
    """The footer's pit count was overwritten by a font size: every trail into the goal
    ended in the letter after the last pit ("k → l") instead of the goal."""
    if language == "ja":
        request.getfixturevalue("cjk_font")
    from bot.words.i18n import translations

    labels = translated(MancalaLabels, translations(language))
    size = int(pits)
    names = ["Ann", "Bo"]
    checked = 0
    for seed in range(6):
        for state in playout(pits, seed):
            last = GAME.observe(state, None).last
            if last is None or last.path[-1] != size or checked >= 8:
                continue
            _, boxes = draw(state, language, names)
            steps = trail_steps(boxes, labels, names)
            assert steps[-1] == labels.goal, steps
            assert steps[0] == pit_letter(last.path[0])
            assert pit_letter(size) not in steps  # no pit beyond the last one
            checked += 1
    assert checked == 8  # the playouts met such moves


def _footer_and_captions(boxes: list[TextBox], labels: MancalaLabels) -> list[TextBox]:
    last = pit_letter(10), pit_letter(16)
    sows = {template.format(last=x) for template in (labels.sows_first, labels.sows_second)
            for x in last}
    return [b for b in boxes if b.text in sows or b.box[1] >= FOOTER_Y - 40]


@pytest.mark.parametrize("language", ["en", "ja"])
@pytest.mark.parametrize("pits", ["11", "17"])
def test_the_captions_read_larger_than_the_floor_and_nothing_is_left_empty(pits, language,
                                                                            request):
    """At 360 px wide the captions a player reads to play (which way each side sows, whose
    turn it is, the last move, the extra move owed) have digits at least 11 px tall (a
    phone's body text; the 9 px floor is for counts and labels glanced at), every label
    passes the layout check, and under the last line there is a margin, not a band of
    nothing (the boards were 800 px tall with ~150 px empty under the footer)."""
    if language == "ja":
        request.getfixturevalue("cjk_font")
    from bot.words.i18n import translations

    tr = translations(language)
    labels = translated(MancalaLabels, tr)
    states = playout(pits, 1)
    picks = [states[0], states[1], states[len(states) // 2], states[-1]]
    picks += [s for s in states if GAME.observe(s, None).owed][:2]  # an extra move owed
    picks += [s for s in states if GAME.observe(s, None).extra_moves][:2]  # bonus moves
    found = []
    for state in picks:
        for names in (LONGEST[:2], None):
            for result in (None, "Bo resigned: Ann wins"):
                png, boxes = draw(state, language, names, result)
                image = Image.open(io.BytesIO(png))
                assert image.width == WIDTH and image.height <= HEIGHT
                found += layout_problems(png, boxes)
                captions = _footer_and_captions(boxes, labels)
                assert len(captions) >= 3  # the two sowing captions and the status at least
                found += [f"{b.text!r}: digits {b.height * PHONE_WIDTH / WIDTH:.1f} px"
                          for b in captions
                          if b.height * PHONE_WIDTH / WIDTH < CAPTION_PHONE_PX]
                lowest = max(b.box[3] for b in boxes)
                if image.height - lowest > 48:
                    found.append(f"{image.height - lowest} px empty under the footer")
    assert not found, "\n".join(sorted(set(found))[:20])
