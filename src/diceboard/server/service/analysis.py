"""The analysis board and the game review, on the server.

Three kinds of work, none of which decides a rule (the engine does, through the game API):

- :func:`node_json`: a position of the analysis board (reached from a start by a path of
  moves, so that the repetition history is the real one) with its legal moves or chance
  outcomes and the board picture: cheap, done in a thread beside the event loop;
- :class:`EvaluateJob`: the engine's view of a position (win probability for each side, the
  best line, the top moves) within a time budget, run in the computer pool. The browser
  deepens by asking again with a bigger budget; each worker thread keeps one search agent
  per game, whose transposition table carries what earlier budgets found;
- :class:`ReviewChunk` and :class:`Reviews`: a finished game reviewed
  (:mod:`diceboard.analysis.review`), a few moves per pool task so that progress can be
  reported between them and other work is not held up behind a long game; the finished
  review stored in the database (:mod:`diceboard.server.storage.reviews`).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import secrets
import threading
import time
from collections import OrderedDict
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any, TypeVar

from diceboard.ai.alphabeta_agent import AlphaBetaAgent
from diceboard.ai.specs import agent as make_agent
from diceboard.analysis.calibration import score_of, win_probability
from diceboard.analysis.review import DEFAULT_AGENT, Decision, Review, review_decision
from diceboard.core.errors import DiceboardError
from diceboard.core.game import Game, State
from diceboard.records import GameRecord
from diceboard.rendering import svg
from diceboard.rendering.palette import die_style
from diceboard.server.computer import ComputerPool
from diceboard.server.errors import BadRequest, Conflict, NotFound
from diceboard.server.game_options import make_rules
from diceboard.server.live import LiveGame
from diceboard.server.move_json import legal_moves_json, move_json
from diceboard.server.storage.reviews import ReviewStore, StoredReview
from diceboard.server.views import BOARD_SIZE, centres, hand_json

log = logging.getLogger(__name__)

#: the most moves a path from the start may have
MAX_PATH = 2000
#: the largest time budget of one evaluation (a pool worker is busy for that long)
MAX_SECONDS = 8.0
#: moves reviewed per pool task (progress is reported between tasks)
REVIEW_CHUNK = 4
#: finished reviews kept in memory (the database keeps every one)
REVIEWS_KEPT = 64
T = TypeVar("T")


def rules_of(game: str, variant: str | None, options: dict[str, Any]) -> Game:
    """The rules of ``game`` with ``variant`` and ``options`` (an unknown game, variant or
    option is an :class:`~diceboard.core.errors.OptionError`: a 400)."""
    opts = dict(options)
    if variant is not None:
        opts["variant"] = variant
    try:
        return make_rules(game, opts)
    except TypeError as exc:  # an option the game's constructor does not take
        raise BadRequest(f"unknown option for {game}: {exc}") from None


def replay(rules: Game, start: str | None, moves: Sequence[str]) -> State:
    """The state after ``moves`` from ``start`` (a position string; the game's start if
    ``None``); a move that does not fit is a 400 that names it."""
    state = rules.parse(start) if start else rules.initial_state()
    for number, text in enumerate(moves, 1):
        try:
            state = state.play(text)
        except DiceboardError as exc:
            raise BadRequest(f"move {number} of the line, {text!r}: {exc}") from None
    return state


def _outcome_json(state: State) -> dict[str, Any] | None:
    outcome = state.outcome()
    if outcome is None:
        return None
    return {"winner": outcome.winner, "reason": outcome.reason, "result": outcome.result}


def node_json(state: State, flipped: bool = False) -> dict[str, Any]:
    """A position of the analysis board: what it is, what can happen next (the legal moves,
    or the chance outcomes with their probabilities), and its picture."""
    rules = state.game
    chance = state.is_chance()
    legal: list[dict[str, Any]] = []
    outcomes: list[dict[str, Any]] = []
    if not state.is_terminal():
        if chance:
            outcomes = [
                {"notation": m.notation, "roll": m.roll, "probability": p}
                for m, p in state.chance_outcomes()
            ]
        else:
            legal = legal_moves_json(state)
    last = None
    if state.parent is not None and state.last_move is not None:
        last = move_json(state.parent, state.last_move)
    return {
        "game": rules.name,
        "title": rules.title,
        "variant": rules.variant,
        "options": rules.non_default_options(),
        "players": list(rules.players),
        "player_names": list(rules.player_names),
        "die_colours": [die_style(rules.name, p).fill for p in rules.players],
        "position": str(state),
        "to_move": None if state.is_terminal() else state.to_move,
        "chance": chance,
        "outcome": _outcome_json(state),
        "hand": hand_json(state),
        "board": {sq: [owner, face] for sq, (owner, face) in state.board().items()},
        "legal": legal,
        "outcomes": outcomes,
        "last": last,
        "flipped": flipped,
        "svg": svg.render(state, size=BOARD_SIZE, flipped=flipped, interactive=True),
        **centres(rules, flipped),
    }


# --- in a pool worker ------------------------------------------------------------------------
_LOCAL = threading.local()


def _agent_for(game: str) -> AlphaBetaAgent:
    """This worker thread's search agent for ``game`` (kept, with its transposition table,
    so that a bigger budget on the same position starts from what the smaller one found)."""
    kept: dict[str, AlphaBetaAgent] | None = getattr(_LOCAL, "agents", None)
    if kept is None:
        kept = _LOCAL.agents = {}
    found = kept.get(game)
    if found is None:
        # contempt 0: the board shows a draw as worth exactly half to either side
        found = AlphaBetaAgent(seconds=1.0, seed=1, contempt=0.0, spec="alphabeta:contempt=0")
        kept[game] = found
    return found


def _side_values(players: Sequence[str], mover: str, p: float) -> dict[str, float]:
    """Each player's win probability when the player ``mover`` has ``p``."""
    return {q: (p if q == mover else 1.0 - p) for q in players}


