"""Alembic migrations of the server's database (run by ``diceboard serve`` at start)."""
