"""This server process as one of several that share a PostgreSQL database.

- **Changes fan out.** Every commit notifies the others in its own transaction (see
  :attr:`~diceboard.server.storage.Repository.notify_origin`); each process listens
  (:mod:`.listener`) and pushes the game, read afresh, to its own sockets. Notices (a declined
  offer) and which seats are connected travel the same way.
- **One owner per game.** The clock flag and the computer's turns of a game in play run on
  the one process holding its lease (:class:`~diceboard.server.storage.cluster.ClusterStore`).
  A heartbeat every third of the lease time renews this process's leases and takes over those
  that expired, so the games of a process that died go on elsewhere within about a lease time;
  a process that stops cleanly lets its leases go at once.

The node knows nothing of games beyond their ids: the service tells it what to do through the
callbacks (``on_change`` and so on), which it sets.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import os
import secrets
import socket
import time
from collections.abc import Callable
from typing import Any

from diceboard.server.cluster.listener import Listener, connect_params
from diceboard.server.storage import Database, Repository
from diceboard.server.storage.cluster import MAX_PAYLOAD, ClusterStore
from diceboard.server.storage.repository import CHANNEL

log = logging.getLogger(__name__)

#: a lease counts as this process's only until this share of the lease time after its renewal
#: (the rest is the margin for a late heartbeat: the holder gives up before anyone may take it)
OWN_SHARE = 0.8
#: heartbeats between two tidy-ups of finished games' leases and long-gone processes
TIDY_EVERY = 30


def _ignore(*_args: Any) -> None:
    return None


def _died_here(host: str, pid: int) -> bool:
    """Whether the process ``pid`` of ``host`` is known to be gone: it ran on this host and
    no process has that pid now (a server killed and started again)."""
    if host != socket.gethostname()[:255]:
        return False
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return True
    except OSError:  # it exists, under another user
        return False
    return False


class ClusterNode:
    """This process's part in a cluster: its id, its leases, the listener."""

    def __init__(self, database: Database, repository: Repository, lease_seconds: float) -> None:
        self.id = secrets.token_hex(8)
        self.store = ClusterStore(database)
        self.lease_seconds = lease_seconds
        self._params = connect_params(database.engine)
        repository.notify_origin = self.id
        #: games this process holds -> until when (epoch seconds) it counts them as its own
        self._held: dict[str, float] = {}
        #: when this process last claimed each game (a beat must not forget a claim it raced)
        self._claimed_at: dict[str, float] = {}
        #: games another process holds -> when to try claiming them again
        self._elsewhere: dict[str, float] = {}
        self._alive: set[str] = set()
        self._tasks: list[asyncio.Task[None]] = []
        self._writes: set[asyncio.Task[None]] = set()
        self._beats = 0
        self.listener = Listener(self._params, CHANNEL, self._on_payload, self._on_reconnect)
        # what the service does on each event (set by it)
        self.on_change: Callable[[str, int], None] = _ignore
        self.on_notice: Callable[[str, dict[str, Any]], None] = _ignore
        self.on_presence: Callable[[str, str, frozenset[str]], None] = _ignore
        self.on_process_gone: Callable[[str], None] = _ignore
        self.on_presence_query: Callable[[], None] = _ignore
        self.on_resync: Callable[[], None] = _ignore
        self.on_taken: Callable[[list[str]], None] = _ignore

    @property
    def heartbeat_interval(self) -> float:
        """Seconds between two heartbeats."""
        return self.lease_seconds / 3

    # --- start and stop -------------------------------------------------------------------------
    async def join(self) -> float:
        """Register this process and start listening; returns the downtime given back to the
        clocks (nonzero only when no other process was serving)."""
        now = time.time()
        given = await asyncio.to_thread(
            self.store.join,
            self.id,
            socket.gethostname(),
            os.getpid(),
            now,
            self.lease_seconds,
            _died_here,
        )
        self._tasks.append(asyncio.create_task(self.listener.run()))
        # changes made before the listener listens would be missed: serve once it does
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(self.listener.listening.wait(), 30)
        self.send(f"q {self.id}")
        return given

    def start_heartbeat(self) -> None:
        """Renew leases and take over expired ones from now on."""
        self._tasks.append(asyncio.create_task(self._heartbeat()))

    async def take_over(self) -> list[str]:
        """Take every game whose lease expired or that has none (at start and each beat)."""
        now = time.time()
        taken = await asyncio.to_thread(self.store.take_over, self.id, now, self.lease_seconds)
        until = now + self.lease_seconds * OWN_SHARE
        for game_id in taken:
            self._held[game_id] = until
            self._elsewhere.pop(game_id, None)
        return taken

    async def leave(self) -> None:
        """Stop listening and beating, and let every lease go."""
        tasks = [*self._tasks, *self._writes]
        for task in tasks:
            task.cancel()
        for task in tasks:
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task
        self._tasks.clear()
        self._held.clear()
        try:
            await asyncio.to_thread(self.store.leave, self.id)
        except Exception:
            log.exception("could not let this process's leases go")

    async def _heartbeat(self) -> None:
        while True:
            await asyncio.sleep(self.heartbeat_interval)
            try:
                await self._beat()
            except asyncio.CancelledError:
                raise
            except Exception:
                log.exception("the cluster heartbeat failed")

    async def _beat(self) -> None:
        now = time.time()
        held = await asyncio.to_thread(self.store.beat, self.id, now, self.lease_seconds)
        until = now + self.lease_seconds * OWN_SHARE
        renewed = dict.fromkeys(held, until)
        for game_id, own_until in self._held.items():
            # claimed while the renewal ran: still this process's
            if game_id not in renewed and self._claimed_at.get(game_id, 0.0) >= now:
                renewed[game_id] = own_until
        self._held = renewed
        self._claimed_at = {g: t for g, t in self._claimed_at.items() if t >= now}
        taken = await self.take_over()
        if taken:
            log.info("took over %d games whose process stopped", len(taken))
            self.on_taken(taken)
        alive = set(await asyncio.to_thread(self.store.alive, time.time(), self.lease_seconds))
        for gone in self._alive - alive:
            self.on_process_gone(gone)
        self._alive = alive
        self._beats += 1
        if self._beats % TIDY_EVERY == 0:
            await asyncio.to_thread(self.store.tidy, time.time())

    # --- leases ---------------------------------------------------------------------------------
    def owns(self, game_id: str) -> bool:
        """Whether this process runs ``game_id``'s clock and computer now."""
        until = self._held.get(game_id)
        return until is not None and until > time.time()

    def may_claim(self, game_id: str) -> bool:
        """Whether claiming ``game_id`` could succeed (it is not known to be held elsewhere
        for a while yet)."""
        return self._elsewhere.get(game_id, 0.0) <= time.time()

    async def claim(self, game_id: str) -> bool:
        """Take ``game_id``'s lease unless another process holds it; whether this one does."""
        if self.owns(game_id):
            return True
        now = time.time()
        holder = await asyncio.to_thread(
            self.store.claim, game_id, self.id, now, self.lease_seconds
        )
        if holder == self.id:
            self._held[game_id] = now + self.lease_seconds * OWN_SHARE
            self._claimed_at[game_id] = now
            self._elsewhere.pop(game_id, None)
            return True
        self._held.pop(game_id, None)
        if holder is not None:
            # its holder renews it: look again only after it would have expired
            self._elsewhere[game_id] = now + self.lease_seconds
        return False

    def finished(self, game_id: str) -> None:
        """``game_id`` is over: nobody needs its lease."""
        self._elsewhere.pop(game_id, None)
        if self._held.pop(game_id, None) is not None:
            self._spawn_db(self.store.release, [game_id], self.id)

    def held(self) -> list[str]:
        """The games this process holds."""
        return [g for g in self._held if self.owns(g)]

    # --- messages -------------------------------------------------------------------------------
    def send(self, payload: str) -> None:
        """Notify every process (this one ignores its own messages)."""
        if len(payload.encode()) > MAX_PAYLOAD:
            log.warning("a cluster message of %d bytes is too long to send", len(payload))
            return
        self._spawn_db(self.store.notify, payload)

    def send_notice(self, game_id: str, payload: dict[str, Any]) -> None:
        """Pass a notice for ``game_id``'s viewers to the other processes."""
        self.send(f"n {game_id} {self.id} {json.dumps(payload, separators=(',', ':'))}")

    def send_presence(self, game_id: str, seats: frozenset[str]) -> None:
        """Tell the others which seats of ``game_id`` are connected here."""
        self.send(f"p {game_id} {self.id} {''.join(sorted(seats)) or '-'}")

    def _spawn_db(self, fn: Callable[..., Any], *args: Any) -> None:
        async def run() -> None:
            try:
                await asyncio.to_thread(fn, *args)
            except Exception:
                log.exception("a cluster write failed")

        task = asyncio.create_task(run())
        self._writes.add(task)
        task.add_done_callback(self._writes.discard)

    def _on_payload(self, payload: str) -> None:
        kind, _, rest = payload.partition(" ")
        if kind == "g":
            game_id, revision, origin = rest.split(" ", 2)
            if origin != self.id:
                self.on_change(game_id, int(revision))
        elif kind == "n":
            game_id, origin, body = rest.split(" ", 2)
            if origin != self.id:
                self.on_notice(game_id, json.loads(body))
        elif kind == "p":
            game_id, origin, seats = rest.split(" ", 2)
            if origin != self.id:
                self._alive.add(origin)
                self.on_presence(game_id, origin, frozenset(seats.strip("-")))
        elif kind == "q":
            if rest != self.id:
                self.on_presence_query()
        else:
            log.warning("unknown cluster message %r", payload[:80])

    def _on_reconnect(self) -> None:
        self.on_resync()