def evaluate(state: State, seconds: float, lines: int) -> dict[str, Any]:
    """The engine's view of ``state`` within ``seconds``: each side's win probability
    (``win``), and for a decision the best line and the ``lines`` best moves with their
    values; for a roll, each outcome with the position it leads to searched in turn."""
    rules = state.game
    players = list(rules.players)
    began = time.perf_counter()
    if state.is_terminal():
        outcome = state.outcome()
        winner = None if outcome is None else outcome.winner
        return {
            "kind": "final",
            "win": {p: score_of(winner, p) for p in players},
            "depth": 0,
            "nodes": 0,
            "seconds": 0.0,
        }
    if state.is_chance():
        return _evaluate_roll(state, seconds, began)
    agent = _agent_for(rules.name)
    agent.seconds = seconds
    analysis = agent.analyse(state)
    mover = state.to_move
    p = win_probability(rules.name, analysis.value)
    top = [
        {
            "notation": stats.move.notation,
            "value": stats.value,
            "win": win_probability(rules.name, stats.value),
        }
        for stats in analysis.moves[:lines]
    ]
    return {
        "kind": "decision",
        "to_move": mover,
        "value": analysis.value,
        "win": _side_values(players, mover, p),
        "best": analysis.best.notation,
        "pv": [m.notation for m in analysis.pv],
        "moves": top,
        "depth": analysis.depth,
        "nodes": analysis.nodes,
        "seconds": time.perf_counter() - began,
    }


