"""A loopback imitation of the Discord API for end-to-end tests (not part of the product)."""

from .server import APP_ID, EPHEMERAL, FakeDiscord, InteractionRecord, UserRef

__all__ = ["APP_ID", "EPHEMERAL", "FakeDiscord", "InteractionRecord", "UserRef"]
