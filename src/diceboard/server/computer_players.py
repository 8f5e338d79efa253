"""The computer players: which there are (the levels on offer), and what a worker process of
the server's :class:`~diceboard.server.computer.ComputerPool` runs for them: a move or an
analysis (:func:`think`) and the warm-up tasks that compile their search ahead of the first.

A task carries only plain data (the rules, the start position and the move list); the worker
replays it (keeping the last replay of each game, so a game in progress costs one move per
turn), asks the agent, and returns notation. A worker process imports this module and what the
games and the computer players are made from, and nothing of the web server (FastAPI,
SQLAlchemy): a second of imports less before a fresh worker can compile or think.
"""

from __future__ import annotations

import logging
import threading
from collections import OrderedDict
from dataclasses import dataclass
from threading import Lock
from typing import Any

from diceboard import ai, games
from diceboard.ai.engine import compile_rules
from diceboard.core.game import State
from diceboard.kernel.blas_probe import skip_blas_probe
from diceboard.server.game_options import make_rules
from diceboard.server.thread_priority import lower_this_thread

log = logging.getLogger(__name__)

#: the agent used for hints and as a fallback when the configured agent fails
FALLBACK_AGENT = "random"


def computer_levels(game: str | None = None) -> list[dict[str, Any]]:
    """The computer opponents on offer, weakest first: the random mover (always there, as a
    fallback and for testing), then the AI package's levels. A level that only some games
    have (level 9) names them in ``games``; with ``game``, only the levels that game has."""
    names = list(games.names()) if game is None else [game]
    tables = {name: ai.game_levels(name) for name in names}
    levels: list[dict[str, Any]] = [{"spec": FALLBACK_AGENT, "label": "Random mover"}]
    for number in sorted({n for table in tables.values() for n in table}):
        having = [name for name in names if number in tables[name]]
        entry: dict[str, Any] = {
            "spec": f"level:{number}",
            "label": f"Level {number} — {tables[having[0]][number].about}",
        }
        if len(having) < len(names):
            entry["games"] = having
        levels.append(entry)
    return levels


def default_level() -> str:
    """The opponent of a game created without a level: a middling one of the levels every
    game has."""
    specs = [level["spec"] for level in computer_levels() if "games" not in level]
    return str(specs[len(specs) // 2])


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


def warm_up_kernels(game: str | None = None) -> None:
    """Compile (or load from numba's cache) the kernels of ``game`` (default: every game) now,
    so that the first request (or a worker's first task) does not wait for them."""
    skip_blas_probe()  # (see below: the server's first compile is one of these)
    for name in games.names() if game is None else [game]:
        state = games.game(name).start(seed=0)
        for move in state.legal_moves()[:1]:
            state.play(move).legal_moves()


def prepare(first: str | None = None) -> None:
    """A worker's first task, given as the server starts: import what the games' kernels and
    the computer's search are made from, so that a worker is ready to load the kernels the
    moment the server has cached them, instead of starting then; and compile the default
    level's evaluation of the ``first`` game, which calls none of the kernels the server is
    compiling meanwhile (:meth:`~diceboard.ai.base.Agent.compile_evaluation`)."""
    skip_blas_probe()  # (see warm_up_rules)
    for name in games.names():
        games.game(name)
    if first is not None:
        ai.agent(default_level(), seed=0).compile_evaluation(first)


def warm_up_rules(game: str) -> None:
    """Compile (or load) the rules kernels of ``game`` that the computer's search calls, the
    first of the game's kernels a server compiles: a worker can then compile the search
    (:func:`compile_search_ahead`) while the server compiles the rest."""
    # nothing a server or its workers compile uses BLAS: numba's probe for it is skipped
    # before their first compile (0.3 s of CPU each where SciPy is installed)
    skip_blas_probe()
    compile_rules(game, games.game(game).opts)


def warm_up_search(game: str | None = None) -> None:
    """Compile (or load) the computer's search for ``game`` (default: every game) now: one
    move of the default level from the game's start, so that the first computer move does not
    wait for it. Only what that level uses is compiled (alpha-beta, not MCTS)."""
    for name in games.names() if game is None else [game]:
        state = games.game(name).start(seed=0)
        if state.legal_moves():
            ai.agent(default_level(), seed=0).choose(state)


#: games whose warm-up this worker has started (a worker may be handed one twice)
_WARMED: set[str] = set()
_WARMED_LOCK = Lock()


def _claim(game: str) -> bool:
    with _WARMED_LOCK:
        if game in _WARMED:
            return False
        _WARMED.add(game)
        return True


def compile_search_ahead(game: str) -> None:
    """A worker's task once the server has ``game``'s rules kernels in numba's cache
    (:func:`warm_up_rules`): compile the default level's search of ``game`` on them, before
    the server has the rest of the game's kernels, which its warm-up task then loads. A
    worker handed it twice finds the search compiled the second time (a worker runs its
    tasks one after the other), so no record of it is kept."""
    ai.agent(default_level(), seed=0).compile_search(game)


def warm_up(game: str | None = None) -> None:
    """A worker's warm-up task: ``game``'s kernels (loaded from the cache the server has just
    filled) and its search, before the task returns (default: every game)."""
    for name in games.names() if game is None else [game]:
        if _claim(name):
            warm_up_kernels(name)
            warm_up_search(name)


def warm_up_beside(game: str) -> None:
    """A worker's warm-up task for a game played less often: start warming it up in a thread
    of the worker and return at once, so that a move of another game, queued behind this
    task, does not wait for the compiler (the searches release the interpreter lock; a move of
    this game waits for numba's compiler lock instead of compiling the same search again)."""
    if _claim(game):
        threading.Thread(
            target=_warm_up_quietly, args=(game,), name=f"warm-up-{game}", daemon=True
        ).start()


def _warm_up_quietly(game: str) -> None:
    # nobody waits for this game's search yet: a busy machine's CPU goes to the first game's
    lower_this_thread()
    try:
        warm_up_kernels(game)
        warm_up_search(game)
    except Exception:  # the game's first computer move compiles and reports it instead
        log.exception("warming up the computer players of %s failed", game)
