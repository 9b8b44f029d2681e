"""Picture jobs for the worker processes: a stored state in, PNG bytes out.

Top-level functions with plain arguments (picklable); the state is decoded and observed in the
worker, so that neither the JSON decoding nor the drawing runs on the bot's event loop. The
observation is the only thing drawn: `viewer` None is the public view.
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from functools import lru_cache
from typing import Any

from games import get_game

from .words.i18n import translations

log = logging.getLogger(__name__)


@lru_cache(maxsize=1)
def _cjk_ready() -> bool:
    import render

    if render.cjk_font_available():
        return True
    log.warning("no Japanese font found (install fonts-ipafont-gothic or fonts-noto-cjk): "
                "Japanese pictures are drawn with English labels")
    return False


def picture_language(language: str) -> str:
    """Japanese labels need a CJK font; without one the picture keeps English labels."""
    if language == "ja" and not _cjk_ready():
        return "en"
    return language


def board_picture(game_id: str, state: dict[str, Any], viewer: int | None,
                  names: Sequence[str], result: str | None = None,
                  language: str = "en", you: int | None = None, hints: bool = True,
                  last_move: bool = True) -> bytes:
    """`you`: the seat whose name is the reader's (a lesson's learner), whose sentences the
    picture writes in the second person; `hints` False: a quiz's picture, which must not
    answer its question (`render_observation`). `last_move` False: nothing of the last move is
    drawn, neither on the board nor under it (a puzzle's picture gives nothing away): a view
    that keeps it in a `last` field is drawn as if no move had been made yet."""
    from render import render_observation, without_last_move

    game = get_game(game_id)
    observation = game.observe(game.from_json(state), viewer)
    if not last_move:
        observation = without_last_move(observation)
    return render_observation(game_id, observation, names=list(names), result=result,
                              tr=translations(picture_language(language)), you=you,
                              hints=hints, last_move=last_move)


def described_picture(game_id: str, state: dict[str, Any], viewer: int | None,
                      names: Sequence[str], result: str | None = None,
                      language: str = "en", you: int | None = None, hints: bool = True,
                      last_move: bool = True) -> tuple[bytes, str]:
    """`board_picture` and its alt text: the kit's description of exactly the observation
    drawn (`viewer`'s, without its last move when that is not drawn), in `language`."""
    from render import without_last_move

    from .words.descriptions import alt_text
    from .words.i18n import Texts

    png = board_picture(game_id, state, viewer, names, result, language, you, hints,
                        last_move)
    game = get_game(game_id)
    observation = game.observe(game.from_json(state), viewer)
    if not last_move:
        observation = without_last_move(observation)
    if not hints:  # a quiz's words do not answer it either
        observation = game.without_hints(observation)
    return png, alt_text(game, observation, Texts(language), names)


def board_card(game_id: str, state: dict[str, Any], names: Sequence[str],
               result: str | None = None, language: str = "en", final: bool = False
               ) -> tuple[bytes, str, int | None]:
    """A board message's public picture, its alt text (the public view's description, in
    the reader's language) and its accent colour (0xRRGGBB): the colour the picture gives the
    side to move, or the winner once the game is over (none for a draw, a match ended outside
    the rules such as a resignation, or a turn no seat plays: a roll)."""
    from render import seat_colour

    from .words.descriptions import alt_text
    from .words.i18n import Texts

    picture = board_picture(game_id, state, None, names, result, language)
    game = get_game(game_id)
    position = game.from_json(state)
    public = game.observe(position, None)
    alt = alt_text(game, public, Texts(language), names)
    outcome = game.outcome(position)
    if outcome is not None:
        seat = outcome.winners[0] if len(outcome.winners) == 1 and not outcome.draw else None
    else:
        seat = None if final else game.to_move(position)
    if seat is None:
        return picture, alt, None
    return picture, alt, seat_colour(game_id, public, seat)


def queue_picture(game_id: str, state: dict[str, Any], seat: int,
                  pairs: Sequence[tuple[str, Sequence[str]]], heading: str,
                  names: Sequence[str], language: str = "en") -> bytes:
    """A player's conditional moves as one picture: each pair (its caption, and its plies
    played in order from `state`, after the pairs before it) above a small board of the
    position after it, seen from `seat` (no game takes conditional moves with hidden
    information: the public view)."""
    from render.queue import queue_picture as draw

    game = get_game(game_id)
    position = game.from_json(state)
    shown = []
    for caption, plies in pairs:
        for notation in plies:
            position = game.play(position, notation)
        shown.append((caption, game.observe(position, seat)))
    return draw(game_id, heading, shown, names=list(names),
                tr=translations(picture_language(language)))


def _replayed(game_id: str, seat_count: int, options: dict[str, str],
              entries: Sequence[Sequence[str]]) -> tuple[Any, list[Any]]:
    """The game and its states after 0, 1, … n entries of an effective log."""
    game = get_game(game_id)
    state = game.new(seat_count, options)
    states = [state]
    for kind, notation in entries:
        state = game.skip(state) if kind == "skip" else game.play(state, notation)
        states.append(state)
    return game, states


def replay_gif(game_id: str, seat_count: int, options: dict[str, str],
               entries: Sequence[Sequence[str]], names: Sequence[str], result: str | None,
               language: str, max_bytes: int) -> bytes | None:
    """The whole match as an animated GIF of public pictures (one frame per entry, the
    first position too), or None when even small frames do not fit in `max_bytes`."""
    from render import animate

    game, states = _replayed(game_id, seat_count, options, entries)
    observations = [game.observe(state, None) for state in states]
    results = [None] * (len(states) - 1) + [result]
    try:
        return animate(game_id, observations, names=list(names), results=results,
                       tr=translations(picture_language(language)), max_bytes=max_bytes)
    except ValueError:
        return None


def replay_frame(game_id: str, seat_count: int, options: dict[str, str],
                 entries: Sequence[Sequence[str]], ply: int, names: Sequence[str],
                 result: str | None, language: str, revealed: bool) -> tuple[bytes, str]:
    """The public picture after `ply` entries, and that entry's notation as the channel may
    see it (public notation until a match with hidden information is over: `revealed`)."""
    png, notation, _ = described_frame(game_id, seat_count, options, entries, ply, names,
                                       result, language, revealed, describe=False)
    return png, notation


def described_frame(game_id: str, seat_count: int, options: dict[str, str],
                    entries: Sequence[Sequence[str]], ply: int, names: Sequence[str],
                    result: str | None, language: str, revealed: bool, *,
                    describe: bool = True) -> tuple[bytes, str, str]:
    """`replay_frame`, and the picture's alt text (the public view's description)."""
    from render import render_observation

    from .words.descriptions import alt_text
    from .words.i18n import Texts

    game, states = _replayed(game_id, seat_count, options, entries[:ply])
    state = states[-1]
    notation = ""
    if ply > 0:
        before = states[-2]
        kind, text = entries[ply - 1]
        if kind == "skip":
            notation = "—"  # a skipped turn (after a timeout): no move
        else:
            move = game.parse_move(before, text)
            notation = (game.format_move(before, move)
                        if revealed or not game.info.hidden_information
                        else game.public_notation(before, move))
    shown = result if ply == len(entries) else None
    public = game.observe(state, None)
    png = render_observation(game_id, public, names=list(names),
                             result=shown, tr=translations(picture_language(language)))
    alt = alt_text(game, public, Texts(language), names) if describe else ""
    return png, notation, alt


def profile_chart(points: Sequence[tuple[float, float]], title: str, language: str,
                  names: Sequence[str] = ()) -> bytes:
    """The rating chart; `names`: the players named in `title` (shortened first if it is too
    long even for two lines)."""
    from render import rating_chart

    return rating_chart(points, title=title, tr=translations(picture_language(language)),
                        names=names)


def analysis_pictures(game_id: str, seat_count: int, options: dict[str, str],
                      entries: Sequence[Sequence[str]], result: dict[str, Any],
                      names: Sequence[str], language: str) -> list[bytes]:
    """A stored analysis (`games.analysis.Analysis` as a dict) as pictures, posted together:
    the chart of each seat's chance after every entry, then one per swing (at most three),
    each with the public view at the end of the refutation (the move played and the replies
    that punish it) and at the end of the better line, each labelled with its moves (after
    the move played and the preferred move alone, for an analysis stored without lines)."""
    from render import Swing
    from render import analysis_pictures as draw
    from render.analysis import line_label

    game, states = _replayed(game_id, seat_count, options, entries)
    notes = result["moves"]
    series = [list(note["win"]) for note in notes] + [list(result["final"])]
    swings = []
    for index in result["mistakes"]:
        note = notes[index - 1]
        before = states[index - 1]
        refutation = note.get("refutation") or [[note["seat"], note["move"]]]
        better = note.get("better") or [[note["seat"], note["best"]]]
        played, preferred = before, before
        for _, notation in refutation:
            played = game.play(played, notation)
        for _, notation in better:
            preferred = game.play(preferred, notation)
        swings.append(Swing(
            index=index, seat=int(note["seat"]), move=line_label(refutation, names),
            best=line_label(better, names), loss=float(note["loss"]),
            played=game.observe(played, None), preferred=game.observe(preferred, None)))
    return draw(game_id, names=list(names), series=series, swings=swings,
                tr=translations(picture_language(language)))


def tournament_alt(kind: str, data: str, texts: Any) -> str:
    """A tournament picture's alt text, from the same JSON: the standings' ranks and points,
    or the bracket's ties (who beat whom, or who meets whom), in `texts`' language."""
    from games import ALT_TEXT_LIMIT, phrase

    from .tournaments import from_json, knockout_stages, standings
    from .words import strings
    from .words.descriptions import cut

    t = from_json(data)
    names = {p.id: p.name for p in t.players}
    if kind == "bracket":
        ties = []
        for stage in (knockout_stages(t) if t.rounds else []):
            for tie in stage:
                seats = [names.get(pid, "?") for pid in tie.seats]
                if tie.winner in tie.seats and len(seats) == 2:
                    loser = seats[1 - tie.seats.index(tie.winner)]
                    ties.append(texts(phrase(strings.ALT_BRACKET_WON,
                                             winner=names.get(tie.winner, "?"), loser=loser)))
                elif len(seats) == 2:
                    ties.append(texts(phrase(strings.ALT_BRACKET_OPEN, first=seats[0],
                                             second=seats[1])))
        return cut(texts(phrase(strings.ALT_BRACKET, name=t.settings.name,
                                ties="; ".join(ties))), ALT_TEXT_LIMIT)
    rows = "; ".join(texts(phrase(strings.ALT_STANDING_ROW, rank=row.rank,
                                  player=names.get(row.player_id, "?"), points=f"{row.points:g}"))
                     for row in standings(t).rows)
    return cut(texts(phrase(strings.ALT_STANDINGS, name=t.settings.name, rows=rows)),
               ALT_TEXT_LIMIT)


def tournament_picture(kind: str, data: str, language: str = "en") -> bytes:
    """A tournament's standings (rank, points, tie-breaks, crosstable) or knockout bracket,
    from the engine's JSON."""
    from render.tournament import StandingRow, Tie, render_bracket, render_standings

    from .tournaments import crosstable, from_json, knockout_stages, seed_order, standings

    t = from_json(data)
    tr = translations(picture_language(language))
    names = {p.id: p.name for p in t.players}
    if kind == "bracket":
        seeds = {p.id: i for i, p in enumerate(seed_order(t.players), 1)}
        stages = [[Tie(tuple(f"({seeds[pid]}) {names[pid]}" for pid in tie.seats),
                       tie.seats.index(tie.winner) if tie.winner in tie.seats else None)
                   for tie in stage] for stage in (knockout_stages(t) if t.rounds else [])]
        return render_bracket(t.settings.name, stages, tr=tr)
    table = standings(t)
    cross = {row.player_id: row for row in crosstable(t)}
    rows = [StandingRow(row.rank, names.get(row.player_id, "?"), row.points, row.tiebreaks,
                        {c.round: (c.code, c.opponents) for c in cross[row.player_id].cells})
            for row in table.rows]
    return render_standings(t.settings.name, table.tiebreak_names, rows,
                            [r.number for r in t.rounds], tr=tr)
