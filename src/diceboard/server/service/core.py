"""What every part of the game service shares: the games in memory and their locks, loading
and committing, authorisation, and the preamble every player's action starts with
(:meth:`ServiceCore.action`: the game's lock, the caller's seats, a clock that ran out).

Actions on one game are serialised by a per-game lock, and every write is committed to the
database (guarded by the game's revision) before it is acknowledged or broadcast.
"""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import logging
import time
import weakref
from collections import OrderedDict
from collections.abc import AsyncIterator, Callable, Coroutine
from dataclasses import dataclass
from typing import Any, TypeVar

from diceboard.server import clocks
from diceboard.server.computer import ComputerPool
from diceboard.server.errors import Conflict, Forbidden, NotFound, Unauthorized
from diceboard.server.hub import Hub
from diceboard.server.live import TIMEOUT, LiveGame, make_rules, result_for, state_after_moves
from diceboard.server.settings import ServerSettings
from diceboard.server.storage import GameData, MoveData, Repository, SeatData
from diceboard.server.tokens import same_hash

log = logging.getLogger(__name__)
T = TypeVar("T")


def next_revision(data: GameData, now: float, **changes: Any) -> GameData:
    """``data`` with ``changes``, one revision later (every stored change is one)."""
    return dataclasses.replace(data, revision=data.revision + 1, updated_at=now, **changes)


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
    return dataclasses.replace(live, data=data)


def seats_of(live: LiveGame, token: str | None) -> list[str]:
    """The seats of ``live`` that ``token`` holds (none for a spectator)."""
    if not token:
        return []
    return [
        s for s in live.players if s in live.seats and same_hash(token, live.seats[s].token_hash)
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
        self._cache: OrderedDict[str, LiveGame] = OrderedDict()
        self._locks: weakref.WeakValueDictionary[str, asyncio.Lock] = weakref.WeakValueDictionary()
        self._flags: dict[str, asyncio.TimerHandle] = {}
        self.tasks: set[asyncio.Task[Any]] = set()
        #: called with every game stored or loaded for play: what it now waits for (the
        #: computer's move) is started there
        self.watchers: list[Callable[[LiveGame], None]] = []
        hub.on_presence = self._presence_changed

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

    def lock(self, game_id: str) -> asyncio.Lock:
        """The lock that serialises the actions on ``game_id``."""
        lock = self._locks.get(game_id)
        if lock is None:
            lock = asyncio.Lock()
            self._locks[game_id] = lock
        return lock

    def keep(self, live: LiveGame) -> None:
        """Remember ``live`` as the game's current state (the least recently used go)."""
        self._cache[live.id] = live
        self._cache.move_to_end(live.id)
        while len(self._cache) > self.settings.cache_size:
            self._cache.popitem(last=False)

    def cached(self, game_id: str) -> LiveGame | None:
        """The game ``game_id`` if it is in memory."""
        return self._cache.get(game_id)

    async def get(self, game_id: str) -> LiveGame:
        """The game ``game_id`` (from memory, else from the database); 404 if unknown."""
        live = self._cache.get(game_id)
        if live is not None:
            self._cache.move_to_end(game_id)
            return live
        loaded = await self.db(self.repository.load, game_id)
        if loaded is None:
            raise NotFound(f"there is no game {game_id!r}")
        data, seat_list, moves = loaded
        rules = make_rules(data.game, data.options)
        state = state_after_moves(rules, data.start_position, moves)
        live = LiveGame(data, {s.seat: s for s in seat_list}, tuple(moves), rules, state)
        self.keep(live)
        return live

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
        ok = await self.db(
            self.repository.commit,
            before.data,
            after.data,
            keep_moves=keep_moves,
            new_moves=new_moves,
            seats=seats,
        )
        if not ok:
            self._cache.pop(before.id, None)
            current = await self.get(before.id)
            raise Conflict("the game changed meanwhile; nothing was done", current)
        self.keep(after)
        self.hub.publish(after)
        self.schedule(after)
        return after

    def _presence_changed(self, game_id: str) -> None:
        live = self._cache.get(game_id)
        if live is not None:
            self.hub.publish(live)

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
        :attr:`watchers` start (the computer's move)."""
        handle = self._flags.pop(live.id, None)
        if handle is not None:
            handle.cancel()
        due = clocks.flag_due(live.data, live.players) if live.in_play() else None
        if due is not None:
            delay = max(0.0, due - time.time()) + 0.02
            loop = asyncio.get_running_loop()
            self._flags[live.id] = loop.call_later(
                delay, lambda: self.spawn(self.settle_flag_locked(live.id))
            )
        for watcher in self.watchers:
            watcher(live)

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
