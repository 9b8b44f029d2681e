"""The Japanese glossary (docs/glossary.toml): no Japanese catalog entry, rules text or lesson
text uses a word the glossary forbids, and the entries a term is about use its word (the games'
authors' words, from ../shared/seeds/). Lesson texts are also held to the project's Japanese
typography: full-width （）：！？ and no space between a number and its counter (28個)."""

from __future__ import annotations

import json
import re
import tomllib
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest
from babel.messages.pofile import read_po

from bot.words.catalogs import po_path
from games import KITS, PRODUCT

ROOT = Path(__file__).resolve().parents[1]
GLOSSARY = ROOT / "docs" / "glossary.toml"
TABLE = ROOT / "docs" / "glossary.md"
MASK = "\u25a0"  # stands in for an allowed word while forbidden ones are looked for


@dataclass(frozen=True)
class Text:
    """One Japanese text: a catalog entry (its English, context and kits) or a rules text."""

    where: str
    japanese: str
    english: str | None  # None: a rules text
    context: str | None
    kits: frozenset[str]  # the kits it belongs to (empty: the bot's own words)
    prose: bool = False  # a rules or lesson text: every term of its kits applies, any context


def load_terms() -> list[dict]:
    with GLOSSARY.open("rb") as source:
        return tomllib.load(source)["term"]


def kit_of(location: str) -> str | None:
    """games/ghostone/game.py -> ghostone; render/ghostone.py -> ghostone."""
    parts = Path(location).parts
    if len(parts) >= 2 and parts[0] == "games" and (ROOT / "games" / parts[1]).is_dir():
        return parts[1]
    if len(parts) == 2 and parts[0] == "render":
        return Path(parts[1]).stem
    return None


def japanese_texts() -> list[Text]:
    with po_path("ja").open("rb") as source:
        catalog = read_po(source, locale="ja")
    texts = []
    for message in catalog:
        if not message.id:
            continue
        english = message.id if isinstance(message.id, str) else " / ".join(message.id)
        forms = (message.string,) if isinstance(message.string, str) else message.string
        kits = frozenset(k for k in (kit_of(path) for path, _ in message.locations) if k)
        for form in forms:
            texts.append(Text(f"catalog: {english!r}", form, english, message.context, kits))
    for game_id in sorted(PRODUCT):
        kit = KITS[game_id]
        path = kit.rules_file("ja")
        assert path is not None
        folder = path.parent.parent.name  # games/<kit>/rules/ja.md
        texts.append(Text(str(path.relative_to(ROOT)), path.read_text(encoding="utf-8"), None,
                          None, frozenset({folder}), prose=True))
    return texts + lesson_texts() + puzzle_texts()


def puzzle_texts() -> list[Text]:
    """The Japanese names of every product puzzle set's themes (games/<kit>/puzzles.json),
    with their English, in the scope of the set's kit folder."""
    texts = []
    for game_id in sorted(PRODUCT):
        path = KITS[game_id].puzzles
        if path is None or not path.exists():
            continue
        folder = path.parent.name  # games/<kit>/puzzles.json
        themes = json.loads(path.read_text(encoding="utf-8")).get("themes", {})
        for theme, names in sorted(themes.items()):
            texts.append(Text(f"{path.relative_to(ROOT)}: theme {theme}", names["ja"],
                              names["en"], None, frozenset({folder}), prose=True))
    return texts


def lesson_texts() -> list[Text]:
    """Every Japanese text of every product lesson file (title, texts, tasks, answers'
    explanations, choices), with its English, in the scope of the lesson's kit folder."""
    texts = []
    for game_id in sorted(PRODUCT):
        path = KITS[game_id].lessons
        assert path is not None, game_id
        folder = path.parent.name  # games/<kit>/lessons.json
        data = json.loads(path.read_text(encoding="utf-8"))
        for where, english, japanese in _bilingual(data, str(path.relative_to(ROOT))):
            texts.append(Text(where, japanese, english, None, frozenset({folder}), prose=True))
    return texts


def _bilingual(value: object, where: str) -> Iterator[tuple[str, str, str]]:
    """(where, en, ja) of every {"en": ..., "ja": ...} object in a lesson file's data."""
    if isinstance(value, dict):
        if isinstance(value.get("ja"), str):
            yield where, str(value.get("en", "")), value["ja"]
        for key, item in value.items():
            yield from _bilingual(item, f"{where}/{key}")
    elif isinstance(value, list):
        for index, item in enumerate(value):
            ident = item.get("id") if isinstance(item, dict) else None
            yield from _bilingual(item, f"{where}[{ident or index}]")


def in_scope(term: dict, text: Text) -> bool:
    scope = term["scope"]
    if scope != ["all"] and not (text.kits & set(scope)):
        return False
    return "context" not in term or text.context == term["context"] or text.prose


def forbidden_in(term: dict, japanese: str) -> list[str]:
    """The forbidden words of `term` in `japanese`, once its own word and the allowed longer
    words are masked (キャトリーチ is allowed although it contains リーチ)."""
    allowed = sorted({term["ja"], *term.get("also", []), *term.get("required", [])},
                     key=len, reverse=True)
    for word in allowed:
        japanese = japanese.replace(word, MASK * len(word))
    return [word for word in term["forbidden"] if word in japanese]


