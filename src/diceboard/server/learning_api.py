"""Lessons and puzzles over HTTP (``/api/learn/…``, ``/api/puzzles/…``) and their pages
(``/learn/<game>``, ``/puzzles``).

Everything the pages show about a position comes from the engine: the board picture, the
legal moves (:func:`~diceboard.server.move_json.legal_moves_json`), and the judgement of a
move, which the lesson's goal (:mod:`diceboard.analysis.lessons`) or the puzzle's proof
(:mod:`diceboard.analysis.puzzles`) makes on the server. Nothing is stored: the browser
keeps the learner's progress. A move the engine cannot read or play is answered 400 with the
engine's explanation; an unknown game, lesson or puzzle 404.
"""

from __future__ import annotations

import functools
import random
from typing import Annotated, Any, Literal

from fastapi import APIRouter, Path, Query, Request
from fastapi.responses import HTMLResponse
from pydantic import BaseModel, ConfigDict, Field

from diceboard import games
from diceboard.analysis import lessons as lesson_data
from diceboard.analysis import puzzles as puzzle_data
from diceboard.core.errors import OptionError
from diceboard.core.game import Game, State
from diceboard.rendering import svg
from diceboard.server.errors import NotFound
from diceboard.server.move_json import legal_moves_json, move_json
from diceboard.server.pages import page_response
from diceboard.server.service import GameService
from diceboard.server.views import BOARD_SIZE, centres, hand_json

NAME = r"^[a-z0-9-]{1,40}$"
GameName = Annotated[str, Path(pattern=NAME, description="a game's name")]
ItemId = Annotated[str, Path(pattern=r"^[A-Za-z0-9_-]{1,60}$", description="an id")]
Difficulty = Annotated[
    int | None,
    Query(ge=1, le=puzzle_data.TOP, description="only the puzzles of this difficulty (1-5)"),
]
Order = Annotated[
    Literal["rising", "set"],
    Query(description="rising: easiest first (the set's order within a difficulty); set: as made"),
]

router = APIRouter()


class TryMove(BaseModel):
    """A move in notation, tried in a lesson or given as a puzzle's answer."""

    model_config = ConfigDict(extra="forbid", strict=True)
    move: str = Field(min_length=1, max_length=64)


def position_json(state: State, *, legal: bool = True) -> dict[str, Any]:
    """A position as the pages draw it: seen from the side to move, with its legal moves."""
    rules = state.game
    flipped = state.to_move == rules.players[1]
    outcome = state.outcome()
    return {
        "position": str(state),
        "to_move": None if state.is_terminal() else state.to_move,
        "players": list(rules.players),
        "player_names": list(rules.player_names),
        "board": {sq: [owner, face] for sq, (owner, face) in state.board().items()},
        "hand": hand_json(state),
        "legal": legal_moves_json(state) if legal and not state.is_terminal() else [],
        "outcome": None
        if outcome is None
        else {"winner": outcome.winner, "reason": outcome.reason, "result": outcome.result},
        "flipped": flipped,
        "svg": svg.render(state, size=BOARD_SIZE, flipped=flipped, interactive=True),
        **centres(rules, flipped),
    }


def _picture_after(before: State, after: State) -> dict[str, Any]:
    """The position after a move, drawn from the mover's side (as the board was)."""
    rules = after.game
    flipped = before.to_move == rules.players[1]
    return {
        "position": str(after),
        "svg": svg.render(after, size=BOARD_SIZE, flipped=flipped, interactive=True),
        **centres(rules, flipped),
    }


# --- lessons ------------------------------------------------------------------------------------
def _lessons(name: str) -> dict[str, Any]:
    try:
        return lesson_data.lessons(name)
    except OptionError as error:
        raise NotFound(str(error)) from None


def _lesson(name: str, lesson_id: str) -> dict[str, Any]:
    _lessons(name)
    try:
        return lesson_data.lesson(name, lesson_id)
    except OptionError as error:
        raise NotFound(str(error)) from None


@router.get("/api/learn", tags=["learning"])
async def learn_index() -> dict[str, Any]:
    """The games that have lessons, each with its lessons' ids and titles."""
    return {
        "games": [
            {
                "game": name,
                "title": games.info(name).title,
                "lessons": [
                    {"id": item["id"], "title": item["title"]}
                    for item in lesson_data.lessons(name)["lessons"]
                ],
            }
            for name in lesson_data.lesson_names()
        ]
    }


