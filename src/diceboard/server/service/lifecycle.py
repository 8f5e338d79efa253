"""A game's life cycle: the server starting and stopping (games resumed, clocks given back the
downtime), a game created, an online game joined, and a rematch's new game set up."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import random
import time
from dataclasses import dataclass
from typing import Any

from diceboard.core.errors import OptionError
from diceboard.core.game import Game, State
from diceboard.server import clocks
from diceboard.server.computer_players import computer_levels, default_level
from diceboard.server.errors import BadRequest, Conflict, Forbidden
from diceboard.server.game_options import make_rules
from diceboard.server.live import LiveGame
from diceboard.server.rolls import resolve_chance
from diceboard.server.schemas import NewGame
from diceboard.server.service.core import ServiceCore, next_revision
from diceboard.server.storage import GameData, MoveData, SeatData
from diceboard.server.storage.rows import replaced
from diceboard.server.tokens import (
    new_game_id,
    new_invite_code,
    new_seed,
    new_token,
    same_hash,
    token_hash,
)

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class SeatGrant:
    """A seat handed to a player: the game, the seat letters and the token that acts for them
    (shown once; the server keeps only its hash)."""

    live: LiveGame
    seats: list[str]
    token: str


def new_game_data(rules: Game, now: float, **fields: Any) -> GameData:
    """The stored data of a new game of ``rules`` at ``now``: nothing played, no clock, no
    offers, then ``fields`` (which must name at least ``seed``, ``mode`` and ``status``)."""
    defaults: dict[str, Any] = {
        "id": new_game_id(),
        "game": rules.name,
        "options": rules.non_default_options(),
        "start_position": None,
        "listed": False,
        "revision": 1,
        "version": 1,
        "move_count": 0,
        "result": "*",
        "winner": None,
        "reason": None,
        "initial_ms": None,
        "increment_ms": None,
        "clock_first_ms": None,
        "clock_second_ms": None,
        "clock_running": None,
        "clock_since": None,
        "draw_offer": None,
        "takeback_offer": None,
        "rematch_offer": None,
        "rematch_game": None,
        "rematch_of": None,
        "invite_code": None,
        "created_at": now,
        "updated_at": now,
        "tags": {},
    }
    return GameData(**{**defaults, **fields})


def first_rolls(root: State, seed: int, now: float) -> tuple[State, tuple[MoveData, ...]]:
    """The rolls due at the start (Custodian's setup), made from ``seed``: the first decision
    and the rolls as stored moves."""
    state, rolls = resolve_chance(root, seed, 0)
    return state, tuple(MoveData(r.notation, None, now) for r in rolls)


def start_state(rules: Game, start_position: str | None) -> State:
    """Where a game starts: its position string, else the initial state."""
    return rules.parse(start_position) if start_position else rules.initial_state()


class Lifecycle:
    """Starting and stopping the server's games; creating and joining games."""

    def __init__(self, core: ServiceCore) -> None:
        self.core = core
        self._heartbeat: asyncio.Task[None] | None = None
        #: whether begin() has run, and the games in play it found that are not resumed yet
        self._begun = False
        self._to_resume: dict[str, str] = {}

    # --- the server ------------------------------------------------------------------------------
    async def begin(self) -> bool:
        """What needs no game kernel of starting the server: give running clocks back the time
        the server was down, start the heartbeat and note the games in play, which
        :meth:`resume` then resumes game by game (as each game's kernels become ready), and
        :meth:`resume_rest` the rest. Whether that was done: with other server processes on
        the database (whose heartbeat takes games over at any time) nothing is done, and
        :meth:`resume_rest` does it all once every game's kernels are ready."""
        if self.core.cluster is not None:
            return False
        await self._beat_from_now()
        self._to_resume = await self.core.db(self.core.repository.active_games)
        self._begun = True
        return True

    async def resume(self, game: str) -> None:
        """Resume the games in play of the game ``game`` (after :meth:`begin`)."""
        if not self._begun:
            return
        ids = [game_id for game_id, name in self._to_resume.items() if name == game]
        for game_id in ids:
            del self._to_resume[game_id]
        await self._resume(ids)

    async def resume_rest(self) -> None:
        """Resume the games in play not resumed yet (all of :meth:`start` if :meth:`begin`
        did nothing)."""
        if not self._begun:
            await self._beat_from_now()
            await self._resume(await self.core.games_to_resume())
            return
        ids = list(self._to_resume)
        self._to_resume.clear()
        await self._resume(ids)

    async def _beat_from_now(self) -> None:
        """Give running clocks back the time the server was down, and start the heartbeat."""
        core = self.core
        await core.give_back_downtime()
        await core.db(core.repository.heartbeat, time.time())
        self._heartbeat = asyncio.create_task(self._beat())

    async def _resume(self, ids: list[str]) -> None:
        core = self.core
        for game_id in ids:
            try:
                live = await core.get(game_id)
            except Exception:  # one unreadable game must not stop the server
                log.exception("cannot resume game %s", game_id)
                continue
            await core.settle_flag_locked(game_id)
            core.schedule(live)

    async def stop(self) -> None:
        """Stop timers, computer turns and the heartbeat."""
        core = self.core
        core.stop_timers()
        tasks = list(core.tasks)
        if self._heartbeat is not None:
            tasks.append(self._heartbeat)
        for task in tasks:
            task.cancel()
        for task in tasks:
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task
        await core.leave_cluster()
        core.hub.close_all()

    async def _beat(self) -> None:
        core = self.core
        while True:
            await asyncio.sleep(core.settings.heartbeat_interval)
            try:
                await core.db(core.repository.heartbeat, time.time())
            except Exception:
                log.exception("heartbeat failed")

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
        root = start_state(rules, request.position)
        if root.is_terminal():
            raise BadRequest(f"the position is already over ({root.outcome()}); nothing to play")
        if request.seed is not None and request.mode == "online":
            raise BadRequest("an online game's dice seed is secret: leave 'seed' out")
        side = _side(rules.players, request.side)
        agent = None
        if request.mode == "computer":
            agent = request.level or default_level()
            specs = [level["spec"] for level in computer_levels(request.game)]
            if agent not in specs:
                raise BadRequest(f"unknown computer level {agent!r}; levels: {', '.join(specs)}")
        elif request.level is not None:
            raise BadRequest("'level' is only for games against the computer (mode 'computer')")
        if request.listed and request.mode != "online":
            raise BadRequest("only online games can be listed in the lobby")

        now = time.time()
        seed = request.seed if request.seed is not None else new_seed()
        state, moves = first_rolls(root, seed, now)
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
        data = new_game_data(
            rules,
            now,
            start_position=request.position.strip() if request.position else None,
            seed=seed,
            mode=request.mode,
            listed=request.listed,
            status=status,
            move_count=len(moves),
            initial_ms=initial,
            increment_ms=None if tc is None else round(tc.increment * 1000),
            clock_first_ms=initial,
            clock_second_ms=initial,
            invite_code=new_invite_code() if request.mode == "online" else None,
        )
        if status == "active" and initial is not None:
            data = replaced(data, clock_running=state.to_move, clock_since=now)
        live = await self.core.insert(LiveGame(data, seats, moves, rules, state))
        return SeatGrant(live, granted, token)

    async def join(self, game_id: str, code: str | None, name: str | None) -> SeatGrant:
        """Take the open seat of a waiting game (with its invite code unless it is listed)."""
        core = self.core
        async with core.lock(game_id):
            live = await core.get(game_id)
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
            data = next_revision(live.data, now, status="active", listed=False, invite_code=None)
            if clocks.has_clock(data):
                data = replaced(data, clock_running=live.state.to_move, clock_since=now)
            seats = {**live.seats, seat: new_seat}
            after = replaced(live, data=data, seats=seats)
            after = await core.commit(live, after, seats=(new_seat,))
            return SeatGrant(after, [seat], token)

    async def create_rematch(self, old: LiveGame, hashes: dict[str, str | None]) -> LiveGame:
        """The rematch of the finished game ``old``: the same settings and start, new dice,
        the sides swapped (not at one screen), each human seat acting for the token whose
        hash ``hashes`` gives for its old seat."""
        players = old.players
        swap = {players[0]: players[1], players[1]: players[0]}
        seats: dict[str, SeatData] = {}
        for s in players:
            target = s if old.data.mode == "local" else swap[s]
            seats[target] = replaced(
                old.seats[s], seat=target, token_hash=hashes.get(s), rematch_hash=None
            )
        now = time.time()
        seed = new_seed()
        state, moves = first_rolls(start_state(old.rules, old.data.start_position), seed, now)
        timed = old.data.initial_ms is not None
        data = new_game_data(
            old.rules,
            now,
            options=old.data.options,
            start_position=old.data.start_position,
            seed=seed,
            mode=old.data.mode,
            status="active",
            move_count=len(moves),
            initial_ms=old.data.initial_ms,
            increment_ms=old.data.increment_ms,
            clock_first_ms=old.data.initial_ms,
            clock_second_ms=old.data.initial_ms,
            clock_running=state.to_move if timed else None,
            clock_since=now if timed else None,
            rematch_of=old.id,
            tags=old.data.tags,
        )
        return await self.core.insert(LiveGame(data, seats, moves, old.rules, state))


def _side(players: tuple[str, str], wanted: str) -> str:
    """The seat a creator asked for: ``first``, ``second``, ``random`` or a player letter."""
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