def test_forbidden_words_are_found_and_allowed_words_are_not():
    """The check itself: a forbidden word inside an allowed one is not a finding."""
    reach = {"ja": "キャトリーチ", "forbidden": ["リーチ"]}
    assert forbidden_in(reach, "キャトリーチをかける") == []
    assert forbidden_in(reach, "リーチをかける") == ["リーチ"]
    assert forbidden_in(reach, "キャトリーチとリーチ") == ["リーチ"]
    move = {"ja": "着手", "also": ["指定"], "forbidden": ["指す", "指し"]}
    assert forbidden_in(move, "辺を指定してください") == []
    assert forbidden_in(move, "手を指しました") == ["指し"]


def test_glossary_is_well_formed_and_documented():
    terms = load_terms()
    table = TABLE.read_text(encoding="utf-8")
    kits = {path.parent.name for path in (ROOT / "games").glob("*/rules")}
    assert len(terms) >= 15
    for term in terms:
        assert term["ja"] and term["idea"] and term["seed"] and term["where"], term
        assert term["forbidden"], term
        assert term["scope"] == ["all"] or set(term["scope"]) <= kits, term
        for key in ("english", "forbidden_english"):
            if key in term:
                re.compile(term[key])
        # the readable table names every term with its word and its forbidden words
        assert f"| {term['ja']} |" in table, term["ja"]
        for word in term["forbidden"]:
            assert word in table, word


@pytest.mark.parametrize("term", load_terms(), ids=lambda term: term["ja"])
def test_no_forbidden_word_in_japanese(term):
    pattern = re.compile(term["forbidden_english"]) if "forbidden_english" in term else None
    found = []
    for text in japanese_texts():
        if not in_scope(term, text):
            continue
        if pattern is not None and text.english is not None and not pattern.search(text.english):
            continue
        words = forbidden_in(term, text.japanese)
        if words:
            found.append((text.where, words, text.japanese))
    assert not found, f"{term['ja']} ({term['idea']}): {found}"


@pytest.mark.parametrize("term", [t for t in load_terms() if "english" in t or "context" in t],
                         ids=lambda term: term["ja"])
def test_entries_about_a_term_use_its_word(term):
    pattern = re.compile(term["english"]) if "english" in term else None
    words = term.get("required", [term["ja"]])
    checked, missing = 0, []
    for text in japanese_texts():
        if text.english is None or not in_scope(term, text):
            continue
        if pattern is not None and not pattern.search(text.english):
            continue
        if "context" in term and text.context != term["context"]:
            continue
        checked += 1
        if not any(word in text.japanese for word in words):
            missing.append((text.where, text.japanese))
    assert checked, f"no catalog entry is about {term['ja']}: is the glossary out of date?"
    assert not missing, f"{term['ja']} ({term['idea']}): {missing}"


HALF_WIDTH = re.compile(r"[():!?]")  # full-width in Japanese text: （）：！？
# counters the lessons use; a number and its counter are written together (28個, 3ペア)
COUNTER_SPACE = re.compile(r"[0-9][ \u3000]+(?:個|点|枚|体|つ|手|番|回|人|マス|ペア|辺|通り|段|列|"
                           r"目|区画|ステップ|秒|分|時間|日)")


def test_typography_check_finds_what_it_looks_for():
    assert HALF_WIDTH.findall("相手(太陽)です!どう?注意:") == ["(", ")", "!", "?", ":"]
    assert not HALF_WIDTH.search("相手（太陽）です！どう？注意：")
    assert COUNTER_SPACE.search("28 個先取") and COUNTER_SPACE.search("3 ペア")
    assert not COUNTER_SPACE.search("28個先取、2 + 3 = 5点、d4 に置く")


def test_puzzle_theme_names_are_read():
    """Every shipped puzzle set's theme names are among the texts checked above."""
    texts = puzzle_texts()
    assert {t.where.split(":")[0] for t in texts} == {
        str(KITS[g].puzzles.relative_to(ROOT)) for g in PRODUCT
        if KITS[g].puzzles is not None and KITS[g].puzzles.exists()}
    assert all(t.japanese and t.english for t in texts)
    found = [(t.where, t.japanese) for t in texts
             if HALF_WIDTH.search(t.japanese) or COUNTER_SPACE.search(t.japanese)]
    assert not found, found


def test_lesson_japanese_typography():
    """Lesson texts are read as Japanese prose: full-width （）：！？ and no space between a
    number and its counter."""
    texts = lesson_texts()
    assert len(texts) >= 100  # every lesson file is read
    found = [(t.where, HALF_WIDTH.findall(t.japanese) + COUNTER_SPACE.findall(t.japanese),
              t.japanese) for t in texts
             if HALF_WIDTH.search(t.japanese) or COUNTER_SPACE.search(t.japanese)]
    assert not found, found
