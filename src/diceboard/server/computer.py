"""Computer players, run off the event loop in a worker pool.

A task carries only plain data (the rules, the start position and the move list); the worker
replays it (keeping the last replay of each game, so a game in progress costs one move per
turn), asks the agent, and returns notation. Processes are the default, so a long search never
competes with the event loop for the interpreter lock; threads are a lighter choice for tests.
"""

from __future__ import annotations

import asyncio
import logging
import multiprocessing
import os
import threading
import time
from collections import OrderedDict
from concurrent.futures import Executor, Future, ProcessPoolExecutor, ThreadPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass
from threading import Lock
from typing import Any

from diceboard import ai, games
from diceboard.core.game import State
from diceboard.server.live import make_rules

log = logging.getLogger(__name__)

#: the agent used for hints and as a fallback when the configured agent fails
FALLBACK_AGENT = "random"


def computer_levels() -> list[dict[str, str]]:
    """The computer opponents on offer, weakest first: the random mover (always there, as a
    fallback and for testing), then the AI package's levels once it has them."""
    levels = [{"spec": FALLBACK_AGENT, "label": "Random mover"}]
    declared = getattr(ai, "LEVELS", None)
    if isinstance(declared, dict) and declared:
        for number, entry in sorted(declared.items()):
            about = entry[0] if isinstance(entry, tuple | list) and entry else ""
            label = f"Level {number}" + (f" — {about}" if about else "")
            levels.append({"spec": f"level:{number}", "label": label})
    elif "level" in ai.FACTORIES:
        levels.extend({"spec": f"level:{n}", "label": f"Level {n}"} for n in range(1, 9))
    return levels


def default_level() -> str:
    """The opponent of a game created without a level: a middling one."""
    specs = [level["spec"] for level in computer_levels()]
    return specs[len(specs) // 2]


def hint_agent() -> str:
    """The player that suggests moves: a quick one (a tenth of a second a move) when the AI
    package has levels, else the random mover."""
    specs = [level["spec"] for level in computer_levels()]
    return "level:5" if "level:5" in specs else specs[-1]


def valid_agent(spec: str) -> bool:
    """Whether ``spec`` names a computer player that exists now."""
    try:
        ai.agent(spec, seed=0)
    except ValueError:
        return False
    return True


@dataclass(frozen=True)
class ThinkTask:
    """One question for a computer player about one position of one game."""

    game_id: str
    game: str
    options: dict[str, Any]
    start_position: str | None
    moves: tuple[str, ...]
    agent: str
    seed: int
    analyse: bool = False


# --- in the worker ------------------------------------------------------------------------
_REPLAYS: OrderedDict[str, tuple[tuple[str, ...], State]] = OrderedDict()
_REPLAYS_LOCK = Lock()
_REPLAYS_KEPT = 64


def _position(task: ThinkTask) -> State:
    key = task.game_id
    with _REPLAYS_LOCK:
        cached = _REPLAYS.get(key)
    if cached is not None and task.moves[: len(cached[0])] == cached[0]:
        done, state = cached
    else:
        rules = make_rules(task.game, task.options)
        done = ()
        state = rules.parse(task.start_position) if task.start_position else rules.initial_state()
    for notation in task.moves[len(done) :]:
        state = state.play(notation)
    with _REPLAYS_LOCK:
        _REPLAYS[key] = (task.moves, state)
        _REPLAYS.move_to_end(key)
        while len(_REPLAYS) > _REPLAYS_KEPT:
            _REPLAYS.popitem(last=False)
    return state


def think(task: ThinkTask) -> dict[str, Any]:
    """Run in a worker: the agent's move (and, for ``analyse``, its value and line)."""
    state = _position(task)
    try:
        player = ai.agent(task.agent, seed=task.seed)
    except ValueError:
        log.warning("unknown agent %r; playing %s", task.agent, FALLBACK_AGENT)
        player = ai.agent(FALLBACK_AGENT, seed=task.seed)
    if not task.analyse:
        return {"best": player.choose(state).notation}
    analysis = player.analyse(state)
    return {
        "best": analysis.best.notation,
        "value": float(analysis.value),
        "pv": [m.notation for m in analysis.pv],
    }


def warm_up_kernels() -> None:
    """Compile (or load from numba's cache) every game's kernel now, so that the first request
    (or a worker's first task) does not wait for it."""
    for name in games.names():
        state = games.game(name).start(seed=0)
        for move in state.legal_moves()[:1]:
            state.play(move).legal_moves()


def _exit_with_parent(parent: int) -> None:
    """Leave as soon as the server process is gone: a server killed with SIGKILL cannot close
    its pool, and its workers would otherwise live on as orphans."""
    while os.getppid() == parent:
        time.sleep(1.0)
    os._exit(0)


def _start_worker(server: int) -> None:
    """Initializer of a worker process: watch the server (its pid is passed in, since it may
    already be gone by the time a freshly spawned worker gets here), then load the kernels."""
    threading.Thread(
        target=_exit_with_parent, args=(server,), name="parent-watch", daemon=True
    ).start()
    warm_up_kernels()


def warm_up_search() -> None:
    """Compile (or load) the computer's search for every game now: one move of the default
    level from each game's start, so that the first computer move does not wait for it."""
    for name in games.names():
        state = games.game(name).start(seed=0)
        if state.legal_moves():
            ai.agent(default_level(), seed=0).choose(state)


def _warm_up() -> None:
    """A worker's first task: the kernels (done by the initializer) and the search."""
    warm_up_kernels()
    warm_up_search()


# --- in the server ------------------------------------------------------------------------
class ComputerPool:
    """The worker pool that computer players think in."""

    def __init__(self, kind: str, workers: int) -> None:
        self._kind = kind
        self._workers = workers
        self._executor: Executor | None = None

    def _pool(self) -> Executor:
        if self._executor is None:
            if self._kind == "process":
                self._executor = ProcessPoolExecutor(
                    self._workers,
                    mp_context=multiprocessing.get_context("spawn"),
                    initializer=_start_worker,
                    initargs=(os.getpid(),),
                )
            else:
                self._executor = ThreadPoolExecutor(self._workers, thread_name_prefix="computer")
        return self._executor

    def warm_up(self) -> list[Future[Any]]:
        """Start the workers now rather than at the first computer move, and warm each one up
        (see :func:`warm_up_search`); the futures tell when each is warm."""
        pool = self._pool()
        return [pool.submit(_warm_up) for _ in range(self._workers)]

    async def run(self, task: ThinkTask) -> dict[str, Any]:
        """The worker's answer to ``task``; a broken pool is replaced once."""
        loop = asyncio.get_running_loop()
        try:
            return await loop.run_in_executor(self._pool(), think, task)
        except BrokenProcessPool:
            log.warning("the computer's worker pool broke; starting a new one")
            self._executor = None
            return await loop.run_in_executor(self._pool(), think, task)

    def close(self) -> None:
        """Stop the workers (pending tasks are dropped)."""
        if self._executor is not None:
            self._executor.shutdown(wait=False, cancel_futures=True)
            self._executor = None
