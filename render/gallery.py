"""The picture gallery: every kind of picture Corral makes, drawn at the edges, in English and
Japanese, with a contact sheet a reviewer scrolls through at phone width.

    python -m render gallery OUT_DIR [--seed N]

writes OUT_DIR/pictures/*.png (every picture, as the bot sends it), OUT_DIR/index.json (one
entry per picture: file, kind, game, language, edge case, size, contact sheet page) and
OUT_DIR/sheet-01.png, sheet-02.png, … (every picture scaled to 360 px wide, as a phone shows
it, under a caption). Look at the sheets before a picture change lands: no text cut or too
small to read, nothing painted over the board, no label over another.

What is drawn, asked of each kit and never named here (render/ names no game):
- boards of every set-up (`Kit.setups`): positions of random legal play with a fixed seed
  (the start, one move in, the middle, the end) in both languages; the players' longest
  names; no names (the seats' own words); two AI players; a resignation; a drawn game where
  a few seeded playouts find one; each seat's private view where the game hides information;
- every choice of every option the set-ups leave open (a start face, a colour): its start,
  one move in and a finished game from it, so every face or colour a board tints is drawn;
- each lesson step (`Kit.lessons`) as the learner sees it, named as the lesson names seats;
- a puzzle position (the solver's own view, "You" and "Opponent", no last move drawn) and the
  position after a wrong answer's refutation;
- analysis charts and swings (`render.analysis`), replay frames (`render.replay`);
- a conditional-move queue as small boards (`render.queue`), of each game that takes them
  (two seats, no hidden information, no chance: what its `GameInfo` declares);
- tournament standings with their crosstables, of every format, and a knockout bracket
  (`render.tournament`); rating charts (`render.chart`): many points, one, none.

Deterministic: the same seed gives the same pictures, byte for byte. Nothing in the bot
imports this module; it imports the bot's catalogs and tournament engine, as the bot draws
with them.
"""

from __future__ import annotations

import io
import json
import random
import textwrap
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from PIL import Image, ImageDraw

from games import KITS, Game
from games.kit import Kit, Setup

from .common import TextBox, cjk_font, font

LANGUAGES = ("en", "ja")
PHONE_WIDTH = 360
SHEET_MARGIN = 12
CAPTION_SIZE = 13
SHEET_HEIGHT = 6000  # a contact sheet page's height at most (one long phone scroll)
MAX_PLIES = 600  # a playout stops here if the game has not ended
FINALS = 6  # more finished games per set-up, their final boards drawn

NAMES = {"en": ("Alice", "Bob", "Carol", "Dave"), "ja": ("はなこ", "たろう", "じろう", "さくら")}
# As long as Discord allows a display name (32 characters), in both scripts.
LONGEST = ("Alexandria-Konstantinopolous-XIV",
           "長谷川・ボブ・ジョンソン・ザ・サード・ロングネーム・二世です本当に"[:32],
           "Maximiliana Wolkenkratzer-Berg", "さくら・ファン・デル・ヴァールス・ホッホ")
AI_LEVELS = ("hard", "easy", "normal", "hard")


@dataclass(frozen=True)
class Item:
    """One picture of the gallery. `draw(layout)` makes its PNG bytes, adding a `TextBox` for
    each label it draws to `layout` (for the property tests) when the picture records them.
    Board pictures keep their game's `observation`, what the tests check against."""

    file: str
    kind: str  # board, private, lesson, puzzle, refutation, analysis-chart, swing,
    # replay-frame, conditional-queue, ...
    game: str  # the game's id, or "" for a picture of no one game
    language: str
    edge: str  # the case it shows: "final, longest names", "option start=f7, one move in"
    draw: Callable[[list[TextBox] | None], bytes] = field(repr=False, compare=False)
    observation: Any = field(default=None, repr=False, compare=False)
    setup: str = ""  # the set-up's label (board kinds)
    layout: bool = True  # whether `draw` records its labels
    names: tuple[str, ...] = ()  # the players' names it shows (the only words it may cut)


def translations(language: str) -> Any:
    """The bot's catalog of `language` (None for English: the messages themselves)."""
    if language == "en":
        return None
    from bot.words.i18n import translations as catalog

    return catalog(language)


def _texts(language: str) -> Any:
    from bot.words.i18n import Texts

    return Texts(language)


