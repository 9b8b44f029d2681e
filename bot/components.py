"""Buttons that survive restarts: everything they need is in their custom id.

    corral:mv:<match>:<ply>:<notation>     a move button on a board
    corral:lobby:<action>:<match>          join / start / cancel / accept / decline
    corral:resign:<match>                  the confirmation of /resign
    corral:cell:<match>:<ply>:<group>      a select menu of cells (moves written <cell>:<n>)
    corral:view:<match>                    "My view": the caller's private picture
    corral:step:<match>:<ply>:<prefix>     first half of a move (b2-b3), then its ending privately
    corral:pick:<match>:<ply>:<mode>       a plate menu (setup: a pawn's plate; ghost: its plate)
    corral:rocks:<match>:<ply>:<plate>     the three plates that get a rock at set-up
    corral:claim:<match>:<version>         claim the win / skip the turn of a timed-out player
    corral:offer:<offer>:<accept|decline>  answer a draw or takeback offer
    corral:rematch:<match>                 a new match between the same players
    corral:tile:<match>:<ply>:<step>[:arg] the private tile flow (start, act, kind:BM, origin)

The callbacks only parse and hand over to `interaction.client.flows`.
"""

from __future__ import annotations

import re
from typing import Any

import discord

LOBBY_ACTIONS = ("join", "start", "cancel", "accept", "decline")


class MoveButton(discord.ui.DynamicItem[discord.ui.Button],
                 template=r"corral:mv:(?P<match>\d+):(?P<ply>\d+):(?P<move>.{1,60})"):
    def __init__(self, match_id: int, ply: int, notation: str, *, label: str | None = None):
        super().__init__(discord.ui.Button(
            style=discord.ButtonStyle.primary, label=label or notation,
            custom_id=f"corral:mv:{match_id}:{ply}:{notation}"))
        self.match_id, self.ply, self.notation = match_id, ply, notation

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Button,
                             match: re.Match[str], /) -> "MoveButton":
        return cls(int(match["match"]), int(match["ply"]), match["move"])

    async def callback(self, interaction: discord.Interaction) -> Any:
        await interaction.client.flows.move(interaction, self.match_id, self.notation,
                                            expected_ply=self.ply, from_button=True)


class LobbyButton(discord.ui.DynamicItem[discord.ui.Button],
                  template=r"corral:lobby:(?P<action>join|start|cancel|accept|decline):(?P<match>\d+)"):
    STYLES = {"join": discord.ButtonStyle.primary, "start": discord.ButtonStyle.success,
              "cancel": discord.ButtonStyle.secondary, "accept": discord.ButtonStyle.success,
              "decline": discord.ButtonStyle.danger}

    def __init__(self, action: str, match_id: int):
        super().__init__(discord.ui.Button(
            style=self.STYLES[action], label=action.capitalize(),
            custom_id=f"corral:lobby:{action}:{match_id}"))
        self.action, self.match_id = action, match_id

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Button,
                             match: re.Match[str], /) -> "LobbyButton":
        return cls(match["action"], int(match["match"]))

    async def callback(self, interaction: discord.Interaction) -> Any:
        await interaction.client.flows.lobby(interaction, self.action, self.match_id)


class ResignButton(discord.ui.DynamicItem[discord.ui.Button],
                   template=r"corral:resign:(?P<match>\d+)"):
    def __init__(self, match_id: int):
        super().__init__(discord.ui.Button(
            style=discord.ButtonStyle.danger, label="Resign",
            custom_id=f"corral:resign:{match_id}"))
        self.match_id = match_id

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Button,
                             match: re.Match[str], /) -> "ResignButton":
        return cls(int(match["match"]))

    async def callback(self, interaction: discord.Interaction) -> Any:
        await interaction.client.flows.resign(interaction, self.match_id, confirmed=True)


class CellSelect(discord.ui.DynamicItem[discord.ui.Select],
                 template=r"corral:cell:(?P<match>\d+):(?P<ply>\d+):(?P<group>\d+)"):
    """First step of a two-step move: which cell. The second step (how many) is ephemeral."""

    def __init__(self, match_id: int, ply: int, group: int,
                 options: list[discord.SelectOption], placeholder: str):
        super().__init__(discord.ui.Select(
            custom_id=f"corral:cell:{match_id}:{ply}:{group}", options=options,
            placeholder=placeholder, min_values=1, max_values=1))
        self.match_id, self.ply = match_id, ply

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Select,
                             match: re.Match[str], /) -> "CellSelect":
        return cls(int(match["match"]), int(match["ply"]), int(match["group"]),
                   list(item.options), item.placeholder or "")

    async def callback(self, interaction: discord.Interaction) -> Any:
        await interaction.client.flows.pick_cell(interaction, self.match_id, self.ply,
                                                 self.item.values[0])


