"""Agent spec strings: ``"name"`` or ``"name:key=value,key=value"``.

=============  ========================================================================
spec           parameters (all optional)
=============  ========================================================================
``random``     none
``greedy``     ``eval`` (linear, net, material; ``fitted`` is ``linear``), ``epsilon``
               (chance of a random move, 0–1)
``alphabeta``  ``depth`` (1–64), ``time`` (seconds), ``eval``, ``tt`` (on/off),
               ``ordering`` (on/off), ``epsilon`` (chance of a random move instead of
               the searched one, 0–1); neither depth nor time: ``time=1``
``mcts``       ``iterations``, ``time`` (seconds), ``c`` (exploration, default 1),
               ``playout`` (random, heuristic), ``cutoff`` (playout actions, default 8),
               ``samples`` (heuristic playout candidates, default 3), ``reuse`` (on/off),
               ``widen`` (progressive widening, default 1; 0 tries every move first),
               ``eval``, ``select`` (``uct``, or ``puct``: AlphaZero's rule with priors
               from the one-ply order); neither iterations nor time: ``iterations=10000``
``puct``       ``mcts`` with ``select=puct,eval=net,cutoff=0,c=2`` (the network's value
               at the leaves); the same parameters but ``select``
``level:N``    N from 1 to 8 (:mod:`diceboard.ai.levels`)
=============  ========================================================================

Every agent also takes ``seed`` (an int); ``agent(spec, seed=…)`` gives one where the spec
has none. ``greedy``, ``alphabeta`` and ``mcts`` take ``contempt`` (0–1, default 0.1): what a
draw is worth less than an even position to the side that searches, so that it plays on.
"""

from __future__ import annotations

from collections.abc import Callable

from diceboard.ai.alphabeta_agent import MAX_DEPTH, AlphaBetaAgent
from diceboard.ai.base import Agent, Analysis
from diceboard.ai.greedy_agent import GreedyAgent
from diceboard.ai.levels import EXTRA_LEVELS, LEVELS, check_level, level_spec
from diceboard.ai.mcts_agent import MCTSAgent
from diceboard.ai.params import Params
from diceboard.ai.random_agent import RandomAgent
from diceboard.ai.weights import DEFAULT_EVALUATION, EVALUATIONS
from diceboard.core.errors import OptionError
from diceboard.core.game import State
from diceboard.core.move import Move

#: how much worse than an even position a draw is for a searching agent (``contempt=``)
DEFAULT_CONTEMPT = 0.1

#: agent name -> factory(params, seed); other agents register themselves here
FACTORIES: dict[str, Callable[[dict[str, str], int | None], Agent]] = {}


def _random(params: dict[str, str], seed: int | None) -> Agent:
    if params:
        raise OptionError(f"the random agent takes no parameters, got {', '.join(params)}")
    return RandomAgent(seed)


def _spec(name: str, params: dict[str, str]) -> str:
    return name + (":" + ",".join(f"{k}={v}" for k, v in params.items()) if params else "")


def _contempt(p: Params) -> float:
    value = p.number("contempt", DEFAULT_CONTEMPT, minimum=0.0, maximum=1.0, strict=False)
    assert value is not None
    return value


def _greedy(params: dict[str, str], seed: int | None) -> Agent:
    p = Params("greedy", params)
    evaluation = p.choice("eval", DEFAULT_EVALUATION, EVALUATIONS)
    epsilon = p.number("epsilon", 0.0, minimum=0.0, maximum=1.0, strict=False)
    contempt = _contempt(p)
    p.finish()
    assert epsilon is not None
    return GreedyAgent(seed, evaluation, epsilon, contempt, spec=_spec("greedy", params))


def _alphabeta(params: dict[str, str], seed: int | None) -> Agent:
    p = Params("alphabeta", params)
    depth = p.integer("depth", None, minimum=1, maximum=MAX_DEPTH)
    seconds = p.number("time", None, minimum=0.0)
    evaluation = p.choice("eval", DEFAULT_EVALUATION, EVALUATIONS)
    use_tt = p.flag("tt", True)
    ordering = p.flag("ordering", True)
    epsilon = p.number("epsilon", 0.0, minimum=0.0, maximum=1.0, strict=False)
    contempt = _contempt(p)
    p.finish()
    assert epsilon is not None
    if depth is None and seconds is None:
        seconds = 1.0
    return AlphaBetaAgent(
        depth,
        seconds,
        seed,
        evaluation,
        use_tt,
        ordering,
        contempt,
        spec=_spec("alphabeta", params),
        epsilon=epsilon,
    )


