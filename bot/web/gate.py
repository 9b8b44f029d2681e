"""The web pages' door: caps on connections and live streams, time limits, and a log that no
stranger can fill. The pages are public by link (a board's button, a link preview), so anyone
with one link can open connections: each cap answers plainly (503 or 429 with Retry-After) and
is counted in /metrics, and the caps stay below the process's descriptor limit, so Discord,
the database and /healthz always have descriptors left.

- Connections: at most `connections` open at once, and `per_peer` from one address that is not
  a trusted proxy (behind a proxy every connection comes from the proxy). A connection must
  send its first request's headers within `header_seconds`; an idle keep-alive connection is
  closed after `idle_seconds` (aiohttp's keep-alive timeout). When all are taken, a newcomer
  takes the place of the oldest connection that has not sent its headers yet (sockets opened
  and left silent cannot keep a real request, /healthz included, out); only when every
  connection is a request or a stream is the newcomer answered 503.
- Live streams (`/m/…/live`, `/t/…/live`): at most `streams` in all, `per_match` on one match
  or tournament, and `per_client` from one client: the peer's address, or behind a trusted
  proxy the address that proxy appended to X-Forwarded-For (a trusted peer that forwards no
  address is a process on this machine, and has no per-client cap).
- Malformed requests: a short answer with the security headers, nothing of the request echoed;
  logged at most once a minute per client (`bad_requests` counts them all).
"""

from __future__ import annotations

import ipaddress
import logging
import resource
import time
from collections import Counter, OrderedDict
from collections.abc import Callable, Mapping
from dataclasses import dataclass, replace

log = logging.getLogger("bot.web")

Network = ipaddress.IPv4Network | ipaddress.IPv6Network
LOOPBACK: tuple[Network, ...] = (ipaddress.ip_network("127.0.0.0/8"),
                                 ipaddress.ip_network("::1/128"))
# descriptors kept for everything but the pages: Discord's gateway and HTTP, the database and
# its threads, picture and AI workers' pipes, log files, /healthz and /metrics scrapes
RESERVED_FDS = 256
RETRY_AFTER = 30  # seconds a refused client is told to wait
LOG_EVERY = 60.0  # seconds between two log lines about one client's bad requests
CLIENTS_REMEMBERED = 4096  # clients whose last log line is remembered (the oldest go first)


class LimitError(ValueError):
    """A CORRAL_WEB_* limit is not a number in its range; the message says which."""


