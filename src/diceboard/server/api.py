"""The HTTP JSON API (``/api/…``; OpenAPI at ``/openapi.json``).

A player is known by the seat token sent in the ``X-Seat-Token`` header or, for pages of the
same site, the HttpOnly cookie ``diceboard_seat_<game id>`` set when the seat was granted.
Requests are limited per client (see :mod:`diceboard.server.limits`): games created, moves
and other actions, hints and imports each have a rate, answered 429 with ``Retry-After`` when
over. Every state-changing request answers with the game as it now is (the same ``state`` message
the WebSocket pushes); a refused one answers 4xx with ``detail`` saying why, and a 409 also
carries ``state``: the game as it now is.
"""

from __future__ import annotations

import functools
import logging
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Annotated, Any, Literal, TypeVar

from fastapi import APIRouter, Depends, Path, Query, Request, Response
from fastapi.responses import JSONResponse, PlainTextResponse

from diceboard import __version__, games
from diceboard.server.computer_players import computer_levels
from diceboard.server.errors import Forbidden, NotFound, responses
from diceboard.server.limits import Limits
from diceboard.server.live import LiveGame
from diceboard.server.move_json import move_json
from diceboard.server.schemas import (
    ImportedBody,
    ImportRecord,
    JoinGame,
    MoveRequest,
    NewGame,
    OfferAction,
    Resignation,
    SeatGrantBody,
)
from diceboard.server.service import GameService, SeatGrant
from diceboard.server.views import board_picture, summary

#: the pattern of a game id in a path
GAME_ID = r"^[A-Za-z0-9_-]{1,24}$"
GameId = Annotated[str, Path(pattern=GAME_ID, description="the game's id")]
TOKEN_HEADER = "X-Seat-Token"
COOKIE_PREFIX = "diceboard_seat_"
COOKIE_AGE = 365 * 24 * 3600

router = APIRouter(prefix="/api")
log = logging.getLogger(__name__)
F = TypeVar("F", bound=Callable[..., Any])

# --- what the OpenAPI document declares beyond the signatures ---------------------------------
#: the seat token header, on the routes that read it (they read the seat cookie too)
SEAT_HEADER: dict[str, Any] = {
    "parameters": [
        {
            "name": TOKEN_HEADER,
            "in": "header",
            "required": False,
            "schema": {"type": "string"},
            "description": "the seat token the game's creation or join answered with (for a "
            "page of this site the seat cookie does instead); none: a spectator",
        }
    ]
}
#: refusals of any request with a body (400: a body that is not JSON), and of an action in a
#: game by a seat
BODY = (400, 413, 422)
ACTION = (*BODY, 401, 403, 404, 409, 410, 429)
#: the operations a new game's id leads to, and those of them that take its seat token
GAME_OPERATIONS = ("join_game", "position", "record")
SEAT_OPERATIONS = (
    "get_game",
    "remember_seat",
    "play_move",
    "resign",
    "draw",
    "takeback",
    "rematch",
    "hint",
)


def _links(*operations: str, with_token: bool = True) -> dict[str, Any]:
    """OpenAPI links from an answer with the game's ``id`` (and ``token``) to ``operations``
    of the game (all of them by default)."""
    links = {}
    for op in operations or GAME_OPERATIONS + SEAT_OPERATIONS:
        parameters = {"path.game_id": "$response.body#/id"}
        if with_token and op in SEAT_OPERATIONS:
            parameters[f"header.{TOKEN_HEADER}"] = "$response.body#/token"
        links[op] = {"operationId": op, "parameters": parameters}
    return links


def _granted(status: int, *refusals: int) -> dict[int | str, dict[str, Any]]:
    """The responses of a route that hands out a seat (with ``status``) or refuses."""
    granted: dict[int | str, dict[str, Any]] = {status: {"model": SeatGrantBody, "links": _links()}}
    return {**granted, **responses(*refusals)}


def service_of(request: Request) -> GameService:
    """The app's game service."""
    service: GameService = request.app.state.service
    return service


Service = Annotated[GameService, Depends(service_of)]


def limits_of(request: Request) -> Limits:
    """The app's rate limits."""
    limits: Limits = request.app.state.limits
    return limits


Limited = Annotated[Limits, Depends(limits_of)]


