"""The diceboard web app: an authoritative game server (FastAPI, SQLAlchemy, Alembic) and the
browser client it serves. ``create_app`` builds the ASGI app; ``diceboard serve`` runs it."""

from diceboard.server.app import create_app
from diceboard.server.settings import ServerSettings, default_database_url

__all__ = ["ServerSettings", "create_app", "default_database_url"]
