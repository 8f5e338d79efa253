"""The analysis board and game review: the ``/analysis`` page and its HTTP API.

- ``POST /api/analysis/moves``: a position (a start and a line of moves from it) with its
  legal moves or chance outcomes and its picture;
- ``POST /api/analysis/evaluate``: the engine's view of it within a time budget (the page
  asks again with bigger budgets while it is left thinking);
- ``POST /api/games/{id}/review``: start (or find) the review of a finished game;
  ``GET /api/reviews/{job}``: its progress, and the review once done (finished reviews are
  stored with their game, so that they outlast a restart of the server).

Nothing here is tied to a seat: a position is public information, and the work runs in the
computer pool, one evaluation at a time per client.
"""

from __future__ import annotations

import asyncio
import itertools
from typing import Annotated, Any

from fastapi import APIRouter, Path, Request
from fastapi.responses import HTMLResponse, JSONResponse
from pydantic import BaseModel, ConfigDict, Field

from diceboard.server.api import GameId, Service
from diceboard.server.errors import Conflict, responses
from diceboard.server.keyed_locks import KeyedLocks
from diceboard.server.pages import page_response
from diceboard.server.service.analysis import (
    MAX_PATH,
    MAX_SECONDS,
    EvaluateJob,
    Reviews,
    node_json,
    replay,
    rules_of,
    run_job,
)
from diceboard.server.storage.reviews import ReviewStore

router = APIRouter()


class AnalysisPosition(BaseModel):
    """A position of the analysis board: the game (as for a new game), a start position
    (``null``: the game's start) and the moves played from it."""

    model_config = ConfigDict(extra="forbid", strict=True)

    game: str = Field(min_length=1, max_length=32)
    variant: str | None = Field(default=None, min_length=1, max_length=32)
    options: dict[str, str | int | bool] = Field(default_factory=dict, max_length=12)
    position: str | None = Field(default=None, min_length=1, max_length=400)
    moves: list[Annotated[str, Field(min_length=1, max_length=64)]] = Field(
        default_factory=list, max_length=MAX_PATH
    )
    flipped: bool = False


class EvaluateRequest(AnalysisPosition):
    """An evaluation within ``seconds`` of search, with the ``lines`` best moves."""

    seconds: float = Field(default=0.5, gt=0, le=MAX_SECONDS)
    lines: int = Field(default=5, ge=1, le=20)


def client_key(request: Request) -> str:
    """Who asks (one evaluation runs at a time for each): the peer's address."""
    return request.client.host if request.client else "unknown"


#: one evaluation at a time per client
_LOCKS = KeyedLocks()
#: the latest evaluation each client asked for: one still waiting when a newer one comes is
#: dropped (the page has moved on), so a client has at most one running and one waiting
_LATEST: dict[str, int] = {}
_TICKETS = itertools.count()


def reviews_of(request: Request, service: Service) -> Reviews:
    """The app's review jobs (made on first use, over the game service's computer pool)."""
    found: Reviews | None = getattr(request.app.state, "reviews", None)
    if found is None:
        found = Reviews(service.core.pool, ReviewStore(request.app.state.database))
        request.app.state.reviews = found
    return found


@router.get("/analysis", include_in_schema=False)
async def analysis_page() -> HTMLResponse:
    return page_response("analysis")


def _node(body: AnalysisPosition) -> dict[str, Any]:
    rules = rules_of(body.game, body.variant, body.options)
    return node_json(replay(rules, body.position, body.moves), body.flipped)


@router.post(
    "/api/analysis/moves",
    operation_id="analysis_moves",
    summary="A position of the analysis board and its moves",
    responses=responses(400, 413, 422),
)
async def analysis_moves(body: AnalysisPosition) -> dict[str, Any]:
    # replaying a long line and drawing the board take milliseconds: beside the event loop
    return await asyncio.to_thread(_node, body)


@router.post(
    "/api/analysis/evaluate",
    operation_id="analysis_evaluate",
    summary="The engine's evaluation of a position",
    responses=responses(400, 409, 413, 422, 429),
)
async def analysis_evaluate(
    body: EvaluateRequest, request: Request, service: Service
) -> dict[str, Any]:
    rules = rules_of(body.game, body.variant, body.options)
    # checked here, so that a bad line is a 400 before anything waits for a worker
    await asyncio.to_thread(replay, rules, body.position, body.moves)
    job = EvaluateJob(
        rules.name,
        rules.non_default_options(),
        body.position,
        tuple(body.moves),
        body.seconds,
        body.lines,
    )
    client = client_key(request)
    ticket = next(_TICKETS)
    _LATEST[client] = ticket
    try:
        async with _LOCKS.hold(client):
            if _LATEST.get(client) != ticket:
                raise Conflict("superseded: a newer evaluation from you came in meanwhile")
            answer: dict[str, Any] = await service.core.pool.run(
                job, game=f"analysis-board:{client}", kind="analysis", work=run_job
            )
    finally:
        if _LATEST.get(client) == ticket:
            del _LATEST[client]
    return answer


@router.post(
    "/api/games/{game_id}/review",
    status_code=202,
    operation_id="start_review",
    summary="Review a finished game (a job: poll GET /api/reviews/{job})",
    responses={200: {"description": "the review is done already"}, **responses(404, 409, 422, 429)},
)
async def start_review(game_id: GameId, request: Request, service: Service) -> JSONResponse:
    live = await service.get(game_id)
    job = await reviews_of(request, service).start(live, await service.record(game_id))
    return JSONResponse(job.to_json(), status_code=200 if job.status == "done" else 202)


@router.get(
    "/api/reviews/{job_id}",
    operation_id="review_progress",
    summary="A review's progress, and the review once done",
    responses=responses(404, 422),
)
async def review_progress(
    job_id: Annotated[str, Path(pattern=r"^[A-Za-z0-9_-]{1,24}$")],
    request: Request,
    service: Service,
) -> dict[str, Any]:
    job = await reviews_of(request, service).get(job_id)
    return job.to_json()
