"""The diceboard web app: an authoritative game server (FastAPI, SQLAlchemy, Alembic) and the
browser client it serves. ``create_app`` builds the ASGI app; ``diceboard serve`` runs it.

The names below are imported on first use: a computer worker process imports
:mod:`diceboard.server.computer_players` only, and none of the web framework with it.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from diceboard.server.app import create_app
    from diceboard.server.settings import ServerSettings, default_database_url

__all__ = ["ServerSettings", "create_app", "default_database_url"]

#: where each public name is defined
_HOMES = {
    "create_app": "diceboard.server.app",
    "ServerSettings": "diceboard.server.settings",
    "default_database_url": "diceboard.server.settings",
}


def __getattr__(name: str) -> Any:
    home = _HOMES.get(name)
    if home is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    return getattr(importlib.import_module(home), name)
