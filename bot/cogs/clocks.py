"""Time and agreements: /draw and /takeback (their Accept/Decline, and Claim/Skip after a
timeout, are bot/notices.py's), /vacation, /reminders and /notify."""

from __future__ import annotations

from discord import app_commands

from games import nphrase, phrase

from ..clocks import absolute_time
from ..interactions import Handling, Interaction, Tree, note_match, reply
from ..service import NOTIFY_MODES, REMINDER_MODES, Service
from ..words import strings
from ..words.i18n import LANGUAGES

REMINDER_TEXTS = {"on": strings.REMINDERS_ON, "off": strings.REMINDERS_OFF,
                  "digest": strings.REMINDERS_DIGEST}
NOTIFY_TEXTS = {"channel": strings.NOTIFY_CHANNEL, "dm": strings.NOTIFY_DM,
                "both": strings.NOTIFY_BOTH}


def register(tree: Tree, service: Service, handling: Handling) -> None:
    @tree.command(name="draw", description="Offer a draw in this channel's match")
    async def draw(interaction: Interaction) -> None:
        async with handling(interaction):
            match = await service.in_channel(interaction.channel_id or 0)
            note_match(match.id)
            await service.offer_draw(match.id, interaction.user.id)
            await reply(interaction, phrase(strings.OFFER_SENT, match_id=match.id,
                                            kind=phrase(strings.OFFER_KIND_DRAW)))

    @tree.command(name="takeback", description="Ask to take back your last move (before your "
                                                "opponent moves)")
    async def takeback(interaction: Interaction) -> None:
        async with handling(interaction):
            match = await service.in_channel(interaction.channel_id or 0)
            note_match(match.id)
            await service.request_takeback(match.id, interaction.user.id)
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
                await service.end_vacation(interaction.user.id)
                await reply(interaction, phrase(strings.VACATION_ENDED))
                return
            count = days or 7
            until, left = await service.start_vacation(interaction.user.id, count)
            await reply(interaction, nphrase(*strings.VACATION_SET, count,
                                             until=absolute_time(until), left=int(left)))

    @tree.command(name="reminders", description="How Corral reminds you of your turns")
    @app_commands.describe(mode="on: when half and nearly all your time is gone; digest: one "
                                "DM a day; off")
    @app_commands.choices(mode=[app_commands.Choice(name=m, value=m) for m in REMINDER_MODES])
    async def reminders(interaction: Interaction, mode: str) -> None:
        async with handling(interaction):
            await service.set_reminders(interaction.user.id, mode)
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
            await service.set_notify(interaction.user.id, mode)
            await reply(interaction, phrase(NOTIFY_TEXTS[mode]))
            if language is not None:
                await service.set_user_language(interaction.user.id, language)
                await reply(interaction, phrase(strings.LANGUAGE_SET,
                                                language=phrase(strings.LANGUAGE_NAMES[language])))
