"""What players look up: /matches, /record, /rules and /help (every command the bot
registers). (Moves, under the board, is bot/boards.py's.)"""

from __future__ import annotations

import io
from typing import Any

import discord
from discord import app_commands

from games import Phrase, phrase

from ..clocks import absolute_time, clock_for, relative_time
from ..interactions import (
    MAX_MATCH_ID,
    Handling,
    Interaction,
    Tree,
    note_match,
    reply,
    texts_for,
)
from ..offered import PLAYABLE, rules_text
from ..service import Match, Service, result_phrase
from ..words import strings
from ..words.i18n import Texts


def register(tree: Tree, service: Service, handling: Handling) -> None:
    games = [app_commands.Choice(name=g.name, value=g.id) for g in PLAYABLE.values()]

    @tree.command(name="matches", description="Your matches and whose turn it is")
    async def matches(interaction: Interaction) -> None:
        async with handling(interaction):
            await reply(interaction, await matches_text(service, interaction.user.id,
                                                        texts_for(interaction)))

    @tree.command(name="record", description="A match's game record, as a text file")
    @app_commands.describe(match="The match number (default: this channel's match)")
    async def record(interaction: Interaction,
                     match: app_commands.Range[int, 1, MAX_MATCH_ID] | None = None) -> None:
        async with handling(interaction):
            found = (await service.get(match) if match is not None
                     else await service.in_channel(interaction.channel_id or 0))
            note_match(found.id)
            found, text, complete = await service.record(found.id)
            template = strings.RECORD_READY if complete else strings.RECORD_PUBLIC
            await reply(interaction, phrase(template, match_id=found.id,
                                            n=text.count("\n")),
                        file=discord.File(io.BytesIO(text.encode("utf-8")),
                                          filename=f"corral-{found.id}.txt"))

    @tree.command(name="rules", description="How a game is played")
    @app_commands.describe(game="Which game (default: all)")
    @app_commands.choices(game=games)
    async def rules(interaction: Interaction, game: str | None = None) -> None:
        async with handling(interaction):
            reader = texts_for(interaction)
            language = reader.language
            ids = list(PLAYABLE) if game is None else [game]
            texts = [rules_text(g, language) for g in ids]
            if not texts or any(t is None for t in texts):
                titles = tuple(phrase(g.name) for g in PLAYABLE.values())
                await reply(interaction, phrase(strings.RULES_UNKNOWN, game=str(game)[:40],
                                                games=titles))
                return
            for text in texts:  # its `/move k` as the reader's client names the command
                await reply(interaction, reader.commands(text or ""))

    @tree.command(name="help", description="What Corral can do")
    async def help_(interaction: Interaction) -> None:
        async with handling(interaction):
            intro, messages = help_messages(tree, texts_for(interaction))
            for number, embeds in enumerate(messages):
                await reply(interaction, intro if number == 0 else "", embeds=embeds)


# /help's sections: the commands each lists, by name. A command registered later and named
# in none of them is listed under "More" (`help_sections`), so /help never leaves one out.
HELP_SECTIONS: tuple[tuple[str, tuple[str, ...]], ...] = (
    (strings.HELP_PLAYING, ("play", "move", "board", "last", "clocks", "hand", "conditional",
                            "draw", "takeback", "resign", "abort")),
    (strings.HELP_TURNS, ("matches", "notify", "reminders", "vacation")),
    (strings.HELP_LEARNING, ("rules", "learn", "puzzle", "help")),
    (strings.HELP_AFTER, ("record", "replay", "analysis", "profile", "leaderboard")),
    (strings.HELP_TOURNAMENTS, ("tournament",)),
    (strings.HELP_SERVER, ("corral",)),
)
EMBED_TEXT = 4096  # an embed's description (Discord)
MESSAGE_EMBEDS = 6000  # all embeds' texts in one message
MESSAGE_EMBED_COUNT = 10


def help_sections(tree: Tree, texts: Texts) -> list[tuple[str, list[str]]]:
    """Every top-level command of `tree`, grouped as HELP_SECTIONS says (the rest under
    More), each as one line in the reader's language: its name as their client shows it, its
    required options, and its own description (a group: its subcommands' names)."""
    commands = {c.name: c for c in tree.get_commands()
                if isinstance(c, (app_commands.Command, app_commands.Group))}
    named = {name for _, names in HELP_SECTIONS for name in names}
    sections = [*HELP_SECTIONS, (strings.HELP_MORE, tuple(sorted(set(commands) - named)))]
    found = []
    for title, names in sections:
        lines = [_help_line(commands[name], texts) for name in names if name in commands]
        if lines:
            found.append((texts(title), lines))
    return found