def _mcts(params: dict[str, str], seed: int | None, name: str = "mcts") -> Agent:
    p = Params(name, params)
    iterations = p.integer("iterations", None, minimum=1)
    seconds = p.number("time", None, minimum=0.0)
    c = p.number("c", 1.0, minimum=0.0, strict=False)
    playout = p.choice("playout", "random", ("random", "heuristic"))
    cutoff = p.integer("cutoff", 8, minimum=0, maximum=10_000)
    samples = p.integer("samples", 3, minimum=1, maximum=64)
    reuse = p.flag("reuse", True)
    widen = p.number("widen", 1.0, minimum=0.0, strict=False)
    evaluation = p.choice("eval", DEFAULT_EVALUATION, EVALUATIONS)
    select = p.choice("select", "uct", ("uct", "puct"))
    contempt = _contempt(p)
    p.finish()
    assert c is not None and cutoff is not None and samples is not None and widen is not None
    return MCTSAgent(
        iterations,
        seconds,
        seed,
        evaluation,
        c,
        playout,
        cutoff,
        samples,
        reuse,
        widen,
        contempt,
        spec=_spec(name, params),
        select=select,
    )


#: what ``puct`` is short for: AlphaZero-style MCTS on the network, no playouts
PUCT_DEFAULTS = {"select": "puct", "eval": "net", "cutoff": "0", "c": "2"}


def _puct(params: dict[str, str], seed: int | None) -> Agent:
    if "select" in params:
        raise OptionError("the puct agent always selects by PUCT: use mcts:select=... instead")
    agent = _mcts({**PUCT_DEFAULTS, **params}, seed, name="puct")
    agent.spec = _spec("puct", params)
    return agent


class LevelAgent(Agent):
    """``level:N``: plays the agent of level ``N`` (:mod:`diceboard.ai.levels`) for the game
    of the state it is given."""

    def __init__(self, level: int, seed: int | None = None) -> None:
        check_level(level)
        self.level = level
        self.spec = f"level:{level}"
        self._seed = seed
        self._agents: dict[str, Agent] = {}

    def agent_for(self, game_name: str) -> Agent:
        """The agent this level plays in ``game_name``."""
        found = self._agents.get(game_name)
        if found is None:
            found = agent(level_spec(self.level, game_name), self._seed)
            self._agents[game_name] = found
        return found

    def choose(self, state: State) -> Move:
        return self.agent_for(state.game.name).choose(state)

    def analyse(self, state: State) -> Analysis:
        return self.agent_for(state.game.name).analyse(state)

    def compile_evaluation(self, game_name: str) -> None:
        self.agent_for(game_name).compile_evaluation(game_name)

    def compile_search(self, game_name: str) -> None:
        self.agent_for(game_name).compile_search(game_name)

    def reset(self) -> None:
        for found in self._agents.values():
            found.reset()


def _level(params: dict[str, str], seed: int | None) -> Agent:
    p = Params("level", params)
    level = p.integer("", None, minimum=1, maximum=max(max(LEVELS), *EXTRA_LEVELS))
    p.finish()
    if level is None:
        raise OptionError("a level spec needs its number, like level:5 (levels 1 to 8)")
    return LevelAgent(level, seed)


FACTORIES["random"] = _random
FACTORIES["greedy"] = _greedy
FACTORIES["alphabeta"] = _alphabeta
FACTORIES["mcts"] = _mcts
FACTORIES["puct"] = _puct
FACTORIES["level"] = _level


def parse_spec(spec: str) -> tuple[str, dict[str, str]]:
    """Split ``"mcts:time=1.0,c=1.4"`` into ``("mcts", {"time": "1.0", "c": "1.4"})``.
    ``"level:5"`` gives ``("level", {"": "5"})``."""
    text = str(spec).strip()
    name, _, rest = text.partition(":")
    name = name.strip().lower()
    params: dict[str, str] = {}
    if rest.strip():
        for part in rest.split(","):
            key, eq, value = part.partition("=")
            if not eq:
                key, value = "", key
            key = key.strip().lower()
            if key in params:
                raise OptionError(f"agent spec {spec!r} gives {key or 'the value'} twice")
            params[key] = value.strip()
    if not name:
        raise OptionError(f"empty agent spec {spec!r}")
    return name, params


def agent(spec: str, seed: int | None = None) -> Agent:
    """The agent that ``spec`` names, e.g. ``"random"``, ``"alphabeta:depth=4"``,
    ``"mcts:time=1.0"``, ``"level:5"``. Unknown names or parameters raise OptionError.

    A ``seed`` parameter in the spec wins over the ``seed`` argument.
    """
    name, params = parse_spec(spec)
    factory = FACTORIES.get(name)
    if factory is None:
        raise OptionError(f"unknown agent {name!r} in {spec!r}; agents: {', '.join(FACTORIES)}")
    if "seed" in params:
        text = params.pop("seed")
        try:
            seed = int(text)
        except ValueError:
            raise OptionError(f"agent spec {spec!r}: seed={text!r} is not a whole number") from None
    return factory(params, seed)