def came_over_https(request: Request) -> bool:
    """Whether the browser reached the server over HTTPS (directly, or through a trusted
    proxy that said so in ``X-Forwarded-Proto``; see the ``trusted_proxies`` setting)."""
    return request.url.scheme in ("https", "wss")


def same_origin(request: Request) -> bool:
    """Whether the request comes from a page of this site (or states no origin at all, as
    programs do). Cookies act only for such requests, which shuts out cross-site forgery."""
    origin = request.headers.get("origin")
    if origin is None:
        return True
    host = request.headers.get("host", "")
    return origin.split("://", 1)[-1] == host


def seat_token(request: Request, game_id: str) -> str | None:
    """The seat token of a request: the header, else the game's cookie (same-origin only)."""
    token = request.headers.get(TOKEN_HEADER)
    if token:
        return token.strip()[:128]
    cookie = request.cookies.get(COOKIE_PREFIX + game_id)
    if cookie and same_origin(request):
        return cookie[:128]
    return None


def state_response(
    service: GameService,
    live: LiveGame,
    token: str | None,
    flipped: bool = False,
    status: int = 200,
    pictures: bool = True,
) -> Response:
    """The game as the holder of ``token`` sees it (``pictures=False``: without the SVG)."""
    seats = service.seats_of(live, token)
    text = service.hub.state_message(live, seats, flipped, pictures)
    return Response(content=text, media_type="application/json", status_code=status)


def _grant_response(
    service: GameService, grant: SeatGrant, status: int, request: Request
) -> Response:
    live = grant.live
    body: dict[str, Any] = {
        "id": live.id,
        "seats": grant.seats,
        "token": grant.token,
        "links": links(live, grant.token),
    }
    response = JSONResponse(body, status_code=status)
    set_seat_cookie(response, live.id, grant.token, secure=came_over_https(request))
    return response


def set_seat_cookie(response: Response, game_id: str, token: str, *, secure: bool = False) -> None:
    """Remember the seat in this browser (HttpOnly, same-site only; ``secure``: sent back over
    HTTPS only, as a cookie set over HTTPS must be)."""
    response.set_cookie(
        COOKIE_PREFIX + game_id,
        token,
        max_age=COOKIE_AGE,
        httponly=True,
        samesite="strict",
        secure=secure,
        path="/",
    )


def links(live: LiveGame, token: str) -> dict[str, str]:
    """The page links of a game: the player's own (with the token in the fragment, which
    browsers never send to a server), the spectators', and the opponent's invite."""
    result = {"player": f"/game/{live.id}#seat={token}", "spectate": f"/game/{live.id}"}
    if live.data.invite_code:
        result["invite"] = f"/game/{live.id}/join#code={live.data.invite_code}"
    return result


# --- reference data -----------------------------------------------------------------------------
@router.get(
    "/meta", operation_id="meta", summary="Games, variants, options and computer levels on offer"
)
async def meta(request: Request) -> dict[str, Any]:
    warmup = request.app.state.warmup
    # while the engine warms up the menus come from the registry alone (an example position
    # needs a kernel), and ``engine`` says what is being done
    menus = game_menus() if warmup.ready else registry_menus()
    return {
        "version": __version__,
        "games": menus,
        "levels": computer_levels(),
        "ready": warmup.ready,
        "engine": warmup.health(),
    }


@router.get(
    "/health",
    operation_id="health",
    summary="Whether the engine is ready (it warms up after a start)",
)
async def health(request: Request) -> dict[str, Any]:
    return dict(request.app.state.warmup.health())


def registry_menus() -> list[dict[str, Any]]:
    """:func:`game_menus` without the example positions (no kernel is needed for these)."""
    return [{**info.to_json(), "example_position": None} for info in games.infos()]


@functools.cache
def game_menus() -> list[dict[str, Any]]:
    """What the home page builds its menus from: every registered game's info
    (:meth:`~diceboard.core.info.GameInfo.to_json`: title, players, variants and options with
    their choices, ranges and defaults) and an example position string for the start box."""
    return [
        {**info.to_json(), "example_position": str(games.game(info.name).start(seed=0))}
        for info in games.infos()
    ]


