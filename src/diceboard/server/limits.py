"""What one client may ask of the server: who a client is, rate limits, and socket caps.

A *client* is the network address a request comes from: the peer's IP address, or — where the
peer is one of the configured trusted reverse proxies (``ServerSettings.trusted_proxies``,
``diceboard serve --trusted-proxy``) — the address that proxy names in ``X-Forwarded-For``
(uvicorn's :class:`~uvicorn.middleware.proxy_headers.ProxyHeadersMiddleware` rewrites the
request's client and scheme before anything here reads them). An IPv6 address counts by its
``/64`` network, the block one machine usually gets. Not a cookie: a visitor who wants more
than its share simply drops a cookie, while a new address costs it something.

Every request runs with its client in :data:`CLIENT` (set by :class:`ClientMiddleware`), so
code deep in the service (a computer turn started by a move) knows whom to charge without a
parameter threaded through every call; background work started at boot has ``"server"``.
"""

from __future__ import annotations

import contextvars
import ipaddress
import time
from collections.abc import Callable
from dataclasses import dataclass, field

from starlette.types import ASGIApp, Receive, Scope, Send

from diceboard.server.errors import TooManyRequests
from diceboard.server.settings import Rate, ServerSettings

#: the client of the request being served (see the module's docstring)
CLIENT: contextvars.ContextVar[str] = contextvars.ContextVar("diceboard_client", default="server")

#: buckets kept per limiter before the full (idle) ones are forgotten
_BUCKETS_KEPT = 10_000


def client_key(host: str | None) -> str:
    """The client key of a peer address: the IPv4 address, the ``/64`` of an IPv6 one, the
    text as it is for anything else (a Unix socket, a test client).

    >>> client_key("203.0.113.7"), client_key("2001:db8:1:2:3:4:5:6"), client_key(None)
    ('203.0.113.7', '2001:db8:1:2::/64', 'unknown')
    """
    if not host:
        return "unknown"
    try:
        address = ipaddress.ip_address(host)
    except ValueError:
        return host[:64]
    if isinstance(address, ipaddress.IPv6Address):
        if address.ipv4_mapped is not None:
            return str(address.ipv4_mapped)
        return str(ipaddress.IPv6Network((address, 64), strict=False))
    return str(address)


def current_client() -> str:
    """The client of the request being served (``"server"`` outside any request)."""
    return CLIENT.get()


class ClientMiddleware:
    """Sets :data:`CLIENT` for every HTTP request and WebSocket from the peer's address (as
    the proxy-header middleware left it)."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] not in ("http", "websocket"):
            await self.app(scope, receive, send)
            return
        peer = scope.get("client")
        token = CLIENT.set(client_key(peer[0] if peer else None))
        try:
            await self.app(scope, receive, send)
        finally:
            CLIENT.reset(token)


@dataclass
class _Bucket:
    tokens: float
    stamp: float


@dataclass
class RateLimiter:
    """A token bucket per client: ``rate.burst`` actions at once, ``rate.per_minute`` more a
    minute. ``what`` names the action in the refusal ("games created")."""

    what: str
    rate: Rate
    clock: Callable[[], float] = time.monotonic
    _buckets: dict[str, _Bucket] = field(default_factory=dict)

    def hit(self, client: str) -> None:
        """Count one action of ``client``; :class:`TooManyRequests` (nothing counted) when it
        is over the limit, with the seconds until one more is allowed."""
        now = self.clock()
        per_second = self.rate.per_minute / 60.0
        bucket = self._buckets.get(client)
        if bucket is None:
            if len(self._buckets) >= _BUCKETS_KEPT:
                self._forget_full(now)
            bucket = self._buckets[client] = _Bucket(float(self.rate.burst), now)
        else:
            bucket.tokens = min(
                float(self.rate.burst), bucket.tokens + (now - bucket.stamp) * per_second
            )
            bucket.stamp = now
        if bucket.tokens < 1.0:
            wait = (1.0 - bucket.tokens) / per_second
            raise TooManyRequests(
                f"too many {self.what}: at most {self.rate.burst} at once and "
                f"{self.rate.per_minute:g} a minute from one address; try again in "
                f"{max(1, round(wait))} s",
                wait,
            )
        bucket.tokens -= 1.0

    def _forget_full(self, now: float) -> None:
        per_second = self.rate.per_minute / 60.0
        full = [
            key
            for key, b in self._buckets.items()
            if b.tokens + (now - b.stamp) * per_second >= self.rate.burst
        ]
        for key in full:
            del self._buckets[key]
        if len(self._buckets) >= _BUCKETS_KEPT:  # every bucket busy: forget the oldest half
            for key in list(self._buckets)[: _BUCKETS_KEPT // 2]:
                del self._buckets[key]


class Limits:
    """The rate limits of one server, by name: ``create``, ``move``, ``import``, ``hint``,
    ``chat`` (each from its setting; a limit set to ``None`` lets everything through)."""

    def __init__(self, settings: ServerSettings, clock: Callable[[], float] = time.monotonic):
        rates = {
            "create": ("games created", settings.create_rate),
            "move": ("moves", settings.move_rate),
            "import": ("record imports", settings.import_rate),
            "hint": ("hints", settings.hint_rate),
            "chat": ("chat messages", settings.chat_rate),
        }
        self._limiters: dict[str, RateLimiter | None] = {
            name: None if rate is None else RateLimiter(what, rate, clock)
            for name, (what, rate) in rates.items()
        }

    def check(self, name: str, client: str | None = None) -> None:
        """Count one ``name`` action of ``client`` (default: the current request's client);
        raises :class:`TooManyRequests` (answered 429 with ``Retry-After``) when over."""
        if name not in self._limiters:
            raise KeyError(f"no rate limit named {name!r}; limits: {', '.join(self._limiters)}")
        limiter = self._limiters[name]
        if limiter is not None:
            limiter.hit(current_client() if client is None else client)


@dataclass
class SocketLimits:
    """Open WebSockets counted per game and per client, from accept to close."""

    per_game: int
    per_client: int
    _games: dict[str, int] = field(default_factory=dict)
    _clients: dict[str, int] = field(default_factory=dict)

    def open(self, game_id: str, client: str) -> None:
        """Count a new socket; :class:`TooManyRequests` (nothing counted) when the game or the
        client already has its most."""
        if self._clients.get(client, 0) >= self.per_client:
            raise TooManyRequests(
                f"too many connections from one address (at most {self.per_client} at once); "
                "close some tabs or try again later",
                5.0,
            )
        if self._games.get(game_id, 0) >= self.per_game:
            raise TooManyRequests(
                f"game {game_id} has as many viewers as it can take ({self.per_game}); "
                "try again later",
                5.0,
            )
        self._clients[client] = self._clients.get(client, 0) + 1
        self._games[game_id] = self._games.get(game_id, 0) + 1

    def close(self, game_id: str, client: str) -> None:
        """Count a socket that :meth:`open` admitted as closed."""
        for counts, key in ((self._clients, client), (self._games, game_id)):
            left = counts.get(key, 0) - 1
            if left > 0:
                counts[key] = left
            else:
                counts.pop(key, None)

    def count(self, game_id: str) -> int:
        """The sockets open on ``game_id``."""
        return self._games.get(game_id, 0)
