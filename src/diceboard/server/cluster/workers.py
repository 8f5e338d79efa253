"""``diceboard serve --workers N``: N server processes on one listening socket.

uvicorn's process supervisor starts the workers (and starts a new one when one dies); each
builds its own app with :func:`create_worker_app` from the settings the command left in the
environment, and all of them accept connections from the one socket the command bound. They
share the database as any processes do (see :mod:`diceboard.server.cluster.node`), so it must
be PostgreSQL.
"""

from __future__ import annotations

import base64
import os
import pickle

from fastapi import FastAPI

from diceboard.server.app import create_app
from diceboard.server.settings import ServerSettings

#: where the command leaves the settings for its workers
ENVIRONMENT = "DICEBOARD_SERVE_SETTINGS"
#: what uvicorn imports in each worker
FACTORY = "diceboard.server.cluster.workers:create_worker_app"


def settings_for_workers(settings: ServerSettings) -> None:
    """Leave ``settings`` in this process's environment for the workers it starts. (Pickled:
    the settings hold nested dataclasses; the environment is written by the parent process of
    the same user, the only one a worker reads it from.)"""
    os.environ[ENVIRONMENT] = base64.b64encode(pickle.dumps(settings)).decode()


def worker_settings() -> ServerSettings:
    """The settings the command left for this worker."""
    encoded = os.environ.get(ENVIRONMENT)
    if not encoded:
        raise RuntimeError(f"{ENVIRONMENT} is not set: start workers with diceboard serve")
    settings = pickle.loads(base64.b64decode(encoded))
    if not isinstance(settings, ServerSettings):
        raise RuntimeError(f"{ENVIRONMENT} does not hold server settings")
    return settings


def create_worker_app() -> FastAPI:
    """One worker's app (uvicorn's factory): serving at once, the engine warming up beside."""
    return create_app(worker_settings(), warm_up_beside=True)
