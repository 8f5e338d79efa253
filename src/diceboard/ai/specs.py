"""Agent spec strings: ``"name"`` or ``"name:key=value,key=value"``."""

from __future__ import annotations

from collections.abc import Callable

from diceboard.ai.base import Agent
from diceboard.ai.random_agent import RandomAgent
from diceboard.core.errors import OptionError

#: agent name -> factory(params, seed); other agents register themselves here
FACTORIES: dict[str, Callable[[dict[str, str], int | None], Agent]] = {}


def _random(params: dict[str, str], seed: int | None) -> Agent:
    if params:
        raise OptionError(f"the random agent takes no parameters, got {', '.join(params)}")
    return RandomAgent(seed)


FACTORIES["random"] = _random


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
    ``"mcts:time=1.0"``, ``"level:5"``. Unknown names or parameters raise OptionError."""
    name, params = parse_spec(spec)
    factory = FACTORIES.get(name)
    if factory is None:
        raise OptionError(f"unknown agent {name!r} in {spec!r}; agents: {', '.join(FACTORIES)}")
    return factory(params, seed)
