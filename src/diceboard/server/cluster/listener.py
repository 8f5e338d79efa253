"""PostgreSQL ``LISTEN``: one connection of its own, held open for as long as the server runs,
on which every notification of the channel arrives (psycopg 3's asyncio connection, so
nothing blocks the event loop). A lost connection is opened again, with a growing pause; since
notifications sent while it was down are lost, :attr:`Listener.on_reconnect` is called once it
listens again, for the server to catch up by reading what it shows."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable
from typing import Any

from sqlalchemy import Engine

log = logging.getLogger(__name__)

#: the longest pause between two attempts to reconnect, in seconds
MAX_BACKOFF = 5.0


def connect_params(engine: Engine) -> dict[str, Any]:
    """psycopg's connection arguments for the database of ``engine``, with TCP keepalives so
    that a silently dropped connection is noticed."""
    _args, params = engine.dialect.create_connect_args(engine.url)
    params = {k: v for k, v in params.items() if k != "context"}
    host = str(params.get("host") or "")
    if host and not host.startswith("/"):
        params.update(keepalives=1, keepalives_idle=10, keepalives_interval=5, keepalives_count=3)
    return params


class Listener:
    """Listens on ``channel`` and hands every payload to ``on_message`` (on the loop)."""

    def __init__(
        self,
        params: dict[str, Any],
        channel: str,
        on_message: Callable[[str], None],
        on_reconnect: Callable[[], None],
    ) -> None:
        self._params = params
        self._channel = channel
        self.on_message = on_message
        self.on_reconnect = on_reconnect
        #: set while the connection listens
        self.listening = asyncio.Event()

    async def run(self) -> None:
        """Listen until cancelled."""
        import psycopg
        from psycopg import sql

        backoff = 0.2
        connected_before = False
        while True:
            try:
                connection = await psycopg.AsyncConnection.connect(**self._params, autocommit=True)
                async with connection:
                    await connection.execute(
                        sql.SQL("LISTEN {}").format(sql.Identifier(self._channel))
                    )
                    self.listening.set()
                    if connected_before:
                        log.info("listening for changes again")
                        self.on_reconnect()
                    connected_before = True
                    backoff = 0.2
                    async for note in connection.notifies():
                        try:
                            self.on_message(note.payload)
                        except Exception:
                            log.exception("a change notification could not be handled")
            except asyncio.CancelledError:
                raise
            except Exception as exc:
                log.warning("listening for changes failed (%s); retrying in %.1f s", exc, backoff)
            self.listening.clear()
            await asyncio.sleep(backoff)
            backoff = min(MAX_BACKOFF, backoff * 2)
