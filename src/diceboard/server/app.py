"""The ASGI application: API, WebSocket, pages and static files, wired to one game service."""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
from collections.abc import AsyncIterator, Callable
from pathlib import Path
from typing import Any

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import HTMLResponse, JSONResponse, Response
from fastapi.staticfiles import StaticFiles
from starlette.exceptions import HTTPException as StarletteHTTPException
from starlette.types import ASGIApp, Message, Receive, Scope, Send
from uvicorn.middleware.proxy_headers import ProxyHeadersMiddleware

from diceboard import __version__, games
from diceboard.core.errors import DiceboardError, IllegalMoveError, NotationError
from diceboard.server import analysis_api, api, chat_api, learning_api, rules_pages, websocket
from diceboard.server.computer import ComputerPool
from diceboard.server.computer_players import warm_up_kernels, warm_up_rules
from diceboard.server.errors import (
    Conflict,
    ServiceError,
    TooManyRequests,
    allowed_methods,
    document_request_errors,
)
from diceboard.server.gate import EngineGate
from diceboard.server.hub import Hub
from diceboard.server.limits import ClientMiddleware, Limits, SocketLimits
from diceboard.server.pages import page_response
from diceboard.server.service import GameService
from diceboard.server.settings import ServerSettings
from diceboard.server.storage import Database, Repository
from diceboard.server.views import ViewCache, warm_up_views
from diceboard.server.warmup import Warmup

log = logging.getLogger(__name__)
STATIC = Path(__file__).resolve().parent / "static"

#: pages never load anything from elsewhere, never run inline script, never sit in a frame
SECURITY_HEADERS = {
    "Content-Security-Policy": (
        "default-src 'self'; img-src 'self' data:; style-src 'self' 'unsafe-inline'; "
        "script-src 'self'; connect-src 'self'; frame-ancestors 'none'; base-uri 'none'; "
        "form-action 'self'"
    ),
    "Referrer-Policy": "no-referrer",
    "X-Content-Type-Options": "nosniff",
    "X-Frame-Options": "DENY",
}


class BodyLimit:
    """Refuses request bodies over ``limit`` bytes with 413, before anything reads them."""

    def __init__(self, app: ASGIApp, limit: int) -> None:
        self.app = app
        self.limit = limit

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        for name, value in scope.get("headers", ()):
            if name == b"content-length" and (not value.isdigit() or int(value) > self.limit):
                await _too_large(self.limit, send)
                return
        seen = 0
        over = False

        async def counted() -> Message:
            nonlocal seen, over
            message = await receive()
            if message["type"] == "http.request":
                seen += len(message.get("body", b""))
                if seen > self.limit:
                    over = True
                    raise _TooLarge()
            return message

        async def unless_over(message: Message) -> None:
            # a body read that failed (FastAPI answers 400 for it) is answered 413 instead
            if not over:
                await send(message)

        with contextlib.suppress(_TooLarge):
            await self.app(scope, counted, unless_over)
        if over:
            await _too_large(self.limit, send)


class _TooLarge(Exception):
    pass


async def _too_large(limit: int, send: Send) -> None:
    body = JSONResponse(
        {"detail": f"the request body is larger than {limit} bytes", "code": "too_large"},
        status_code=413,
    )
    await send({"type": "http.response.start", "status": 413, "headers": body.raw_headers})
    await send({"type": "http.response.body", "body": body.body})


def _error_body(detail: str, code: str, **extra: Any) -> dict[str, Any]:
    return {"detail": detail, "code": code, **extra}


