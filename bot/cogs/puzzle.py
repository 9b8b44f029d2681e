"""Puzzles: /puzzle, shown to the asking player only (ephemeral). Each game's curated set and
the positions found in the server's analysed matches (bot/service/puzzles.py).

The message says whose side the solver plays (the game's own seat title and the seat's
number) and the goal (games.puzzles.goal_words). The position is drawn by the usual renderer from
the observation of the seat to move (with hidden information, only what that seat saw),
without the last move (it would give away the previous puzzle's answer), and answered with the
step-by-step move entry of a real match (bot/ui.py's `step_view`, with the puzzle's own
components). A wrong answer shows its refutation, the line in words with who plays each ply,
and a picture of where it leads; a right one the point of the solution and its themes; either
the rating's swing ("1500 → 1541 (+41)", Glicko-2).

Custom ids (besides bot/ui.py's):

    c1:Zs:<user>:<puzzle>:<answers>         a step button
    c1:ZS:<user>:<puzzle>:<answers>:<page>  a step menu page
    c1:Zb:<user>:<puzzle>:<answers>         Back to the previous question
"""

from __future__ import annotations

import io
import re
from collections.abc import Mapping, Sequence
from typing import Any, ClassVar, Self

import discord
from discord import app_commands

from games import N_, Answer, GameError, Option, Phrase, Step, get_game, phrase
from games.puzzles import curated, goal_words
from games.puzzles import theme_names as puzzle_themes

from ..interactions import Handling, Interaction, Tree, reply, texts_for
from ..offered import PLAYABLE
from ..pictures import described_picture
from ..pool import Workers
from ..service import PuzzleResult, Service, ServiceError, line_states, puzzle_state
from ..store.puzzles import PuzzleRow
from ..ui import (
    ANSWERS,
    ID,
    Component,
    StaticView,
    StepItems,
    button,
    decode_answers,
    encode_answers,
    first_step,
    manual_answers,
    step_view,
    template,
)
from ..words import strings
from ..words.i18n import Texts

PUZZLE = r"[0-9]{1,12}"


def register(tree: Tree, service: Service, handling: Handling, pictures: Workers) -> None:
    games = [app_commands.Choice(name=g.name, value=g.id) for g in PLAYABLE.values()]

    @tree.command(name="puzzle", description="A puzzle: find the one move that reaches its goal")
    @app_commands.describe(game="Which game")
    @app_commands.choices(game=games)
    @app_commands.allowed_installs(guilds=True, users=False)
    @app_commands.guild_only()
    async def puzzle(interaction: Interaction, game: str) -> None:
        async with handling(interaction):
            found = await service.offer_puzzle(interaction.user.id, game, interaction.guild_id)
            await interaction.response.defer(ephemeral=True, thinking=True)
            texts = texts_for(interaction)
            content, view, file = await puzzle_message(service, pictures, interaction.user.id,
                                                       found, texts)
            await reply(interaction, content, view=view, file=file)


def seat_names(puzzle: PuzzleRow, texts: Texts) -> list[str]:
    return [texts(strings.LESSON_YOU) if seat == puzzle.seat else texts(strings.LESSON_OPPONENT)
            for seat in range(puzzle.seats)]


def side_and_goal(puzzle: PuzzleRow, texts: Texts) -> list[str]:
    """Whose side the solver plays, in the game's own words, and what the puzzle asks."""
    game = get_game(puzzle.game)
    n = puzzle.seat + 1
    title = game.seat_title(puzzle.seat)
    side = (phrase(strings.PUZZLE_SIDE_PLAIN, n=n) if title == phrase(N_("seat {n}"), n=n)
            else phrase(strings.PUZZLE_SIDE, seat=game.seat_title(puzzle.seat), n=n))
    words = goal_words(puzzle.game, puzzle.goal)
    goal = phrase(words) if words is not None else \
        phrase(strings.PUZZLE_GOAL_BEST)
    return [texts(side), texts(phrase(strings.PUZZLE_GOAL, goal=goal))]