class ViewButton(discord.ui.DynamicItem[discord.ui.Button],
                 template=r"corral:view:(?P<match>\d+)"):
    def __init__(self, match_id: int, label: str = "My view"):
        super().__init__(discord.ui.Button(style=discord.ButtonStyle.secondary, label=label,
                                           custom_id=f"corral:view:{match_id}"))
        self.match_id = match_id

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Button,
                             match: re.Match[str], /) -> "ViewButton":
        return cls(int(match["match"]), item.label or "My view")

    async def callback(self, interaction: discord.Interaction) -> Any:
        await interaction.client.flows.private_view(interaction, self.match_id)


class TileStart(discord.ui.DynamicItem[discord.ui.Button],
                template=r"corral:tile:(?P<match>\d+):(?P<ply>\d+):start"):
    """Opens the private tile flow (only the clicker sees it)."""

    def __init__(self, match_id: int, ply: int, label: str = "Play…"):
        super().__init__(discord.ui.Button(style=discord.ButtonStyle.primary, label=label,
                                           custom_id=f"corral:tile:{match_id}:{ply}:start"))
        self.match_id, self.ply = match_id, ply

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Button,
                             match: re.Match[str], /) -> "TileStart":
        return cls(int(match["match"]), int(match["ply"]), item.label or "Play…")

    async def callback(self, interaction: discord.Interaction) -> Any:
        await interaction.client.flows.tile_flow(interaction, self.match_id, self.ply,
                                                 "start", None, None)


class TileSelect(discord.ui.DynamicItem[discord.ui.Select],
                 template=r"corral:tile:(?P<match>\d+):(?P<ply>\d+):(?P<step>act|kind|origin)"
                          r"(?::(?P<arg>[A-Za-z0-9]{1,4}))?"):
    def __init__(self, match_id: int, ply: int, step: str, arg: str | None,
                 options: list[discord.SelectOption], placeholder: str):
        custom_id = f"corral:tile:{match_id}:{ply}:{step}" + (f":{arg}" if arg else "")
        super().__init__(discord.ui.Select(custom_id=custom_id, options=options,
                                           placeholder=placeholder))
        self.match_id, self.ply, self.step, self.arg = match_id, ply, step, arg

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Select,
                             match: re.Match[str], /) -> "TileSelect":
        return cls(int(match["match"]), int(match["ply"]), match["step"], match["arg"],
                   list(item.options), item.placeholder or "")

    async def callback(self, interaction: discord.Interaction) -> Any:
        await interaction.client.flows.tile_flow(interaction, self.match_id, self.ply,
                                                 self.step, self.arg, self.item.values[0])


class StepButton(discord.ui.DynamicItem[discord.ui.Button],
                 template=r"corral:step:(?P<match>\d+):(?P<ply>\d+):(?P<prefix>[a-z0-9-]{1,20})"):
    def __init__(self, match_id: int, ply: int, prefix: str, label: str):
        super().__init__(discord.ui.Button(style=discord.ButtonStyle.primary, label=label,
                                           custom_id=f"corral:step:{match_id}:{ply}:{prefix}"))
        self.match_id, self.ply, self.prefix = match_id, ply, prefix

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Button,
                             match: re.Match[str], /) -> "StepButton":
        return cls(int(match["match"]), int(match["ply"]), match["prefix"], item.label or "")

    async def callback(self, interaction: discord.Interaction) -> Any:
        await interaction.client.flows.finish_step(interaction, self.match_id, self.ply,
                                                   self.prefix)


