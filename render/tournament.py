"""A tournament's standings (rank, name, points, tie-breaks, then a crosstable of every round)
and a knockout bracket, as PNGs that read on a phone.

720 px wide, shown about 360 px wide on a phone: every label is at least `SMALL` (digits 9 px
tall at phone width). Names are cut to fit their column. The crosstable writes each round as
the opponent's rank with the result before it (`+` win, `=` draw, `-` loss, `F`/`f` a forfeit
won or lost, `B` a bye, `·` no game, `…` still playing; pods: the place at the table).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from .common import (
    BACKGROUND,
    MUTED,
    SEAT_COLOURS,
    TEXT,
    Canvas,
    TextBox,
    fit_width,
    min_size,
    mix,
    translated,
)

WIDTH = 720
MARGIN = 16
SMALL = min_size(WIDTH)
TITLE = SMALL + 4
ROW = SMALL + 18
MAX_ROWS = 40
LINE = mix(BACKGROUND, MUTED, 0.35)
STRIPE = mix(BACKGROUND, MUTED, 0.08)
WIN = SEAT_COLOURS[1]


@dataclass(frozen=True)
class TournamentLabels:
    """Every word the pictures show, so that a translation can replace them."""

    standings: str = "Standings"
    rank: str = "#"
    player: str = "Player"
    points: str = "Pts"
    buchholz: str = "Bh"
    sonneborn_berger: str = "SB"
    head_to_head: str = "H2H"
    opponents_points: str = "Opp"
    wins: str = "1st"
    stage: str = "Stage"
    bracket: str = "Bracket"
    round: str = "R{number}"  # a round's column in the crosstable
    stage_title: str = "Round {number}"  # a stage of the bracket
    bye: str = "bye"
    nobody: str = "No players"


def _num(x: float) -> str:
    return str(int(x)) if float(x).is_integer() else f"{x:.1f}".rstrip("0").rstrip(".")


def cell_text(code: str, opponents: tuple[int, ...]) -> str:
    opp = ",".join(map(str, opponents))
    if code == "U":
        return "B"
    if code == "Z":
        return "·"
    if code == "*":
        return f"…{opp}"
    if code.startswith("p"):
        return code[1:] + "/" + opp if opp else code[1:]
    sign = {"1": "+", "=": "=", "0": "-", "+": "F", "-": "f"}.get(code, code)
    return f"{sign}{opp}"


@dataclass(frozen=True)
class StandingRow:
    rank: int
    name: str
    points: float
    tiebreaks: tuple[float, ...]
    cells: dict[int, tuple[str, tuple[int, ...]]]  # round -> (result code, opponents' ranks)


@dataclass(frozen=True)
class Tie:
    names: tuple[str | None, ...]  # (seed) name per seat; None: a bye
    winner: int | None  # index in `names`


def render_standings(name: str, tiebreak_names: Sequence[str], rows: Sequence[StandingRow],
                     rounds: Sequence[int], *, tr: Any = None,
                     layout: list[TextBox] | None = None) -> bytes:
    """Rank, name, points and up to two tie-breaks, then one column per round (the latest
    rounds that fit)."""
    labels = translated(TournamentLabels, tr)
    rows = list(rows)[:MAX_ROWS]
    breaks = tuple(tiebreak_names)[:2]
    rounds = list(rounds)
    canvas = Canvas((WIDTH, 10), BACKGROUND)
    # columns: rank, name, points, tie-breaks, rounds (the name takes what is left)
    rank_w = canvas.measure("00", SMALL, True)[0] + 10
    heads = [labels.points, *(getattr(labels, b, b) for b in breaks)]
    # each number column as wide as its header (a translation's word is read whole)
    digits = canvas.measure("00.5", SMALL)[0]
    num_ws = [max(digits, canvas.measure(head, SMALL)[0]) + 12 for head in heads]
    last = max(rounds) if rounds else 1
    round_w = max(canvas.measure("+00", SMALL)[0],
                  canvas.measure(labels.round.format(number=last), SMALL)[0]) + 10
    fixed = 2 * MARGIN + rank_w + sum(num_ws)
    shown_rounds = rounds[-max(0, (WIDTH - fixed - 160) // round_w):] if rounds else []
    if WIDTH - fixed - 160 < round_w:
        shown_rounds = []
    name_w = WIDTH - fixed - round_w * len(shown_rounds)
    height = MARGIN + TITLE + 16 + ROW * (len(rows) + 1) + MARGIN
    canvas = Canvas((WIDTH, max(height, 3 * ROW)), BACKGROUND)
    title = f"{labels.standings}: {name}" if name else labels.standings
    canvas.text((MARGIN, MARGIN + TITLE / 2), fit_width(canvas, title, TITLE, True,
                                                        WIDTH - 2 * MARGIN),
                size=TITLE, fg=TEXT, bg=BACKGROUND, bold=True)
    y = MARGIN + TITLE + 16
    x_rank = MARGIN
    x_name = x_rank + rank_w
    x_nums = [x_name + name_w + sum(num_ws[:i]) for i in range(1 + len(breaks))]
    x_rounds = [x_nums[-1] + num_ws[-1] + round_w * i for i in range(len(shown_rounds))]
    mid = y + ROW / 2
    canvas.text((x_rank, mid), labels.rank, size=SMALL, fg=MUTED, bg=BACKGROUND)
    canvas.text((x_name, mid), labels.player, size=SMALL, fg=MUTED, bg=BACKGROUND)
    for x, head, num_w in zip(x_nums, heads, num_ws, strict=True):
        canvas.text((x + num_w - 6, mid), head, size=SMALL, fg=MUTED, bg=BACKGROUND,
                    align="right")
    for x, number in zip(x_rounds, shown_rounds, strict=True):
        canvas.text((x + round_w / 2, mid), labels.round.format(number=number), size=SMALL,
                    fg=MUTED, bg=BACKGROUND, align="centre")
    y += ROW
    canvas.line((MARGIN, y, WIDTH - MARGIN, y), fill=LINE, width=2)
    if not rows:
        canvas.text((MARGIN, y + ROW / 2), labels.nobody, size=SMALL, fg=MUTED, bg=BACKGROUND)
    for i, row in enumerate(rows):
        back = STRIPE if i % 2 else BACKGROUND
        if back != BACKGROUND:
            canvas.rectangle((0, y, WIDTH, y + ROW), fill=back)
        mid = y + ROW / 2
        canvas.text((x_rank, mid), str(row.rank), size=SMALL, fg=TEXT, bg=back, bold=True)
        shown = fit_width(canvas, row.name, SMALL, False, name_w - 10)
        canvas.text((x_name, mid), shown, size=SMALL, fg=TEXT, bg=back)
        values = [row.points, *row.tiebreaks[:len(breaks)]]
        for x, value, num_w in zip(x_nums, values, num_ws, strict=True):
            canvas.text((x + num_w - 6, mid), _num(value), size=SMALL, fg=TEXT, bg=back,
                        align="right", bold=x == x_nums[0])
        for x, number in zip(x_rounds, shown_rounds, strict=True):
            cell = row.cells.get(number)
            text = cell_text(*cell) if cell else "·"
            canvas.text((x + round_w / 2, mid), text, size=SMALL, fg=TEXT, bg=back,
                        align="centre")
        y += ROW
    return canvas.png(layout)


def render_bracket(name: str, stages: Sequence[Sequence[Tie]], *, tr: Any = None,
                   layout: list[TextBox] | None = None) -> bytes:
    """The knockout bracket, one stage under the other (a phone scrolls down, not across):
    each tie as its two names, the winner in bold with a mark."""
    labels = translated(TournamentLabels, tr)
    lines = sum(1 + len(stage) * 2 for stage in stages)
    height = MARGIN * 2 + TITLE + 16 + ROW * max(lines, 1) + 8 * len(stages)
    canvas = Canvas((WIDTH, height), BACKGROUND)
    title = f"{labels.bracket}: {name}" if name else labels.bracket
    canvas.text((MARGIN, MARGIN + TITLE / 2), fit_width(canvas, title, TITLE, True,
                                                        WIDTH - 2 * MARGIN),
                size=TITLE, fg=TEXT, bg=BACKGROUND, bold=True)
    y = MARGIN + TITLE + 16
    if not stages:
        canvas.text((MARGIN, y + ROW / 2), labels.nobody, size=SMALL, fg=MUTED, bg=BACKGROUND)
    for number, stage in enumerate(stages, 1):
        canvas.text((MARGIN, y + ROW / 2), labels.stage_title.format(number=number),
                    size=SMALL, fg=MUTED, bg=BACKGROUND, bold=True)
        y += ROW
        for tie in stage:
            seats = list(tie.names) or [None]
            if len(seats) == 1:
                seats.append(None)
            canvas.rectangle((MARGIN, y, MARGIN + 6, y + 2 * ROW - 6),
                             fill=WIN if tie.winner is not None else LINE)
            for index, who in enumerate(seats):
                mid = y + ROW / 2
                won = who is not None and index == tie.winner
                text = fit_width(canvas, who if who is not None else labels.bye, SMALL, won,
                                 WIDTH - 3 * MARGIN - 40)
                canvas.text((MARGIN + 20, mid), text, size=SMALL,
                            fg=TEXT if who is not None else MUTED, bg=BACKGROUND, bold=won)
                if won:
                    canvas.text((WIDTH - MARGIN, mid), "✓", size=SMALL, fg=WIN, bg=BACKGROUND,
                                align="right", bold=True)
                y += ROW
        y += 8
    return canvas.png(layout)
