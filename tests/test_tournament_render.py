"""The tournament pictures: standings (rank, points, tie-breaks, crosstable) and a knockout
bracket, legible at phone width (no label too small, none overlapping), in English and
Japanese, with what the engine says in them."""

from __future__ import annotations

import io
import random

from PIL import Image
from test_render import layout_problems

from bot import tournaments as engine
from render import TextBox
from render.tournament import StandingRow, Tie, render_bracket, render_standings


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
    from bot.i18n import translations

    ja = translations("ja")
    table, names = rows(swiss(5, 3))
    boxes: list[TextBox] = []
    drawn(render_standings("秋の大会", names, table, [1, 2, 3], tr=ja, layout=boxes), boxes)
    texts = [b.text for b in boxes]
    assert texts[0] == "順位表: 秋の大会"
    # whole words, none cut to fit (issue 32): the columns are as wide as their headers
    for label in ("勝点", "相手点", "勝相手点", "3回戦"):  # the latest rounds that fit
        assert label in texts, (label, texts)
    assert not [x for x in texts if "…" in x], texts
    boxes = []
    stages = [[Tie(("(1) 花子", None), 0), Tie(("(4) 太郎", "(5) 次郎"), 1)],
              [Tie(("(1) 花子", "(5) 次郎"), None)]]
    drawn(render_bracket("杯", stages, tr=ja, layout=boxes), boxes)
    texts = [b.text for b in boxes]
    assert "不戦勝" in texts and "✓" in texts and "1回戦" in texts and "2回戦" in texts


def test_a_bracket_marks_the_winners():
    boxes: list[TextBox] = []
    stages = [[Tie(("(1) Ann", None), 0), Tie(("(4) Bo", "(5) Cy"), 1),
               Tie(("(2) Di", "(3) Ed"), None)]]
    drawn(render_bracket("Cup", stages, layout=boxes), boxes)
    texts = [b.text for b in boxes]
    assert texts.count("✓") == 2 and "bye" in texts and "(5) Cy" in texts
