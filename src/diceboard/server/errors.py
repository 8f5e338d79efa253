"""Errors of the game service, each with the HTTP status it is answered with. Engine errors
(:class:`~diceboard.core.errors.DiceboardError`, a ``ValueError``) are answered with 400."""

from __future__ import annotations

import math
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from diceboard.server.live import LiveGame


class ServiceError(Exception):
    """A request that cannot be carried out; ``status`` is its HTTP status code."""

    status = 400
    code = "bad_request"

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


class BadRequest(ServiceError):
    """Input that is well-formed but not acceptable (an unknown level, a bad option)."""


class Unauthorized(ServiceError):
    """A seat token is needed and none was given."""

    status = 401
    code = "no_token"


class Forbidden(ServiceError):
    """The token given holds no seat that may do this."""

    status = 403
    code = "forbidden"


class NotFound(ServiceError):
    """No such game (or position)."""

    status = 404
    code = "not_found"


class Conflict(ServiceError):
    """The request does not fit the game as it is now (another move came first, it is the
    other player's turn, the game is over). Carries the current game so the client can
    catch up."""

    status = 409
    code = "conflict"

    def __init__(self, message: str, live: LiveGame | None = None) -> None:
        super().__init__(message)
        self.live = live


class TooManyRequests(ServiceError):
    """The client is over its share (a rate limit, a queue's cap); ``retry_after`` says in how
    many whole seconds asking again can succeed (the ``Retry-After`` header)."""

    status = 429
    code = "rate_limited"

    def __init__(self, message: str, retry_after: float) -> None:
        super().__init__(message)
        self.retry_after = max(1, math.ceil(retry_after))


class Gone(ServiceError):
    """The game expired (nobody joined it, or it was abandoned): it can be watched and its
    record downloaded, but nothing can be done in it."""

    status = 410
    code = "expired"


class TooLarge(ServiceError):
    """The request is bigger than the server takes (a record with too many games or moves)."""

    status = 413
    code = "too_large"
