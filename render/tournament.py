"""A tournament's standings (rank, name, points, tie-breaks, then a crosstable of every round)
and a knockout bracket, as PNGs that read on a phone.

720 px wide, shown about 360 px wide on a phone: what a player reads is at `BODY` (digits
11 px tall at phone width), the column headers at least `SMALL` (9 px). Names are cut to fit
their column; the crosstable, under the standings, shows every round (in blocks of rounds
when they do not fit side by side). It writes each round as the opponent's rank with the
result before it (`+` win, `=` draw, `-` loss, `F`/`f` a forfeit won or lost, `B` a bye, `·`
no game, `…` still playing; pods: the place at the table).
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
    Rgb,
    TextBox,
    body_size,
    fit_width,
    min_size,
    mix,
    translated,
    wrap_to,
)

WIDTH = 720
MARGIN = 16
SMALL = min_size(WIDTH)  # column headers: the 9 px floor at phone width
# What a player reads here (names, points, tie-breaks, results) is body text
# (render.common.BODY_PHONE_PX), well above the floor the headers keep.
BODY = body_size(WIDTH)
BODY_BOLD = body_size(WIDTH, True)
TITLE = BODY_BOLD + 4
ROW = BODY + 20
HEAD_LINE = SMALL + 8  # a header's second line, under its first
LEGEND_LINE = BODY + 10  # the crosstable's legend (read as body text), line by line
GAP = 16  # between two columns' text: no cell comes near the next column
HEAD_MAX = 170  # a header wider than this is set on two lines
CROSS_NAME = 200  # the name column of the crosstable's blocks
MAX_ROWS = 40
LINE = mix(BACKGROUND, MUTED, 0.35)
STRIPE = mix(BACKGROUND, MUTED, 0.08)
WIN = SEAT_COLOURS[1]


@dataclass(frozen=True)
class TournamentLabels:
    """Every word the pictures show, so that a translation can replace them."""

    standings: str = "Standings"
    standings_of: str = "Standings: {name}"  # a tournament's, by its name
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
    # under the crosstable, what each kind of cell it shows means (by the opponent's rank)
    legend_won: str = "+3 won against #3"
    legend_lost: str = "-3 lost to #3"
    legend_drew: str = "=3 drew with #3"
    legend_forfeit: str = "F/f won/lost by forfeit"
    legend_bye: str = "B a bye"
    legend_playing: str = "…3 being played against #3"
    legend_pod: str = "2/3,4: 2 points in a pod with #3 and #4"
    legend_unpaired: str = "· not paired"
    legend_between: str = ", "  # between two of them (a space after it: a line may break there)


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
    """Rank, name, points and up to two tie-breaks; under them the crosstable, every round,
    in as many blocks of rounds as the width needs (each block names the players again), so
    that no round is left out and no column is squeezed into the next."""
    labels = translated(TournamentLabels, tr)
    rows = list(rows)[:MAX_ROWS]
    breaks = tuple(tiebreak_names)[:2]
    measure = Canvas((1, 1), BACKGROUND)
    rank_w = max([measure.measure(labels.rank, SMALL)[0]]
                 + [measure.measure(str(r.rank), BODY_BOLD, True)[0] for r in rows]) + GAP
    heads = [_head_lines(measure, head, SMALL)
             for head in (labels.points, *(getattr(labels, b, b) for b in breaks))]
    columns = [[_num(r.points) for r in rows]] + \
        [[_num(r.tiebreaks[i]) for r in rows if i < len(r.tiebreaks)] for i in range(len(breaks))]
    num_ws = [max([measure.measure(line, SMALL)[0] for line in head]
                  + [measure.measure(v, BODY_BOLD, True)[0] for v in values]) + GAP
              for head, values in zip(heads, columns, strict=True)]
    name_w = WIDTH - 2 * MARGIN - rank_w - sum(num_ws)
    head_h = ROW + HEAD_LINE * (max(len(h) for h in heads) - 1)
    # the crosstable names its players when its rounds fit beside the names; else its rows go
    # by rank alone (as its cells do), and the rounds take the whole width
    cross_name = CROSS_NAME
    blocks = _round_blocks(measure, labels, rows, rounds, WIDTH - 2 * MARGIN - rank_w - cross_name)
    if len(blocks) > 1:
        cross_name = 0
        blocks = _round_blocks(measure, labels, rows, rounds, WIDTH - 2 * MARGIN - rank_w)
    body = ROW * max(len(rows), 1)
    legend = wrap_to(labels.legend_between.join(_legend(labels, rows)),
                     lambda line: measure.measure(line, BODY)[0] <= WIDTH - 2 * MARGIN) \
        if blocks and rows else []
    height = MARGIN + TITLE + 16 + head_h + body + sum(24 + ROW + body for _ in blocks) + \
        (16 + LEGEND_LINE * len(legend) if legend else 0) + MARGIN
    canvas = Canvas((WIDTH, height), BACKGROUND)
    title = labels.standings_of.format(name=name) if name else labels.standings
    canvas.text((MARGIN, MARGIN + TITLE / 2), fit_width(canvas, title, TITLE, True,
                                                        WIDTH - 2 * MARGIN),
                size=TITLE, fg=TEXT, bg=BACKGROUND, bold=True)
    y: float = MARGIN + TITLE + 16
    x_rank = MARGIN
    x_name = x_rank + rank_w
    x_nums = [x_name + name_w + sum(num_ws[:i]) for i in range(len(num_ws))]
    mid = y + head_h - ROW / 2  # a header of two lines ends on the row's line
    canvas.text((x_rank, mid), labels.rank, size=SMALL, fg=MUTED, bg=BACKGROUND)
    canvas.text((x_name, mid), labels.player, size=SMALL, fg=MUTED, bg=BACKGROUND)
    for x, head, num_w in zip(x_nums, heads, num_ws, strict=True):
        for line_no, line in enumerate(head):
            canvas.text((x + num_w, mid - HEAD_LINE * (len(head) - 1 - line_no)), line,
                        size=SMALL, fg=MUTED, bg=BACKGROUND, align="right")
    y += head_h
    canvas.line((MARGIN, y, WIDTH - MARGIN, y), fill=LINE, width=2)
    if not rows:
        canvas.text((MARGIN, y + ROW / 2), labels.nobody, size=BODY, fg=MUTED, bg=BACKGROUND)
    for i, row in enumerate(rows):
        back = _row_back(canvas, i, y)
        mid = y + ROW / 2
        canvas.text((x_rank, mid), str(row.rank), size=BODY_BOLD, fg=TEXT, bg=back, bold=True)
        values = [row.points, *row.tiebreaks[:len(breaks)]]
        # the name may run up to its row's points, which sit at the right of their column
        points_w = canvas.measure(_num(row.points), BODY_BOLD, True)[0]
        room = x_nums[0] + num_ws[0] - points_w - x_name - GAP
        canvas.text((x_name, mid), fit_width(canvas, row.name, BODY, False, room),
                    size=BODY, fg=TEXT, bg=back)
        for x, value, num_w in zip(x_nums, values, num_ws, strict=True):
            canvas.text((x + num_w, mid), _num(value), size=BODY_BOLD if x == x_nums[0] else BODY,
                        fg=TEXT, bg=back, align="right", bold=x == x_nums[0])
        y += ROW
    for block in blocks:
        y += 24
        y = _crosstable_block(canvas, labels, rows, block, y, rank_w, cross_name)
    y += 16 + LEGEND_LINE / 2
    for line in legend:
        canvas.text((MARGIN, y), line.strip(), size=BODY, fg=MUTED, bg=BACKGROUND)
        y += LEGEND_LINE
    return canvas.png(layout)


def _legend(labels: TournamentLabels, rows: Sequence[StandingRow]) -> list[str]:
    """What the kinds of cell the crosstable shows mean, each once, in a fixed order."""
    codes = {code for row in rows for code, _ in row.cells.values()}
    kinds = (("1", labels.legend_won), ("0", labels.legend_lost), ("=", labels.legend_drew),
             ("+-", labels.legend_forfeit), ("U", labels.legend_bye),
             ("*", labels.legend_playing), ("p", labels.legend_pod),
             ("Z", labels.legend_unpaired))
    return [text for marks, text in kinds
            if any(code in marks or (marks == "p" and code.startswith("p")) for code in codes)]


def _row_back(canvas: Canvas, index: int, y: float) -> Rgb:
    """Every other row striped; the colour its text is drawn on."""
    back = STRIPE if index % 2 else BACKGROUND
    if back != BACKGROUND:
        canvas.rectangle((0, y, WIDTH, y + ROW), fill=back)
    return back


def _head_lines(canvas: Canvas, head: str, size: int) -> list[str]:
    """A column's header on one line, or two when it is wider than `HEAD_MAX` (ゾンネボルン・
    ベルガー): cut after a space, ・ or hyphen nearest its middle, else between characters."""
    if canvas.measure(head, size)[0] <= HEAD_MAX:
        return [head]
    cuts = [i + 1 for i, ch in enumerate(head[:-1]) if ch in " ・-"]
    if cuts:
        cut = min(cuts, key=lambda i: abs(i - len(head) / 2))
        return [head[:cut].rstrip(), head[cut:].lstrip()]
    half = canvas.measure(head, size)[0] / 2 + size
    lines = wrap_to(head, lambda line: canvas.measure(line, size)[0] <= half)
    return [lines[0], "".join(line.strip() for line in lines[1:])]


def _round_blocks(canvas: Canvas, labels: TournamentLabels, rows: Sequence[StandingRow],
                  rounds: Sequence[int], room: float) -> list[list[tuple[int, float]]]:
    """The crosstable's rounds in blocks that fit `room`, each round with its column's width
    (its widest cell or header, and a gap): every round is shown, none squeezed."""
    blocks: list[list[tuple[int, float]]] = []
    used = room + 1.0
    for number in rounds:
        texts = [cell_text(*row.cells[number]) for row in rows if number in row.cells] or ["·"]
        width = max([canvas.measure(labels.round.format(number=number), SMALL)[0]]
                    + [canvas.measure(text, BODY)[0] for text in texts]) + GAP
        if used + width > room:
            blocks.append([])
            used = 0.0
        blocks[-1].append((number, width))
        used += width
    if len(blocks) > 1:  # as many rounds in each block as can be (5 rounds: 3 + 2, not 4 + 1)
        flat = [column for block in blocks for column in block]
        per = -(-len(flat) // len(blocks))
        even = [flat[i:i + per] for i in range(0, len(flat), per)]
        if len(even) == len(blocks) and all(sum(w for _, w in b) <= room for b in even):
            return even
    return blocks


def _crosstable_block(canvas: Canvas, labels: TournamentLabels, rows: Sequence[StandingRow],
                      block: Sequence[tuple[int, float]], y: float, rank_w: float,
                      name_w: float) -> float:
    """One block of the crosstable's rounds (rank, name if `name_w`, a column per round);
    returns the y under it."""
    x_name = MARGIN + rank_w
    x = float(x_name + name_w)
    lefts = []
    for _, width in block:
        lefts.append(x)
        x += width
    mid = y + ROW / 2
    canvas.text((MARGIN, mid), labels.rank, size=SMALL, fg=MUTED, bg=BACKGROUND)
    if name_w:
        canvas.text((x_name, mid), labels.player, size=SMALL, fg=MUTED, bg=BACKGROUND)
    for left, (number, width) in zip(lefts, block, strict=True):
        canvas.text((left + width / 2, mid), labels.round.format(number=number), size=SMALL,
                    fg=MUTED, bg=BACKGROUND, align="centre")
    y += ROW
    canvas.line((MARGIN, y, WIDTH - MARGIN, y), fill=LINE, width=2)
    for i, row in enumerate(rows):
        back = _row_back(canvas, i, y)
        mid = y + ROW / 2
        canvas.text((MARGIN, mid), str(row.rank), size=BODY_BOLD, fg=TEXT, bg=back, bold=True)
        if name_w:
            canvas.text((x_name, mid), fit_width(canvas, row.name, BODY, False, name_w - GAP),
                        size=BODY, fg=TEXT, bg=back)
        for left, (number, width) in zip(lefts, block, strict=True):
            cell = row.cells.get(number)
            canvas.text((left + width / 2, mid), cell_text(*cell) if cell else "·", size=BODY,
                        fg=TEXT, bg=back, align="centre")
        y += ROW
    return y


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
        canvas.text((MARGIN, y + ROW / 2), labels.nobody, size=BODY, fg=MUTED, bg=BACKGROUND)
    for number, stage in enumerate(stages, 1):
        canvas.text((MARGIN, y + ROW / 2), labels.stage_title.format(number=number),
                    size=BODY_BOLD, fg=MUTED, bg=BACKGROUND, bold=True)
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
                text = fit_width(canvas, who if who is not None else labels.bye,
                                 BODY_BOLD if won else BODY, won, WIDTH - 3 * MARGIN - 60)
                canvas.text((MARGIN + 20, mid), text, size=BODY_BOLD if won else BODY,
                            fg=TEXT if who is not None else MUTED, bg=BACKGROUND, bold=won)
                if won:
                    canvas.text((WIDTH - MARGIN, mid), "✓", size=BODY_BOLD, fg=WIN, bg=BACKGROUND,
                                align="right", bold=True)
                y += ROW
        y += 8
    return canvas.png(layout)