def _ai_names(seats: int, language: str) -> list[str]:
    """Every seat an AI, named as the bot names them (two or more: "AI 1", "AI 2"...)."""
    from bot.ai import ai_names, ai_user_id

    ids = [ai_user_id(AI_LEVELS[i], i) for i in range(seats)]
    names = ai_names(ids)
    return [names[user_id] for user_id in ids]


# -- positions, asked of each kit's rules ------------------------------------------------------
def playout(game: Game, seats: int, options: dict[str, str], rng: random.Random) -> list[Any]:
    """The states of one random legal game, the start first (to its end, or MAX_PLIES)."""
    state = game.new(seats, game.draw_options(options, rng))
    states = [state]
    while game.outcome(state) is None and len(states) <= MAX_PLIES:
        state = game.apply(state, rng.choice(game.legal_moves(state)))
        states.append(state)
    return states


def _rng(seed: int, *parts: object) -> random.Random:
    return random.Random(":".join(map(str, (seed, *parts))))  # str seeds: no hash randomness


def _slug(text: str) -> str:
    return "".join(ch if ch.isalnum() else "-" for ch in text.lower()).strip("-")


class _Gallery:
    """Collects the items; each adder names its pictures uniquely in order."""

    def __init__(self, seed: int):
        self.seed = seed
        self.items: list[Item] = []

    def add(self, kind: str, game: str, language: str, edge: str,
            draw: Callable[[list[TextBox] | None], bytes], *, observation: Any = None,
            setup: str = "", layout: bool = True, names: Sequence[str] = ()) -> None:
        number = len(self.items) + 1
        file = f"{number:04d}-{_slug(kind)}-{_slug(game or 'all')}-{language}.png"
        self.items.append(Item(file, kind, game, language, edge, draw, observation, setup,
                               layout, tuple(names)))

    # boards ---------------------------------------------------------------------------------
    def board(self, kind: str, game: Game, state: Any, language: str, edge: str, *,
              viewer: int | None = None, names: Sequence[str] | None = None,
              result: str | None = None, setup: str = "", you: int | None = None,
              hints: bool = True, last_move: bool = True) -> None:
        """`last_move` False: drawn without the last move (a puzzle, as the bot draws it)."""
        from .api import render_observation, without_last_move

        observation = game.observe(state, viewer)
        if not last_move:
            observation = without_last_move(observation)
        tr = translations(language)
        names = None if names is None else list(names)

        def draw(layout: list[TextBox] | None) -> bytes:
            return render_observation(game.id, observation, names=names, result=result, tr=tr,
                                      layout=layout, you=you, hints=hints,
                                      last_move=last_move)

        self.add(kind, game.id, language, edge, draw, observation=observation, setup=setup,
                 names=names or ())

    def final_result(self, game: Game, state: Any, language: str,
                     names: Sequence[str]) -> str | None:
        """The sentence the bot writes on a final board (`bot.boards.result_text`)."""
        if game.outcome(state) is None:
            return None
        return str(_texts(language)(game.describe_outcome(state), list(names)))

    def setup_boards(self, kit: Kit, setup: Setup) -> None:
        game, seats = kit.game, setup.seats
        states = playout(game, seats, dict(setup.options), _rng(self.seed, kit.id, setup.label))
        final, middle = states[-1], states[len(states) // 2]
        label = setup.label
        for language in LANGUAGES:
            names = NAMES[language][:seats]
            self.board("board", game, states[0], language, f"{label}: start", names=names,
                       setup=label)
            self.board("board", game, middle, language, f"{label}: middle, ply {len(states) // 2}",
                       names=names, setup=label)
            self.board("board", game, final, language, f"{label}: final position",
                       names=names, result=self.final_result(game, final, language, names),
                       setup=label)
            longest = LONGEST[:seats]
            self.board("board", game, middle, language, f"{label}: middle, longest names",
                       names=longest, setup=label)
            self.board("board", game, final, language, f"{label}: final, longest names",
                       names=longest, result=self.final_result(game, final, language, longest),
                       setup=label)
        self.board("board", game, states[1], "en", f"{label}: one move in",
                   names=NAMES["en"][:seats], setup=label)
        self.board("board", game, middle, "en", f"{label}: middle, no names (the seats' words)",
                   setup=label)
        self.board("board", game, middle, "ja", f"{label}: middle, no names (the seats' words)",
                   setup=label)
        ais = _ai_names(seats, "en")
        self.board("board", game, final, "en", f"{label}: final, AI players", names=ais,
                   result=self.final_result(game, final, "en", ais), setup=label)
        for language in LANGUAGES:
            names = LONGEST[:seats]
            tr = translations(language)
            resign = (tr.gettext if tr else str)("{name} resigned: {winners} wins")
            self.board("board", game, states[len(states) // 3], language,
                       f"{label}: a resignation, longest names", names=names,
                       result=resign.format(name=names[-1], winners=names[0]), setup=label)
        if game.info.hidden_information:
            for seat in range(seats):
                for language in LANGUAGES:
                    self.board("private", game, middle, language,
                               f"{label}: seat {seat + 1}'s private view, middle", viewer=seat,
                               names=NAMES[language][:seats], setup=label)
                self.board("private", game, states[-2], "en",
                           f"{label}: seat {seat + 1}'s private view, before the end",
                           viewer=seat, names=NAMES["en"][:seats], setup=label)
        self.finals(kit, setup)

    def finals(self, kit: Kit, setup: Setup, count: int = FINALS, tries: int = 12) -> None:
        """The final boards of `count` more seeded games (where a game ends decides what its
        board marks: the winning line, the last pit, a completed face), and a drawn game's,
        where one of `tries` playouts ends drawn."""
        game = kit.game
        drawn = False
        for attempt in range(max(count, tries)):
            states = playout(game, setup.seats, dict(setup.options),
                             _rng(self.seed, kit.id, setup.label, "final", attempt))
            outcome = game.outcome(states[-1])
            is_draw = outcome is not None and outcome.draw
            if attempt >= count and (drawn or not is_draw):
                continue
            languages = LANGUAGES if is_draw and not drawn else ("en",)
            drawn = drawn or is_draw
            for language in languages:
                names = NAMES[language][:setup.seats]
                self.board("board", game, states[-1], language,
                           f"{setup.label}: {'a draw' if is_draw else 'final'}, game {attempt + 2}",
                           names=names,
                           result=self.final_result(game, states[-1], language, names),
                           setup=setup.label)

    def option_sweep(self, kit: Kit) -> None:
        """Every choice of every option a set-up leaves open: a start face or a colour
        changes what the board tints, so each is drawn at the start, one move in and at the
        end of a game from it (the choices taken in turn by the set-ups that leave the
        option open, so that each level or board size meets some of them)."""
        game = kit.game
        for spec in game.info.options:
            open_in = [s for s in kit.setups if spec.name not in s.options]
            choices = [c for c in spec.choices if c != "random"]
            if not open_in or len(choices) < 2 or len(choices) > 24:
                continue
            for number, choice in enumerate(choices):
                setup = open_in[number % len(open_in)]
                options = {**setup.options, spec.name: choice}
                try:
                    states = playout(game, setup.seats, options,
                                     _rng(self.seed, kit.id, spec.name, choice))
                except ValueError:  # a choice that does not go with this set-up
                    continue
                names = NAMES["en"][:setup.seats]
                edge = f"{setup.label}, option {spec.name}={choice}"
                self.board("board", game, states[0], "en", f"{edge}: start", names=names,
                           setup=setup.label)
                self.board("board", game, states[1], "en", f"{edge}: one move in",
                           names=names, setup=setup.label)
                self.board("board", game, states[-1], "en", f"{edge}: final", names=names,
                           result=self.final_result(game, states[-1], "en", names),
                           setup=setup.label)

    # lessons and puzzles -------------------------------------------------------------------
    def lessons(self, kit: Kit) -> None:
        from bot.words import strings
        from games.lessons import lesson_for

        lesson = lesson_for(kit.id)
        if lesson is None:
            return
        for number, step in enumerate(lesson.steps, 1):
            seats = kit.game.seats(step.position)
            for language in LANGUAGES:
                names = [lesson.seat_name(seat, language) for seat in range(seats)]
                # a question about a finished game: the picture does not answer it
                # (bot/cogs/learn.py `step_result`)
                over = step.is_question and kit.game.outcome(step.position) is not None
                self.board("lesson", kit.game, step.position, language,
                           f"lesson step {number} ({step.id})", viewer=step.learner,
                           names=names, you=step.learner, hints=not step.is_question,
                           result=_words(language)(strings.LESSON_GAME_OVER) if over else None)

    def puzzle(self, kit: Kit) -> None:
        """A puzzle's picture: a position of a finished game where the mover has a choice,
        as the solver sees it ("You" and "Opponent", as the bot names them), without the last
        move (bot/cogs/puzzle.py); and the picture of a wrong answer's refutation: the
        position after it and the reply, its last move drawn, how it ended under it. The
        kit's curated set gives both where it has one; else a seeded game's position, a
        move other than the first and the first reply."""
        from games.puzzles import curated

        game, setup = kit.game, kit.setups[0]
        shipped = [p for p in curated(kit.id).puzzles if p.refutations]
        if shipped:
            first = shipped[0]
            seats = first.seats
            seat: int | None = first.seat
            state = game.new(seats, first.options)
            for kind, notation in first.entries:
                state = game.skip(state) if kind == "skip" else game.play(state, notation)
            line = next(iter(first.refutations.values()))
            label = first.key
        else:
            seats = setup.seats
            states = playout(game, seats, dict(setup.options),
                             _rng(self.seed, kit.id, "puzzle"))
            choices = [s for s in states[len(states) // 3:-1] if game.to_move(s) is not None
                       and not game.is_chance(s) and len(game.legal_moves(s)) >= 2]
            if not choices:
                return
            state = choices[0]
            wrong = game.format_move(state, game.legal_moves(state)[1])
            after = game.play(state, wrong)
            line = [wrong] if game.outcome(after) is not None else \
                [wrong, game.format_move(after, game.legal_moves(after)[0])]
            seat, label = game.to_move(state), setup.label
        assert seat is not None
        end = state
        for notation in line:
            end = game.play(end, notation)
        outcome = game.outcome(end)
        for language in LANGUAGES:
            words = _words(language)
            names = [words("You") if i == seat else words("Opponent") for i in range(seats)]
            self.board("puzzle", game, state, language, f"{label}: puzzle for seat {seat + 1}",
                       viewer=seat, names=names, setup=setup.label, you=seat, last_move=False)
            result = None if outcome is None else words(
                "A draw." if outcome.draw else "You win." if seat in outcome.winners
                else "They win." if seats == 2 else "{seat} wins.").format(
                    seat=names[outcome.winners[0]] if outcome.winners else "")
            self.board("refutation", game, end, language,
                       f"{label}: refutation {' '.join(line)}", viewer=seat, names=names,
                       setup=setup.label, you=seat, result=result)

    # analysis and replays ------------------------------------------------------------------
    def analysis(self, kit: Kit, setup: Setup, languages: Sequence[str]) -> None:
        from .analysis import Swing, analysis_chart, line_label, swing_picture

        game = kit.game
        rng = _rng(self.seed, kit.id, setup.label, "analysis")
        states = playout(game, setup.seats, dict(setup.options), rng)
        series = _chances(len(states), setup.seats, rng)
        # (index, seat, [(the line, the state at its end)] refuted then better, loss)
        picked: list[tuple[int, int, list[tuple[list[list[Any]], Any]], float]] = []
        for index in sorted(rng.sample(range(1, len(states)), min(3, len(states) - 1))):
            before = states[index - 1]
            if game.is_chance(before):
                continue
            lines = []
            for first in (0, -1):  # two lines of three plies, from two different moves
                state, line = before, list[list[Any]]()
                while len(line) < 3 and game.outcome(state) is None \
                        and not game.is_chance(state):
                    move = game.legal_moves(state)[0 if line else first]
                    line.append([game.to_move(state), game.format_move(state, move)])
                    state = game.apply(state, move)
                lines.append((line, state))
            picked.append((index, game.to_move(before) or 0, lines,
                           round(rng.uniform(0.1, 0.6), 2)))
        for language in languages:
            names = list(LONGEST[:setup.seats] if language == "en" else
                         NAMES[language][:setup.seats])
            if setup is kit.setups[-1]:
                names = _ai_names(setup.seats, language)
            tr = translations(language)
            swings = [Swing(index=index, seat=seat, move=line_label(lines[0][0], names),
                            best=line_label(lines[1][0], names), loss=loss,
                            played=game.observe(lines[0][1], None),
                            preferred=game.observe(lines[1][1], None))
                      for index, seat, lines, loss in picked]

            def chart(layout: list[TextBox] | None, names: list[str] = names,
                      tr: Any = tr, swings: list[Swing] = swings) -> bytes:
                return analysis_chart(names=names, series=series, swings=swings, tr=tr,
                                      layout=layout)

            self.add("analysis-chart", kit.id, language, f"{setup.label}: chance of winning, "
                     f"{len(swings)} swings", chart, setup=setup.label, names=names)
            for rank, swing in enumerate(swings):
                def swing_png(layout: list[TextBox] | None, swing: Swing = swing,
                              rank: int = rank, names: list[str] = names,
                              tr: Any = tr) -> bytes:
                    return swing_picture(kit.id, swing, rank, names=names, tr=tr,
                                         layout=layout)

                self.add("swing", kit.id, language, f"{setup.label}: swing {rank + 1}, "
                         f"move {swing.index}", swing_png, setup=setup.label, names=names)

    def conditional_queue(self, kit: Kit) -> None:
        """A queue of two pairs and a third being entered (the opponent's turn of it chosen),
        each pair a whole turn, as the bot draws it for the queue's owner."""
        from bot.words import strings

        from .queue import queue_picture

        game = kit.game
        setup = next((s for s in kit.setups if s.seats == 2), None)
        if setup is None or game.info.hidden_information or game.info.chance:
            return
        rng = _rng(self.seed, kit.id, "conditional")
        state = game.new(2, game.draw_options(dict(setup.options), rng))
        state = game.apply(state, rng.choice(game.legal_moves(state)))  # the owner's move
        owner = 0 if game.to_move(state) == 1 else 1
        pairs: list[tuple[list[str], list[str]]] = []
        position = state
        for _ in range(3):
            turns: list[list[str]] = []
            for _side in range(2):
                seat, plies = game.to_move(position), []
                while game.outcome(position) is None and game.to_move(position) == seat:
                    move = rng.choice(game.legal_moves(position))
                    plies.append(game.format_move(position, move))
                    position = game.apply(position, move)
                turns.append(plies)
            if not turns[1]:
                break
            pairs.append((turns[0], turns[1]))
        for language in LANGUAGES:
            words = _words(language)
            names = list(LONGEST[:2] if language == "en" else NAMES[language][:2])
            tr = translations(language)
            heading = words(strings.CONDITIONAL_PICTURE_HEADING).format(match_id=1234)
            shown = []
            after = state
            for number, (theirs, mine) in enumerate(pairs, 1):
                last = number == len(pairs) and number > 1  # the pair being entered
                for notation in (*theirs, *(() if last else mine)):
                    after = game.play(after, notation)
                caption = (words(strings.CONDITIONAL_PICTURE_DRAFT).format(
                    n=number, moves=" ".join(theirs)) if last else
                    words(strings.CONDITIONAL_PICTURE_PAIR).format(
                        n=number, theirs=" ".join(theirs), mine=" ".join(mine)))
                shown.append((caption, game.observe(after, owner)))

            def queue_png(layout: list[TextBox] | None, heading: str = heading,
                          shown: list[tuple[str, Any]] = shown, names: list[str] = names,
                          tr: Any = tr) -> bytes:
                return queue_picture(kit.id, heading, shown, names=names, tr=tr,
                                     layout=layout)

            self.add("conditional-queue", kit.id, language,
                     f"{setup.label}: {len(pairs) - 1} queued pairs and one being entered",
                     queue_png,
                     setup=setup.label, names=names)

    def calm_chart(self, kit: Kit) -> None:
        from .analysis import analysis_chart

        setup = kit.setups[0]
        series = [[1 / setup.seats] * setup.seats] * 12
        for language in LANGUAGES:
            names = list(NAMES[language][:setup.seats])
            tr = translations(language)

            def chart(layout: list[TextBox] | None, names: list[str] = names,
                      tr: Any = tr) -> bytes:
                return analysis_chart(names=names, series=series, swings=[], tr=tr,
                                      layout=layout)

            self.add("analysis-chart", kit.id, language, "no swing (a calm game)", chart,
                     names=names)

    def replay(self, kit: Kit) -> None:
        """Frames of a replay GIF (`render.replay.animate`): the first, one in the middle
        and the last, as the shared palette left them."""
        from .replay import animate

        game, setup = kit.game, kit.setups[-1]
        states = playout(game, setup.seats, dict(setup.options),
                         _rng(self.seed, kit.id, "replay"))
        states = states[:10] + states[-3:] if len(states) > 13 else states
        observations = [game.observe(s, None) for s in states]
        for language in LANGUAGES:
            names = NAMES[language][:setup.seats]
            results = [None] * (len(states) - 1) + [self.final_result(game, states[-1],
                                                                      language, names)]
            gif: list[bytes] = []

            def frames(language: str = language, names: Sequence[str] = names,
                       results: list[str | None] = results, gif: list[bytes] = gif) -> bytes:
                if not gif:
                    gif.append(animate(game.id, observations, names=list(names),
                                       results=results, tr=translations(language)))
                return gif[0]

            for frame in (0, len(states) // 2, len(states) - 1):
                def frame_png(layout: list[TextBox] | None, frame: int = frame,
                              frames: Callable[[], bytes] = frames) -> bytes:
                    return _gif_frame(frames(), frame)

                self.add("replay-frame", kit.id, language,
                         f"{setup.label}: replay frame {frame + 1} of {len(states)}",
                         frame_png, observation=observations[frame], setup=setup.label,
                         layout=False)

    # tournaments and ratings ----------------------------------------------------------------
    def tournaments(self) -> None:
        from bot import tournaments as engine

        for fmt in engine.FORMATS:
            t = _tournament(engine, fmt, _rng(self.seed, "tournament", fmt))
            for language in LANGUAGES:
                tr = translations(language)

                def standings(layout: list[TextBox] | None, t: Any = t, tr: Any = tr) -> bytes:
                    return _standings(engine, t, tr, layout)

                self.add("standings", "", language, f"{fmt}: standings and crosstable, "
                         f"{len(t.players)} players, {len(t.rounds)} rounds", standings,
                         names=[p.name for p in t.players])
                if fmt == "knockout":
                    def bracket(layout: list[TextBox] | None, t: Any = t,
                                tr: Any = tr) -> bytes:
                        return _bracket(engine, t, tr, layout)

                    self.add("bracket", "", language, f"{fmt}: bracket, "
                             f"{len(t.players)} players", bracket,
                             names=[p.name for p in t.players])

    def rating_charts(self) -> None:
        from .chart import rating_chart

        rng = _rng(self.seed, "ratings")
        start = 1_767_225_600  # 2026-01-01, UTC: fixed, so the dates are too
        rating, many = 1500.0, []
        for day in range(60):
            rating += rng.uniform(-24, 26)
            many.append((start + day * 86_400 * 1.5, round(rating, 1)))
        game = next(iter(KITS.values())).game
        for language in LANGUAGES:
            words = _texts(language)
            tr = translations(language)
            for points, edge, name in ((many, "60 games", NAMES[language][0]),
                                       (many, "60 games, longest name", LONGEST[0]),
                                       (many[:1], "one game", NAMES[language][1]),
                                       ([], "no rated game", NAMES[language][2])):
                title = str(words(_profile_title(name, words(game.name))))

                def chart(layout: list[TextBox] | None, points: Any = points,
                          title: str = title, tr: Any = tr) -> bytes:
                    return rating_chart(points, title=title, tr=tr, layout=layout)

                self.add("rating-chart", "", language, f"{edge}, {game.id}", chart,
                         names=[name])


def _profile_title(name: str, game: str) -> Any:
    """The rating chart's title as `/profile` writes it (`strings.PROFILE_CHART`)."""
    from bot.words import strings
    from games import phrase

    return phrase(strings.PROFILE_CHART, name=name, game=game)


def _words(language: str) -> Callable[[str], str]:
    tr = translations(language)
    return (lambda text: text) if tr is None else tr.gettext


def _chances(length: int, seats: int, rng: random.Random) -> list[list[float]]:
    """A chance of winning per seat after each entry: a seeded walk that ends decided."""
    weights = [1.0] * seats
    series = []
    for _ in range(length):
        weights = [max(0.05, w * rng.uniform(0.7, 1.4)) for w in weights]
        total = sum(weights)
        series.append([w / total for w in weights])
    winner = max(range(seats), key=lambda s: series[-1][s])
    series.append([1.0 if s == winner else 0.0 for s in range(seats)])
    return series


def _gif_frame(gif: bytes, frame: int) -> bytes:
    image = Image.open(io.BytesIO(gif))
    image.seek(frame)
    out = io.BytesIO()
    image.convert("RGB").save(out, "PNG", compress_level=1)
    return out.getvalue()


# tournaments: the engine plays seeded random results, as `tests/test_tournament_render.py` does
PLAYERS = ("Alexandria-Konstantinopolous-XIV", "長谷川・ボブ・ジョンソン・ザ・サード", "Bo", "花子",
           "Carol", "Dave", "Eve", "Fumiko", "Gregor", "Hana", "Ivo", "次郎")


def _tournament(engine: Any, fmt: str, rng: random.Random) -> Any:
    sizes = {"swiss": (9, 5), "round_robin": (6, 0), "knockout": (8, 0), "pods": (10, 4)}
    players, rounds = sizes.get(fmt, (8, 3))
    field_ = tuple(engine.Player(id=i, rating=1500 + 13 * ((i * 7) % players),
                                 name=PLAYERS[(i - 1) % len(PLAYERS)])
                   for i in range(1, players + 1))
    tables = {"table_min": 3, "table_max": 4} if fmt == "pods" else {}
    t = engine.Tournament(engine.Settings(format=fmt, rounds=rounds, name=f"Autumn {fmt}",
                                          **tables), field_)
    for _ in range(20):
        try:
            rnd = engine.pair_next_round(t)
        except engine.PairingError:
            break
        t = engine.add_round(t, rnd)
        for i, g in enumerate(rnd.games):
            if g.points is not None:
                continue
            seats = len(g.seats)
            if seats == 2:
                points = rng.choice([(1.0, 0.0), (0.0, 1.0), (0.5, 0.5)])
                if fmt == "knockout" and points == (0.5, 0.5):
                    points = (1.0, 0.0)
            else:
                places = list(range(1, seats + 1))
                rng.shuffle(places)
                points = engine.pod_points(tuple(places), 4)
            t = engine.record(t, rnd.number, i, points)
    return t


def _standings(engine: Any, t: Any, tr: Any, layout: list[TextBox] | None) -> bytes:
    """As `bot.pictures.tournament_picture` draws the standings."""
    from .tournament import StandingRow, render_standings

    names = {p.id: p.name for p in t.players}
    table = engine.standings(t)
    cross = {row.player_id: row for row in engine.crosstable(t)}
    rows = [StandingRow(row.rank, names.get(row.player_id, "?"), row.points, row.tiebreaks,
                        {c.round: (c.code, c.opponents) for c in cross[row.player_id].cells})
            for row in table.rows]
    return render_standings(t.settings.name, table.tiebreak_names, rows,
                            [r.number for r in t.rounds], tr=tr, layout=layout)


def _bracket(engine: Any, t: Any, tr: Any, layout: list[TextBox] | None) -> bytes:
    """As `bot.pictures.tournament_picture` draws a knockout bracket."""
    from .tournament import Tie, render_bracket

    names = {p.id: p.name for p in t.players}
    seeds = {p.id: i for i, p in enumerate(engine.seed_order(t.players), 1)}
    stages = [[Tie(tuple(f"({seeds[pid]}) {names[pid]}" for pid in tie.seats),
                   tie.seats.index(tie.winner) if tie.winner in tie.seats else None)
               for tie in stage] for stage in (engine.knockout_stages(t) if t.rounds else [])]
    return render_bracket(t.settings.name, stages, tr=tr, layout=layout)


# -- the whole gallery ------------------------------------------------------------------------
def items(seed: int = 0) -> list[Item]:
    """Every picture of the gallery, in order (nothing drawn yet)."""
    gallery = _Gallery(seed)
    for kit in KITS.values():
        if kit.picture is None:
            continue
        for setup in kit.setups:
            gallery.setup_boards(kit, setup)
        gallery.option_sweep(kit)
        gallery.lessons(kit)
        gallery.puzzle(kit)
        gallery.analysis(kit, kit.setups[0], LANGUAGES)
        if len(kit.setups) > 1 and kit.setups[-1].seats > 2:
            gallery.analysis(kit, kit.setups[-1], ("en",))
        gallery.replay(kit)
        gallery.conditional_queue(kit)
    gallery.calm_chart(next(k for k in KITS.values() if k.picture is not None))
    gallery.tournaments()
    gallery.rating_charts()
    return gallery.items


def board_items(seed: int = 0) -> Iterator[Item]:
    """The gallery's board pictures (the kinds drawn by a game's own picture)."""
    return (item for item in items(seed) if item.observation is not None and item.layout)


@dataclass
class Written:
    pictures: int
    pages: int
    index: Path


def write(out: Path, seed: int = 0, log: Callable[[str], object] | None = None) -> Written:
    """Draw the gallery into `out`: the pictures, the index and the contact sheet pages."""
    pictures = out / "pictures"
    pictures.mkdir(parents=True, exist_ok=True)
    for old in list(pictures.glob("*.png")) + list(out.glob("sheet-*.png")):
        old.unlink()
    entries: list[dict[str, Any]] = []
    thumbs: list[tuple[Image.Image, str]] = []
    for item in items(seed):
        png = item.draw(None)
        (pictures / item.file).write_bytes(png)
        image = Image.open(io.BytesIO(png)).convert("RGB")
        entries.append({"file": f"pictures/{item.file}", "kind": item.kind, "game": item.game,
                        "language": item.language, "edge": item.edge,
                        "width": image.width, "height": image.height})
        caption = [f"{item.file}", f"{item.kind} · {item.game or '-'} · {item.language}",
                   *textwrap.wrap(item.edge, 50)]
        thumbs.append((phone_width(image), "\n".join(caption)))
    pages = contact_sheet(thumbs)
    first = 0
    for number, (page, count) in enumerate(pages, 1):
        name = f"sheet-{number:02d}.png"
        page.save(out / name, "PNG", compress_level=1)
        for entry in entries[first:first + count]:
            entry["page"] = name
        first += count
    index = out / "index.json"
    index.write_text(json.dumps({"seed": seed, "pictures": entries}, ensure_ascii=False,
                                indent=1) + "\n", encoding="utf-8")
    if log is not None:
        log(f"wrote {len(entries)} pictures to {pictures}, {len(pages)} contact sheet pages "
            f"({out / 'sheet-01.png'} …) and {index}")
    return Written(len(entries), len(pages), index)


def phone_width(image: Image.Image) -> Image.Image:
    """The picture as a phone shows it: 360 px wide."""
    height = max(1, round(image.height * PHONE_WIDTH / image.width))
    return image.resize((PHONE_WIDTH, height), Image.Resampling.LANCZOS, reducing_gap=1.0)


def contact_sheet(thumbs: Sequence[tuple[Image.Image, str]]
                  ) -> list[tuple[Image.Image, int]]:
    """Pages of captioned pictures, one under another, each page at most SHEET_HEIGHT tall:
    (page, how many pictures it holds)."""
    caption_font = font(CAPTION_SIZE)
    caption_cjk = cjk_font(CAPTION_SIZE) or caption_font
    line = CAPTION_SIZE + 5
    pages: list[tuple[Image.Image, int]] = []
    batch: list[tuple[Image.Image, str]] = []

    def height_of(thumb: Image.Image, caption: str) -> int:
        return len(caption.splitlines()) * line + 6 + thumb.height + 18

    def flush() -> None:
        total = SHEET_MARGIN + sum(height_of(t, c) for t, c in batch)
        page = Image.new("RGB", (PHONE_WIDTH + 2 * SHEET_MARGIN, total), (18, 18, 20))
        draw = ImageDraw.Draw(page)
        y = SHEET_MARGIN
        for thumb, caption in batch:
            for text in caption.splitlines():
                face = caption_font if text.isascii() else caption_cjk
                draw.text((SHEET_MARGIN, y), text, font=face, fill=(200, 204, 210))
                y += line
            y += 6
            page.paste(thumb, (SHEET_MARGIN, y))
            y += thumb.height + 18
        pages.append((page, len(batch)))
        batch.clear()

    used = SHEET_MARGIN
    for thumb, caption in thumbs:
        needed = height_of(thumb, caption)
        if batch and used + needed > SHEET_HEIGHT:
            flush()
            used = SHEET_MARGIN
        batch.append((thumb, caption))
        used += needed
    if batch:
        flush()
    return pages
