"""The tournament pictures: standings (rank, points, tie-breaks, crosstable) and a knockout
bracket, legible at phone width (no label too small, none overlapping), in English and
Japanese, with what the engine says in them."""

from __future__ import annotations

import io
import random

import pytest
from PIL import Image
from test_render import layout_problems

from bot import tournaments as engine
from render import TextBox
from render.common import BODY_PHONE_PX, translated
from render.tournament import (
    StandingRow,
    Tie,
    TournamentLabels,
    render_bracket,
    render_standings,
)


def swiss(players: int, rounds: int) -> engine.Tournament:
    field = tuple(engine.Player(id=i, rating=1500 + 7 * i, name=f"Player {i}")
                  for i in range(1, players + 1))
    t = engine.Tournament(engine.Settings(format="swiss", rounds=rounds, name="Autumn"), field)
    rng = random.Random(7)
    for _ in range(rounds):
        rnd = engine.pair_next_round(t)
        t = engine.add_round(t, rnd)
        for i, g in enumerate(rnd.games):
            if g.points is None:
                t = engine.record(t, rnd.number, i, rng.choice([(1.0, 0.0), (0.5, 0.5)]))
    return t


def rows(t: engine.Tournament) -> tuple[list[StandingRow], tuple[str, ...]]:
    table = engine.standings(t)
    cross = {r.player_id: r for r in engine.crosstable(t)}
    names = {p.id: p.name for p in t.players}
    return [StandingRow(r.rank, names[r.player_id], r.points, r.tiebreaks,
                        {c.round: (c.code, c.opponents) for c in cross[r.player_id].cells})
            for r in table.rows], table.tiebreak_names


def drawn(png: bytes, boxes: list[TextBox]) -> Image.Image:
    image = Image.open(io.BytesIO(png))
    assert image.format == "PNG" and image.width == 720
    assert not layout_problems(png, boxes), layout_problems(png, boxes)
    return image


def test_standings_show_rank_points_tiebreaks_and_every_round():
    t = swiss(7, 4)
    table, names = rows(t)
    boxes: list[TextBox] = []
    drawn(render_standings("Autumn", names, table, [1, 2, 3, 4], layout=boxes), boxes)
    texts = [b.text for b in boxes]
    assert texts[0] == "Standings: Autumn"
    assert {"Pts", "Bh", "SB", "R1", "R4"} <= set(texts)
    leader = table[0]
    assert leader.rank == 1 and str(int(leader.points)) in texts or f"{leader.points}" in texts
    assert sum(1 for x in texts if x == "B") == 4  # one bye a round, seven players


def test_japanese_standings_and_bracket(cjk_font):
    from bot.words.i18n import translations

    ja = translations("ja")
    table, names = rows(swiss(5, 3))
    boxes: list[TextBox] = []
    drawn(render_standings("秋の大会", names, table, [1, 2, 3], tr=ja, layout=boxes), boxes)
    texts = [b.text for b in boxes]
    assert texts[0] == "順位表：秋の大会"
    # whole words, none cut to fit (issue 32): the columns are as wide as their headers
    for label in ("勝点", "ブッフホルツ", "R3"):  # the latest rounds that fit
        assert label in texts, (label, texts)
    assert not [x for x in texts if "…" in x], texts
    boxes = []
    stages = [[Tie(("(1) 花子", None), 0), Tie(("(4) 太郎", "(5) 次郎"), 1)],
              [Tie(("(1) 花子", "(5) 次郎"), None)]]
    drawn(render_bracket("杯", stages, tr=ja, layout=boxes), boxes)
    texts = [b.text for b in boxes]
    assert "不戦勝" in texts and "✓" in texts and "第1ラウンド" in texts and "第2ラウンド" in texts


def test_a_bracket_marks_the_winners():
    boxes: list[TextBox] = []
    stages = [[Tie(("(1) Ann", None), 0), Tie(("(4) Bo", "(5) Cy"), 1),
               Tie(("(2) Di", "(3) Ed"), None)]]
    drawn(render_bracket("Cup", stages, layout=boxes), boxes)
    texts = [b.text for b in boxes]
    assert texts.count("✓") == 2 and "bye" in texts and "(5) Cy" in texts