def _evaluate_roll(state: State, seconds: float, began: float) -> dict[str, Any]:
    """A roll: every outcome's position searched with an equal share of ``seconds`` and the
    expectation taken; a roll followed by another roll (the setup) is not searched."""
    rules = state.game
    players = list(rules.players)
    outcomes = state.chance_outcomes()
    children = [(m, p, state.play(m)) for m, p in outcomes]
    if any(child.is_chance() for _, _, child in children):
        return {
            "kind": "roll",
            "win": None,
            "outcomes": [{"notation": m.notation, "probability": p} for m, p, _ in children],
            "depth": 0,
            "nodes": 0,
            "seconds": 0.0,
        }
    share = max(0.02, seconds / len(children))
    expected = dict.fromkeys(players, 0.0)
    described = []
    depth = nodes = 0
    for move, p, child in children:
        found = evaluate(child, share, 1)
        win: dict[str, float] = found["win"]
        for q in players:
            expected[q] += p * win[q]
        depth = max(depth, int(found["depth"]))
        nodes += int(found["nodes"])
        described.append(
            {"notation": move.notation, "probability": p, "win": win, "best": found.get("best")}
        )
    return {
        "kind": "roll",
        "win": expected,
        "outcomes": described,
        "depth": depth,
        "nodes": nodes,
        "seconds": time.perf_counter() - began,
    }


_REVIEW_AGENTS_KEPT = 4


def _review_agent(review: str, spec: str, seed: int) -> Any:
    """This worker thread's agent for the review ``review`` (a fresh one for a review it has
    not seen, or ``review`` empty)."""
    kept: OrderedDict[tuple[str, str, int], Any] | None = getattr(_LOCAL, "reviews", None)
    if kept is None:
        kept = _LOCAL.reviews = OrderedDict()
    key = (review, spec, seed)
    found = kept.get(key) if review else None
    if found is None:
        found = make_agent(spec, seed=seed)
        if review:
            kept[key] = found
            while len(kept) > _REVIEW_AGENTS_KEPT:
                kept.popitem(last=False)
    return found


@dataclass(frozen=True)
class EvaluateJob:
    """A pool task: :func:`evaluate` of the position that ``moves`` reach from ``start``."""

    game: str
    options: dict[str, Any]
    start: str | None
    moves: tuple[str, ...]
    seconds: float
    lines: int = 5

    def run(self) -> dict[str, Any]:
        """Carried out in a worker."""
        state = replay(rules_of(self.game, None, self.options), self.start, self.moves)
        return evaluate(state, self.seconds, self.lines)


@dataclass(frozen=True)
class ReviewChunk:
    """A pool task: the review of moves ``first`` to ``last - 1`` of a game (chance outcomes
    and forced moves are skipped), each as plain data."""

    game: str
    options: dict[str, Any]
    start: str | None
    moves: tuple[str, ...]
    first: int
    last: int
    agent: str = DEFAULT_AGENT
    seed: int = 1
    #: the review this chunk belongs to: a worker keeps its agent (and the agent's
    #: transposition table) from one chunk to the next, as one review in one process does
    review: str = ""

    def run(self) -> dict[str, Any]:
        """Carried out in a worker."""
        rules = rules_of(self.game, None, self.options)
        state = replay(rules, self.start, self.moves[: self.first])
        analyser = _review_agent(self.review, self.agent, self.seed)
        found = []
        for index in range(self.first, self.last):
            played = state.parse_move(self.moves[index])
            decision = review_decision(state, played, analyser, index)
            if decision is not None:
                found.append(
                    {
                        "index": index,
                        "player": decision.player,
                        "played": played.notation,
                        "best": decision.best.notation,
                        "value_played": decision.value_played,
                        "value_best": decision.value_best,
                        "before": decision.before,
                        "after": decision.after,
                        "best_move": move_json(state, decision.best),
                    }
                )
            state = state.play(played)
        return {"decisions": found}


def run_job(job: EvaluateJob | ReviewChunk) -> dict[str, Any]:
    """The pool's entry point for this module's jobs (a module-level function, so that the
    process pool can send it by name)."""
    return job.run()


