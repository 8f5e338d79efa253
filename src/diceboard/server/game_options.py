"""A stored game's rules: the registry's game with the options stored for it. Imported by the
server and by its computer workers, which import nothing of the web server."""

from __future__ import annotations

from typing import Any

import diceboard
from diceboard.core.game import Game


def make_rules(name: str, options: dict[str, Any]) -> Game:
    """The game ``name`` with the (non-default) ``options`` stored for it."""
    opts = dict(options)
    variant = opts.pop("variant", None)
    return diceboard.game(name, variant, **opts)
