"""The game service: every action on a game, checked, committed, then pushed to viewers.

Actions on one game are serialised by a per-game lock, and every write is committed to the
database (guarded by the game's revision) before it is acknowledged or broadcast. The engine
decides every rule; the service adds seats, turns, clocks, offers and the server's rolls.
"""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import datetime
import functools
import logging
import random
import time
import weakref
from collections import OrderedDict
from collections.abc import Callable, Coroutine
from dataclasses import dataclass
from typing import Any, TypeVar

from diceboard.core.errors import DiceboardError, OptionError
from diceboard.records import GameRecord
from diceboard.server import clocks
from diceboard.server.computer import (
    FALLBACK_AGENT,
    ComputerPool,
    ThinkTask,
    computer_levels,
    default_level,
    hint_agent,
)
from diceboard.server.errors import BadRequest, Conflict, Forbidden, NotFound, Unauthorized
from diceboard.server.hub import Hub
from diceboard.server.live import (
    AGREEMENT,
    RESIGNATION,
    TIMEOUT,
    LiveGame,
    make_rules,
    play_decision,
    replay,
    result_for,
)
from diceboard.server.moves import describe
from diceboard.server.rolls import resolve_chance
from diceboard.server.schemas import NewGame
from diceboard.server.settings import ServerSettings
from diceboard.server.storage import GameData, MoveData, Repository, SeatData
from diceboard.server.tokens import (
    derived_token,
    new_game_id,
    new_invite_code,
    new_seed,
    new_token,
    same_hash,
    token_hash,
)

log = logging.getLogger(__name__)
T = TypeVar("T")

#: a computer accepts a draw only when it judges its own position this bad (value in [-1, 1])
COMPUTER_DRAW_THRESHOLD = -0.5


@dataclass(frozen=True)
class SeatGrant:
    """A seat handed to a player: the game, the seat letters and the token that acts for them
    (shown once; the server keeps only its hash)."""

    live: LiveGame
    seats: list[str]
    token: str


def _bump(data: GameData, now: float, **changes: Any) -> GameData:
    """``data`` with ``changes``, one revision later."""
    return dataclasses.replace(data, revision=data.revision + 1, updated_at=now, **changes)


def _finish(
    data: GameData, players: tuple[str, str], winner: str | None, reason: str
) -> dict[str, Any]:
    """The fields that end a game."""
    return {
        "status": "finished",
        "winner": winner,
        "reason": reason,
        "result": result_for(winner, players),
        "draw_offer": None,
        "takeback_offer": None,
        "listed": False,
    }


