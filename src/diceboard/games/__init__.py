"""The games: one package each, holding its rules kernel, notation and game API."""

from __future__ import annotations

from typing import Any

from diceboard.core.errors import OptionError
from diceboard.core.game import Game

#: accepted names -> canonical game name
ALIASES = {
    "custodian": "custodian",
    "custodian-dice": "custodian",
    "custodian_dice": "custodian",
    "chase": "chase",
}


def game(name: str, variant: str | None = None, **options: Any) -> Game:
    """The game ``name`` (``"custodian"`` or ``"chase"``) with the given options.

    An unknown game, option or option value raises :class:`~diceboard.core.OptionError`
    (a ``ValueError``).
    """
    key = ALIASES.get(str(name).strip().lower())
    if key == "custodian":
        from diceboard.games.custodian import CustodianGame

        return CustodianGame(variant, **options)
    if key == "chase":
        from diceboard.games.chase import ChaseGame

        if variant is not None:
            options = {"variant": variant, **options}
        return ChaseGame(**options)
    raise OptionError(f"unknown game {name!r}; games: custodian, chase")
