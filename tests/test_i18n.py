"""The translation catalogs: the template matches the sources, Japanese translates every
message with the same placeholders, and the catalogs are compiled in memory for `Texts`."""

import gettext
import re
import string
from pathlib import Path

import pytest
from babel.messages.catalog import Catalog, Message
from babel.messages.extract import extract_from_dir
from babel.messages.frontend import parse_mapping_cfg
from babel.messages.pofile import read_po
from support import command_tree

from bot.cogs.info import help_messages
from bot.words import strings
from bot.words.catalogs import LOCALE_DIR, MAPPING, TEMPLATE, compiled, po_path
from bot.words.i18n import Texts, translations
from games import PRODUCT, REGISTRY, GameError, Seat, get_game, nphrase, phrase

ROOT = Path(__file__).resolve().parents[1]
SOURCES = ("bot", "games", "render")
KEYWORDS = {"N_": None, "NP_": (1, 2), "NC_": ((1, "c"), 2)}
JAPANESE = re.compile(r"[\u3040-\u30ff\u4e00-\u9fff]")


def load(path: Path, locale: str | None = None) -> Catalog:
    with path.open("rb") as source:
        return read_po(source, locale=locale)


def messages(catalog: Catalog) -> dict[object, Message]:
    return {message.id: message for message in catalog if message.id}


def forms(value: str | tuple[str, ...] | list[str] | None) -> tuple[str, ...]:
    if value is None:
        return ()
    return (value,) if isinstance(value, str) else tuple(value)


def fields(text: str) -> set[str]:
    """The str.format field names of `text` ({name}, {n}...), as `str.format` reads them."""
    return {name for _, name, _, _ in string.Formatter().parse(text) if name is not None}


@pytest.fixture(scope="module")
def template() -> Catalog:
    return load(TEMPLATE)


@pytest.fixture(scope="module")
def japanese() -> Catalog:
    return load(po_path("ja"), "ja")


def test_template_is_fresh(template):
    """Re-extract the sources with Babel (babel.cfg, in memory): the committed .pot must have
    exactly these message ids. Refresh it with the command in `bot/words/catalogs.py`."""
    with MAPPING.open() as cfg:
        method_map, options_map = parse_mapping_cfg(cfg, str(MAPPING))
    extracted = Catalog()
    for source in SOURCES:
        for filename, lineno, message, comments, context in extract_from_dir(
                str(ROOT / source), method_map, options_map, keywords=KEYWORDS):
            extracted.add(message, None, [(f"{source}/{filename}", lineno)],
                          auto_comments=comments, context=context)
    fresh = set(messages(extracted))
    committed = set(messages(template))
    assert len(fresh) > 250
    assert not fresh - committed, f"not in corral.pot (re-extract): {sorted(fresh - committed)}"
    assert not committed - fresh, f"gone from the sources: {sorted(committed - fresh)}"


def test_nphrase_pairs_are_plural_messages(template):
    """`nphrase(N_("one"), N_("many"), n)` in the games is one plural message, as `ngettext`
    looks it up, not two singular ones."""
    ids = messages(template)
    assert ("{n} seed", "{n} seeds") in ids
    assert "{n} seed" not in ids and "{n} seeds" not in ids
    assert strings.MOVES_COUNT in ids
    plural = [key for key in ids if isinstance(key, tuple)]
    assert len(plural) >= 15


@pytest.mark.parametrize("language", ["ja", "en"])
def test_catalog_follows_the_template(template, language):
    catalog = load(po_path(language), language)
    assert set(messages(catalog)) == set(messages(template)), "run pybabel update"
    expected = {"ja": "nplurals=1; plural=0;", "en": "nplurals=2; plural=(n != 1);"}[language]
    assert catalog.plural_forms == expected


def test_japanese_translates_every_message(template, japanese):
    ids = messages(japanese)
    missing = [key for key in messages(template) if key not in ids]
    empty = [key for key, message in ids.items()
             if not forms(message.string) or not all(forms(message.string))]
    fuzzy = [key for key, message in ids.items() if message.fuzzy]
    assert not missing, f"missing in ja: {missing}"
    assert not empty, f"untranslated in ja: {empty}"
    assert not fuzzy, f"fuzzy in ja: {fuzzy}"
    assert not japanese.fuzzy, "the ja header is marked fuzzy"
    # Japanese has one plural form: a plural message has exactly one msgstr[0]
    assert all(len(forms(message.string)) == 1 for message in ids.values())