class GameService:
    """Creates games and carries out every player's and the computer's actions."""

    def __init__(
        self, repository: Repository, pool: ComputerPool, hub: Hub, settings: ServerSettings
    ) -> None:
        self.repository = repository
        self.pool = pool
        self.hub = hub
        self.settings = settings
        self._cache: OrderedDict[str, LiveGame] = OrderedDict()
        self._locks: weakref.WeakValueDictionary[str, asyncio.Lock] = weakref.WeakValueDictionary()
        self._thinking: dict[str, tuple[int, asyncio.Task[None]]] = {}
        self._flags: dict[str, asyncio.TimerHandle] = {}
        self._tasks: set[asyncio.Task[Any]] = set()
        self._heartbeat: asyncio.Task[None] | None = None
        hub.on_presence = self._presence_changed

    # --- life cycle ------------------------------------------------------------------------------
    async def start(self) -> None:
        """Give running clocks back the time the server was down, start the heartbeat, and
        resume every game in play (computer turns, clocks)."""
        now = time.time()
        last = await self._db(self.repository.last_heartbeat)
        if last is not None:
            paused = await self._db(self.repository.pause_clocks, now - last)
            if paused:
                log.info("gave %d clocks back %.1f s of downtime", paused, now - last)
        await self._db(self.repository.heartbeat, now)
        self._heartbeat = asyncio.create_task(self._beat())
        for game_id in await self._db(self.repository.active_ids):
            try:
                live = await self.get(game_id)
            except Exception:  # one unreadable game must not stop the server
                log.exception("cannot resume game %s", game_id)
                continue
            await self._settle_flag_locked(game_id)
            self._schedule(live)

    async def stop(self) -> None:
        """Stop timers, computer turns and the heartbeat."""
        for handle in self._flags.values():
            handle.cancel()
        self._flags.clear()
        tasks = [t for _, t in self._thinking.values()] + list(self._tasks)
        if self._heartbeat is not None:
            tasks.append(self._heartbeat)
        for task in tasks:
            task.cancel()
        for task in tasks:
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task
        self._thinking.clear()
        self.hub.close_all()

    async def _beat(self) -> None:
        while True:
            await asyncio.sleep(self.settings.heartbeat_interval)
            try:
                await self._db(self.repository.heartbeat, time.time())
            except Exception:
                log.exception("heartbeat failed")

    # --- plumbing --------------------------------------------------------------------------------
    async def _db(self, fn: Callable[..., T], *args: Any, **kwargs: Any) -> T:
        if self.repository.embedded:
            # an embedded SQLite write takes about a millisecond: handing it to a thread would
            # cost more (the interpreter lock's switch interval) than it saves
            return fn(*args, **kwargs)
        return await asyncio.to_thread(fn, *args, **kwargs)

    def _spawn(self, coro: Coroutine[Any, Any, Any]) -> None:
        task = asyncio.create_task(coro)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    def _lock(self, game_id: str) -> asyncio.Lock:
        lock = self._locks.get(game_id)
        if lock is None:
            lock = asyncio.Lock()
            self._locks[game_id] = lock
        return lock

    def _keep(self, live: LiveGame) -> None:
        self._cache[live.id] = live
        self._cache.move_to_end(live.id)
        while len(self._cache) > self.settings.cache_size:
            self._cache.popitem(last=False)

    async def get(self, game_id: str) -> LiveGame:
        """The game ``game_id`` (from memory, else from the database); 404 if unknown."""
        live = self._cache.get(game_id)
        if live is not None:
            self._cache.move_to_end(game_id)
            return live
        loaded = await self._db(self.repository.load, game_id)
        if loaded is None:
            raise NotFound(f"there is no game {game_id!r}")
        data, seat_list, moves = loaded
        rules = make_rules(data.game, data.options)
        state = replay(rules, data.start_position, moves)
        live = LiveGame(data, {s.seat: s for s in seat_list}, tuple(moves), rules, state)
        self._keep(live)
        return live

    async def _commit(
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
        ok = await self._db(
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
        self._keep(after)
        self.hub.publish(after)
        self._schedule(after)
        return after

    def _presence_changed(self, game_id: str) -> None:
        live = self._cache.get(game_id)
        if live is not None:
            self.hub.publish(live)

    # --- authorisation ---------------------------------------------------------------------------
    @staticmethod
    def seats_of(live: LiveGame, token: str | None) -> list[str]:
        """The seats of ``live`` that ``token`` holds (none for a spectator)."""
        if not token:
            return []
        return [
            s
            for s in live.players
            if s in live.seats and same_hash(token, live.seats[s].token_hash)
        ]

    def _require_seats(self, live: LiveGame, token: str | None) -> list[str]:
        if not token:
            raise Unauthorized(
                "this needs a player's seat token (the X-Seat-Token header or the seat cookie)"
            )
        seats = self.seats_of(live, token)
        if not seats:
            raise Forbidden(f"this token holds no seat in game {live.id}")
        return seats

    @staticmethod
    def _require_in_play(live: LiveGame) -> None:
        if live.data.status == "waiting":
            raise Conflict("the game has not started: it is waiting for an opponent", live)
        if not live.in_play():
            raise Conflict(f"the game is over ({live.outcome()})", live)

    # --- creating and joining --------------------------------------------------------------------
    async def create(self, request: NewGame) -> SeatGrant:
        """A new game as ``request`` describes it; the creator gets a seat token."""
        options: dict[str, Any] = dict(request.options)
        if request.variant is not None:
            options["variant"] = request.variant
        try:
            rules = make_rules(request.game, options)
        except TypeError as exc:  # an option the game's constructor does not take
            raise OptionError(f"unknown option for {request.game}: {exc}") from None
        root = rules.parse(request.position) if request.position else rules.initial_state()
        if root.is_terminal():
            raise BadRequest(f"the position is already over ({root.outcome()}); nothing to play")
        if request.seed is not None and request.mode == "online":
            raise BadRequest("an online game's dice seed is secret: leave 'seed' out")
        side = self._side(rules.players, request.side)
        agent = None
        if request.mode == "computer":
            agent = request.level or default_level()
            specs = [level["spec"] for level in computer_levels()]
            if agent not in specs:
                raise BadRequest(f"unknown computer level {agent!r}; levels: {', '.join(specs)}")
        elif request.level is not None:
            raise BadRequest("'level' is only for games against the computer (mode 'computer')")
        if request.listed and request.mode != "online":
            raise BadRequest("only online games can be listed in the lobby")

        now = time.time()
        seed = request.seed if request.seed is not None else new_seed()
        state, rolls = resolve_chance(root, seed, 0)
        moves = tuple(MoveData(r.notation, None, now) for r in rolls)
        token = new_token()
        hashed = token_hash(token)
        other = rules.players[1] if side == rules.players[0] else rules.players[0]
        name = request.name or "Player"
        seats: dict[str, SeatData]
        if request.mode == "computer":
            seats = {
                side: SeatData(side, "human", name, hashed),
                other: SeatData(other, "computer", "Computer", agent=agent),
            }
            granted = [side]
        elif request.mode == "local":
            seats = {
                p: SeatData(p, "human", n, hashed)
                for p, n in zip(rules.players, rules.player_names, strict=True)
            }
            granted = list(rules.players)
        else:
            seats = {
                side: SeatData(side, "human", name, hashed),
                other: SeatData(other, "open", ""),
            }
            granted = [side]
        status = "waiting" if request.mode == "online" else "active"
        tc = request.time_control
        initial = None if tc is None else round(tc.minutes * 60_000)
        data = GameData(
            id=new_game_id(),
            game=rules.name,
            options=rules.non_default_options(),
            start_position=request.position.strip() if request.position else None,
            seed=seed,
            mode=request.mode,
            listed=request.listed,
            status=status,
            revision=1,
            version=1,
            move_count=len(moves),
            result="*",
            winner=None,
            reason=None,
            initial_ms=initial,
            increment_ms=None if tc is None else round(tc.increment * 1000),
            clock_first_ms=initial,
            clock_second_ms=initial,
            clock_running=None,
            clock_since=None,
            draw_offer=None,
            takeback_offer=None,
            rematch_offer=None,
            rematch_game=None,
            rematch_of=None,
            invite_code=new_invite_code() if request.mode == "online" else None,
            created_at=now,
            updated_at=now,
            tags={},
        )
        if status == "active" and initial is not None:
            data = dataclasses.replace(data, clock_running=state.to_move, clock_since=now)
        live = LiveGame(data, seats, moves, rules, state)
        await self._db(self.repository.insert, data, list(seats.values()), moves)
        self._keep(live)
        self._schedule(live)
        return SeatGrant(live, granted, token)

    @staticmethod
    def _side(players: tuple[str, str], wanted: str) -> str:
        key = wanted.strip()
        if key.lower() == "first":
            return players[0]
        if key.lower() == "second":
            return players[1]
        if key.lower() == "random":
            return random.SystemRandom().choice(players)
        if key.upper() in players:
            return key.upper()
        raise BadRequest(
            f"side must be first, second, random, {players[0]} or {players[1]}, not {wanted!r}"
        )

    async def join(self, game_id: str, code: str | None, name: str | None) -> SeatGrant:
        """Take the open seat of a waiting game (with its invite code unless it is listed)."""
        async with self._lock(game_id):
            live = await self.get(game_id)
            open_seats = [s for s in live.players if live.seats[s].kind == "open"]
            if live.data.status != "waiting" or not open_seats:
                raise Conflict("the game already has two players; you can watch it", live)
            if not live.data.listed:
                if code is None:
                    raise Forbidden("this game is private: joining needs the invite code")
                if not same_hash(code, token_hash(live.data.invite_code or "")):
                    raise Forbidden("the invite code is wrong")
            seat = open_seats[0]
            token = new_token()
            now = time.time()
            new_seat = SeatData(seat, "human", name or "Player", token_hash(token))
            data = _bump(live.data, now, status="active", listed=False, invite_code=None)
            if clocks.has_clock(data):
                data = dataclasses.replace(data, clock_running=live.state.to_move, clock_since=now)
            seats = {**live.seats, seat: new_seat}
            after = dataclasses.replace(live, data=data, seats=seats)
            after = await self._commit(live, after, seats=(new_seat,))
            return SeatGrant(after, [seat], token)

    # --- moves -----------------------------------------------------------------------------------
    async def move(
        self, game_id: str, token: str | None, text: str, version: int | None
    ) -> LiveGame:
        """Play ``text`` for the seat ``token`` holds. 409 (with the current game) if the game
        has moved on since ``version``, or it is not this seat's turn."""
        async with self._lock(game_id):
            live = await self.get(game_id)
            seats = self._require_seats(live, token)
            live = await self._settle_flag(live)
            self._require_in_play(live)
            if version is not None and version != live.data.version:
                raise Conflict(
                    f"the game is at version {live.data.version}, not {version}: "
                    "another move came first",
                    live,
                )
            side = live.side_to_move()
            if side not in seats:
                raise Conflict(f"it is {self._seat_name(live, side)}'s turn, not yours", live)
            return await self._play(live, side, text)

    @staticmethod
    def _seat_name(live: LiveGame, seat: str | None) -> str:
        if seat is None:
            return "nobody"
        return live.rules.player_names[live.players.index(seat)]

    async def _play(self, live: LiveGame, side: str, text: str) -> LiveGame:
        now = time.time()
        index = len(live.moves)
        move = play_decision(live.state, text, live.data.seed, index)
        state = live.state.play(move)
        outcome = state.outcome()
        next_side = None if outcome is not None else state.to_move
        data, mover_ms = clocks.charge(live.data, live.players, side, next_side, now)
        changes: dict[str, Any] = {
            "version": data.version + 1,
            "move_count": index + 1,
            "draw_offer": None,
            "takeback_offer": None,
        }
        if outcome is not None:
            changes.update(_finish(data, live.players, outcome.winner, outcome.reason))
        data = _bump(data, now, **changes)
        played = MoveData(move.notation, side, now, mover_ms)
        after = dataclasses.replace(live, data=data, moves=(*live.moves, played), state=state)
        return await self._commit(live, after, new_moves=(played,))

    # --- the computer ----------------------------------------------------------------------------
    def _schedule(self, live: LiveGame) -> None:
        """Start what the game now waits for: the computer's move, the flag of a clock."""
        handle = self._flags.pop(live.id, None)
        if handle is not None:
            handle.cancel()
        due = clocks.flag_due(live.data, live.players) if live.in_play() else None
        if due is not None:
            delay = max(0.0, due - time.time()) + 0.02
            loop = asyncio.get_running_loop()
            self._flags[live.id] = loop.call_later(
                delay, lambda: self._spawn(self._settle_flag_locked(live.id))
            )
        if live.computer_to_move():
            pending = self._thinking.get(live.id)
            if pending is not None and pending[0] == live.data.version and not pending[1].done():
                return
            task = asyncio.create_task(self._computer_turn(live.id, live.data.version))
            self._thinking[live.id] = (live.data.version, task)
            task.add_done_callback(functools.partial(self._forget_thinking, live.id))

    def _forget_thinking(self, game_id: str, task: asyncio.Task[None]) -> None:
        pending = self._thinking.get(game_id)
        if pending is not None and pending[1] is task:
            del self._thinking[game_id]

    def _task(self, live: LiveGame, agent: str, analyse: bool = False) -> ThinkTask:
        return ThinkTask(
            game_id=live.id,
            game=live.rules.name,
            options=live.data.options,
            start_position=live.data.start_position,
            moves=tuple(m.notation for m in live.moves),
            agent=agent,
            seed=(live.data.seed * 1_000_003 + len(live.moves)) % 2**62,
            analyse=analyse,
        )

    async def _computer_turn(self, game_id: str, version: int) -> None:
        started = time.monotonic()
        try:
            live = await self.get(game_id)
            if live.data.version != version or not live.computer_to_move():
                return
            side = live.side_to_move()
            assert side is not None
            agent = live.seats[side].agent or FALLBACK_AGENT
            try:
                answer = await self.pool.run(self._task(live, agent))
            except Exception:
                log.exception("computer %r failed in game %s; playing randomly", agent, game_id)
                answer = await self.pool.run(self._task(live, FALLBACK_AGENT))
            wait = self.settings.computer_delay - (time.monotonic() - started)
            if wait > 0:
                await asyncio.sleep(wait)
            async with self._lock(game_id):
                live = await self.get(game_id)
                if live.data.version != version or live.side_to_move() != side:
                    return  # the game moved on (a takeback, a timeout) while it thought
                live = await self._settle_flag(live)
                if not live.in_play():
                    return
                await self._play(live, side, answer["best"])
        except asyncio.CancelledError:
            raise
        except Conflict:
            pass
        except Exception:
            log.exception("computer move failed in game %s", game_id)

    async def hint(self, game_id: str, token: str | None) -> dict[str, Any]:
        """The computer's suggestion for the player to move (games against the computer and
        at one screen only)."""
        live = await self.get(game_id)
        seats = self._require_seats(live, token)
        if live.data.mode == "online":
            raise Forbidden("hints are for games against the computer or at one screen")
        self._require_in_play(live)
        side = live.side_to_move()
        if side not in seats:
            raise Conflict("a hint is for the player to move; it is the computer's turn", live)
        answer = await self.pool.run(self._task(live, hint_agent(), analyse=True))
        best = live.state.parse_move(answer["best"])
        return {
            "version": live.data.version,
            "best": describe(live.state, best),
            "value": answer["value"],
            "pv": answer["pv"],
        }

    # --- clocks ----------------------------------------------------------------------------------
    async def _settle_flag_locked(self, game_id: str) -> None:
        try:
            async with self._lock(game_id):
                await self._settle_flag(await self.get(game_id))
        except Exception:
            log.exception("checking the clock of game %s failed", game_id)

    async def _settle_flag(self, live: LiveGame) -> LiveGame:
        """End the game on time if the running side's clock has run out (lock held)."""
        if not live.in_play():
            return live
        now = time.time()
        loser = clocks.flagged(live.data, live.players, now)
        if loser is None:
            return live
        data = clocks.restart(live.data, live.players, None, now)
        winner = live.opponent(loser)
        data = _bump(data, now, **_finish(data, live.players, winner, TIMEOUT))
        return await self._commit(live, dataclasses.replace(live, data=data))

    # --- resigning and offers --------------------------------------------------------------------
    async def resign(self, game_id: str, token: str | None, seat: str | None) -> LiveGame:
        """The seat (at one screen: ``seat``, else the side to move) gives up."""
        async with self._lock(game_id):
            live = await self.get(game_id)
            seats = self._require_seats(live, token)
            live = await self._settle_flag(live)
            self._require_in_play(live)
            if seat is not None:
                if seat.upper() not in seats:
                    raise Forbidden(f"you do not hold seat {seat!r}")
                loser = seat.upper()
            elif len(seats) == 1:
                loser = seats[0]
            else:
                loser = live.side_to_move() or seats[0]
            now = time.time()
            data = clocks.restart(live.data, live.players, None, now)
            data = _bump(
                data, now, **_finish(data, live.players, live.opponent(loser), RESIGNATION)
            )
            return await self._commit(live, dataclasses.replace(live, data=data))

    async def draw(self, game_id: str, token: str | None, action: str) -> LiveGame:
        """Offer, accept or decline a draw. At one screen an offer is a draw at once; the
        computer accepts only when it judges its position lost."""
        async with self._lock(game_id):
            live = await self.get(game_id)
            seats = self._require_seats(live, token)
            live = await self._settle_flag(live)
            self._require_in_play(live)
            now = time.time()
            me = live.side_to_move() if len(seats) > 1 else seats[0]
            assert me is not None
            offer = live.data.draw_offer
            if action == "offer":
                if live.data.mode == "local" or (offer is not None and offer != me):
                    return await self._agree_draw(live, now)
                if offer == me:
                    raise Conflict("you have already offered a draw", live)
                if live.data.mode == "computer":
                    return await self._computer_answers_draw(live, me, now)
                data = _bump(live.data, now, draw_offer=me)
                return await self._commit(live, dataclasses.replace(live, data=data))
            if offer is None or offer == me:
                raise Conflict("there is no draw offer from your opponent to answer", live)
            if action == "accept":
                return await self._agree_draw(live, now)
            data = _bump(live.data, now, draw_offer=None)
            after = await self._commit(live, dataclasses.replace(live, data=data))
            self.hub.notice(game_id, {"event": "draw_declined", "by": me})
            return after

    async def _agree_draw(self, live: LiveGame, now: float) -> LiveGame:
        data = clocks.restart(live.data, live.players, None, now)
        data = _bump(data, now, **_finish(data, live.players, None, AGREEMENT))
        return await self._commit(live, dataclasses.replace(live, data=data))

    async def _computer_answers_draw(self, live: LiveGame, me: str, now: float) -> LiveGame:
        computer = live.opponent(me)
        value = 0.0
        if live.side_to_move() == computer:
            answer = await self.pool.run(
                self._task(live, live.seats[computer].agent or FALLBACK_AGENT, analyse=True)
            )
            value = float(answer["value"])
        if value < COMPUTER_DRAW_THRESHOLD:
            return await self._agree_draw(live, now)
        self.hub.notice(live.id, {"event": "draw_declined", "by": computer})
        return live

    async def takeback(self, game_id: str, token: str | None, action: str) -> LiveGame:
        """Take back your last move (and the replies to it). The computer and a one-screen
        game grant it at once; an online opponent must accept."""
        async with self._lock(game_id):
            live = await self.get(game_id)
            seats = self._require_seats(live, token)
            live = await self._settle_flag(live)
            self._require_in_play(live)
            now = time.time()
            if live.data.mode == "local":
                last = max(
                    (i for i in (live.last_decision_by(s) for s in seats) if i is not None),
                    default=None,
                )
                return await self._undo(live, last, now)
            me = seats[0]
            offer = live.data.takeback_offer
            if action == "offer":
                if live.data.mode == "computer":
                    return await self._undo(live, live.last_decision_by(me), now)
                if offer == me:
                    raise Conflict("you have already asked to take back a move", live)
                if live.last_decision_by(me) is None:
                    raise Conflict("you have no move to take back", live)
                data = _bump(live.data, now, takeback_offer=me)
                return await self._commit(live, dataclasses.replace(live, data=data))
            if offer is None or offer == me:
                raise Conflict("there is no takeback request from your opponent to answer", live)
            if action == "accept":
                return await self._undo(live, live.last_decision_by(offer), now)
            data = _bump(live.data, now, takeback_offer=None)
            after = await self._commit(live, dataclasses.replace(live, data=data))
            self.hub.notice(game_id, {"event": "takeback_declined", "by": me})
            return after

    async def _undo(self, live: LiveGame, keep: int | None, now: float) -> LiveGame:
        """The game with the moves from index ``keep`` on removed."""
        if keep is None:
            raise Conflict("there is no move to take back", live)
        state = list(live.state.path())[keep]
        data = clocks.restart(live.data, live.players, state.to_move, now)
        data = _bump(
            data,
            now,
            version=data.version + 1,
            move_count=keep,
            draw_offer=None,
            takeback_offer=None,
        )
        after = dataclasses.replace(live, data=data, moves=live.moves[:keep], state=state)
        return await self._commit(live, after, keep_moves=keep)

    # --- rematch ---------------------------------------------------------------------------------
    async def rematch(self, game_id: str, token: str | None, action: str) -> dict[str, Any]:
        """Offer or accept a rematch (the same settings, sides swapped), or decline one.
        Calling ``offer`` again once the rematch exists hands the caller its seat there."""
        async with self._lock(game_id):
            live = await self.get(game_id)
            seats = self._require_seats(live, token)
            assert token is not None
            if live.data.status != "finished":
                raise Conflict("a rematch can be arranged once the game is over", live)
            label = f"rematch:{live.id}"
            mine = derived_token(token, label)
            if live.data.rematch_game is not None:
                if action == "decline":
                    raise Conflict("the rematch has already started", live)
                return await self._rematch_seat(live.data.rematch_game, mine)
            now = time.time()
            me = seats[0]
            offer = live.data.rematch_offer
            if action == "decline":
                if offer is None or offer == me:
                    raise Conflict("there is no rematch offer from your opponent", live)
                data = _bump(live.data, now, rematch_offer=None)
                await self._commit(live, dataclasses.replace(live, data=data))
                self.hub.notice(game_id, {"event": "rematch_declined", "by": me})
                return {"status": "declined"}
            if live.data.mode == "online" and (offer is None or offer == me):
                seat = dataclasses.replace(live.seats[me], rematch_hash=token_hash(mine))
                data = _bump(live.data, now, rematch_offer=me)
                seats_map = {**live.seats, me: seat}
                await self._commit(
                    live, dataclasses.replace(live, data=data, seats=seats_map), seats=(seat,)
                )
                return {"status": "offered"}
            new = await self._create_rematch(live, me, mine, now)
            data = _bump(live.data, now, rematch_game=new.id, rematch_offer=None)
            await self._commit(live, dataclasses.replace(live, data=data))
            return await self._rematch_seat(new.id, mine)

    async def _create_rematch(self, old: LiveGame, me: str, mine: str, now: float) -> LiveGame:
        players = old.players
        hashes: dict[str, str | None] = {}
        for s in players:
            if old.seats[s].kind != "human":
                continue
            mine_too = s == me or old.data.mode == "local"
            hashes[s] = token_hash(mine) if mine_too else old.seats[s].rematch_hash
        swap = {players[0]: players[1], players[1]: players[0]}
        seats: dict[str, SeatData] = {}
        for s in players:
            before = old.seats[s]
            target = s if old.data.mode == "local" else swap[s]
            seats[target] = dataclasses.replace(
                before, seat=target, token_hash=hashes.get(s), rematch_hash=None
            )
        seed = new_seed()
        root = (
            old.rules.parse(old.data.start_position)
            if old.data.start_position
            else old.rules.initial_state()
        )
        state, rolls = resolve_chance(root, seed, 0)
        moves = tuple(MoveData(r.notation, None, now) for r in rolls)
        data = dataclasses.replace(
            old.data,
            id=new_game_id(),
            seed=seed,
            listed=False,
            status="active",
            revision=1,
            version=1,
            move_count=len(moves),
            result="*",
            winner=None,
            reason=None,
            clock_first_ms=old.data.initial_ms,
            clock_second_ms=old.data.initial_ms,
            clock_running=state.to_move if old.data.initial_ms is not None else None,
            clock_since=now if old.data.initial_ms is not None else None,
            draw_offer=None,
            takeback_offer=None,
            rematch_offer=None,
            rematch_game=None,
            rematch_of=old.id,
            invite_code=None,
            created_at=now,
            updated_at=now,
        )
        live = LiveGame(data, seats, moves, old.rules, state)
        await self._db(self.repository.insert, data, list(seats.values()), moves)
        self._keep(live)
        self._schedule(live)
        return live

    async def _rematch_seat(self, new_id: str, mine: str) -> dict[str, Any]:
        new = await self.get(new_id)
        seats = self.seats_of(new, mine)
        if not seats:
            raise Forbidden("you have no seat in the rematch")
        return {"status": "started", "game": new.id, "seats": seats, "token": mine}

    # --- records ---------------------------------------------------------------------------------
    async def import_record(self, record: GameRecord) -> LiveGame:
        """Store a game record for replaying: no seats can act, everyone watches."""
        rules = record.game
        start = record.start
        now = time.time()
        moves = tuple(
            MoveData(m.notation, None if s.is_chance() else s.to_move, now)
            for m, s in zip(record.moves, record.states(), strict=False)
        )
        state = record.final_state()
        outcome = record.outcome
        data = GameData(
            id=new_game_id(),
            game=rules.name,
            options=rules.non_default_options(),
            start_position=None if start == rules.initial_state() else str(start),
            seed=(record.seed or 0) % 2**62,
            mode="imported",
            listed=False,
            status="finished",
            revision=1,
            version=1,
            move_count=len(moves),
            result=record.result,
            winner=None if outcome is None else outcome.winner,
            reason=None if outcome is None else outcome.reason,
            initial_ms=None,
            increment_ms=None,
            clock_first_ms=None,
            clock_second_ms=None,
            clock_running=None,
            clock_since=None,
            draw_offer=None,
            takeback_offer=None,
            rematch_offer=None,
            rematch_game=None,
            rematch_of=None,
            invite_code=None,
            created_at=now,
            updated_at=now,
            tags=record.tags,
        )
        names = record.players
        seats = {
            p: SeatData(p, "imported", (names[i] or "?")[:40]) for i, p in enumerate(rules.players)
        }
        live = LiveGame(data, seats, moves, rules, state)
        await self._db(self.repository.insert, data, list(seats.values()), moves)
        self._keep(live)
        return live

    async def record(self, game_id: str) -> GameRecord:
        """The record of a game as it stands (with the seed once the game is over)."""
        live = await self.get(game_id)
        names = tuple(
            live.seats[p].name if live.seats[p].kind != "open" else None for p in live.players
        )
        outcome = live.outcome()
        server_decided = outcome is not None and live.state.outcome() is None
        tags = (
            {k: str(v) for k, v in live.data.tags.items()} if live.data.mode == "imported" else {}
        )
        if live.data.mode == "imported":
            return GameRecord(live.state.root(), live.state.move_stack(), tags=tags)
        return GameRecord.from_state(
            live.state,
            players=names,
            date=datetime.datetime.fromtimestamp(live.data.created_at, datetime.UTC).date(),
            seed=live.data.seed if live.data.status == "finished" else None,
            outcome=outcome if server_decided else None,
        )

    # --- reads -----------------------------------------------------------------------------------
    async def lobby(self, limit: int = 50) -> list[tuple[GameData, list[SeatData]]]:
        """Listed games waiting for an opponent."""
        return await self._db(self.repository.lobby, limit)

    async def summaries(self, ids: list[str]) -> list[tuple[GameData, list[SeatData]]]:
        """The games among ``ids`` that exist."""
        return await self._db(self.repository.summaries, ids)


__all__ = ["DiceboardError", "GameService", "SeatGrant"]