def line_words(puzzle: PuzzleRow, line: Sequence[str], texts: Texts,
               refuted: bool = False) -> str:
    """A line of plies in words, with who plays each ("You play `a`, then they play `f`. They
    win."), from the puzzle's position. `refuted`: a wrong answer's line, which says so where
    the game goes on after a miss of "Win this turn"."""
    game = get_game(puzzle.game)
    try:
        states = line_states(puzzle, list(line))
    except GameError:  # a line the rules no longer take: its notations alone
        return " ".join(f"`{m}`" for m in line)
    plies = []
    # in what a ply did, a seat is called by its title ("the first player gets a bonus
    # move"): "You"/"Opponent" would not read in the third person ("You gets")
    names = [texts(game.seat_title(seat)) for seat in range(puzzle.seats)]
    for state, after, move in zip(states, states[1:], line, strict=False):
        mover = None if game.is_chance(state) else game.to_move(state)
        if mover is None:
            ply = texts(phrase(strings.PUZZLE_PLY_CHANCE, move=move))
        elif mover == puzzle.seat:
            ply = texts(phrase(strings.PUZZLE_PLY_YOU, move=move))
        elif puzzle.seats == 2:
            ply = texts(phrase(strings.PUZZLE_PLY_THEY, move=move))
        else:
            ply = texts(phrase(strings.PUZZLE_PLY_SEAT, seat=game.seat_title(mover),
                               move=move))
        # what the ply did (scores, captures, a bonus move owed): why the line ends as it does
        gist = game.move_gist(state, game.parse_move(state, move), after)
        plies.append(ply + texts(phrase(strings.PUZZLE_PLY_EFFECTS, effects=gist), names)
                     if gist else ply)
    text = texts(phrase(strings.PUZZLE_LINE, plies=texts(strings.PUZZLE_THEN).join(plies)))
    end = end_words(puzzle, states[-1], texts)
    if end is None and refuted and puzzle.goal == "win":
        end = texts(strings.PUZZLE_END_NO_WIN)
    text = text[:1].upper() + text[1:]
    return texts(phrase(strings.PUZZLE_LINE_ENDS, line=text, end=end)) if end else text


def end_words(puzzle: PuzzleRow, state: Any, texts: Texts) -> str | None:
    """How a line ends, if the game ends: "You win.", "They win.", "A draw."."""
    game = get_game(puzzle.game)
    outcome = game.outcome(state)
    if outcome is None:
        return None
    if outcome.draw or not outcome.winners:
        return texts(strings.PUZZLE_END_DRAW)
    if puzzle.seat in outcome.winners:
        return texts(strings.PUZZLE_END_YOU)
    if puzzle.seats == 2:
        return texts(strings.PUZZLE_END_THEY)
    end = texts(phrase(strings.PUZZLE_END_SEAT, seat=game.seat_title(outcome.winners[0])))
    return end[:1].upper() + end[1:]  # "Seat 3 wins."


def theme_names(puzzle: PuzzleRow, texts: Texts) -> str:
    names = {**puzzle_themes(get_game(puzzle.game)), **curated(puzzle.game).themes}
    return texts.join([names.get(t, {}).get(texts.language) or names.get(t, {}).get("en") or t
                       for t in puzzle.themes])


async def puzzle_text(service: Service, user_id: int, puzzle: PuzzleRow, texts: Texts,
                      prompt: str | None = None) -> str:
    game = get_game(puzzle.game)
    rating = await service.puzzle_rating(user_id, puzzle.game)
    header = phrase(strings.PUZZLE_HEADER_CURATED, game=Phrase(game.name), puzzle=puzzle.id,
                    rating=rating.text()) if puzzle.match_id is None else \
        phrase(strings.PUZZLE_HEADER, game=Phrase(game.name), puzzle=puzzle.id,
               match_id=puzzle.match_id, rating=rating.text())
    lines = [texts(header), *side_and_goal(puzzle, texts)]
    if prompt:
        lines.append(prompt)
    return "\n".join(lines)


def shown_refutation(puzzle: PuzzleRow, line: Sequence[str]) -> list[str]:
    """The part of a wrong answer's refutation worth showing. A missed "Win this turn" ends
    with the solver's turn (a reply that wins nothing only fills the line); a one-ply line
    that did nothing of note next to a "most" puzzle's gains says nothing: none."""
    line = list(line)
    game = get_game(puzzle.game)
    try:
        states = line_states(puzzle, line)
    except GameError:
        return line
    if puzzle.goal == "win" and len(line) > 1 and game.outcome(states[-1]) is None:
        last = states[-2]
        if not game.is_chance(last) and game.to_move(last) != puzzle.seat:
            line = line[:-1]
    if puzzle.gains and len(line) == 1 and not game.move_gist(
            states[0], game.parse_move(states[0], line[0]), states[1]):
        return []
    return line