# --- games -------------------------------------------------------------------------------------
@router.post(
    "/games",
    status_code=201,
    operation_id="create_game",
    summary="Create a game; the answer holds your seat token",
    responses=_granted(201, *BODY, 429),
)
async def create_game(
    body: NewGame, request: Request, service: Service, limits: Limited
) -> Response:
    limits.check("create")
    return _grant_response(service, await service.create(body), 201, request)


@router.get(
    "/games",
    operation_id="list_games",
    summary="Short descriptions of the games with the ids given",
    responses=responses(422),
)
async def list_games(
    service: Service,
    ids: Annotated[str, Query(max_length=2000, pattern=r"^[A-Za-z0-9_,-]*$")] = "",
) -> list[dict[str, Any]]:
    wanted = [i for i in ids.split(",") if i][:100]
    return [summary(g, s) for g, s in await service.summaries(wanted)]


@router.get("/lobby", operation_id="lobby", summary="Listed online games waiting for an opponent")
async def lobby(service: Service) -> list[dict[str, Any]]:
    return [summary(g, s) for g, s in await service.lobby()]


@router.get(
    "/games/{game_id}",
    operation_id="get_game",
    summary="The game as the requester sees it",
    responses=responses(404, 422),
    openapi_extra=SEAT_HEADER,
)
async def get_game(
    game_id: GameId,
    request: Request,
    service: Service,
    flipped: bool = False,
    pictures: bool = True,
) -> Response:
    live = await service.get(game_id)
    return state_response(service, live, seat_token(request, game_id), flipped, pictures=pictures)


@router.post(
    "/games/{game_id}/join",
    operation_id="join_game",
    summary="Take the open seat of a waiting online game",
    responses=_granted(200, *BODY, 403, 404, 409, 410, 429),
)
async def join_game(
    game_id: GameId, body: JoinGame, request: Request, service: Service, limits: Limited
) -> Response:
    limits.check("move")
    grant = await service.join(game_id, body.code, body.name)
    return _grant_response(service, grant, 200, request)


@router.post(
    "/games/{game_id}/session",
    operation_id="remember_seat",
    summary="Remember a seat token in this browser",
    responses=responses(403, 404, 422),
    openapi_extra=SEAT_HEADER,
)
async def remember_seat(game_id: GameId, request: Request, service: Service) -> Response:
    token = request.headers.get(TOKEN_HEADER)
    live = await service.get(game_id)
    if not token or not service.seats_of(live, token):
        raise Forbidden(f"this token holds no seat in game {game_id}")
    response = state_response(service, live, token)
    set_seat_cookie(response, game_id, token, secure=came_over_https(request))
    return response


@dataclass(frozen=True)
class SeatCall:
    """A request for an action by a seat of a game (a move, a resignation, an offer): the
    game, the caller's seat token (header or cookie) and what the action needs."""

    game_id: str
    token: str | None
    service: GameService
    limits: Limits

    async def answer(
        self, act: Callable[[str | None], Awaitable[LiveGame]], *, computer: bool = False
    ) -> Response:
        """Check the caller's rate, make room for the computer where it must weigh the
        action up (``computer``), do ``act`` with the caller's token, and answer with the
        game as the caller now sees it."""
        self.limits.check("move")
        if computer:
            await self.service.computer.ensure_room(self.game_id)
        return state_response(self.service, await act(self.token), self.token)


def seat_call(game_id: GameId, request: Request, service: Service, limits: Limited) -> SeatCall:
    """The :class:`SeatCall` of a request to ``/games/{game_id}/…``."""
    return SeatCall(game_id, seat_token(request, game_id), service, limits)


Call = Annotated[SeatCall, Depends(seat_call)]


def seat_action(path: str, operation_id: str, summary: str) -> Callable[[F], F]:
    """The route of an action by a seat: ``POST /games/{game_id}/<path>``, which reads the
    seat token and may be refused as any action is (:data:`ACTION`)."""
    return router.post(
        f"/games/{{game_id}}/{path}",
        operation_id=operation_id,
        summary=summary,
        responses=responses(*ACTION),
        openapi_extra=SEAT_HEADER,
    )


@seat_action("moves", "play_move", "Play a move (409 if the game moved on)")
async def play_move(body: MoveRequest, call: Call) -> Response:
    return await call.answer(
        lambda token: call.service.move(call.game_id, token, body.move, body.version),
        computer=True,
    )