# -- at the edges (issue 50): pods' cells in their own columns, every round in both
# languages, and text a phone reads ------------------------------------------------------------
LONG = ("Alexandria-Konstantinopolous-XIV", "長谷川・ボブ・ジョンソン・ザ・サード・ロングネーム")


def played(fmt: str, players: int, rounds: int = 0, *, long: bool = False, table: int = 2,
           finish: bool = True) -> engine.Tournament:
    """A tournament of any format with random results; `finish` False leaves half the last
    round's games running."""
    from bot.tournaments.formats import pod_points

    field = tuple(engine.Player(id=i, rating=1500 + 7 * i,
                                name=LONG[i % 2] + str(i) if long else f"Player {i}")
                  for i in range(1, players + 1))
    t = engine.Tournament(engine.Settings(format=fmt, rounds=rounds, name="Autumn Open 2026",
                                          table_min=min(table, 3), table_max=table), field)
    rng = random.Random(players * 31 + rounds)
    while not engine.is_finished(t):
        try:
            rnd = engine.pair_next_round(t)
        except engine.PairingError:
            break
        t = engine.add_round(t, rnd)
        running = not finish and rnd.number == rounds
        for i, g in enumerate(rnd.games):
            if g.points is not None or (running and i % 2):
                continue
            if len(g.seats) == 2:
                points = rng.choice([(1.0, 0.0), (0.0, 1.0)]
                                    + ([(0.5, 0.5)] if fmt != "knockout" else []))
            else:
                places = list(range(1, len(g.seats) + 1))
                rng.shuffle(places)
                points = pod_points(tuple(places), table)
            t = engine.record(t, rnd.number, i, points)
        if running:
            break
    return t


EDGES = {
    "swiss, 3 players": played("swiss", 3, 2),
    "swiss, 16 players, 7 rounds, long names": played("swiss", 16, 7, long=True),
    "swiss, 32 players, a round running": played("swiss", 32, 5, finish=False),
    "round robin, 6": played("round_robin", 6),
    "pods of 3-4, 10 players": played("pods", 10, 4, table=4),
    "pods of 3-4, 13 players, long names": played("pods", 13, 5, long=True, table=4),
    "knockout, 8": played("knockout", 8),
    "knockout, 16, long names": played("knockout", 16, long=True),
    "knockout, 5": played("knockout", 5),
}


class LongWords:
    """The Japanese catalog with the tournament's words written out whole (ブッフホルツ,
    ゾンネボルン・ベルガー, ラウンド): a column's header may be longer than its numbers."""

    def __init__(self):
        from bot.words.i18n import translations

        self.ja = translations("ja")
        self.words = {"Bh": "ブッフホルツ", "SB": "ゾンネボルン・ベルガー", "Opp": "対戦相手の得点",
                      "1st": "1位の回数", "R{number}": "ラウンド{number}"}

    def gettext(self, message: str) -> str:
        return self.words.get(message) or self.ja.gettext(message)

    def ngettext(self, single: str, plural: str, n: int) -> str:
        return self.ja.ngettext(single, plural, n)


def _translation(language: str):
    from bot.words.i18n import translations

    return LongWords() if language == "ja-long" else translations(language)


def _rows_apart(boxes: list[TextBox], gap: int = 8) -> list[str]:
    """Labels on one line (their digits' middles within 3 px) closer than `gap` px to each
    other: a cell running into the next column."""
    found = []
    for a in boxes:
        for b in boxes:
            same_line = abs((a.box[1] + a.box[3]) - (b.box[1] + b.box[3])) <= 6
            if a is not b and same_line and a.box[0] <= b.box[0] and b.box[0] - a.box[2] < gap:
                found.append(f"{a.text!r} runs into {b.text!r}")
    return found


def _standings_png(t: engine.Tournament, language: str, boxes: list[TextBox]) -> bytes:
    table, names = rows(t)
    return render_standings(t.settings.name, names, table, [r.number for r in t.rounds],
                            tr=_translation(language), layout=boxes)