@dataclass(frozen=True)
class WebLimits:
    """The caps and time limits (CORRAL_WEB_MAX_STREAMS, CORRAL_WEB_TRUSTED_PROXIES)."""

    streams: int = 10_000  # live streams in all
    per_match: int = 2_000  # live streams on one match or tournament
    per_client: int = 20  # live streams from one client (a household or an office's NAT)
    connections: int = 12_000  # open connections in all (streams, pages, pictures, probes)
    per_peer: int = 256  # open connections from one address that is not a trusted proxy
    header_seconds: float = 10.0  # to send a new connection's first request headers
    idle_seconds: float = 20.0  # an idle keep-alive connection is closed after this
    trusted: tuple[Network, ...] = LOOPBACK  # proxies whose X-Forwarded-For is believed

    @classmethod
    def from_env(cls, values: Mapping[str, str]) -> WebLimits:
        limits = cls()
        text = values.get("CORRAL_WEB_MAX_STREAMS", "").strip()
        if text:
            if not (text.isascii() and text.isdigit() and len(text) <= 7
                    and 1 <= int(text) <= 1_000_000):
                raise LimitError(f"CORRAL_WEB_MAX_STREAMS={text[:30]!r}: expected a number of "
                                 "live streams (1-1000000)")
            streams = int(text)
            limits = replace(limits, streams=streams, per_match=min(limits.per_match, streams),
                             connections=streams + 2_000)
        text = values.get("CORRAL_WEB_TRUSTED_PROXIES", "")
        if text.strip():
            trusted: list[Network] = []
            for part in text.replace(",", " ").split():
                if part.lower() == "none":
                    continue
                try:
                    trusted.append(ipaddress.ip_network(part, strict=False))
                except ValueError:
                    raise LimitError(f"CORRAL_WEB_TRUSTED_PROXIES: {part[:50]!r} is not an "
                                     "address or network (such as 127.0.0.1 or 10.0.0.0/8), "
                                     "or none") from None
            limits = replace(limits, trusted=tuple(trusted))
        return limits

    def within(self, descriptors: int) -> WebLimits:
        """These limits lowered to leave `RESERVED_FDS` of `descriptors` for the rest."""
        room = max(64, descriptors - RESERVED_FDS)
        if self.connections <= room:
            return self
        connections = room
        streams = max(1, min(self.streams, connections - max(32, connections // 8)))
        return replace(self, connections=connections, streams=streams,
                       per_match=min(self.per_match, streams),
                       per_peer=min(self.per_peer, connections))


def raise_descriptor_limit(wanted: int) -> int:
    """Raise this process's soft descriptor limit towards its hard one (systemd's
    `LimitNOFILE` sets both; a shell usually gives 1024 soft); the soft limit after."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    target = wanted if hard == resource.RLIM_INFINITY else min(wanted, hard)
    if target > soft:
        try:
            resource.setrlimit(resource.RLIMIT_NOFILE, (target, hard))
            soft = target
        except (ValueError, OSError):
            pass
    return soft


def parse_ip(text: str | None) -> ipaddress.IPv4Address | ipaddress.IPv6Address | None:
    if not text or len(text) > 64:
        return None
    try:
        return ipaddress.ip_address(text.strip().strip("[]").split("%", 1)[0])
    except ValueError:
        return None


class Gate:
    """The counts behind the caps, and the counters /metrics shows."""

    def __init__(self, limits: WebLimits | None = None):
        self.limits = limits or WebLimits()
        self.connections = 0
        self._peers: Counter[str] = Counter()
        self.streams = 0
        self._per_watch: Counter[object] = Counter()
        self._per_client: Counter[str] = Counter()
        self.refused: Counter[str] = Counter()  # by reason: connections, peer, headers, ...
        # connections that have not sent their first headers, the oldest first: each with
        # what drops it (it then counts no more)
        self._silent: OrderedDict[object, Callable[[], None]] = OrderedDict()
        self.bad_requests = 0
        self._logged: OrderedDict[str, float] = OrderedDict()

    # -- who is asking ---------------------------------------------------------------------
    def trusted(self, peer: str | None) -> bool:
        address = parse_ip(peer)
        return address is not None and any(address in net for net in self.limits.trusted)

    def client(self, peer: str | None, forwarded: str | None) -> str:
        """The client behind a request: the peer, or the address a trusted proxy appended to
        X-Forwarded-For (its last entry that is not itself a trusted proxy); "" for a trusted
        peer that forwards nothing (a process on this machine: a probe, a bench), which no
        per-client cap counts."""
        if self.trusted(peer) and not forwarded:
            return ""
        if forwarded and self.trusted(peer):
            for part in reversed(forwarded[:1024].split(",")[-8:]):
                address = parse_ip(part)
                if address is None:
                    break
                if not any(address in net for net in self.limits.trusted):
                    return str(address)
        return peer or "?"

    # -- connections -----------------------------------------------------------------------
    def open_connection(self, peer: str | None, door: object,
                        drop: Callable[[], None]) -> str | None:
        """Count a new connection, or the reason it is refused (nothing is counted then).
        It is silent until `spoke(door)`; `drop` ends it if a newcomer needs its place."""
        key = peer or "?"
        if not self.trusted(peer) and self._peers[key] >= self.limits.per_peer:
            self.refused["peer"] += 1  # before any eviction: an address at its cap takes
            return "peer"              # no one else's place
        if self.connections >= self.limits.connections:
            if not self._silent:
                self.refused["connections"] += 1
                return "connections"
            _, oldest = self._silent.popitem(last=False)
            self.refused["silent"] += 1
            oldest()  # it closes its connection and calls `close_connection`
        self.connections += 1
        self._peers[key] += 1
        self._silent[door] = drop
        return None

    def spoke(self, door: object) -> None:
        """The connection sent its first request's headers."""
        self._silent.pop(door, None)

    def close_connection(self, peer: str | None, door: object) -> None:
        self._silent.pop(door, None)
        self.connections -= 1
        key = peer or "?"
        self._peers[key] -= 1
        if self._peers[key] <= 0:
            del self._peers[key]

    # -- live streams ----------------------------------------------------------------------
    def open_stream(self, watched: object, client: str) -> tuple[int, str] | None:
        """Count a new live stream, or the (status, reason) it is refused with."""
        limits = self.limits
        if self.streams >= limits.streams:
            reason: tuple[int, str] = (503, "streams")
        elif self._per_watch[watched] >= limits.per_match:
            reason = (503, "match")
        elif client and self._per_client[client] >= limits.per_client:
            reason = (429, "client")
        else:
            self.streams += 1
            self._per_watch[watched] += 1
            if client:
                self._per_client[client] += 1
            return None
        self.refused[reason[1]] += 1
        return reason

    def close_stream(self, watched: object, client: str) -> None:
        self.streams -= 1
        self._per_watch[watched] -= 1
        if self._per_watch[watched] <= 0:
            del self._per_watch[watched]
        if client:
            self._per_client[client] -= 1
            if self._per_client[client] <= 0:
                del self._per_client[client]

    # -- bad requests ----------------------------------------------------------------------
    def bad_request(self, client: str, status: int, exc: BaseException | None) -> None:
        """Count it; log it unless this client was logged less than a minute ago. A server
        error (a bug of ours) is logged with its traceback, a client's malformed request in
        one line naming only the kind of error (nothing it sent: it could forge log lines)."""
        self.bad_requests += 1
        now = time.monotonic()
        last = self._logged.get(client)
        if last is not None and now - last < LOG_EVERY:
            return
        self._logged[client] = now
        self._logged.move_to_end(client)
        while len(self._logged) > CLIENTS_REMEMBERED:
            self._logged.popitem(last=False)
        kind = type(exc).__name__ if exc is not None else "error"
        if status >= 500:
            log.error("web: error answering %s (%s); more from this client within a minute "
                      "are only counted", client, kind, exc_info=exc)
        else:
            log.warning("web: malformed request from %s (%s, answered %s); more from this "
                        "client within a minute are only counted (corral_web_bad_requests)",
                        client, kind, status)