def _help_line(command: app_commands.Command[Any, ..., Any] | app_commands.Group,
               texts: Texts) -> str:
    if isinstance(command, app_commands.Group):
        subcommands = command.commands
        if len(subcommands) != 1:
            # each subcommand whole (`/tournament create`): a mention of the group alone is
            # not one Discord can open
            words = tuple(f"`/{command.name} {sub.name}`" for sub in subcommands)
            # the group's name in bold, not as a command (it is not one to open)
            return texts(phrase(strings.HELP_SUBCOMMANDS,
                                command=f"**/{_name(texts, command.name)}**",
                                description=phrase(command.description),
                                subcommands=words))
        (only,) = subcommands  # /corral settings
        return _help_line_of(f"{command.name} {only.name}", only, texts)
    return _help_line_of(command.name, command, texts)


def _help_line_of(name: str, command: Any, texts: Texts) -> str:
    parameters = getattr(command, "parameters", ())
    required = " ".join(p.name for p in parameters if p.required)
    shown = f"`/{name} {required}`" if required else f"`/{name}`"
    return texts(phrase(strings.HELP_LINE, command=shown,
                        description=phrase(command.description)))


def _name(texts: Texts, word: str) -> str:
    """A command's or option's name as the reader's client shows it."""
    found = texts.gettext(f"name:{word}")
    return word if found == f"name:{word}" else found


def help_messages(tree: Tree, texts: Texts) -> tuple[str, list[list[discord.Embed]]]:
    """/help: its first line, and its sections as embeds, grouped into messages within
    Discord's limits (an embed's description, the embeds of one message)."""
    intro = texts(phrase(strings.HELP_INTRO,
                         games=tuple(phrase(g.name) for g in PLAYABLE.values())))
    pages: list[str] = []
    for title, lines in help_sections(tree, texts):
        block = "\n".join([f"**{title}**", *lines])
        if pages and len(pages[-1]) + 2 + len(block) <= EMBED_TEXT:
            pages[-1] += "\n\n" + block  # a section stays whole where it fits
            continue
        for line in block.split("\n"):  # else it starts a page, and fills as many as it needs
            line = line[:EMBED_TEXT]
            if pages and not line.startswith("**") and \
                    len(pages[-1]) + 1 + len(line) <= EMBED_TEXT:
                pages[-1] += "\n" + line
            else:
                pages.append(line)
    messages: list[list[discord.Embed]] = [[]]
    size = 0
    for page in pages:
        if messages[-1] and (size + len(page) > MESSAGE_EMBEDS
                             or len(messages[-1]) == MESSAGE_EMBED_COUNT):
            messages.append([])
            size = 0
        messages[-1].append(discord.Embed(description=page))
        size += len(page)
    return intro, messages


async def matches_text(service: Service, user_id: int, texts: Texts) -> str:
    live = await service.live_matches_of(user_id)
    finished = await service.finished_matches_of(user_id, 10)
    if not live and not finished:
        return texts(strings.MATCHES_NONE)
    now = service.clock()

    def waiting_since(match: Match) -> float:
        mover = match.to_move()
        if mover is None or mover.user_id != user_id:
            return float("inf")
        return match.row.turn_started_at or match.row.updated_at

    lines = [texts(strings.MATCHES_HEADER)] if live else []
    for match in sorted(live, key=waiting_since):
        status = await _status(service, match, user_id, now)
        lines.append(texts(phrase(strings.MATCH_LINE, match_id=match.id, game=match.game.name,
                                  link=match.row.link, status=status)))
    if finished:
        lines.append(texts(strings.MATCHES_FINISHED))
        for match in finished:
            result = result_phrase(match) or phrase(strings.RESULT_DRAW)
            lines.append(texts(phrase(strings.MATCH_LINE, match_id=match.id,
                                      game=match.game.name, link=match.row.link,
                                      status=result), match.names()))
    return "\n".join(lines)


async def _status(service: Service, match: Match, user_id: int, now: float) -> Phrase:
    if match.status == "open":
        return phrase(strings.STATUS_LOBBY, have=len(match.seats),
                      need=match.game.info.min_seats)
    if match.status == "invited":
        invited = match.row.user_at(1)
        return phrase(strings.STATUS_INVITED, name=invited.name if invited else "?")
    mover = match.to_move()
    if mover is None:
        return phrase(strings.STATUS_ROLL)
    vacations = await service.store.vacations(mover.user_id)
    clock = None
    if match.row.move_seconds is not None and match.row.turn_started_at is not None:
        clock = clock_for(match.row.move_seconds, match.row.turn_started_at, now, vacations)
    if mover.user_id == user_id:
        due = phrase(strings.DUE_SUFFIX, relative=relative_time(clock.due_at)) if clock else ""
        return phrase(strings.STATUS_YOUR_TURN,
                      since=relative_time(match.row.turn_started_at or match.row.updated_at),
                      due=due)
    if clock is not None and clock.on_vacation_until is not None:
        return phrase(strings.STATUS_WAITING_VACATION, name=mover.name,
                      until=absolute_time(clock.on_vacation_until))
    return phrase(strings.STATUS_WAITING, name=mover.name)