@pytest.mark.parametrize("language", ["ja", "en"])
def test_placeholders_are_kept(language):
    """Every translated form has the msgid's str.format fields, no more and no fewer (for a
    plural message: those of the singular and the plural together)."""
    wrong = []
    for key, message in messages(load(po_path(language), language)).items():
        wanted = set().union(*(fields(text) for text in forms(key)))
        for text in forms(message.string):
            if text and fields(text) != wanted:
                wrong.append((key, text))
    assert not wrong, wrong


def test_catalogs_compile_in_memory():
    assert not list(LOCALE_DIR.rglob("*.mo")), "compiled catalogs are not committed"
    catalog = compiled("ja")
    assert isinstance(catalog, gettext.GNUTranslations)
    assert compiled("ja") is catalog
    assert compiled("xx") is None
    assert translations("ja") is translations("ja")
    assert type(translations("en")) is gettext.NullTranslations
    assert catalog.gettext(strings.BUTTON_RESIGN) == "投了"
    for n in (0, 1, 2, 5):
        assert catalog.ngettext(*strings.MOVES_COUNT, n) == "{n}手"


def test_every_japanese_form_is_found_by_gettext(japanese):
    """What the .po says is what `Texts("ja")` gets, for singular and plural messages alike."""
    catalog = translations("ja")
    lost = []
    for message in japanese:
        key = message.id
        if not key:
            continue
        (wanted,) = forms(message.string)
        if isinstance(key, tuple):
            found = {catalog.ngettext(key[0], key[1], n) for n in (0, 1, 2, 5)}
        elif message.context:  # a msgctxt (NC_): found with its context
            found = {catalog.pgettext(message.context, key)}
        else:
            found = {catalog.gettext(key)}
        if found != {wanted}:
            lost.append((key, found))
    assert not lost


def rendered(text, names=None) -> str:
    out = Texts("ja")(text, names)
    assert JAPANESE.search(out), out
    assert "{" not in out and "}" not in out, out
    return out


def test_bot_sentences_in_japanese():
    assert rendered(phrase(strings.NOT_YOUR_TURN, match_id=7, name="Hanako")) == \
        "あなたの手番ではありません。対局 #7 は Hanako の手番です。"
    assert rendered(nphrase(*strings.VACATION_ALLOWANCE, 1, total=30)) == \
        "今年の休暇は残り 1日です（30日中）。"
    result = phrase(strings.RESIGNED_WIN, name=Seat(0), winners=(Seat(1),))
    line = rendered(phrase(strings.RESULT_LINE, match_id=12, result=result), ["Taro", "Jiro"])
    assert line == "🏁 対局 #12：Taro が投了：Jiro の勝ち。"
    intro, messages = help_messages(command_tree(), Texts("ja"))
    help_text = "\n".join([intro, *(e.description or "" for m in messages for e in m)])
    # commands as a Japanese client shows them (their ids are not known here: no mentions)
    assert "`/対局 ゲーム`" in help_text and "/play" not in help_text
    assert "ゲーム：" in intro and intro.endswith("。"), intro
    assert Texts("ja-JP").language == "ja"


def test_game_phrases_in_japanese():
    with pytest.raises(GameError) as unknown:
        get_game("chess")
    assert rendered(unknown.value.phrase).startswith("chess というゲームはありません")

    mancala = REGISTRY["progressive-mancala"]
    state = mancala.new()
    with pytest.raises(GameError) as error:
        mancala.parse_move(state, "z")
    assert "k" in rendered(error.value.phrase)
    step = mancala.move_input(state)
    assert not isinstance(step, str)
    assert rendered(step.prompt) == "どの穴から蒔きますか？"
    assert "5個" in [rendered(option.description) for option in step.options
                     if option.description is not None]

    pastoral = REGISTRY["pastoral-square"]
    card = pastoral.turn_card(pastoral.new(), 0)
    assert card is not None
    text = rendered(card, ["Taro", "Jiro"])
    assert "ピックアップ" in text and "Jiro" in text

    outcome = phrase("{winner} wins", winner=Seat(1))
    assert rendered(outcome, ["Taro", "Jiro"]) == "Jiro の勝ち"


