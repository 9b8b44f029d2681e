"""`render_observation`, which draws any game through the picture its kit names, and the
pictures' other entry points (see `render/__init__`)."""

from __future__ import annotations

import dataclasses
import importlib
import inspect
from collections.abc import Mapping, Sequence
from functools import cache
from typing import Any

from games import KITS

from .analysis import AnalysisLabels, Swing, analysis_chart, analysis_pictures, swing_picture
from .chart import ChartLabels, rating_chart
from .common import Picture, TextBox, cjk_font_available, translated
from .replay import animate


@cache
def picture(game_id: str) -> Picture:
    """The picture of a game: `PICTURE` in the module its kit names (imported on first use)."""
    kit = KITS.get(game_id)
    if kit is None or kit.picture is None:
        raise ValueError(f"no picture for game '{game_id}'")
    found = getattr(importlib.import_module(kit.picture), "PICTURE", None)
    if not isinstance(found, Picture):
        raise TypeError(f"{kit.picture}.PICTURE is not a render.common.Picture")
    return found


class _ByGame(Mapping[str, Any]):
    """A read-only view, by game id, of one part of every game's picture."""

    def __init__(self, part: str):
        self.part = part

    def __getitem__(self, game_id: str) -> Any:
        try:
            return getattr(picture(game_id), self.part)
        except ValueError:
            raise KeyError(game_id) from None

    def __iter__(self) -> Any:
        return (game_id for game_id, kit in KITS.items() if kit.picture is not None)

    def __len__(self) -> int:
        return sum(1 for _ in self)


RENDERERS: Mapping[str, Any] = _ByGame("draw")  # game id -> its picture's draw function
LABELS: Mapping[str, type] = _ByGame("labels")  # game id -> its picture's Labels dataclass


def seat_colour(game_id: str, observation: Any, seat: int) -> int:
    """The colour `game_id`'s picture gives `seat` in this observation, as 0xRRGGBB (a board
    message's accent: the side to move's, or the winner's)."""
    return picture(game_id).colour_of(observation, seat)


def render_observation(game_id: str, observation: Any, *,
                       names: Sequence[str] | None = None, result: str | None = None,
                       tr: Any = None, layout: list[TextBox] | None = None,
                       last_move: bool = True, you: int | None = None,
                       hints: bool = True) -> bytes:
    """The picture of one game's observation, by game id.

    `result`: a sentence saying how the match ended; drawn instead of the "to move" line (and
    then nothing is drawn as if a player were to move). `tr`: a gettext-like object every word
    on the picture goes through (None: English). `layout`: a list that receives a `TextBox` for
    every label drawn (for tests of legibility and overlap). `last_move` False: the last move
    is marked on the board but not written under it (a picture that names it itself). `you`:
    the seat whose name is the reader's (a lesson's learner): its sentences are drawn in the
    second person ("You win", "Your turn") by a picture that has those words. `hints` False:
    a quiz's picture (a lesson's question), drawn without what a question may ask about: the
    moves or cells the rules allow or forbid, a finished game's scores and scoring marks, by a
    picture that draws such things (the others draw no hints)."""
    drawing = picture(game_id)
    labels: Any = translated(drawing.labels, tr)
    flags: dict[str, Any] = {}
    if not last_move and _takes(game_id, "last_move"):
        flags["last_move"] = False
    if you is not None and _takes(game_id, "you"):
        flags["you"] = you
    if not hints and _takes(game_id, "hints"):
        flags["hints"] = False
    return drawing.draw(observation, names=names, labels=labels, result=result, layout=layout,
                        **flags)


def without_last_move(observation: Any) -> Any:
    """The observation as if no move had been made yet: a view that keeps its last move in a
    `last` field (every kit's) loses it, so that neither the board nor the words under it show
    it (a puzzle's picture gives nothing away). Drawn with `last_move=False` as well."""
    if dataclasses.is_dataclass(observation) and not isinstance(observation, type) and any(
            f.name == "last" for f in dataclasses.fields(observation)):
        return dataclasses.replace(observation, last=None)
    return observation


@cache
def _takes(game_id: str, flag: str) -> bool:
    """Whether a game's draw takes `flag` (a kit's picture without `last_move` is drawn whole,
    one without `you` in the third person)."""
    return flag in inspect.signature(picture(game_id).draw).parameters


__all__ = ["LABELS", "RENDERERS", "AnalysisLabels", "ChartLabels", "Picture", "Swing", "TextBox",
           "analysis_chart", "analysis_pictures", "animate", "cjk_font_available", "picture",
           "rating_chart", "render_observation", "seat_colour", "swing_picture",
           "without_last_move"]
