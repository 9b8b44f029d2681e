"""Discord's error answers: an HTTP status, a JSON `code` and `message`, and for 50035 a tree
of field errors (developers/reference#error-messages).

The codes, messages and statuses are Discord's (topics/opcodes-and-status-codes, and answers
quoted in public issues: 50027 "Invalid Webhook Token" with 401, 40005 with 413, 50013
"Missing Permissions" with 403, 50001 "Missing Access" with 403). spec.py and limits.py say where each inner 50035 code comes
from.
"""

from __future__ import annotations

from typing import Any

# (HTTP status, JSON code, message)
UNKNOWN_CHANNEL = (404, 10003, "Unknown Channel")
UNKNOWN_MESSAGE = (404, 10008, "Unknown Message")
UNKNOWN_USER = (404, 10013, "Unknown User")
UNKNOWN_WEBHOOK = (404, 10015, "Unknown Webhook")
UNKNOWN_INTERACTION = (404, 10062, "Unknown interaction")
ENTITY_TOO_LARGE = (413, 40005, "Request entity too large")
ALREADY_ACKNOWLEDGED = (400, 40060, "Interaction has already been acknowledged.")
# the sixth follow-up of an interaction only a user install authorized (receiving-and-
# responding.mdx: "limited to 5 followup messages"; the code: opcodes-and-status-codes.mdx)
MAX_FOLLOWUPS = (400, 40094, "This interaction has hit the maximum number of follow up messages")
# a channel the bot is not in: a DM or group DM between users, a server without the bot
MISSING_ACCESS = (403, 50001, "Missing Access")
CANNOT_EDIT_OTHERS = (403, 50005, "Cannot edit a message authored by another user")
EMPTY_MESSAGE = (400, 50006, "Cannot send an empty message")
CANNOT_DM = (403, 50007, "Cannot send messages to this user")
# a DM to a user who shares no server with the bot and has not installed the app to their
# account: added to opcodes-and-status-codes.mdx by discord-api-docs PR #8212 as "Cannot send
# messages to this user" (the same words as 50007), given its own words by PR #8244
NO_MUTUAL_GUILDS = (403, 50278, "Cannot send messages to this user due to having no mutual "
                                "guilds")
MISSING_PERMISSIONS = (403, 50013, "Missing Permissions")
INVALID_WEBHOOK_TOKEN = (401, 50027, "Invalid Webhook Token")
INVALID_FORM_BODY = (400, 50035, "Invalid Form Body")
THREAD_ARCHIVED = (400, 50083, "Thread is archived")
UNAUTHORIZED = (401, 0, "401: Unauthorized")

SERVER_ERRORS = {500: "500: Internal Server Error", 502: "502: Bad Gateway",
                 503: "503: Service Unavailable", 504: "504: Gateway Timeout"}


class ApiError(Exception):
    """Raised by a route handler; the server answers it as Discord would."""

    def __init__(self, status: int, code: int, message: str,
                 errors: dict[str, Any] | None = None) -> None:
        super().__init__(f"{status} ({code}) {message}")
        self.status, self.code, self.message, self.errors = status, code, message, errors

    def body(self) -> dict[str, Any]:
        body: dict[str, Any] = {"message": self.message, "code": self.code}
        if self.errors:
            body["errors"] = self.errors
        return body


Path = tuple[str | int, ...]


class Form:
    """Collects 50035 field errors by path, e.g. ("data", "components", 0, "components", 5)."""

    def __init__(self) -> None:
        self.errors: dict[str, Any] = {}

    def add(self, path: Path, code: str, message: str) -> None:
        node = self.errors
        for key in path:
            node = node.setdefault(str(key), {})
        node.setdefault("_errors", []).append({"code": code, "message": message})

    # the usual inner errors
    def max_length(self, path: Path, limit: int) -> None:
        self.add(path, "BASE_TYPE_MAX_LENGTH", f"Must be {limit} or fewer in length.")

    def min_length(self, path: Path, limit: int) -> None:
        self.add(path, "BASE_TYPE_MIN_LENGTH", f"Must be {limit} or more in length.")

    def bad_length(self, path: Path, low: int, high: int) -> None:
        self.add(path, "BASE_TYPE_BAD_LENGTH", f"Must be between {low} and {high} in length.")

    def required(self, path: Path) -> None:
        self.add(path, "BASE_TYPE_REQUIRED", "This field is required")

    def choices(self, path: Path, allowed: tuple[Any, ...]) -> None:
        shown = ", ".join(repr(a) if isinstance(a, str) else str(a) for a in allowed)
        self.add(path, "BASE_TYPE_CHOICES", f"Value must be one of ({shown}).")

    def number_range(self, path: Path, value: int, low: int, high: int) -> None:
        """An integer within [low, high] (NUMBER_TYPE_MIN / NUMBER_TYPE_MAX)."""
        if value < low:
            self.add(path, "NUMBER_TYPE_MIN", f"int value should be greater than or equal to "
                     f"{low}.")
        elif value > high:
            self.add(path, "NUMBER_TYPE_MAX", f"int value should be less than or equal to "
                     f"{high}.")

    def at_most(self, path: Path, value: Any, high: int) -> None:
        """An optional string (or list) of at most `high` characters (items)."""
        if value is not None and len(value) > high:
            self.max_length(path, high)

    def raise_if_any(self) -> None:
        if self.errors:
            raise ApiError(*INVALID_FORM_BODY, errors=self.errors)
