"""What an environment's version stands for: a digest of its observation layout and its action
space, computed from the code as it is (used by ``test_research_tools.py``)."""

from __future__ import annotations

import hashlib
import json
import re
from typing import Any

import numpy as np

import diceboard
from diceboard.encoding import encoding_for, observe

INTERFACES = ("pettingzoo", "gymnasium", "openspiel")


def version_of(env_name: str) -> int:
    """The version an environment's published name says (``chase_v0``, ``.../Chase-v1``);
    OpenSpiel names carry none (0)."""
    found = re.search(r"[-_]v(\d+)$", env_name)
    return int(found.group(1)) if found else 0


def _space(space: Any) -> Any:
    if hasattr(space, "spaces"):
        return {k: _space(v) for k, v in space.spaces.items()}
    if hasattr(space, "low"):
        return [
            type(space).__name__,
            list(space.shape),
            str(space.dtype),
            float(np.min(space.low)),
            float(np.max(space.high)),
        ]
    return [type(space).__name__, int(getattr(space, "n", 0))]


def layout_digest(name: str, interface: str) -> str:
    """A digest of what a published result depends on: the encoding (planes, shape, wrapping,
    the numbers it gives for a few positions), the action space (size and the meaning of
    every action id) and the spaces the interface declares."""
    game = diceboard.game(name)
    enc = encoding_for(game)
    h = hashlib.sha256()
    facts: dict[str, Any] = {
        "encoding": [enc.version, list(enc.planes), list(enc.shape), list(enc.wraps)],
        "actions": [game.num_actions, [game.action_notation(a) for a in range(game.num_actions)]],
    }
    if interface == "gymnasium":
        from diceboard.envs.gymnasium import env_class

        env = env_class(name)()
        facts["spaces"] = [_space(env.observation_space), _space(env.action_space)]
    elif interface == "pettingzoo":
        from diceboard.envs.pettingzoo import env_module

        env = env_module(name).raw_env()
        facts["spaces"] = [
            _space(env.observation_space("player_0")),
            _space(env.action_space("player_0")),
        ]
    h.update(json.dumps(facts, sort_keys=True).encode())
    state = game.start(seed=0)
    for _ in range(12):
        if state.is_terminal():
            break
        h.update(observe(state).tobytes())
        h.update(observe(state, 1).tobytes())
        state = state.play(sorted(state.legal_action_ids())[0])
    return h.hexdigest()[:16]


if __name__ == "__main__":
    for name in diceboard.games.names():
        for interface in INTERFACES:
            env_name = diceboard.games.info(name).environments[interface]
            digest, version = layout_digest(name, interface), version_of(env_name)
            print(f'    ("{name}", "{interface}"): ("{digest}", {version}),')