def test_every_product_game_has_its_rules_summary_in_every_language():
    """The product's kits (`games.PRODUCT`) are translated throughout: their words are in the
    catalogs (the template is extracted from bot/, games/ and render/ only) and their rules
    summaries exist in every language. A kit from outside the product, such as the tests'
    tic-tac-toe, may bring English alone: its words and rules stay English."""
    from bot.offered import rules_text
    from bot.words.i18n import LANGUAGES
    from games import KITS, PRODUCT

    assert len(PRODUCT) == 5
    for game_id in PRODUCT:
        for language in LANGUAGES:
            path = KITS[game_id].rules_file(language)
            assert path is not None and path.is_file(), (game_id, language)
        assert rules_text(game_id, "ja") != rules_text(game_id, "en")
    for game_id in set(KITS) - PRODUCT:
        assert rules_text(game_id, "ja") == rules_text(game_id, "en")


async def test_every_command_option_and_choice_is_japanese_in_a_japanese_client():
    """The whole registered command tree as `tree.sync` sends it through the bot's translator:
    every command, subcommand, option and choice carries a Japanese name and description (a
    name by Discord's rules, else the translator leaves it English). A Japanese client showed
    `/tournament`, `organisers`, `swiss`, `extra game`... in English. Only a message the
    catalog deliberately keeps as it is (a game's own name, e.g. ICO) may stay English."""
    from bot.words.translator import NAME_PREFIX, CatalogTranslator

    tree = command_tree()
    await tree.set_translator(CatalogTranslator())
    translator = tree.translator
    assert translator is not None
    kept = {key for key, value in translations("ja")._catalog.items()  # type: ignore[attr-defined]
            if isinstance(key, str) and key and value == key}
    english: list[str] = []

    def check(item: dict, at: str, keys: tuple[str, ...]) -> None:
        for key in keys:
            text = item.get(key)
            message = NAME_PREFIX + text if key == "name" and "choices" not in at else text
            if "ja" not in (item.get(f"{key}_localizations") or {}) and message not in kept:
                english.append(f"{at} {key}: {text!r}")

    def walk(item: dict, at: str) -> None:
        check(item, at, ("name", "description"))
        for option in item.get("options") or []:
            walk(option, f"{at} {option['name']}")
        for choice in item.get("choices") or []:
            if choice["value"] in REGISTRY and choice["value"] not in PRODUCT:
                continue  # a game kept in the tests (tests/kits), not the product's
            check(choice, f"{at} choices", ("name",))

    payloads = [await c.get_translated_payload(tree, translator) for c in tree.get_commands()]
    assert len(payloads) >= 20 and isinstance(payloads[0], dict)
    for payload in payloads:
        walk(payload, "/" + payload["name"])
    assert not english, "left English in ja:\n" + "\n".join(english)


@pytest.mark.parametrize(("game_id", "first", "second"), [
    ("pastoral-square", "先攻", "後攻"), ("progressive-mancala", "先手", "後手"),
    ("ghostone", "1番手", "2番手")])
def test_start_and_lobby_lists_name_seats_in_the_games_words(game_id, first, second):
    """The list a match starts with (bot/service/matches.py, bot/lobby.py) and a puzzle's task
    name each seat as its game does (Game.seat_title): 1番手/2番手 read wrong for Pastoral
    Square and Mancala."""
    game = get_game(game_id)
    seats = tuple(phrase(strings.SEATED, seat=game.seat_title(n), name=name)
                  for n, name in enumerate(("Taro", "Jiro")))
    line = rendered(phrase(strings.MATCH_STARTED, match_id=3, game=game.name, seats=seats))
    assert f"Taro（{first}）、Jiro（{second}）" in line, line
    source = (ROOT / "bot" / "service" / "matches.py").read_text() + \
        (ROOT / "bot" / "lobby.py").read_text()
    assert source.count("strings.SEATED, seat=match.game.seat_title(") == 2
    # a puzzle tells its solver the seat the same way (bot/cogs/puzzle.py)
    task = rendered(phrase(strings.PUZZLE_SIDE, seat=game.seat_title(0), n=1))
    assert task.startswith(f"あなたは{first}（1番手）です。"), task
    assert "seat=game.seat_title(puzzle.seat)" in (ROOT / "bot" / "cogs" / "puzzle.py").read_text()
