"""The Chase rules kernel: the single source of rule truth for this game.

All functions work on an ``int64`` state array (layout, options and action ids in
:mod:`.layout`; the board's geometry in :mod:`.geometry`), compile with numba in nopython mode
and also run as plain Python. Where each rule lives:

- :mod:`.geometry` — neighbours, steps with wrap and ricochet, paths, the chamber's exits
- :mod:`.movement` — moves: paths, landing, capture; :mod:`.bump` — bump chains;
  :mod:`.chamber` — the split
- :mod:`.absorption` — raising the lowest dice; :mod:`.transfer` — transfers
- :mod:`.movegen` — legal actions; :mod:`.play` — :func:`step`; :mod:`.endings` — the end
- :mod:`.turns` — whole turns after an absorption, for the notation layer
- :mod:`.hashing` — Zobrist keys; :mod:`.board` — board writes that keep counts, totals,
  hash and phase in step
"""

from diceboard.games.chase.kernel.board import refresh
from diceboard.games.chase.kernel.describe import (
    NUM_KEYS,
    move_trace,
    notation_key,
    notation_keys,
)
from diceboard.games.chase.kernel.drivers import LEGAL_WIDTH, advance, pack, perft, random_playouts
from diceboard.games.chase.kernel.endings import check_end, check_static_end
from diceboard.games.chase.kernel.hashing import full_hash
from diceboard.games.chase.kernel.layout import MAX_LEGAL, NUM_ACTIONS, OPTS_LEN, STATE_LEN
from diceboard.games.chase.kernel.movegen import has_legal_turn, legal_actions
from diceboard.games.chase.kernel.movement import move_status
from diceboard.games.chase.kernel.play import step
from diceboard.games.chase.kernel.setup import new_game
from diceboard.games.chase.kernel.transfer import transfer_status
from diceboard.games.chase.kernel.turns import absorption_turns, legal_keys

__all__ = [
    "LEGAL_WIDTH",
    "MAX_LEGAL",
    "NUM_ACTIONS",
    "NUM_KEYS",
    "OPTS_LEN",
    "STATE_LEN",
    "absorption_turns",
    "advance",
    "check_end",
    "check_static_end",
    "full_hash",
    "has_legal_turn",
    "legal_actions",
    "legal_keys",
    "move_status",
    "move_trace",
    "new_game",
    "notation_key",
    "notation_keys",
    "pack",
    "perft",
    "random_playouts",
    "refresh",
    "step",
    "transfer_status",
]