@pytest.mark.parametrize("language", ["en", "ja", "ja-long"])
@pytest.mark.parametrize("case", sorted(EDGES))
def test_standings_at_the_edges_show_every_round_in_columns_a_phone_reads(case, language,
                                                                          request):
    """Every round's column is there (the Japanese picture dropped the early rounds, the
    English one all but the last four of seven), no cell's text comes within 8 px of the
    next column's (pods' "2/4,3,11" ran into the next round), every label passes the layout
    check, and what a player reads (names, points, tie-breaks, results) has digits at least
    11 px tall at 360 px wide, as a phone's body text (the picture was at the 9 px floor
    throughout: too small to read); headers keep the floor."""
    if language != "en":
        request.getfixturevalue("cjk_font")
    t = EDGES[case]
    labels = translated(TournamentLabels, _translation(language))
    boxes: list[TextBox] = []
    png = _standings_png(t, language, boxes)
    image = drawn(png, boxes)
    texts = [b.text for b in boxes]
    missing = [n for n in range(1, len(t.rounds) + 1)
               if labels.round.format(number=n) not in texts]
    assert not missing, f"rounds left out: {missing}"
    assert not _rows_apart(boxes), _rows_apart(boxes)[:5]
    heads = {labels.rank, labels.player, labels.points, labels.buchholz,
             labels.sonneborn_berger, labels.opponents_points, labels.wins, labels.stage,
             *(labels.round.format(number=n) for n in range(1, len(t.rounds) + 1))}
    # a header set on two lines is two labels, each a part of a header
    body = [b for b in boxes[1:] if b.text not in heads
            and not any(b.text in head and len(b.text) > 1 for head in heads)]
    assert len(body) >= len(t.players) * 3
    small = [f"{b.text!r}: {b.height * 360 / image.width:.1f} px" for b in body
             if b.height * 360 / image.width < BODY_PHONE_PX]
    assert not small, small[:5]


@pytest.mark.parametrize("language", ["en", "ja"])
@pytest.mark.parametrize("case", [c for c in sorted(EDGES) if "knockout" in c])
def test_brackets_at_the_edges_read_on_a_phone(case, language, request):
    """Brackets of 8, 16 (long names) and 5 (byes): every stage, names at body size."""
    if language != "en":
        request.getfixturevalue("cjk_font")
    t = EDGES[case]
    labels = translated(TournamentLabels, _translation(language))
    names = {p.id: p.name for p in t.players}
    seeds = {p.id: i for i, p in enumerate(engine.seed_order(t.players), 1)}
    stages = [[Tie(tuple(f"({seeds[pid]}) {names[pid]}" for pid in tie.seats),
                   tie.seats.index(tie.winner) if tie.winner in tie.seats else None)
               for tie in stage] for stage in engine.knockout_stages(t)]
    boxes: list[TextBox] = []
    image = drawn(render_bracket(t.settings.name, stages, tr=_translation(language),
                                 layout=boxes), boxes)
    texts = [b.text for b in boxes]
    assert all(labels.stage_title.format(number=n) in texts for n in range(1, len(stages) + 1))
    small = [b.text for b in boxes[1:] if b.height * 360 / image.width < BODY_PHONE_PX]
    assert not small, small[:5]


@pytest.mark.parametrize("case", ["swiss, 32 players, a round running", "pods of 3-4, 10 players"])
def test_the_crosstable_says_what_each_kind_of_cell_it_shows_means(case):
    """"+2", "-1", "…2" were unexplained (issue 50): under the crosstable, a legend names
    each kind of cell the table shows, and no other."""
    from render.tournament import cell_text

    t = EDGES[case]
    table, _ = rows(t)
    boxes: list[TextBox] = []
    _standings_png(t, "en", boxes)
    legend = " ".join(b.text for b in boxes[-4:])
    shown = {cell_text(*cell)[:1] for row in table for cell in row.cells.values()}
    meaning = {"+": "won against", "-": "lost to", "=": "drew with", "B": "a bye",
               "…": "being played", "·": "not paired"}
    for mark, words in meaning.items():
        assert (words in legend) == (mark in shown), (mark, legend)
    if case.startswith("pods"):
        assert "points in a pod" in legend
