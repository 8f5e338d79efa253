"""Research interfaces: observation encodings and adapters for reinforcement learning.

- :mod:`diceboard.envs.encoding` — the observation tensors and legal-action masks (core only)
- :mod:`diceboard.envs.pettingzoo` — PettingZoo AEC environments ``custodian_dice_v0`` and
  ``chase_v0`` (extra ``diceboard[rl]``)
- :mod:`diceboard.envs.gymnasium` — single-agent Gymnasium environments against a diceboard
  agent (extra ``diceboard[rl]``)
- :mod:`diceboard.envs.openspiel` — both games as OpenSpiel Python games (extra
  ``diceboard[openspiel]``)

Importing this package imports none of the optional libraries; only the adapter modules do.
The batched simulator is :mod:`diceboard.vector`.
"""

from diceboard.envs.encoding import Encoding, action_mask, encoding_for, observe

__all__ = ["Encoding", "action_mask", "encoding_for", "observe"]
