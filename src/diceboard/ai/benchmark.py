"""Search figures: MCTS simulations per second, alpha-beta nodes per second, how closely time
budgets are kept, and the compile time of a game's search. ``diceboard bench search`` prints
them; every function here also works on its own.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass

from diceboard.ai.alphabeta_agent import AlphaBetaAgent
from diceboard.ai.mcts_agent import MCTSAgent
from diceboard.ai.roots import root_of
from diceboard.core.game import Game, State
from diceboard.games import info, infos

#: targets on one core: MCTS simulations a second per game (each game's
#: ``info.targets["mcts_simulations"]``), alpha-beta positions a second
MCTS_TARGETS: dict[str, float] = {
    declared.name: float(declared.targets.get("mcts_simulations", 0.0)) for declared in infos()
}
ALPHABETA_TARGET = 300_000.0
#: a time budget is kept when a move takes at most this much more than it
BUDGET_TOLERANCE = 0.10


def mcts_target(game_name: str) -> float:
    """The MCTS simulations a second that ``game_name`` should reach on one core (0: none).

    >>> mcts_target("custodian") > 0
    True
    """
    return float(info(game_name).targets.get("mcts_simulations", 0.0))


@dataclass(frozen=True)
class Rate:
    """How much a search did in how long."""

    label: str
    count: int
    seconds: float
    detail: str = ""

    @property
    def per_second(self) -> float:
        """``count / seconds``."""
        return self.count / self.seconds if self.seconds > 0 else 0.0


def start_position(game: Game, seed: int) -> State:
    """The benchmark's start: the game's first decision (setup rolls drawn with ``seed``)."""
    return game.start(seed)


def mcts_rate(state: State, seconds: float, **options: object) -> Rate:
    """Simulations per second of :class:`MCTSAgent` with ``options`` from ``state``."""
    player = MCTSAgent(seconds=seconds, seed=1, reuse=False, **options)  # type: ignore[arg-type]
    player.choose(state)  # compiles, or loads from the cache, outside the timing
    analysis = player.analyse(state)
    text = ", ".join(f"{k}={v}" for k, v in options.items()) or "defaults"
    return Rate(f"mcts ({text})", analysis.nodes, analysis.seconds)


def alphabeta_rate(state: State, seconds: float) -> tuple[Rate, Rate]:
    """Alpha-beta from ``state`` for ``seconds``: (search-tree nodes per second, positions
    per second counting the children evaluated only to order moves)."""
    player = AlphaBetaAgent(depth=1, seed=1)
    player.choose(state)
    player = AlphaBetaAgent(seconds=seconds, seed=1)
    analysis = player._search(root_of(state), multipv=False)
    probes = int(analysis.info["ordering_probes"])
    detail = f"depth {analysis.depth}"
    return (
        Rate("alphabeta tree nodes", analysis.nodes, analysis.seconds, detail),
        Rate("alphabeta positions", analysis.nodes + probes, analysis.seconds, detail),
    )


def budget_overshoots(game: Game, spec: str, moves: int, seed: int) -> list[float]:
    """For ``moves`` moves of a game that ``spec`` plays against itself, how far each move's
    time passed its budget, as a fraction of the budget (negative: under)."""
    from diceboard.ai.specs import agent

    player = agent(spec, seed=seed)
    budget = float(getattr(player, "seconds", 0.0) or 0.0)
    if budget <= 0:
        raise ValueError(f"{spec!r} has no time budget")
    state = start_position(game, seed)
    player.choose(state)
    out = []
    for _ in range(moves):
        while state.is_chance():
            state = state.play(state.legal_action_ids()[0])
        if state.is_terminal():
            break
        began = time.perf_counter()
        move = player.choose(state)
        out.append((time.perf_counter() - began) / budget - 1.0)
        state = state.play(move)
    return out


_COMPILE_SCRIPT = """
import json, sys, time
began = time.perf_counter()
import diceboard
game = diceboard.game(sys.argv[1])
imported = time.perf_counter()
state = game.start(1)
state.play(state.legal_moves()[0])
kernel = time.perf_counter()
for spec in ("greedy", "alphabeta:depth=1", "mcts:iterations=2"):
    diceboard.agent(spec, seed=1).analyse(state)
search = time.perf_counter()
print(json.dumps({"import": imported - began, "kernel": kernel - imported,
                  "search": search - kernel}))
"""


def compile_seconds(game: Game) -> dict[str, float]:
    """Seconds to import, to compile the rules kernel, and to compile the game's search
    (greedy, alpha-beta and MCTS), in a subprocess with an empty numba cache; then the same
    with that cache warm."""
    with tempfile.TemporaryDirectory(prefix="diceboard-numba-") as cache:
        env = {**os.environ, "NUMBA_CACHE_DIR": cache}
        env.pop("NUMBA_DISABLE_JIT", None)
        figures = {}
        for run in ("cold", "warm"):
            done = subprocess.run(
                [sys.executable, "-c", _COMPILE_SCRIPT, game.name],
                env=env,
                capture_output=True,
                text=True,
                check=True,
            )
            data = json.loads(done.stdout.strip().splitlines()[-1])
            for key, value in data.items():
                figures[f"{run}_{key}"] = float(value)
    return figures
