"""The picture gallery (`python -m render gallery OUT_DIR`, render/gallery.py): every kind of
picture, both languages, the edges the issue named, an index and contact sheet pages at phone
width; deterministic; and `python -m render FILE -o board.png` still draws a record."""

from __future__ import annotations

import ast
import io
import json
from collections import Counter
from pathlib import Path

import pytest
from PIL import Image

from games import KITS, PRODUCT
from games.lessons import lesson_for
from render import gallery
from render.__main__ import main

ROOT = Path(__file__).resolve().parents[1]
KINDS = {"board", "private", "lesson", "puzzle", "refutation", "analysis-chart", "swing",
         "replay-frame", "standings", "bracket", "rating-chart", "conditional-queue"}


@pytest.fixture(scope="module")
def written(tmp_path_factory):
    out = tmp_path_factory.mktemp("gallery")
    lines = io.StringIO()
    assert main(["gallery", str(out)], out=lines) == 0
    index = json.loads((out / "index.json").read_text(encoding="utf-8"))
    return out, index["pictures"], lines.getvalue()


def test_the_gallery_writes_every_picture_an_index_and_contact_sheets(written):
    out, entries, said = written
    assert "contact sheet" in said and str(out / "sheet-01.png") in said
    files = sorted(p.name for p in (out / "pictures").iterdir())
    assert files == sorted(Path(e["file"]).name for e in entries)
    assert {e["kind"] for e in entries} == KINDS
    assert {e["language"] for e in entries} == {"en", "ja"}
    assert {e["game"] for e in entries} >= set(PRODUCT)
    for entry in entries[:: max(1, len(entries) // 40)]:
        with Image.open(out / entry["file"]) as image:
            assert image.format == "PNG" and image.size == (entry["width"], entry["height"])
    pages = sorted(out.glob("sheet-*.png"))
    assert {e["page"] for e in entries} == {p.name for p in pages}
    heights = 0
    for page in pages:
        with Image.open(page) as image:
            assert image.width == gallery.PHONE_WIDTH + 2 * gallery.SHEET_MARGIN
            assert image.height <= gallery.SHEET_HEIGHT
            heights += image.height
    # every picture is on a page, 360 px wide (taller than its caption: it is there)
    scaled = sum(round(e["height"] * gallery.PHONE_WIDTH / e["width"]) for e in entries)
    assert heights > scaled


def test_each_game_is_drawn_in_every_set_up_both_languages_and_at_its_edges(written):
    _, entries, _ = written
    for game_id in PRODUCT:
        kit = KITS[game_id]
        mine = [e for e in entries if e["game"] == game_id]
        kinds = Counter(e["kind"] for e in mine)
        assert kinds["puzzle"] == kinds["refutation"] == 2 and kinds["replay-frame"] >= 6 and kinds["swing"] >= 2
        for setup in kit.setups:
            edges = [e["edge"] for e in mine if e["edge"].startswith(f"{setup.label}:")]
            for edge in ("start", "one move in", "middle", "final position",
                         "longest names", "no names", "AI players", "a resignation"):
                assert any(edge in e for e in edges), (game_id, setup.label, edge)
        lesson = lesson_for(game_id)
        assert lesson is not None
        assert kinds["lesson"] == 2 * len(lesson.steps)  # every step, in both languages
        if kit.game.info.hidden_information:
            assert kinds["private"] >= 2 * max(s.seats for s in kit.setups)
    assert any(e["kind"] == "board" and "4 seats" in e["edge"] for e in entries)
    assert any("a draw" in e["edge"] for e in entries)  # ties
    standings = {e["edge"].split(":")[0] for e in entries if e["kind"] == "standings"}
    assert standings == {"swiss", "round_robin", "knockout", "pods"}
    charts = {e["edge"].rsplit(", ", 1)[0] for e in entries if e["kind"] == "rating-chart"}
    assert charts >= {"60 games", "60 games, longest name", "one game", "no rated game"}


def test_every_ico_face_is_drawn_active_previous_and_winning():
    """A tint on an outer face painted the whole map over (issue 50): the gallery draws each
    of the 20 faces tinted as the active face and as the face rolled from, and every face
    (the five outer ones above all) as part of a completed win."""
    from games.ico.game import FACES

    active, previous, winning = set(), set(), set()
    for item in gallery.items(0):
        view = item.observation
        if item.game != "ico" or view is None:
            continue
        if view.outcome is None:
            active.add(view.active)
        if view.last is not None and view.previous_active is not None:
            previous.add(view.previous_active)
        winning.update(view.winning_faces)
    outer = {face for face in range(len(FACES)) if 11 in FACES[face][0]}
    assert len(outer) == 5
    assert active == previous == set(range(len(FACES)))
    assert outer <= winning


def test_the_same_seed_draws_the_same_pictures_and_another_seed_other_positions():
    first, again = gallery.items(0), gallery.items(0)
    assert [i.file for i in first] == [i.file for i in again]
    sample = range(0, len(first), max(1, len(first) // 25))
    for n in sample:
        assert first[n].draw(None) == again[n].draw(None), first[n].file
    other = gallery.items(1)
    assert [i.edge for i in other] != [i.edge for i in first] or any(
        other[n].draw(None) != first[n].draw(None) for n in sample)


def test_render_names_no_game_and_the_bot_never_imports_the_gallery():
    source = (ROOT / "render" / "gallery.py").read_text(encoding="utf-8")
    strings = {node.value.lower() for node in ast.walk(ast.parse(source))
               if isinstance(node, ast.Constant) and isinstance(node.value, str)}
    for game_id in KITS:
        assert not any(game_id in text for text in strings), game_id
        assert f"games.{game_id}" not in source and f"games/{game_id}" not in source
    for path in (ROOT / "bot").rglob("*.py"):
        assert "gallery" not in path.read_text(encoding="utf-8"), path


RECORD = ("# game: progressive-mancala\n# players: Alice, Bob\n"
          "k\nc\nh\nk\nd\n")


@pytest.mark.parametrize("words", [[], ["draw"]])
def test_a_record_is_still_drawn_with_or_without_the_draw_word(tmp_path, words):
    record = tmp_path / "record.txt"
    record.write_text(RECORD, encoding="utf-8")
    out = tmp_path / "board.png"
    said = io.StringIO()
    assert main([*words, str(record), "-o", str(out)], out=said) == 0
    assert said.getvalue().startswith(f"wrote {out}")
    with Image.open(out) as image:
        assert image.format == "PNG" and image.width >= 800


def test_a_gallery_that_cannot_be_written_exits_2(tmp_path, capsys):
    blocked = tmp_path / "file"
    blocked.write_text("not a folder", encoding="utf-8")
    assert main(["gallery", str(blocked / "out")]) == 2
    assert "cannot write the gallery" in capsys.readouterr().err
