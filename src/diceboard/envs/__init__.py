"""Research interfaces: adapters for reinforcement learning.

- :mod:`diceboard.envs.pettingzoo` — PettingZoo AEC environments, one module per game named
  as the game's ``info.environments["pettingzoo"]`` (``custodian_dice_v0``, ``chase_v0``;
  extra ``diceboard[rl]``)
- :mod:`diceboard.envs.gymnasium` — single-agent Gymnasium environments against a diceboard
  agent, registered as ``info.environments["gymnasium"]`` (extra ``diceboard[rl]``)
- :mod:`diceboard.envs.openspiel` — every game as an OpenSpiel Python game, registered as
  ``info.environments["openspiel"]`` (extra ``diceboard[openspiel]``)

The observation tensors and legal-action masks they share are :mod:`diceboard.encoding`
(re-exported here); every game the registry lists gets every adapter. Importing this package
imports none of the optional libraries; only the adapter modules do. The batched simulator is
:mod:`diceboard.vector`.
"""

from diceboard.encoding import Encoding, action_mask, encoding_for, observe

__all__ = ["Encoding", "action_mask", "encoding_for", "observe"]
