"""Errors of the game service, each with the HTTP status it is answered with. Engine errors
(:class:`~diceboard.core.errors.DiceboardError`, a ``ValueError``) are answered with 400.
:func:`responses` declares the refusals of a route in the OpenAPI document,
:func:`document_request_errors` those that every request may meet; :func:`allowed_methods` is
the ``Allow`` header of a 405."""

from __future__ import annotations

import math
from typing import TYPE_CHECKING, Any

from fastapi import FastAPI
from starlette.requests import Request
from starlette.routing import Match

from diceboard.server.schemas import ConflictBody, ErrorBody

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


#: refusals that no service error stands for, with what they mean
_OTHER_REFUSALS = {
    400: "Well-formed but not acceptable: an unknown game, variant, option or level, a bad "
    "position, an illegal move, a record that does not read.",
    413: "The request body is larger than the server takes, or a record holds more games or "
    "moves than it takes.",
    422: "The body or a parameter does not fit the schema: a wrong JSON type (no coercion: "
    '"1" or 1.0 is no integer), a missing or unknown field, a value out of range.',
    429: "The client is over its share (a rate limit, a cap on queued computer work): ask "
    "again after Retry-After seconds.",
}


def _meaning(status: int) -> str:
    """What a refusal with ``status`` means: the docstring of the service error answered with
    it, or the words above for the refusals that several errors (or none) make."""
    if status in _OTHER_REFUSALS:
        return _OTHER_REFUSALS[status]
    todo, found = [ServiceError], []
    while todo:
        cls = todo.pop()
        todo.extend(cls.__subclasses__())
        if cls.status == status and cls is not ServiceError:
            found.append(cls)
    if len(found) != 1:
        raise ValueError(f"{len(found)} errors of this server are answered with {status}")
    return " ".join((found[0].__doc__ or "").split())


def responses(*statuses: int) -> dict[int | str, dict[str, Any]]:
    """The OpenAPI ``responses`` of a route that may refuse with ``statuses``: each with what
    it means and its body (:class:`~diceboard.server.schemas.ErrorBody`; a 409 carries the
    game's ``state``, a 429 the ``Retry-After`` header)."""
    declared: dict[int | str, dict[str, Any]] = {}
    for status in statuses:
        entry: dict[str, Any] = {
            "description": _meaning(status),
            "model": ConflictBody if status == Conflict.status else ErrorBody,
        }
        if status == TooManyRequests.status:
            entry["headers"] = {
                "Retry-After": {
                    "description": "whole seconds after which asking again can succeed",
                    "required": True,
                    "schema": {"type": "integer", "minimum": 1},
                }
            }
        declared[status] = entry
    return declared


def allowed_methods(request: Request) -> str:
    """The ``Allow`` header of a 405 to ``request``: every method that some route of the app
    takes at its path (Starlette's own names only the first such route's, so ``GET`` and
    ``POST`` on one path, two routes, would each hide the other)."""
    methods: set[str] = set()
    for route in request.app.router.routes:
        match, _ = route.matches(request.scope)
        if match != Match.NONE:
            methods |= getattr(route, "methods", None) or set()
    return ", ".join(sorted(methods))


#: a 404 declared for any operation with path parameters
_NOT_THERE = "Nothing is there: no such game, position, lesson, puzzle or job."


def document_request_errors(app: FastAPI) -> None:
    """Make ``app``'s OpenAPI document declare, on every operation of every router, the
    refusals that any request may meet, where the operation does not say them itself: its
    422 with this server's body (FastAPI declares its own ``HTTPValidationError``, which this
    server never sends), 400 (a body that is not JSON) and 413 (too large) where it takes a
    body, and 404 where its path names something. (The generated document is amended,
    FastAPI's standard way to change it.)"""
    generate = app.openapi
    amended: list[dict[str, Any]] = []

    def openapi() -> dict[str, Any]:
        document = generate()  # FastAPI caches it: amended once
        if not amended:
            _amend(document)
            amended.append(document)
        return document

    app.openapi = openapi  # type: ignore[method-assign]


def _amend(document: dict[str, Any]) -> None:
    ours = {"$ref": "#/components/schemas/ErrorBody"}
    schemas = document.setdefault("components", {}).setdefault("schemas", {})
    schemas.setdefault("ErrorBody", ErrorBody.model_json_schema())
    for operations in document.get("paths", {}).values():
        for operation in operations.values():
            answers = operation.setdefault("responses", {})
            wanted = [422, 400, 413] if "requestBody" in operation else []
            if any(p.get("in") == "path" for p in operation.get("parameters", [])):
                wanted.append(404)  # every path parameter names something that may not exist
            if "422" in answers and "HTTPValidationError" in str(answers["422"]):
                del answers["422"]
                wanted.append(422)
            for status in wanted:
                if str(status) not in answers:
                    content = {"application/json": {"schema": ours}}
                    meaning = _NOT_THERE if status == 404 else _meaning(status)
                    answers[str(status)] = {"description": meaning, "content": content}
    if "HTTPValidationError" not in str(document.get("paths")):
        schemas.pop("HTTPValidationError", None)
        schemas.pop("ValidationError", None)