def feedback(result: PuzzleResult, texts: Texts) -> list[str]:
    """What the answer earns: the right one its point and themes, a wrong one its refutation;
    the rating's swing either way."""
    puzzle = result.puzzle
    if result.solved:
        lines = [texts(phrase(strings.PUZZLE_SOLVED, solution=puzzle.solution))]
    else:
        lines = [texts(phrase(strings.PUZZLE_FAILED, answer=result.answer,
                              solution=puzzle.solution))]
        refutation = shown_refutation(puzzle, result.refutation)
        if refutation:
            lines.append(texts(phrase(strings.PUZZLE_WHY_NOT, answer=result.answer,
                                      line=line_words(puzzle, refutation, texts,
                                                      refuted=True))))
        if result.answer in puzzle.gains and puzzle.solution in puzzle.gains:
            lines.append(texts(phrase(strings.PUZZLE_GAINS, answer=result.answer,
                                      gain=f"{puzzle.gains[result.answer]:g}",
                                      solution=puzzle.solution,
                                      best=f"{puzzle.gains[puzzle.solution]:g}")))
    if puzzle.line:
        lines.append(texts(phrase(strings.PUZZLE_POINT,
                                  line=line_words(puzzle, puzzle.line, texts))))
    if result.solved and puzzle.themes:
        lines.append(texts(phrase(strings.PUZZLE_THEMES, themes=theme_names(puzzle, texts))))
    change = result.after.display - result.before.display
    lines.append(texts(phrase(strings.PUZZLE_RATING_SWING, before=result.before.text(),
                              after=result.after.text(), change=f"{change:+d}")))
    return lines


def puzzle_components(user_id: int, puzzle: PuzzleRow, answers: tuple[Answer, ...],
                      texts: Texts) -> StaticView:
    game = get_game(puzzle.game)
    state = puzzle_state(puzzle)
    items = PuzzleItems(user_id, puzzle.id)
    question, answers = first_step(game, state, answers)
    if isinstance(question, str):
        view = StaticView()
        view.add_item(items.button(answers, question, 0))
        return view
    back = manual_answers(game, state, answers) > 0
    return step_view(question, 0, 0, answers, texts, back=back, items=items)


async def puzzle_message(service: Service, pictures: Workers, user_id: int, puzzle: PuzzleRow,
                         texts: Texts) -> tuple[str, StaticView, discord.File]:
    game = get_game(puzzle.game)
    state = puzzle_state(puzzle)
    # the solver's seat is named "You": its sentences in the second person ("Your turn"); the
    # hints drawn (the moves the rules allow are no answer); no last move drawn: it would give
    # away the previous puzzle's answer, or hint at this one
    picture, alt = await pictures.run(
        described_picture, game.id, game.to_json(state), puzzle.seat,
        seat_names(puzzle, texts), None, texts.language, puzzle.seat, True, False)
    content = await puzzle_text(service, user_id, puzzle, texts)
    view = puzzle_components(user_id, puzzle, (), texts)
    return content, view, discord.File(io.BytesIO(picture), filename="puzzle.png",
                                       description=alt or None)


async def refutation_picture(pictures: Workers, puzzle: PuzzleRow, line: Sequence[str],
                             texts: Texts) -> discord.File | None:
    """The position after a wrong answer's refutation, its last move drawn, how it ended
    written under it."""
    game = get_game(puzzle.game)
    try:
        state = line_states(puzzle, list(line))[-1]
    except GameError:
        return None
    picture, alt = await pictures.run(
        described_picture, game.id, game.to_json(state), puzzle.seat,
        seat_names(puzzle, texts), end_words(puzzle, state, texts), texts.language,
        puzzle.seat)
    return discord.File(io.BytesIO(picture), filename="refutation.png",
                        description=alt or None)


async def advance(service: Service, interaction: Interaction, owner: int, puzzle_id: int,
                  answers: tuple[Answer, ...], pictures: Workers) -> None:
    """The next question of the move entry, or the answer once the move is complete."""
    puzzle = await service.puzzle_for(interaction.user.id, owner, puzzle_id)
    game = get_game(puzzle.game)
    try:
        question, answers = first_step(game, puzzle_state(puzzle), answers)
    except GameError:
        raise ServiceError(strings.PUZZLE_BAD_ANSWER) from None
    texts = texts_for(interaction)
    if isinstance(question, str):
        result = await service.answer_puzzle(interaction.user.id, owner, puzzle_id, question)
        content = await puzzle_text(service, interaction.user.id, puzzle, texts,
                                    "\n".join(feedback(result, texts)))
        if not result.refutation:
            await interaction.response.edit_message(content=content, view=StaticView())
            return
        await interaction.response.defer()
        file = await refutation_picture(
            pictures, puzzle, shown_refutation(puzzle, result.refutation) or result.refutation,
            texts)
        await interaction.edit_original_response(content=content, view=StaticView(),
                                                 attachments=[file] if file else [])
        return
    await interaction.response.edit_message(
        content=await puzzle_text(service, interaction.user.id, puzzle, texts,
                                  texts(question.prompt)),
        view=puzzle_components(interaction.user.id, puzzle, answers, texts))