# --- in the server ---------------------------------------------------------------------------
@dataclass
class ReviewJobState:
    """A review under way or done: ``done`` of ``total`` moves weighed so far."""

    id: str
    game_id: str
    revision: int
    total: int
    done: int = 0
    status: str = "running"
    error: str | None = None
    started: float = field(default_factory=time.perf_counter)
    seconds: float | None = None
    result: dict[str, Any] | None = None
    found: list[dict[str, Any]] = field(default_factory=list)

    def to_json(self) -> dict[str, Any]:
        """What the page polls."""
        return {
            "job": self.id,
            "game": self.game_id,
            "status": self.status,
            "done": self.done,
            "total": self.total,
            "error": self.error,
            "seconds": self.seconds,
            "review": self.result,
        }


def review_result(
    record: GameRecord, found: Sequence[dict[str, Any]], seconds: float
) -> dict[str, Any]:
    """The finished review of ``record`` as the page shows it: every marked move, the first
    player's win probability after every move (for the graph), each side's figures and the
    annotated record."""
    players = record.game.players
    states = record.states()
    moves = record.moves
    decisions = []
    for item in found:
        index = int(item["index"])
        decisions.append(
            Decision(
                index,
                str(item["player"]),
                moves[index],
                states[index].parse_move(str(item["best"])),
                float(item["value_played"]),
                float(item["value_best"]),
                float(item["before"]),
                float(item["after"]),
            )
        )
    review = Review(record, DEFAULT_AGENT, tuple(decisions), seconds)
    first = players[0]
    by_index = {d.index: d for d in decisions}
    curve: list[float] = []
    start = decisions[0] if decisions else None
    current = (
        0.5 if start is None else (start.before if start.player == first else 1 - start.before)
    )
    curve.append(current)
    final = states[-1].outcome()
    for i in range(len(moves)):
        d = by_index.get(i)
        if d is not None:
            current = d.after if d.player == first else 1.0 - d.after
        elif i == len(moves) - 1 and final is not None:
            current = score_of(final.winner, first)
        curve.append(current)
    sides = {}
    for p in players:
        side = review.side(p)
        sides[p] = {
            "decisions": side.decisions,
            "accuracy": side.accuracy,
            "mean_loss": side.mean_loss,
            "inaccuracies": side.inaccuracies,
            "mistakes": side.mistakes,
            "blunders": side.blunders,
        }
    best_moves = {int(item["index"]): item["best_move"] for item in found}
    return {
        "agent": DEFAULT_AGENT,
        "players": list(players),
        "curve": curve,
        "sides": sides,
        "marks": [
            {
                "index": d.index,
                "player": d.player,
                "played": d.played.notation,
                "best": d.best.notation,
                "best_move": best_moves[d.index],
                "glyph": d.glyph,
                "loss": d.loss,
                "before": d.before,
                "after": d.after,
                "comment": d.comment(),
            }
            for d in decisions
            if d.glyph
        ],
        "pgn": review.annotated().to_pgn(),
    }


