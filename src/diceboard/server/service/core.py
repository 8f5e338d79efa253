"""What every part of the game service shares: the games in memory and their locks, loading
and committing, authorisation, and the preamble every player's action starts with
(:meth:`ServiceCore.action`: the game's lock, the caller's seats, a clock that ran out).

Actions on one game are serialised by a per-game lock, and every write is committed to the
database (guarded by the game's revision) before it is acknowledged or broadcast; the writes
that arrive in the same turn of the event loop share one transaction (group commit).

On PostgreSQL the core is one of possibly several server processes (:attr:`ServiceCore.cluster`,
see :mod:`diceboard.server.cluster`): a game read from memory is first checked against the
stored revision (one indexed read) so that every process answers with the game as committed,
other processes' changes are pushed to this one's viewers when they are notified, and a
game's clock flag and computer turns run only on the process that holds its lease.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections import OrderedDict
from collections.abc import AsyncIterator, Callable, Coroutine
from dataclasses import dataclass
from typing import Any, TypeVar

from diceboard.server import clocks
from diceboard.server.cluster import ClusterNode
from diceboard.server.computer import ComputerPool
from diceboard.server.errors import Conflict, Forbidden, NotFound, Unauthorized
from diceboard.server.game_options import make_rules
from diceboard.server.hub import Hub
from diceboard.server.keyed_locks import KeyedLock, KeyedLocks
from diceboard.server.live import TIMEOUT, LiveGame, result_for, state_after_moves
from diceboard.server.settings import ServerSettings
from diceboard.server.storage import GameData, MoveData, Repository, SeatData
from diceboard.server.storage.group_commit import GroupCommit
from diceboard.server.storage.repository import Write
from diceboard.server.storage.rows import replaced
from diceboard.server.tokens import same_digest, token_hash

log = logging.getLogger(__name__)
T = TypeVar("T")


def next_revision(data: GameData, now: float, **changes: Any) -> GameData:
    """``data`` with ``changes``, one revision later (every stored change is one)."""
    return replaced(data, revision=data.revision + 1, updated_at=now, **changes)


def finished(players: tuple[str, str], winner: str | None, reason: str) -> dict[str, Any]:
    """The fields that end a game (for :func:`next_revision`)."""
    return {
        "status": "finished",
        "winner": winner,
        "reason": reason,
        "result": result_for(winner, players),
        "draw_offer": None,
        "takeback_offer": None,
        "listed": False,
    }


def ended(live: LiveGame, winner: str | None, reason: str, now: float) -> LiveGame:
    """``live`` ended now (clocks stopped): ``winner`` (or nobody) wins for ``reason``."""
    data = clocks.restart(live.data, live.players, None, now)
    data = next_revision(data, now, **finished(live.players, winner, reason))
    return replaced(live, data=data)


def seats_of(live: LiveGame, token: str | None) -> list[str]:
    """The seats of ``live`` that ``token`` holds (none for a spectator)."""
    if not token:
        return []
    hashed = token_hash(token)  # (once, not once a seat: every move asks)
    return [
        s for s in live.players if s in live.seats and same_digest(hashed, live.seats[s].token_hash)
    ]


@dataclass(frozen=True)
class Action:
    """A player's action under way: the game as it is (lock held), the seats the caller holds
    (at least one), the caller's token and the time the action is made at."""

    live: LiveGame
    seats: list[str]
    token: str
    now: float

    @property
    def me(self) -> str:
        """The seat the caller acts for: its only seat, or at one screen the side to move."""
        if len(self.seats) == 1:
            return self.seats[0]
        return self.live.side_to_move() or self.seats[0]