class PuzzleItems(StepItems):
    """The move entry's components, answering a puzzle."""

    def __init__(self, owner: int, puzzle_id: int) -> None:
        super().__init__(0, 0)
        self.owner, self.puzzle_id = owner, puzzle_id

    def button(self, answers: Sequence[Answer], label: str,
               row: int | None) -> discord.ui.Item[Any]:
        return PuzzleButton(self.owner, self.puzzle_id, answers, label=label, row=row)

    def menu(self, answers: Sequence[Answer], page: int, step: Step, options: Sequence[Option],
             placeholder: str, texts: Texts, row: int | None) -> discord.ui.Item[Any]:
        return PuzzleMenu(self.owner, self.puzzle_id, answers, page, picks=step.picks,
                          options=[discord.SelectOption(
                              label=texts(o.label)[:100], value=o.value,
                              description=texts(o.description)[:100]
                              if o.description is not None else None) for o in options],
                          placeholder=placeholder, row=row)

    def back(self, answers: Sequence[Answer], label: str,
             row: int | None) -> discord.ui.Item[Any]:
        return PuzzleBack(self.owner, self.puzzle_id, answers, label=label, row=row)


def _answers(text: str) -> tuple[Answer, ...]:
    found = decode_answers(text)
    assert found is not None  # the template matched: well formed
    return found


_HEAD = rf"(?P<user>{ID}):(?P<puzzle>{PUZZLE})"


class PuzzleComponent(Component[Any], template=r"(?!)"):
    pictures: ClassVar[Workers]


class PuzzleButton(PuzzleComponent, template=template(rf"c1:Zs:{_HEAD}:(?P<answers>{ANSWERS})")):
    """A step's option: the answers so far, the chosen value last."""

    def __init__(self, owner: int, puzzle_id: int, answers: Sequence[Answer], *,
                 label: str = "", row: int | None = None) -> None:
        self.owner, self.puzzle_id, self.answers = owner, puzzle_id, tuple(answers)
        super().__init__(button(label, f"c1:Zs:{owner}:{puzzle_id}:{encode_answers(answers)}",
                                row=row))

    @classmethod
    def from_match(cls, found: re.Match[str]) -> Self:
        return cls(int(found["user"]), int(found["puzzle"]), _answers(found["answers"]))

    async def handle(self, interaction: Interaction) -> None:
        await advance(self.service, interaction, self.owner, self.puzzle_id, self.answers,
                      self.pictures)


class PuzzleMenu(PuzzleComponent,
                 template=template(rf"c1:ZS:{_HEAD}:(?P<answers>{ANSWERS}):(?P<page>[0-9])")):
    """A page of a step's options: the values chosen come with the click."""

    def __init__(self, owner: int, puzzle_id: int, answers: Sequence[Answer], page: int, *,
                 picks: int = 1, options: Sequence[discord.SelectOption] = (),
                 placeholder: str = "", row: int | None = None) -> None:
        self.owner, self.puzzle_id, self.answers = owner, puzzle_id, tuple(answers)
        self.page = page
        super().__init__(discord.ui.Select(
            custom_id=f"c1:ZS:{owner}:{puzzle_id}:{encode_answers(answers)}:{page}",
            placeholder=placeholder[:150] or None, min_values=picks, max_values=picks,
            row=row, options=list(options)))

    @classmethod
    def from_match(cls, found: re.Match[str]) -> Self:
        return cls(int(found["user"]), int(found["puzzle"]), _answers(found["answers"]),
                   int(found["page"]))

    async def handle(self, interaction: Interaction) -> None:
        data: Mapping[str, Any] = interaction.data or {}
        raw = data.get("values")
        values = [str(v)[:16] for v in raw][:25] if isinstance(raw, list) else []
        await advance(self.service, interaction, self.owner, self.puzzle_id,
                      self.answers + (tuple(values),), self.pictures)


class PuzzleBack(PuzzleComponent, template=template(rf"c1:Zb:{_HEAD}:(?P<answers>{ANSWERS})")):
    """Back to the previous question the player chose."""

    def __init__(self, owner: int, puzzle_id: int, answers: Sequence[Answer], *,
                 label: str = "", row: int | None = None) -> None:
        self.owner, self.puzzle_id, self.answers = owner, puzzle_id, tuple(answers)
        super().__init__(button(label, f"c1:Zb:{owner}:{puzzle_id}:{encode_answers(answers)}",
                                style=discord.ButtonStyle.secondary, row=row))

    @classmethod
    def from_match(cls, found: re.Match[str]) -> Self:
        return cls(int(found["user"]), int(found["puzzle"]), _answers(found["answers"]))

    async def handle(self, interaction: Interaction) -> None:
        puzzle = await self.service.puzzle_for(interaction.user.id, self.owner, self.puzzle_id)
        keep = max(0, manual_answers(get_game(puzzle.game), puzzle_state(puzzle),
                                     self.answers) - 1)
        await advance(self.service, interaction, self.owner, self.puzzle_id,
                      self.answers[:keep], self.pictures)


COMPONENTS: tuple[type[Component[Any]], ...] = (PuzzleButton, PuzzleMenu, PuzzleBack)
