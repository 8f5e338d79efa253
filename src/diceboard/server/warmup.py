"""The engine's warm-up beside serving: the server answers at once, while the game kernels are
compiled (or loaded from numba's cache) in a thread of the server, one game after the other,
and the computer's workers warm up in their own processes.

Until a game's kernels are ready, requests that need them wait (see
:class:`~diceboard.server.gate.EngineGate`) instead of compiling inside a player's request:
a request for a game whose kernels are ready goes ahead while the next game's compile, so
that on a first start the first game is playable long before the last one. The pages and
``/api/meta`` answer at once and say that the engine is warming up (``/api/health``:
``ready``, which games are, what is being done, for how long so far, and roughly how long it
takes). The terminal is told what is being done and roughly how long it takes.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import logging
import os
import sys
import threading
import time
from collections.abc import AsyncIterator, Awaitable, Callable, Sequence
from concurrent.futures import Future
from pathlib import Path
from typing import Any, Protocol

from diceboard import games
from diceboard.server.spare_cores import spare_cores
from diceboard.server.thread_priority import lower_this_thread

log = logging.getLogger(__name__)

#: the interpreter's switch interval while the engine warms up (Python's default: 5 ms).
#: Measured on a cold start, '/' asked every 50 ms during the warm-up's first 11 s: answered
#: in a median 4.6-4.7 ms (p90 9.2-9.6) instead of 5.8-7.4 (p90 13.4-13.8) on a quiet
#: machine, and 7.0-7.6 ms (p90 15.4-17.4) instead of 8.3-8.7 (p90 22.5-31.1) beside a busy
#: core (two and four starts each way, in turns)
WARM_UP_SWITCH_INTERVAL_S = 0.001

#: idle cores below which the machine has none to spare: the later games' kernels then wait
#: for the first game's computer players (see :meth:`Warmup.run`)
SPARE_CORE = 0.5
#: the longest a later game's kernels wait so (a worker that never answers holds up nothing)
FIRST_COMPUTER_WAIT_S = 60.0
#: how often that wait looks at the workers' futures
FIRST_COMPUTER_POLL_S = 0.05


@contextlib.asynccontextmanager
async def _switch_interval(seconds: float) -> AsyncIterator[None]:
    """The interpreter's switch interval at most ``seconds`` meanwhile; the one before after
    (also a decorator of a coroutine function: meanwhile is then each call's run)."""
    previous = sys.getswitchinterval()
    sys.setswitchinterval(min(previous, seconds))
    try:
        yield
    finally:
        sys.setswitchinterval(previous)


class Starting(Protocol):
    """What the warm-up starts: the game service, in three steps."""

    async def begin(self) -> bool:
        """What needs no game kernel; whether the stored games can then be resumed game by
        game (else everything waits for :meth:`finish`)."""

    async def resume(self, game: str) -> None:
        """Resume the stored games of ``game``, whose kernels are ready."""

    async def finish(self) -> None:
        """The rest, once every game's kernels are ready."""


def numba_cache_is_warm() -> bool:
    """Whether numba's cache already holds compiled kernels of this package (then the warm-up
    loads them in seconds; else it compiles them: on two cores, every game in about 15 s, or
    30 s beside another busy process)."""
    configured = os.environ.get("NUMBA_CACHE_DIR")
    roots = (
        [Path(configured)] if configured else [Path(__file__).resolve().parents[1]]
    )  # numba's default: __pycache__ folders beside the sources
    for root in roots:
        try:
            if next(root.rglob("*.nbi"), None) is not None:
                return True
        except OSError:
            continue
    return False


class Warmup:
    """The engine's readiness and what is being done until it is ready."""

    def __init__(
        self,
        announce: Callable[[str], None] | None = None,
        spare: Callable[[], Awaitable[float | None]] = spare_cores,
    ) -> None:
        self.announce = announce or log.info
        #: how many cores are idle now (``None``: unknown), measured over a moment
        self.spare = spare
        self.started = time.monotonic()
        self.warm_cache = numba_cache_is_warm()
        self.phase = "starting"
        self.error: str | None = None
        self.ready_after: float | None = None
        self.computer: list[Future[Any]] = []
        #: whether the computer's workers warm up and have not been started yet
        self.computer_waiting = False
        #: the games whose kernels are ready, in the order they became so
        self.kernels_ready: list[str] = []
        #: the games whose requests go ahead (kernels ready, stored games resumed)
        self.games_ready: list[str] = []
        self._ready: asyncio.Event | None = None
        self._game_ready: dict[str, asyncio.Event] = {}

    @property
    def ready(self) -> bool:
        return self.ready_after is not None

    def estimate(self) -> str:
        """Roughly how long the warm-up takes."""
        if self.warm_cache:
            return "a few seconds (the compiled kernels are in numba's cache)"
        return "about half a minute (the first start on this machine compiles the kernels)"

    def health(self) -> dict[str, Any]:
        """What ``/api/health`` answers."""
        now = time.monotonic()
        return {
            "ready": self.ready,
            "phase": "ready" if self.ready else self.phase,
            "seconds": round((self.ready_after or now - self.started), 1),
            "estimate": None if self.ready else self.estimate(),
            "computer_ready": not self.computer_waiting and self._first_computer_warm(),
            "kernels_ready": list(self.kernels_ready),
            "games_ready": list(games.names()) if self.ready else list(self.games_ready),
            "error": self.error,
        }

    async def wait(self) -> None:
        """Return once the engine is ready."""
        if self.ready:
            return
        if self._ready is None:
            self._ready = asyncio.Event()
        await self._ready.wait()

    def game_ready(self, game: str) -> bool:
        """Whether requests for ``game`` go ahead."""
        return self.ready or game in self.games_ready

    async def wait_for(self, game: str | None) -> None:
        """Return once requests for ``game`` go ahead (``None``: a request that may need any
        game's kernels, which waits until the engine is ready)."""
        if game is None:
            await self.wait()
            return
        if self.game_ready(game):
            return
        await self._game_ready.setdefault(game, asyncio.Event()).wait()

    def _open(self, game: str) -> None:
        if game not in self.games_ready:
            self.games_ready.append(game)
        self._game_ready.setdefault(game, asyncio.Event()).set()

    # the compiling thread runs Python (numba's typing and lowering) for most of the warm-up:
    # requests of the event loop's thread, which answer meanwhile, get the interpreter lock
    # back sooner with a shorter switch interval
    @_switch_interval(WARM_UP_SWITCH_INTERVAL_S)
    async def run(
        self,
        kernels: Callable[[str], None],
        service: Starting,
        computer: Callable[[str, bool], list[Future[Any]]] | None = None,
        names: Sequence[str] | None = None,
        serving: Callable[[str], None] | None = None,
        search_ahead: tuple[Callable[[str], None], Callable[[str], object]] | None = None,
    ) -> None:
        """Warm the kernels of each game (``names``, default: the registry's, the first being
        the one the menus offer first) up in a thread, one game after the other
        (``kernels(name)``, then ``serving(name)``: what the server's requests use besides
        them), and start the ``service``: first what needs no kernel, then, as each game's
        kernels become ready, its stored games, after which its requests go ahead; once every
        game's are ready, the rest, and the gate opens for every request.

        The computer's workers (``computer(name, beside)``, which returns a future per
        worker) start on a game as soon as the server has its kernels: they then load them
        from the numba cache the server has just written and compile only the search, instead
        of compiling the same kernels at the same time on the same cores. On two cores the
        first game's search is compiled in a worker while the server compiles the next game's
        kernels, where a core is idle for them (``spare``); on a machine with none to spare
        (another program keeps the other core busy), the next game's kernels wait until the
        first game's computer players are warm, so that the first computer move does not share
        the one core left with work nobody waits for yet. The other games' searches are warmed
        up beside (``beside=True``: in a thread of each worker, so that a move of the first
        game does not queue behind them).

        With ``search_ahead = (rules, search)`` the workers start on the first game sooner:
        the server first compiles ``rules(name)``, the rules kernels the search calls, and
        hands the workers ``search(name)``, which compiles the search on them while the
        server compiles the rest of the game's kernels (what the game API and the pages
        call). The workers' warm-up of the game then only loads that rest.
        """
        if self._ready is None:
            self._ready = asyncio.Event()
        order = list(games.names() if names is None else names)
        self.computer_waiting = computer is not None
        self.announce(
            f"engine warming up: {self._doing()} the game kernels, {self.estimate()}; the pages"
            " answer meanwhile"
        )
        began, by_game = await self._step("starting", service.begin)
        by_game = began and bool(by_game)
        for index, name in enumerate(order):
            self.phase = f"{self._doing()} the {_title(name)} kernels"
            try:
                if index == 0 and computer is not None and search_ahead is not None:
                    rules, search = search_ahead
                    await _in_daemon_thread(functools.partial(rules, name))
                    self._start_search(search, name)
                if index > 0:
                    await self._leave_the_core_to_the_first_computer(name)
                # a later game's kernels are compiled at a lower priority: on a busy machine
                # the first game's search, compiling in the workers, is awaited first
                await _in_daemon_thread(functools.partial(kernels, name), ahead=index > 0)
            except Exception as exc:  # the server still serves; every request reports it
                log.exception("the engine's warm-up failed")
                self.error = self.error or f"{type(exc).__name__}: {exc}"
            else:
                self.kernels_ready.append(name)
                seconds = time.monotonic() - self.started
                self.announce(f"{name} kernels ready after {seconds:.1f} s")
            if computer is not None:
                try:
                    self._start_computer(computer, name, beside=index > 0)
                except Exception:  # the games still run; a computer move reports its own error
                    log.exception("the computer players could not start warming up")
            if serving is not None and self.error is None:
                # after the workers have started: they need the kernels only
                await self._step(
                    self.phase,
                    functools.partial(
                        _in_daemon_thread, functools.partial(serving, name), ahead=index > 0
                    ),
                )
            if by_game and self.error is None:
                # (after the workers have started: a resumed game's computer turn queues
                # behind their warm-up instead of compiling the search a second time)
                phase = f"resuming the stored {_title(name)} games"
                resumed, _ = await self._step(phase, functools.partial(service.resume, name))
                if resumed:
                    self._open(name)
        self.computer_waiting = False
        if self.error is None:
            await self._step("resuming stored games", service.finish)
        self.ready_after = time.monotonic() - self.started
        self.announce(f"engine ready after {self.ready_after:.1f} s")
        self._ready.set()
        for event in self._game_ready.values():
            event.set()

    async def _step(self, phase: str, step: Callable[[], Awaitable[Any]]) -> tuple[bool, Any]:
        """Run one step of starting the service: whether it succeeded, and what it returned
        (a failure is kept as the error that every request then reports)."""
        self.phase = phase
        try:
            return True, await step()
        except Exception as exc:
            log.exception("the engine's warm-up failed")
            self.error = self.error or f"{type(exc).__name__}: {exc}"
            return False, None

    async def _leave_the_core_to_the_first_computer(self, name: str) -> None:
        """Before compiling the kernels of ``name``, a later game, wait until the first
        game's computer players are warm (at most :data:`FIRST_COMPUTER_WAIT_S`), if they
        are not yet and no core is idle: beside a busy core, compiling a later game's
        kernels meanwhile, even at a lower priority, made the first computer move 2-8 %
        later (the compiling thread holds the interpreter lock, so its priority cannot go
        lower without stalling the server's requests)."""
        if self._first_computer_warm():
            return
        idle = await self.spare()
        if idle is None or idle >= SPARE_CORE:
            return
        self.announce(
            f"no core to spare ({idle:.1f} idle): the {_title(name)} kernels wait until the"
            " computer players are warm"
        )
        phase = self.phase
        # (as the pages show it: "the game engine is warming up (<phase>: <estimate>)")
        self.phase = f"waiting for the computer players before compiling the {_title(name)} kernels"
        deadline = time.monotonic() + FIRST_COMPUTER_WAIT_S
        while not self._first_computer_warm() and time.monotonic() < deadline:
            # (polled: a callback from the workers' thread could outlive a stopped loop)
            await asyncio.sleep(FIRST_COMPUTER_POLL_S)
        self.phase = phase

    def _first_computer_warm(self) -> bool:
        """Whether the first game's computer workers have finished warming up (also where
        there are none)."""
        return all(future.done() for future in self.computer)

    def _doing(self) -> str:
        return "loading" if self.warm_cache else "compiling"

    def _start_search(self, search: Callable[[str], object], name: str) -> None:
        try:
            search(name)
        except Exception:  # the workers' warm-up compiles it instead
            log.exception("the computer players could not start compiling their search")
        else:
            seconds = time.monotonic() - self.started
            self.announce(
                f"{name} rules ready after {seconds:.1f} s: the computer players compile"
                " their search"
            )

    def _start_computer(
        self, computer: Callable[[str, bool], list[Future[Any]]], name: str, beside: bool
    ) -> None:
        """Start the workers' warm-up of ``name``; say when the last of them is warm (for the
        first game: the others are warmed up beside, unawaited)."""
        futures = computer(name, beside)
        if beside:
            return
        self.computer = futures
        self.computer_waiting = False
        if not futures:
            return
        self.announce(f"computer players warming up for {name} (their search) in their workers")
        pending = len(futures)
        lock = threading.Lock()

        def done(future: Future[Any]) -> None:
            nonlocal pending
            with lock:
                pending -= 1
                last = pending == 0
            if last and all(f.exception() is None for f in futures if not f.cancelled()):
                seconds = time.monotonic() - self.started
                self.announce(f"computer players ready for {name} after {seconds:.1f} s")

        for future in futures:
            future.add_done_callback(done)


def _title(name: str) -> str:
    """How people see the game ``name`` named (its title; the name itself where the registry
    does not know it)."""
    return games.info(name).title if name in games.names() else name


async def _in_daemon_thread(work: Callable[[], None], ahead: bool = False) -> None:
    """Run ``work`` in a daemon thread (a server stopped during the warm-up does not wait for
    the compiler to finish, as it would for a thread of the default executor); ``ahead``: at
    a lower priority (:mod:`.thread_priority`), as work that nobody waits for yet."""
    loop = asyncio.get_running_loop()
    done: asyncio.Future[None] = loop.create_future()

    def target() -> None:
        error: BaseException | None = None
        try:
            if ahead:
                lower_this_thread()
            work()
        except BaseException as exc:  # handed to the waiting coroutine
            error = exc
        # (a server stopped meanwhile has closed its loop: nobody waits)
        with contextlib.suppress(RuntimeError):
            loop.call_soon_threadsafe(_settle, done, error)

    threading.Thread(target=target, name="engine-warm-up", daemon=True).start()
    await done


def _settle(future: asyncio.Future[None], error: BaseException | None) -> None:
    if future.done():
        return
    if error is None:
        future.set_result(None)
    else:
        future.set_exception(error)