@router.get("/api/learn/{game}", tags=["learning"])
async def learn_game(game: GameName) -> dict[str, Any]:
    """A game's lessons, in order: id, title, text (no positions; see the lesson itself)."""
    document = _lessons(game)
    return {
        "game": document["game"],
        "title": games.info(document["game"]).title,
        "heading": document["title"],
        "rules": f"/rules/{document['game']}",
        "lessons": [
            {"id": item["id"], "title": item["title"], "text": item["text"]}
            for item in document["lessons"]
        ],
    }


@router.get("/api/learn/{game}/{lesson}", tags=["learning"])
async def learn_lesson(game: GameName, lesson: ItemId) -> dict[str, Any]:
    """One lesson: its text, its position (picture, legal moves) and the squares it marks."""
    item = _lesson(game, lesson)
    state = lesson_data.start_of(game, item)
    return {
        "game": game,
        "id": item["id"],
        "title": item["title"],
        "text": item["text"],
        "marks": item.get("marks", []),
        "variant": state.game.variant,
        **position_json(state),
    }


@router.post("/api/learn/{game}/{lesson}", tags=["learning"])
async def learn_try(game: GameName, lesson: ItemId, body: TryMove) -> dict[str, Any]:
    """Try a move in a lesson: whether it shows the rule, the explanation, and the position
    after it (a roll that follows, in the Chaos variant, is made here)."""
    item = _lesson(game, lesson)
    tried = lesson_data.attempt(game, item, body.move, random.Random())
    before = lesson_data.start_of(game, item)
    # a move that leaves its face to a roll (Chaos): say what was rolled
    rolled = None
    if tried.move.face is None and before.play(tried.move).is_chance():
        rolled = tried.after.board().get(tried.move.to_square or "", (None, None))[1]
    return {
        "correct": tried.correct,
        "text": tried.text,
        "move": move_json(before, tried.move),
        "rolled": rolled
        if tried.move.face is None and before.play(tried.move).is_chance()
        else None,
        **_picture_after(before, tried.after),
    }


# --- puzzles ------------------------------------------------------------------------------------
@functools.cache
def _shipped(name: str) -> dict[str, Any]:
    return puzzle_data.shipped(name)


def _set(name: str) -> dict[str, Any]:
    try:
        return _shipped(name)
    except OptionError as error:
        raise NotFound(str(error)) from None


def _puzzle(name: str, puzzle_id: str) -> tuple[dict[str, Any], dict[str, Any], int]:
    document = _set(name)
    for index, item in enumerate(document["puzzles"]):
        if item["id"] == puzzle_id:
            return document, item, index
    raise NotFound(f"{name} has no puzzle {puzzle_id!r}")


def _selection(
    document: dict[str, Any], difficulty: int | None, order: str
) -> list[dict[str, Any]]:
    """The puzzles served, in order: those of ``difficulty`` (all if ``None``), easiest first
    for ``rising`` (a stable sort: the set's order within a difficulty)."""
    chosen = [p for p in document["puzzles"] if difficulty is None or p["difficulty"] == difficulty]
    if order == "rising":
        chosen.sort(key=lambda p: int(p["difficulty"]))
    return chosen


def _rules(item: dict[str, Any]) -> Game:
    import diceboard

    return diceboard.game(item["game"], **item.get("options", {}))


@router.get("/api/puzzles", tags=["puzzles"])
async def puzzle_index() -> dict[str, Any]:
    """The games with a puzzle set, and how many puzzles each has."""
    out = []
    for name in games.names():
        try:
            document = _shipped(name)
        except OptionError:
            continue
        out.append(
            {
                "game": name,
                "title": games.info(name).title,
                "count": len(document["puzzles"]),
                "difficulties": puzzle_data.histogram(document["puzzles"]),
            }
        )
    return {"games": out}


