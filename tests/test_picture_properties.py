"""Properties every picture keeps, over random positions of every game and over every picture
of the gallery (render/gallery.py), in English and Japanese, with the longest names:

- every label lies inside the picture and on its own background (inside its box: nothing else
  within 2 px of its ink), clear of every other label and marker;
- no label is cut with "…" where the whole fits its line, nor cut shorter than its line has
  room for, and on a board nothing but a player's name is cut (the sentence keeps its words);
- what a label names (a cell, an edge, a pit in a trail) the picture shows;
- every label's digits are at least `MIN_PHONE_PX` (9 px) tall once the picture is shown
  360 px wide. Why 9: a phone shows a picture attachment about 360 px wide, and 9 px is the
  digit height of the smallest text Discord itself sets there (its 12 px timestamps and
  captions); a board's counts and names are read, not glanced at, so nothing on a picture
  may be smaller than the smallest text around it;
- a board is not painted over: it keeps at least `COVER_KEEP` of its start position's board
  colour (ICO's tinted outer faces painted the whole map: 14 of 36 random positions).

The positions are seeded: the same ones every run. Each game's set-ups come from its kit,
so a new game or set-up is checked without a line here.
"""

from __future__ import annotations

import random
from functools import cache
from typing import Any

import pytest
from picture_checks import (
    board_colour,
    cover_problems,
    cut_outside_a_name,
    cut_problems,
    decode,
    layout_problems,
    named_problems,
    recording_cuts,
)

from games import KITS, PRODUCT
from render import TextBox, gallery, render_observation

# the product's games (the tests' own tic-tac-toe kit draws a bare picture of its own)
SETUPS = [(kit.id, setup) for kit in KITS.values() if kit.picture is not None
          and kit.id in PRODUCT for setup in kit.setups]
SEEDS = 2  # random games per set-up
PLIES = 6  # positions drawn per game, the start and the end among them


def _translations(language: str) -> Any:
    return gallery.translations(language)


@cache
def reference(game_id: str) -> tuple[tuple[int, int, int], int]:
    """The board colour of a game's start position (its first set-up), and its pixels."""
    kit = KITS[game_id]
    setup = kit.setups[0]
    game = kit.game
    state = game.new(setup.seats, game.draw_options(dict(setup.options), random.Random(0)))
    return board_colour(decode(render_observation(game_id, game.observe(state, None))))


def keep(folder: Any, name: str, png: bytes) -> None:
    """A picture with a problem, kept for whoever reads the failure to look at."""
    (folder / (gallery._slug(name.removesuffix(".png")) + ".png")).write_bytes(png)


def picks(states: list[Any]) -> list[Any]:
    n = len(states)
    chosen = sorted({0, 1, n // 4, n // 2, 3 * n // 4, n - 1})
    return [states[i] for i in chosen[:PLIES] if i < n]


def check_board(game_id: str, png: bytes, boxes: list[TextBox], cuts: Any,
                names: list[str] | None, words: list[str]) -> list[str]:
    image = decode(png)
    found = layout_problems(image, boxes) + cut_problems(image, boxes, cuts)
    found += named_problems(boxes)
    found += [f"{b.text!r} cuts the sentence, not a name" for b in boxes
              if cut_outside_a_name(b.text, list(names or []) + words)]
    found += cover_problems(image, reference(game_id))
    return found


def seat_words(game_id: str, language: str) -> list[str]:
    """The picture's own words for the seats ("Seat 2", "先攻"): with no names, these name them."""
    from render import LABELS
    from render.common import translated

    labels = translated(LABELS[game_id], _translations(language))
    return sorted({value.replace("{n}", str(n)) for value in vars(labels).values()
                   if isinstance(value, str) for n in range(1, 5)} |
                  {v for value in vars(labels).values() if isinstance(value, tuple)
                   for v in value if isinstance(v, str)})


@pytest.mark.parametrize("game_id,setup", SETUPS, ids=[f"{g}-{s.label}" for g, s in SETUPS])
def test_random_positions_read_whole_on_a_phone_and_keep_their_board(game_id, setup,
                                                                     cjk_font, tmp_path):
    game = KITS[game_id].game
    found: list[str] = []
    drawn = 0
    for seed in range(SEEDS):
        states = gallery.playout(game, setup.seats, dict(setup.options),
                                 random.Random(f"properties:{game_id}:{setup.label}:{seed}"))
        for state in picks(states):
            viewers = [None] + (list(range(setup.seats)) if game.info.hidden_information
                                else [])
            for viewer in viewers:
                for language, names in (("en", list(gallery.NAMES["en"][:setup.seats])),
                                        ("ja", list(gallery.LONGEST[:setup.seats]))):
                    result = None
                    if game.outcome(state) is not None:
                        result = gallery._texts(language)(game.describe_outcome(state), names)
                    boxes: list[TextBox] = []
                    with recording_cuts() as cuts:
                        png = render_observation(game_id, game.observe(state, viewer),
                                                 names=names, result=result,
                                                 tr=_translations(language), layout=boxes)
                    drawn += 1
                    where = (f"seed {seed} ply {game.ply(state)} viewer {viewer} "
                             f"{language}")
                    problems = check_board(game_id, png, boxes, cuts, names,
                                           seat_words(game_id, language))
                    found += [f"{where}: {p}" for p in problems]
                    if problems:
                        keep(tmp_path, where, png)
    assert drawn >= SEEDS * 4
    assert not found, (f"{len(found)} problems (the pictures: {tmp_path}):\n"
                       + "\n".join(sorted(set(found))[:25]))


GALLERY_GAMES = sorted(PRODUCT | {""})  # "": the pictures of no one game (tournaments)


@cache
def gallery_items() -> tuple[gallery.Item, ...]:
    return tuple(gallery.items(0))


@pytest.mark.parametrize("game_id", GALLERY_GAMES, ids=[g or "no-game" for g in GALLERY_GAMES])
def test_every_gallery_picture_reads_whole_on_a_phone(game_id, cjk_font, tmp_path):
    """Every picture of the gallery (boards, lessons, puzzles, analyses, replays, standings,
    brackets, rating charts) in both languages, at its edges."""
    found: list[str] = []
    for item in gallery_items():
        if item.game != game_id:
            continue
        boxes: list[TextBox] = []
        with recording_cuts() as cuts:
            png = item.draw(boxes if item.layout else None)
        image = decode(png)
        where = f"{item.file} ({item.kind}, {item.language}, {item.edge})"
        problems = []
        if item.layout:
            assert boxes, where
            problems += layout_problems(image, boxes) + cut_problems(image, boxes, cuts)
            words = list(item.names)
            if item.observation is not None:
                problems += named_problems(boxes)
                words += seat_words(item.game, item.language)
            problems += [f"{b.text!r} cuts the sentence, not a name" for b in boxes
                         if cut_outside_a_name(b.text, words)]
        if item.observation is not None and item.game:
            problems += cover_problems(image, reference(item.game))
        found += [f"{where}: {p}" for p in problems]
        if problems:
            keep(tmp_path, item.file, png)
    assert not found, (f"{len(found)} problems (the pictures: {tmp_path}):\n"
                       + "\n".join(found[:30]))