class ServiceCore:
    """The games in memory, their locks, the database and the viewers' hub, shared by every
    part of the service."""

    def __init__(
        self, repository: Repository, pool: ComputerPool, hub: Hub, settings: ServerSettings
    ) -> None:
        self.repository = repository
        self.pool = pool
        self.hub = hub
        self.settings = settings
        #: every change of a game is stored through this (see :mod:`.group_commit`)
        self.writes = GroupCommit(repository)
        self._cache: OrderedDict[str, LiveGame] = OrderedDict()
        self._locks = KeyedLocks()
        self._flags: dict[str, asyncio.TimerHandle] = {}
        self.tasks: set[asyncio.Task[Any]] = set()
        #: called with every game stored or loaded for play: what it now waits for (the
        #: computer's move) is started there
        self.watchers: list[Callable[[LiveGame], None]] = []
        hub.on_presence = self._presence_changed
        #: this process's part in a cluster of processes sharing the database (PostgreSQL)
        self.cluster: ClusterNode | None = None
        #: games changed by another process, and those being read again because of it
        self._stale: set[str] = set()
        self._refreshing: set[str] = set()
        #: the seats of each game last announced to the other processes as connected here
        self._announced: dict[str, frozenset[str]] = {}
        if repository.database.engine.dialect.name == "postgresql":
            self._join_cluster(ClusterNode(repository.database, repository, settings.lease_seconds))

    # --- plumbing --------------------------------------------------------------------------------
    async def db(self, fn: Callable[..., T], *args: Any, **kwargs: Any) -> T:
        """``fn`` (a repository call) run where it does not hold up the event loop."""
        if self.repository.embedded:
            # an embedded SQLite write takes about a millisecond: handing it to a thread would
            # cost more (the interpreter lock's switch interval) than it saves
            return fn(*args, **kwargs)
        return await asyncio.to_thread(fn, *args, **kwargs)

    def spawn(self, coro: Coroutine[Any, Any, Any]) -> None:
        """Run ``coro`` in the background (cancelled at :meth:`stop`)."""
        task = asyncio.create_task(coro)
        self.tasks.add(task)
        task.add_done_callback(self.tasks.discard)

    def lock(self, game_id: str) -> KeyedLock:
        """The lock that serialises the actions on ``game_id`` (``async with`` it)."""
        return self._locks.hold(game_id)

    def keep(self, live: LiveGame) -> None:
        """Remember ``live`` as the game's current state (the least recently used go); a
        game never goes back to an older revision (a read that raced a commit)."""
        held = self._cache.get(live.id)
        if held is not None and held.data.revision > live.data.revision:
            return
        self._cache[live.id] = live
        self._cache.move_to_end(live.id)
        while len(self._cache) > self.settings.cache_size:
            self._cache.popitem(last=False)

    def cached(self, game_id: str) -> LiveGame | None:
        """The game ``game_id`` if it is in memory."""
        return self._cache.get(game_id)

    async def get(self, game_id: str) -> LiveGame:
        """The game ``game_id`` (from memory if it is current, else from the database); 404 if
        unknown."""
        live = self._cache.get(game_id)
        if live is not None and (
            self.cluster is None
            or await self.db(self.cluster.store.revision, game_id) == live.data.revision
        ):
            self._cache.move_to_end(game_id)
            return live
        return await self.load(game_id)

    async def load(self, game_id: str) -> LiveGame:
        """The game ``game_id`` read from the database (and remembered); 404 if unknown."""
        loaded = await self.db(self.repository.load, game_id)
        if loaded is None:
            self._cache.pop(game_id, None)
            raise NotFound(f"there is no game {game_id!r}")
        data, seat_list, moves = loaded
        held = self._cache.get(game_id)
        if held is not None and held.data.revision == data.revision:
            return held
        rules = make_rules(data.game, data.options)
        state = state_after_moves(rules, data.start_position, moves)
        live = LiveGame(data, {s.seat: s for s in seat_list}, tuple(moves), rules, state)
        self.keep(live)
        return self._cache.get(game_id, live)

    async def insert(self, live: LiveGame, *, schedule: bool = True) -> LiveGame:
        """Store the new game ``live`` and start what it waits for."""
        await self.db(self.repository.insert, live.data, list(live.seats.values()), live.moves)
        self.keep(live)
        if schedule:
            self.schedule(live)
        return live

    async def commit(
        self,
        before: LiveGame,
        after: LiveGame,
        *,
        keep_moves: int | None = None,
        new_moves: tuple[MoveData, ...] = (),
        seats: tuple[SeatData, ...] = (),
    ) -> LiveGame:
        """Store ``after`` in place of ``before``, then publish it. If the game changed in the
        database meanwhile nothing is stored and 409 is raised with the current game."""
        # committed together with the other writes of this turn of the loop (group commit),
        # and answered only once that transaction has committed
        ok = await self.writes.commit(Write(before.data, after.data, keep_moves, new_moves, seats))
        if not ok:
            self._cache.pop(before.id, None)
            current = await self.get(before.id)
            raise Conflict("the game changed meanwhile; nothing was done", current)
        self.keep(after)
        self.hub.publish(after)
        self.schedule(after)
        return after

    def _presence_changed(self, game_id: str) -> None:
        if self.cluster is not None:
            here = self.hub.local_seats(game_id)
            if here != self._announced.get(game_id, frozenset()):
                self.cluster.send_presence(game_id, here)
                if here:
                    self._announced[game_id] = here
                else:
                    self._announced.pop(game_id, None)
        live = self._cache.get(game_id)
        if live is not None:
            self.hub.publish(live)

    # --- several processes on one database -------------------------------------------------------
    def _join_cluster(self, node: ClusterNode) -> None:
        self.cluster = node
        node.on_change = self._changed_elsewhere
        node.on_notice = self.hub.notice_here
        node.on_presence = self.hub.set_remote_seats
        node.on_process_gone = self.hub.forget_process
        node.on_presence_query = self._announce_presence
        node.on_resync = self._resync
        node.on_taken = self._taken_over
        self.hub.relay = node.send_notice

    async def give_back_downtime(self) -> None:
        """At start: give running clocks back the time the server was down, measured from the
        last heartbeat. With other processes on the database, only if none of them was
        serving meanwhile (then the clocks rightly ran on)."""
        if self.cluster is not None:
            given = await self.cluster.join()
            if given:
                log.info("gave the running clocks back %.1f s of downtime", given)
            return
        now = time.time()
        last = await self.db(self.repository.last_heartbeat)
        if last is not None:
            paused = await self.db(self.repository.pause_clocks, now - last)
            if paused:
                log.info("gave %d clocks back %.1f s of downtime", paused, now - last)

    async def games_to_resume(self) -> list[str]:
        """At start: the games in play whose clock and computer this process now runs (with
        other processes: those nobody holds, taken over; the heartbeat that renews them and
        takes over a stopped process's games starts here)."""
        if self.cluster is None:
            return list(await self.db(self.repository.active_games))
        taken = await self.cluster.take_over()
        self.cluster.start_heartbeat()
        return taken

    async def leave_cluster(self) -> None:
        """At stop: let this process's games go, so another process takes them over now."""
        if self.cluster is not None:
            await self.cluster.leave()

    def _changed_elsewhere(self, game_id: str, revision: int) -> None:
        """Another process committed ``revision`` of ``game_id``: push it to this process's
        viewers, and start what it waits for if this process holds the game."""
        assert self.cluster is not None
        held = self._cache.get(game_id)
        if held is not None and held.data.revision >= revision:
            return
        if not self.hub.watchers(game_id) and not self.cluster.owns(game_id):
            self._cache.pop(game_id, None)  # read again when next asked for
            return
        self._stale.add(game_id)
        if game_id not in self._refreshing:
            self._refreshing.add(game_id)
            self.spawn(self._refresh(game_id))

    async def _refresh(self, game_id: str) -> None:
        assert self.cluster is not None
        try:
            while game_id in self._stale:
                self._stale.discard(game_id)
                live = await self.get(game_id)
                self.hub.publish(live)
                if self.cluster.owns(game_id):
                    self.schedule(live)
        except NotFound:
            pass
        except Exception:
            log.exception("reading game %s again after a change elsewhere failed", game_id)
        finally:
            self._refreshing.discard(game_id)

    def _resync(self) -> None:
        """Notifications may have been missed: read every watched or held game again."""
        assert self.cluster is not None
        wanted = set(self.hub.watched()) | set(self.cluster.held())
        for game_id in list(self._cache):
            if game_id not in wanted:
                self._cache.pop(game_id, None)
        for game_id in wanted:
            self._changed_elsewhere(game_id, 1 << 62)
        self._announce_presence()
        self.cluster.send(f"q {self.cluster.id}")

    def _announce_presence(self) -> None:
        assert self.cluster is not None
        for game_id, seats in self._announced.items():
            self.cluster.send_presence(game_id, seats)

    def _taken_over(self, game_ids: list[str]) -> None:
        for game_id in game_ids:
            self.spawn(self._resume(game_id))

    async def _resume(self, game_id: str) -> None:
        """Run the game that this process just took over: its clock and computer."""
        try:
            live = await self.get(game_id)
            await self.settle_flag_locked(game_id)
            self.schedule(live)
        except NotFound:
            pass
        except Exception:
            log.exception("taking over game %s failed", game_id)

    async def _claim_then_schedule(self, game_id: str) -> None:
        assert self.cluster is not None
        try:
            if await self.cluster.claim(game_id):
                self.schedule(await self.get(game_id))
        except NotFound:
            pass
        except Exception:
            log.exception("claiming game %s failed", game_id)

    # --- the preamble of every action ------------------------------------------------------------
    @staticmethod
    def require_seats(live: LiveGame, token: str | None) -> list[str]:
        """The seats ``token`` holds in ``live``: 401 without a token, 403 for none."""
        if not token:
            raise Unauthorized(
                "this needs a player's seat token (the X-Seat-Token header or the seat cookie)"
            )
        seats = seats_of(live, token)
        if not seats:
            raise Forbidden(f"this token holds no seat in game {live.id}")
        return seats

    @staticmethod
    def require_in_play(live: LiveGame) -> None:
        """409 unless moves can be made in ``live`` now."""
        if live.data.status == "waiting":
            raise Conflict("the game has not started: it is waiting for an opponent", live)
        if not live.in_play():
            raise Conflict(f"the game is over ({live.outcome()})", live)

    @contextlib.asynccontextmanager
    async def action(
        self, game_id: str, token: str | None, *, in_play: bool = True
    ) -> AsyncIterator[Action]:
        """A player's action on ``game_id``: holds the game's lock, checks that ``token``
        holds a seat, ends the game first if a clock has run out, and (``in_play``) that
        the game is being played."""
        async with self.lock(game_id):
            live = await self.get(game_id)
            seats = self.require_seats(live, token)
            assert token is not None
            live = await self.settle_flag(live)
            if in_play:
                self.require_in_play(live)
            yield Action(live, seats, token, time.time())

    # --- what a game waits for: clocks and the computer ------------------------------------------
    def schedule(self, live: LiveGame) -> None:
        """Start what the game now waits for: the flag of a running clock, and whatever the
        :attr:`watchers` start (the computer's move). With other processes, only on the one
        that holds the game's lease (this one claims it if nobody does)."""
        handle = self._flags.pop(live.id, None)
        if handle is not None:
            handle.cancel()
        if self.cluster is not None:
            if not live.in_play():
                self.cluster.finished(live.id)
                return
            if not self.cluster.owns(live.id):
                if _needs_owner(live) and self.cluster.may_claim(live.id):
                    self.spawn(self._claim_then_schedule(live.id))
                return
        due = clocks.flag_due(live.data, live.players) if live.in_play() else None
        if due is not None:
            delay = max(0.0, due - time.time()) + 0.02
            loop = asyncio.get_running_loop()
            self._flags[live.id] = loop.call_later(delay, self._flag_due, live.id)
        for watcher in self.watchers:
            watcher(live)

    def _flag_due(self, game_id: str) -> None:
        self._flags.pop(game_id, None)
        if self.cluster is None or self.cluster.owns(game_id):
            self.spawn(self.settle_flag_locked(game_id))
        elif self.cluster.may_claim(game_id):
            # not known to be held here now (a renewal that raced a claim): claim it again,
            # which also rearms the flag; a game another process holds is its to settle
            self.spawn(self._claim_then_schedule(game_id))

    def stop_timers(self) -> None:
        """Cancel every clock's flag timer."""
        for handle in self._flags.values():
            handle.cancel()
        self._flags.clear()

    async def settle_flag_locked(self, game_id: str) -> None:
        """:meth:`settle_flag` with the game's lock taken (a timer's callback)."""
        try:
            async with self.lock(game_id):
                await self.settle_flag(await self.get(game_id))
        except Exception:
            log.exception("checking the clock of game %s failed", game_id)

    async def settle_flag(self, live: LiveGame) -> LiveGame:
        """End the game on time if the running side's clock has run out (lock held)."""
        if not live.in_play():
            return live
        now = time.time()
        loser = clocks.flagged(live.data, live.players, now)
        if loser is None:
            return live
        return await self.commit(live, ended(live, live.opponent(loser), TIMEOUT, now))


def _needs_owner(live: LiveGame) -> bool:
    """Whether a game in play has anything for an owner to run: a clock or a computer."""
    return clocks.has_clock(live.data) or any(s.kind == "computer" for s in live.seats.values())
