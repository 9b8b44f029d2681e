"""A loopback imitation of the Discord API for end-to-end tests (not part of the product)."""

from .errors import ApiError
from .limits import LOCALES
from .model import (
                    APP_ID,
                    BOT_USER_ID,
                    EPHEMERAL,
                    AddedGuild,
                    ChannelRef,
                    InteractionRecord,
                    Picture,
                    RoleRef,
                    Session,
                    UserRef,
)
from .server import FakeDiscord

__all__ = ["APP_ID", "BOT_USER_ID", "EPHEMERAL", "LOCALES", "AddedGuild", "ApiError",
           "ChannelRef", "FakeDiscord", "InteractionRecord", "Picture", "RoleRef", "Session",
           "UserRef"]
