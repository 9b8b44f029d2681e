"""Time and agreements: Claim/Skip after a timeout, /draw and /takeback with Accept/Decline,
/vacation, /reminders and /notify."""

from __future__ import annotations

from typing import TYPE_CHECKING

from discord import app_commands

from games import nphrase, phrase

from .. import strings
from ..clocks import absolute_time
from ..i18n import LANGUAGES
from ..interactions import Interaction, handling, note_match, reply
from ..service import NOTIFY_MODES, REMINDER_MODES, ServiceError
from ..ui import Custom

if TYPE_CHECKING:
    from ..client import CorralBot

REMINDER_TEXTS = {"on": strings.REMINDERS_ON, "off": strings.REMINDERS_OFF,
                  "digest": strings.REMINDERS_DIGEST}
NOTIFY_TEXTS = {"channel": strings.NOTIFY_CHANNEL, "dm": strings.NOTIFY_DM,
                "both": strings.NOTIFY_BOTH}


def register(tree: app_commands.CommandTree[CorralBot], bot: CorralBot) -> None:
    @tree.command(name="draw", description="Offer a draw in this channel's match")
    @app_commands.guild_only()
    async def draw(interaction: Interaction) -> None:
        async with handling(interaction):
            match = await bot.service.in_channel(interaction.channel_id or 0)
            note_match(match.id)
            await bot.service.offer_draw(match.id, interaction.user.id)
            await reply(interaction, phrase(strings.OFFER_SENT, match_id=match.id,
                                            kind=phrase(strings.OFFER_KIND_DRAW)))

    @tree.command(name="takeback", description="Ask to take back your last move (before your "
                                                "opponent moves)")
    @app_commands.guild_only()
    async def takeback(interaction: Interaction) -> None:
        async with handling(interaction):
            match = await bot.service.in_channel(interaction.channel_id or 0)
            note_match(match.id)
            await bot.service.request_takeback(match.id, interaction.user.id)
            await reply(interaction, phrase(strings.OFFER_SENT, match_id=match.id,
                                            kind=phrase(strings.OFFER_KIND_TAKEBACK)))

    @tree.command(name="vacation", description="Pause your clocks while you are away")
    @app_commands.describe(days="How many days (1-30; 30 days a year)",
                           end="End your vacation now")
    async def vacation(interaction: Interaction,
                       days: app_commands.Range[int, 1, 30] | None = None,
                       end: bool = False) -> None:
        async with handling(interaction):
            if end:
                await bot.service.end_vacation(interaction.user.id)
                await reply(interaction, phrase(strings.VACATION_ENDED))
                return
            count = days or 7
            until, left = await bot.service.start_vacation(interaction.user.id, count)
            await reply(interaction, nphrase(*strings.VACATION_SET, count,
                                             until=absolute_time(until), left=int(left)))

    @tree.command(name="reminders", description="How Corral reminds you of your turns")
    @app_commands.describe(mode="on: when half and nearly all your time is gone; digest: one "
                                "DM a day; off")
    @app_commands.choices(mode=[app_commands.Choice(name=m, value=m) for m in REMINDER_MODES])
    async def reminders(interaction: Interaction, mode: str) -> None:
        async with handling(interaction):
            await bot.service.set_reminders(interaction.user.id, mode)
            await reply(interaction, phrase(REMINDER_TEXTS[mode]))

    @tree.command(name="notify", description="How you hear that it is your turn")
    @app_commands.describe(mode="channel: a mention in the match's channel; dm: a direct "
                                "message; both")
    @app_commands.describe(language="The language of your DMs, reminders and digests "
                                    "(default: the one your Discord uses)")
    @app_commands.choices(mode=[app_commands.Choice(name=m, value=m) for m in NOTIFY_MODES],
                          language=[app_commands.Choice(name=n, value=n) for n in LANGUAGES])
    async def notify(interaction: Interaction, mode: str, language: str | None = None) -> None:
        async with handling(interaction):
            await bot.service.set_notify(interaction.user.id, mode)
            await reply(interaction, phrase(NOTIFY_TEXTS[mode]))
            if language is not None:
                await bot.service.set_user_language(interaction.user.id, language)
                await reply(interaction, phrase(strings.LANGUAGE_SET,
                                                language=phrase(strings.LANGUAGE_NAMES[language])))


async def on_claim(bot: CorralBot, interaction: Interaction, custom: Custom) -> None:
    assert custom.match_id is not None and custom.version is not None
    note_match(custom.match_id)
    match = await bot.service.get(custom.match_id)
    if interaction.channel_id not in match.row.channels:
        raise ServiceError(strings.WRONG_CHANNEL, match_id=match.id)
    await bot.service.claim(custom.match_id, interaction.user.id,
                            expected_version=custom.version)
    await interaction.response.edit_message(view=None)


async def on_offer(bot: CorralBot, interaction: Interaction, custom: Custom) -> None:
    assert custom.offer_id is not None
    _, match = await bot.service.answer_offer(custom.offer_id, interaction.user.id,
                                              custom.action == "a",
                                              channel_id=interaction.channel_id)
    note_match(match.id)
    await interaction.response.edit_message(view=None)
