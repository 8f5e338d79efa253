"""How fast each evaluation makes the search: alpha-beta nodes per second with ``eval=linear``,
``eval=net`` and ``eval=endgame`` (and MCTS simulations per second), measured interleaved
from the same positions so that the machine's load falls on all alike (``diceboard bench
eval``)."""

from __future__ import annotations

import random
from dataclasses import dataclass, field

from diceboard.ai.alphabeta_agent import AlphaBetaAgent
from diceboard.ai.base import Agent
from diceboard.ai.mcts_agent import MCTSAgent
from diceboard.core.game import Game, State

#: the evaluations compared (``endgame`` is the linear model plus the endgame term, which
#: costs a count of the dice wherever it is zero)
COMPARED = ("linear", "net", "endgame")


def positions(game: Game, count: int, seed: int) -> list[State]:
    """``count`` decision positions of a seeded random game of ``game`` (its first decision,
    then every few moves), the same for every evaluation."""
    rng = random.Random(seed)
    state = game.start(seed)
    found: list[State] = []
    moves = 0
    while len(found) < count:
        if state.is_terminal():
            state = game.start(seed + len(found) + 1)
            continue
        if state.is_chance():
            outcomes = state.chance_outcomes()
            state = state.play(outcomes[rng.randrange(len(outcomes))][0])
            continue
        legal = state.legal_moves()
        if moves % 6 == 0 and len(legal) > 1:
            found.append(state)
        state = state.play(legal[rng.randrange(len(legal))])
        moves += 1
    return found


@dataclass
class Tally:
    """Work done and time spent by one evaluation's searches."""

    evaluation: str
    count: int = 0
    seconds: float = 0.0
    depths: list[int] = field(default_factory=list)

    @property
    def per_second(self) -> float:
        """``count / seconds``."""
        return self.count / self.seconds if self.seconds > 0 else 0.0


def _agent(kind: str, evaluation: str, seconds: float) -> Agent:
    if kind == "alphabeta":
        return AlphaBetaAgent(seconds=seconds, seed=1, evaluation=evaluation)
    return MCTSAgent(seconds=seconds, seed=1, evaluation=evaluation, cutoff=0, reuse=False)


def compare(
    game: Game, kind: str, seconds: float, count: int, seed: int, rounds: int = 2
) -> dict[str, Tally]:
    """Search each of ``count`` positions for ``seconds`` with each evaluation, alternating
    the evaluations position by position, ``rounds`` times; ``kind`` is ``alphabeta`` (nodes)
    or ``mcts`` (simulations, leaves scored by the evaluation alone)."""
    states = positions(game, count, seed)
    agents = {e: _agent(kind, e, seconds) for e in COMPARED}
    tallies = {e: Tally(e) for e in COMPARED}
    for agent in agents.values():
        agent.analyse(states[0])  # compile or load the search before anything is timed
    for r in range(rounds):
        for i, state in enumerate(states):
            order = COMPARED if (r + i) % 2 == 0 else COMPARED[::-1]
            for evaluation in order:
                agent = agents[evaluation]
                agent.reset()
                found = agent.analyse(state)
                tally = tallies[evaluation]
                tally.count += found.nodes
                tally.seconds += found.seconds
                tally.depths.append(found.depth)
    return tallies
