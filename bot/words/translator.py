"""Slash commands in the reader's language: discord.py's `app_commands.Translator`, fed by
the same gettext catalogs as every sentence.

Descriptions and choice names are their English text as the message id (extracted from the
cogs by `bot.words.catalogs.extract_corral`). Command and option names are short words that could
collide with sentences, so their message ids carry a `name:` prefix (listed below); a
translated name must still follow Discord's rules (lowercase, 1-32 letters or digits of any
script, `-` or `_`), and one that does not is left in English. A new command, option or
choice needs its words here: tests/test_i18n.py walks the whole registered tree and fails for
any name, description or choice a Japanese client would see in English.
"""

from __future__ import annotations

import re

from discord import app_commands

from games import N_

from .i18n import DEFAULT_LANGUAGE, language_of, translations

NAME_PREFIX = "name:"
NAME_RULE = re.compile(r"^[-_\w]{1,32}$")

# every command, group and option name, so that the catalogs carry them
NAMES = (
    N_("name:play"), N_("name:move"), N_("name:board"), N_("name:hand"), N_("name:resign"),
    N_("name:abort"), N_("name:matches"), N_("name:rules"), N_("name:help"),
    N_("name:corral"), N_("name:settings"), N_("name:notify"), N_("name:record"),
    N_("name:draw"), N_("name:takeback"), N_("name:vacation"), N_("name:reminders"),
    N_("name:game"), N_("name:opponent"), N_("name:options"), N_("name:first"),
    N_("name:time"), N_("name:ai"), N_("name:notation"), N_("name:public"),
    N_("name:match"), N_("name:days"), N_("name:end"), N_("name:mode"),
    N_("name:language"), N_("name:threads"), N_("name:spectators"), N_("name:channel"),
    N_("name:channels"), N_("name:profile"), N_("name:leaderboard"), N_("name:replay"),
    N_("name:user"), N_("name:scope"), N_("name:rated"), N_("name:analysis"),
    N_("name:learn"), N_("name:dm"), N_("name:restart"), N_("name:conditional"),
    N_("name:puzzle"), N_("name:organisers"), N_("name:web_links"), N_("name:tournament"),
    N_("name:create"), N_("name:join"), N_("name:leave"), N_("name:start"),
    N_("name:withdraw"), N_("name:remove"), N_("name:standings"), N_("name:export"),
    N_("name:format"), N_("name:rounds"), N_("name:round_time"), N_("name:signup"),
    N_("name:min_rating"), N_("name:double"), N_("name:draw_break"), N_("name:title"),
    N_("name:member"), N_("name:text"), N_("name:at"), N_("name:last"), N_("name:clocks"),
)
# choice names built from lists in the code
CHOICES = (N_("random"), N_("me"), N_("my opponent"), N_("easy"), N_("normal"), N_("hard"),
           N_("channel"), N_("dm"), N_("both"), N_("on"), N_("off"), N_("digest"),
           N_("allow"), N_("disallow"), N_("all"), N_("en"), N_("ja"),
           # tournament formats and draw breaks (bot/cogs/tournaments.py: "_" read as " ")
           N_("swiss"), N_("round robin"), N_("knockout"), N_("pods"), N_("extra game"),
           N_("minimatch"))
NAMED = {
    app_commands.TranslationContextLocation.command_name,
    app_commands.TranslationContextLocation.group_name,
    app_commands.TranslationContextLocation.parameter_name,
}


class CatalogTranslator(app_commands.Translator):
    async def translate(self, string: app_commands.locale_str, locale: object,
                        context: app_commands.TranslationContextTypes) -> str | None:
        language = language_of(getattr(locale, "value", None) or str(locale))
        if language == DEFAULT_LANGUAGE:
            return None
        catalog = translations(language)
        if context.location in NAMED:
            key = NAME_PREFIX + string.message
            found = catalog.gettext(key)
            if found == key or not NAME_RULE.match(found) or found != found.lower():
                return None
            return found
        found = catalog.gettext(string.message)
        return None if found == string.message else found[:100]