def create_app(
    settings: ServerSettings,
    *,
    warm_up_beside: bool = False,
    announce: Callable[[str], None] | None = None,
) -> FastAPI:
    """The web app on the database ``settings.database_url`` (migrated before this returns;
    a database that cannot be opened raises :class:`~diceboard.core.errors.OptionError`).

    ``warm_up_beside``: serve at once and warm the engine up beside serving (requests that
    need it wait; see :mod:`diceboard.server.warmup`), as ``diceboard serve`` does; else the
    app starts serving once the engine is warm. ``announce`` is told what the warm-up does."""
    database = Database.open(settings.database_url)
    repository = Repository(database)
    pool = ComputerPool(
        settings.computer_pool,
        settings.computer_workers,
        per_client=settings.computer_jobs_per_client,
        per_game=settings.computer_jobs_per_game,
    )
    views = ViewCache()
    hub = Hub(views)
    service = GameService(repository, pool, hub, settings)
    warmup = Warmup(announce)

    @contextlib.asynccontextmanager
    async def lifespan(_app: FastAPI) -> AsyncIterator[None]:
        # the workers warm up in their own processes (kernels and the computer's search), so
        # that the first computer move does not wait for a compiler; they start now (an
        # interpreter, its imports and the first game's evaluation, beside the server's
        # compiling); Warmup.run hands them the first game's search once the server has the
        # rules kernels it calls, and each game's warm-up once it has all of its kernels
        computer = pool.warm_up if settings.computer_pool == "process" else None
        if computer is not None:
            pool.start(first=games.names()[0])
        # the server's own requests also use what the snapshots draw with (dice counts, a
        # move's trace): warmed too, so that no request of a ready game compiles anything
        # while the next game's kernels do
        warming = asyncio.create_task(
            warmup.run(
                warm_up_kernels,
                service,
                computer,
                serving=warm_up_views,
                search_ahead=(warm_up_rules, pool.compile_search),
            )
        )
        if not warm_up_beside:
            await warming
        try:
            yield
        finally:
            if not warming.done():
                warming.cancel()
                with contextlib.suppress(asyncio.CancelledError):
                    await warming
            await service.stop()
            pool.close()
            database.close()

    app = FastAPI(
        title="diceboard",
        version=__version__,
        description=f"Play {' and '.join(i.title for i in games.infos())}: "
        "an authoritative game server. "
        "Seat tokens go in the X-Seat-Token header.",
        lifespan=lifespan,
    )
    app.state.service = service
    app.state.warmup = warmup
    app.state.settings = settings
    app.state.database = database
    app.state.limits = Limits(settings)
    app.state.sockets = SocketLimits(settings.sockets_per_game, settings.sockets_per_client)

    @app.exception_handler(ServiceError)
    async def service_error(request: Request, exc: ServiceError) -> Response:
        body = _error_body(exc.message, exc.code)
        if isinstance(exc, Conflict) and exc.live is not None:
            game_id = exc.live.id
            token = api.seat_token(request, game_id)
            state = service.hub.state_message(exc.live, service.seats_of(exc.live, token), False)
            detail = json.dumps(exc.message)
            text = f'{{"detail":{detail},"code":"conflict","state":{state}}}'
            return Response(text, status_code=409, media_type="application/json")
        headers = None
        if isinstance(exc, TooManyRequests):
            headers = {"Retry-After": str(exc.retry_after)}
        return JSONResponse(body, status_code=exc.status, headers=headers)

    @app.exception_handler(DiceboardError)
    async def engine_error(_request: Request, exc: DiceboardError) -> Response:
        code = (
            "illegal_move"
            if isinstance(exc, IllegalMoveError)
            else "notation"
            if isinstance(exc, NotationError)
            else type(exc).__name__.removesuffix("Error").lower()
        )
        return JSONResponse(_error_body(str(exc), code), status_code=400)

    @app.exception_handler(RequestValidationError)
    async def invalid(_request: Request, exc: RequestValidationError) -> Response:
        problems = []
        for error in exc.errors():
            where = ".".join(str(p) for p in error.get("loc", ()))
            problems.append(f"{where}: {error.get('msg')}")
        detail = "; ".join(problems[:5]) or "the request is not valid"
        return JSONResponse(_error_body(detail, "invalid"), status_code=422)

    @app.exception_handler(StarletteHTTPException)
    async def http_error(request: Request, exc: StarletteHTTPException) -> Response:
        headers = exc.headers
        if exc.status_code == 405:
            headers = {**(headers or {}), "Allow": allowed_methods(request)}
        return JSONResponse(
            _error_body(str(exc.detail), "http"), status_code=exc.status_code, headers=headers
        )

    @app.middleware("http")
    async def security_headers(request: Request, call_next: Any) -> Response:
        response: Response = await call_next(request)
        for name, value in SECURITY_HEADERS.items():
            response.headers.setdefault(name, value)
        if request.url.path.startswith("/api/"):
            response.headers.setdefault("Cache-Control", "no-store")
        return response

    app.include_router(api.router)
    app.include_router(websocket.router)
    app.include_router(analysis_api.router)
    app.include_router(learning_api.router)
    app.include_router(chat_api.router)
    app.include_router(rules_pages.router)
    document_request_errors(app)  # the refusals of every router's routes
    app.mount("/static", StaticFiles(directory=STATIC), name="static")

    @app.get("/", include_in_schema=False)
    async def home() -> HTMLResponse:
        return page_response("index")

    @app.get("/game/{game_id}", include_in_schema=False)
    async def game_page(game_id: str) -> HTMLResponse:
        return page_response("game")

    @app.get("/game/{game_id}/join", include_in_schema=False)
    async def join_page(game_id: str) -> HTMLResponse:
        return page_response("game")

    app.add_middleware(EngineGate, warmup=warmup, game_of=service.game_of)
    app.add_middleware(BodyLimit, limit=settings.max_body_bytes)
    # who the client is (limits.py), after the trusted proxies' headers are applied (outermost)
    app.add_middleware(ClientMiddleware)
    app.add_middleware(ProxyHeadersMiddleware, trusted_hosts=list(settings.trusted_proxies))
    return app
