"""The chat routes: ``GET /api/games/{id}/chat`` (anyone: the messages after an id, and the
spectator count) and ``POST /api/games/{id}/chat`` (a player of an online game)."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Query, Request

from diceboard.server.api import GameId, seat_token
from diceboard.server.chat import Chat
from diceboard.server.schemas import ChatPost

router = APIRouter(prefix="/api")


def chat_of(request: Request) -> Chat:
    """The app's chat (made on first use from the app's service, database and limits)."""
    state = request.app.state
    chat: Chat | None = getattr(state, "chat", None)
    if chat is None:
        chat = state.chat = Chat(state.service, state.database, state.limits)
    return chat


@router.get("/games/{game_id}/chat", summary="The chat of an online game, and its spectators")
async def read_chat(
    game_id: GameId,
    request: Request,
    after: Annotated[int, Query(ge=0, le=2**62, description="only messages after this id")] = 0,
) -> dict[str, Any]:
    return await chat_of(request).read(game_id, after)


@router.post("/games/{game_id}/chat", summary="Write in the chat (players of online games)")
async def post_chat(game_id: GameId, body: ChatPost, request: Request) -> dict[str, Any]:
    return await chat_of(request).post(game_id, seat_token(request, game_id), body.text)