class Reviews:
    """Review jobs: one per finished game (and revision), run in the computer pool a few
    moves at a time. A finished review is kept in memory and, given a ``store``, in the
    database, so that a restarted server shows it again without reviewing the game anew
    (a stored review that cannot be read back, or is of another revision, is made again)."""

    def __init__(self, pool: ComputerPool, store: ReviewStore | None = None) -> None:
        self.pool = pool
        self.store = store
        self._jobs: OrderedDict[str, ReviewJobState] = OrderedDict()
        self._by_game: dict[tuple[str, int], str] = {}
        self._tasks: set[asyncio.Task[None]] = set()

    async def _db(self, fn: Callable[..., T], *args: Any) -> T:
        assert self.store is not None
        if self.store.embedded:  # as the repository: an SQLite call is quicker than a thread
            return fn(*args)
        return await asyncio.to_thread(fn, *args)

    def _keep(self, job: ReviewJobState) -> None:
        self._jobs[job.id] = job
        self._by_game[(job.game_id, job.revision)] = job.id
        while len(self._jobs) > REVIEWS_KEPT:
            _, old = self._jobs.popitem(last=False)
            if self._by_game.get((old.game_id, old.revision)) == old.id:
                del self._by_game[(old.game_id, old.revision)]

    @staticmethod
    def _from_store(stored: StoredReview) -> ReviewJobState:
        result = stored.result
        total = len(result.get("curve", [])) - 1
        job = ReviewJobState(stored.job_id, stored.game_id, stored.revision, max(total, 0))
        job.done = job.total
        job.status = "done"
        job.seconds = stored.seconds
        job.result = result
        return job

    async def start(self, live: LiveGame, record: GameRecord) -> ReviewJobState:
        """The review of ``live`` (whose record is ``record``): the one under way or done
        (in memory, else in the database), or one started now."""
        if live.data.status != "finished":
            raise Conflict("only a finished game can be reviewed; analyse it instead", live)
        key = (live.id, live.data.revision)
        known = self._by_game.get(key)
        if known is not None and known in self._jobs:
            job = self._jobs[known]
            if job.status != "failed":
                return job
        if self.store is not None:
            stored = await self._db(self.store.find, live.id, DEFAULT_AGENT, live.data.revision)
            if stored is not None:
                job = self._from_store(stored)
                self._keep(job)
                return job
        job = ReviewJobState(secrets.token_urlsafe(9), live.id, live.data.revision, len(live.moves))
        self._keep(job)
        task = asyncio.create_task(self._run(job, live, record))
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)
        return job

    async def get(self, job_id: str) -> ReviewJobState:
        """The job ``job_id`` (in memory, else a finished one in the database); 404 if
        unknown."""
        job = self._jobs.get(job_id)
        if job is None and self.store is not None:
            stored = await self._db(self.store.by_job, job_id)
            if stored is not None:
                job = self._from_store(stored)
                self._keep(job)
        if job is None:
            raise NotFound(f"no review {job_id!r}: ask for the game's review again")
        return job

    async def _save(self, job: ReviewJobState) -> None:
        if self.store is None or job.result is None or job.seconds is None:
            return
        try:
            await self._db(
                self.store.save,
                job.game_id,
                DEFAULT_AGENT,
                job.id,
                job.revision,
                job.seconds,
                job.result,
                time.time(),
            )
        except Exception:
            # the review is done and shown all the same; only a restart will not keep it
            log.exception("storing the review of game %s failed", job.game_id)

    async def _run(self, job: ReviewJobState, live: LiveGame, record: GameRecord) -> None:
        moves = tuple(m.notation for m in live.moves)
        try:
            for first in range(0, len(moves), REVIEW_CHUNK):
                last = min(len(moves), first + REVIEW_CHUNK)
                chunk = ReviewChunk(
                    live.rules.name,
                    live.rules.non_default_options(),
                    live.data.start_position,
                    moves,
                    first,
                    last,
                    review=job.id,
                )
                answer = await self.pool.run(chunk, game=live.id, kind="analysis", work=run_job)
                job.found.extend(answer["decisions"])
                job.done = last
            seconds = time.perf_counter() - job.started
            job.result = await asyncio.to_thread(review_result, record, job.found, seconds)
            job.seconds = seconds
            job.status = "done"
            await self._save(job)
        except asyncio.CancelledError:
            job.status = "failed"
            job.error = "the server stopped"
            raise
        except Exception as exc:
            log.exception("reviewing game %s failed", live.id)
            job.status = "failed"
            job.error = f"the review failed ({type(exc).__name__})"

    async def stop(self) -> None:
        """Cancel the reviews under way."""
        for task in list(self._tasks):
            task.cancel()
        for task in list(self._tasks):
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task


__all__ = [
    "MAX_PATH",
    "MAX_SECONDS",
    "EvaluateJob",
    "ReviewChunk",
    "Reviews",
    "evaluate",
    "node_json",
    "replay",
    "review_result",
    "rules_of",
    "run_job",
]