class PickSelect(discord.ui.DynamicItem[discord.ui.Select],
                 template=r"corral:pick:(?P<match>\d+):(?P<ply>\d+):(?P<mode>setup|ghost)"):
    def __init__(self, match_id: int, ply: int, mode: str, options: list[discord.SelectOption],
                 placeholder: str):
        super().__init__(discord.ui.Select(custom_id=f"corral:pick:{match_id}:{ply}:{mode}",
                                           options=options, placeholder=placeholder))
        self.match_id, self.ply, self.mode = match_id, ply, mode

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Select,
                             match: re.Match[str], /) -> "PickSelect":
        return cls(int(match["match"]), int(match["ply"]), match["mode"], list(item.options),
                   item.placeholder or "")

    async def callback(self, interaction: discord.Interaction) -> Any:
        await interaction.client.flows.pick(interaction, self.match_id, self.ply, self.mode,
                                            self.item.values[0])


class RocksSelect(discord.ui.DynamicItem[discord.ui.Select],
                  template=r"corral:rocks:(?P<match>\d+):(?P<ply>\d+):(?P<plate>[a-z][0-9])"):
    def __init__(self, match_id: int, ply: int, plate: str, options: list[discord.SelectOption],
                 placeholder: str):
        super().__init__(discord.ui.Select(custom_id=f"corral:rocks:{match_id}:{ply}:{plate}",
                                           options=options, placeholder=placeholder,
                                           min_values=3, max_values=3))
        self.match_id, self.ply, self.plate = match_id, ply, plate

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Select,
                             match: re.Match[str], /) -> "RocksSelect":
        return cls(int(match["match"]), int(match["ply"]), match["plate"], list(item.options),
                   item.placeholder or "")

    async def callback(self, interaction: discord.Interaction) -> Any:
        notation = f"{self.plate}:{','.join(sorted(self.item.values))}"
        await interaction.client.flows.move(interaction, self.match_id, notation,
                                            expected_ply=self.ply, from_button=True)


class ClaimButton(discord.ui.DynamicItem[discord.ui.Button],
                  template=r"corral:claim:(?P<match>\d+):(?P<version>\d+)"):
    def __init__(self, match_id: int, version: int, label: str = "Claim"):
        super().__init__(discord.ui.Button(style=discord.ButtonStyle.danger, label=label,
                                           custom_id=f"corral:claim:{match_id}:{version}"))
        self.match_id, self.version = match_id, version

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Button,
                             match: re.Match[str], /) -> "ClaimButton":
        return cls(int(match["match"]), int(match["version"]), item.label or "Claim")

    async def callback(self, interaction: discord.Interaction) -> Any:
        await interaction.client.flows.claim(interaction, self.match_id, self.version)


class OfferButton(discord.ui.DynamicItem[discord.ui.Button],
                  template=r"corral:offer:(?P<offer>\d+):(?P<answer>accept|decline)"):
    def __init__(self, offer_id: int, answer: str, label: str):
        style = discord.ButtonStyle.success if answer == "accept" else discord.ButtonStyle.secondary
        super().__init__(discord.ui.Button(style=style, label=label,
                                           custom_id=f"corral:offer:{offer_id}:{answer}"))
        self.offer_id, self.answer = offer_id, answer

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Button,
                             match: re.Match[str], /) -> "OfferButton":
        return cls(int(match["offer"]), match["answer"], item.label or match["answer"])

    async def callback(self, interaction: discord.Interaction) -> Any:
        await interaction.client.flows.answer_offer(interaction, self.offer_id,
                                                    self.answer == "accept")


class RematchButton(discord.ui.DynamicItem[discord.ui.Button],
                    template=r"corral:rematch:(?P<match>\d+)"):
    def __init__(self, match_id: int, label: str = "Rematch"):
        super().__init__(discord.ui.Button(style=discord.ButtonStyle.primary, label=label,
                                           custom_id=f"corral:rematch:{match_id}"))
        self.match_id = match_id

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Button,
                             match: re.Match[str], /) -> "RematchButton":
        return cls(int(match["match"]), item.label or "Rematch")

    async def callback(self, interaction: discord.Interaction) -> Any:
        await interaction.client.flows.rematch(interaction, self.match_id)


DYNAMIC_ITEMS = (MoveButton, LobbyButton, ResignButton, CellSelect, ViewButton, TileStart,
                 TileSelect, StepButton, PickSelect, RocksSelect, ClaimButton, OfferButton,
                 RematchButton)


def lobby_view(match_id: int, actions: tuple[str, ...]) -> discord.ui.View:
    view = discord.ui.View(timeout=None)
    for action in actions:
        view.add_item(LobbyButton(action, match_id))
    return view