@router.get("/api/puzzles/{game}", tags=["puzzles"])
async def puzzle_list(
    game: GameName, difficulty: Difficulty = None, order: Order = "rising"
) -> dict[str, Any]:
    """A game's puzzles in the order served (ids, themes, difficulties; not their
    solutions): easiest first unless ``order=set``, only one difficulty if asked, with how
    many puzzles each difficulty has."""
    document = _set(game)
    return {
        "game": document["game"],
        "title": games.info(document["game"]).title,
        "command": document["command"],
        "difficulty": difficulty,
        "order": order,
        "difficulties": puzzle_data.histogram(document["puzzles"]),
        "puzzles": [
            {"id": p["id"], "theme": p["theme"], "difficulty": p["difficulty"]}
            for p in _selection(document, difficulty, order)
        ],
    }


@router.get("/api/puzzles/{game}/{puzzle}", tags=["puzzles"])
async def puzzle_show(
    game: GameName, puzzle: ItemId, difficulty: Difficulty = None, order: Order = "rising"
) -> dict[str, Any]:
    """One puzzle to solve: its position, theme, difficulty (1-5) and what it is rated
    from, and the next puzzle's id in the order served (the same ``difficulty`` and
    ``order`` as the list; a puzzle outside them is followed by the first of them)."""
    document, item, _ = _puzzle(game, puzzle)
    served = _selection(document, difficulty, order) or document["puzzles"]
    ids = [p["id"] for p in served]
    at = ids.index(item["id"]) if item["id"] in ids else -1
    state = _rules(item).parse(item["position"])
    return {
        "game": game,
        "id": item["id"],
        "number": at + 1 if at >= 0 else None,
        "count": len(served),
        "theme": item["theme"],
        "difficulty": item["difficulty"],
        "rating": item.get("rating", {}),
        "next": ids[(at + 1) % len(ids)],
        **position_json(state),
    }


@router.post("/api/puzzles/{game}/{puzzle}/answer", tags=["puzzles"])
async def puzzle_answer(
    game: GameName, puzzle: ItemId, body: TryMove, request: Request
) -> dict[str, Any]:
    """Judge an answer on the server: right (with the solution line) or wrong (with the
    opponent's reply, found by a short search in the computer pool, and what it costs)."""
    _, item, _ = _puzzle(game, puzzle)
    rules = _rules(item)
    before = rules.parse(item["position"])
    move = before.parse_move(body.move)  # an illegal move: 400 with the engine's reason
    service: GameService = request.app.state.service
    # the reply search runs in the computer pool, counted against the client like a hint
    judged: dict[str, Any] = await service.core.pool.run(
        (game, item["id"], move.notation),
        game=f"puzzle:{game}:{item['id']}",
        kind="hint",
        work=judge_answer,
    )
    return {
        "correct": judged["correct"],
        "text": judged["text"],
        "move": move_json(before, move),
        "reply": judged["reply"],
        **_picture_after(before, before.play(move)),
    }


def judge_answer(task: tuple[str, str, str]) -> dict[str, Any]:
    """In a worker of the computer pool: the judgement of the move ``task[2]`` as the answer
    to the puzzle ``task[1]`` of the game ``task[0]``, as plain data."""
    name, puzzle_id, text = task
    _, item, _ = _puzzle(name, puzzle_id)
    judged = puzzle_data.answer(item, _rules(item), text)
    return {"correct": judged.correct, "text": judged.text, "reply": judged.reply}


@router.get("/api/puzzles/{game}/{puzzle}/solution", tags=["puzzles"])
async def puzzle_solution(game: GameName, puzzle: ItemId) -> dict[str, Any]:
    """The solution and its line, each move with the path to draw and the position after."""
    _, item, _ = _puzzle(game, puzzle)
    state = _rules(item).parse(item["position"])
    first = state
    steps = []
    for text in item["line"]:
        if state.is_terminal() or state.is_chance():
            break
        move = state.parse_move(text)
        after = state.play(move)
        steps.append({"move": move_json(state, move), **_picture_after(first, after)})
        state = after
    return {"solution": item["solution"], "accepted": item.get("accepted", []), "line": steps}


# --- pages --------------------------------------------------------------------------------------
@router.get("/learn", include_in_schema=False)
@router.get("/learn/{game}", include_in_schema=False)
async def learn_page(game: str | None = None) -> HTMLResponse:
    """The lessons page (it reads the game from its address)."""
    return page_response("learn")


@router.get("/puzzles", include_in_schema=False)
async def puzzles_page() -> HTMLResponse:
    """The puzzles page."""
    return page_response("puzzles")