@seat_action("resign", "resign", "Resign")
async def resign(body: Resignation, call: Call) -> Response:
    return await call.answer(lambda token: call.service.resign(call.game_id, token, body.seat))


@seat_action("draw", "draw", "Offer, accept or decline a draw")
async def draw(body: OfferAction, call: Call) -> Response:
    # the computer weighs an offer up
    return await call.answer(
        lambda token: call.service.draw(call.game_id, token, body.action), computer=True
    )


@seat_action("takeback", "takeback", "Ask for, accept or decline a takeback")
async def takeback(body: OfferAction, call: Call) -> Response:
    return await call.answer(lambda token: call.service.takeback(call.game_id, token, body.action))


@seat_action("rematch", "rematch", "Offer, accept or decline a rematch")
async def rematch(body: OfferAction, request: Request, call: Call) -> Response:
    call.limits.check("move")
    service, token = call.service, call.token
    answer = await service.rematch(call.game_id, token, body.action)
    secure = came_over_https(request)
    response = JSONResponse(answer)
    if answer.get("token"):
        set_seat_cookie(response, answer["game"], answer["token"], secure=secure)
        live = await service.get(answer["game"])
        answer["links"] = links(live, answer["token"])
        response = JSONResponse(answer)
        set_seat_cookie(response, answer["game"], answer["token"], secure=secure)
    return response


@router.post(
    "/games/{game_id}/hint",
    operation_id="hint",
    summary="The computer's suggestion for your move",
    responses=responses(401, 403, 404, 409, 410, 422, 429),
    openapi_extra=SEAT_HEADER,
)
async def hint(
    game_id: GameId, request: Request, service: Service, limits: Limited
) -> dict[str, Any]:
    limits.check("hint")
    return await service.hint(game_id, seat_token(request, game_id))


@router.get(
    "/games/{game_id}/positions/{index}",
    operation_id="position",
    summary="An earlier position of the game",
    responses=responses(404, 422),
)
async def position(
    game_id: GameId,
    index: Annotated[int, Path(ge=0, le=100_000)],
    service: Service,
    flipped: bool = False,
) -> dict[str, Any]:
    live = await service.get(game_id)
    if index > len(live.moves):
        raise_not_found(game_id, index, len(live.moves))
    state = list(live.state.path())[index]
    last = None
    if state.parent is not None and state.last_move is not None:
        last = move_json(state.parent, state.last_move)
    return {
        "index": index,
        "position": str(state),
        "last": last,
        "board": {sq: [o, f] for sq, (o, f) in state.board().items()},
        "svg": board_picture(live, flipped, index),
    }


def raise_not_found(game_id: str, index: int, count: int) -> None:
    """404 for a position past the end of the game."""
    raise NotFound(f"game {game_id} has {count} moves: positions 0 to {count}, not {index}")


@router.get(
    "/games/{game_id}/record",
    operation_id="record",
    summary="Download the game record (PGN or JSON)",
    responses={
        200: {
            "description": "the record, as an attachment",
            "content": {"application/x-chess-pgn": {"schema": {"type": "string"}}},
        },
        **responses(404, 422),
    },
)
async def record(
    game_id: GameId, service: Service, format: Literal["pgn", "json"] = "pgn"
) -> Response:
    rec = await service.record(game_id)
    name = f"diceboard-{game_id}.{format}"
    headers = {"Content-Disposition": f'attachment; filename="{name}"'}
    if format == "json":
        return Response(rec.to_json(), media_type="application/json", headers=headers)
    return PlainTextResponse(rec.to_pgn(), headers=headers, media_type="application/x-chess-pgn")


@router.post(
    "/imports",
    status_code=201,
    operation_id="import_record",
    summary="Store a game record for replaying",
    responses={
        201: {
            "model": ImportedBody,
            "links": _links("get_game", "position", "record", with_token=False),
        },
        **responses(*BODY, 429),
    },
)
async def import_record(body: ImportRecord, service: Service, limits: Limited) -> dict[str, Any]:
    limits.check("import")
    live = await service.import_text(body.record)
    return {
        "id": live.id,
        "links": {"spectate": f"/game/{live.id}"},
        "moves": len(live.moves),
        "imported_at": time.time(),
    }
