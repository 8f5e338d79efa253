"""The agent interface shared by every computer player."""

from __future__ import annotations

from abc import ABC, abstractmethod
from dataclasses import dataclass, field

from diceboard.core.game import State
from diceboard.core.move import Move


@dataclass(frozen=True)
class MoveStats:
    """What a search learned about one candidate move."""

    move: Move
    value: float
    visits: int = 0


@dataclass(frozen=True)
class Analysis:
    """An agent's view of a position.

    ``value`` is the expected result for the player to move, in [-1, 1]; ``pv`` the principal
    variation starting with ``best``; ``moves`` per-move statistics, best first.
    """

    best: Move
    value: float
    pv: tuple[Move, ...] = ()
    moves: tuple[MoveStats, ...] = ()
    depth: int = 0
    nodes: int = 0
    seconds: float = 0.0
    info: dict[str, float] = field(default_factory=dict)


class Agent(ABC):
    """A computer player. ``choose`` is called only at decision states of unfinished games."""

    #: the spec string that makes this agent (``"random"``, ``"mcts:time=1.0"`` …)
    spec: str

    @abstractmethod
    def choose(self, state: State) -> Move:
        """A legal move for the player to move in ``state``."""

    def analyse(self, state: State) -> Analysis:
        """The agent's analysis of ``state`` (by default: its chosen move, value unknown)."""
        return Analysis(best=self.choose(state), value=0.0)

    def reset(self) -> None:  # noqa: B027 - optional hook, most agents keep nothing
        """Forget anything kept between moves (a new game starts)."""

    def compile_evaluation(self, game_name: str) -> None:  # noqa: B027 - optional hook
        """Compile (or load from numba's cache) what this agent evaluates positions of
        ``game_name`` with, before any state of it exists and without compiling a rules
        kernel (nothing for an agent that does not evaluate). A server's computer worker
        calls it while the server compiles the rules kernels
        (:mod:`diceboard.server.computer_players`)."""

    def compile_search(self, game_name: str) -> None:  # noqa: B027 - optional hook
        """Compile (or load) this agent's search of ``game_name`` before any state of it
        exists, once the rules kernels it calls are compiled
        (:func:`~diceboard.ai.engine.compile_rules`); nothing for an agent whose search
        compiles on its first move."""

    def __repr__(self) -> str:
        return f"diceboard.agent({self.spec!r})"
