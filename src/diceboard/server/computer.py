"""The pool of worker processes (or threads) that the computer players think in, shared fairly
between clients. What a worker runs is in :mod:`diceboard.server.computer_players`. Processes
are the default, so a long search never competes with the event loop for the interpreter
lock; threads are a lighter choice for tests.
"""

from __future__ import annotations

import asyncio
import logging
import os
import threading
import time
from collections import Counter, deque
from collections.abc import Callable
from concurrent.futures import Executor, Future, ProcessPoolExecutor, ThreadPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass
from typing import Any

from diceboard.core.workers import WorkerContext, start_worker
from diceboard.server.computer_players import (
    compile_search_ahead,
    prepare,
    think,
    warm_up,
    warm_up_beside,
)
from diceboard.server.errors import TooManyRequests
from diceboard.server.limits import current_client

log = logging.getLogger(__name__)


#: the kinds of computer job; a ``move`` (a computer's turn, its answer to a draw offer) is
#: never refused, since a game would wait for it for ever: its room is asked for (see
#: :meth:`ComputerPool.check_room`) by the request that causes it
KINDS = ("move", "hint", "analysis")


@dataclass(eq=False)
class _Job:
    work: Callable[[Any], Any]
    task: Any
    client: str
    game: str
    kind: str
    future: asyncio.Future[Any]
    retried: bool = False


class ComputerPool:
    """The worker pool that computer players think in, shared fairly between clients.

    Each client (see :mod:`diceboard.server.limits`) has its own queue; a free worker takes
    the next job of the client served least recently (round-robin, a newcomer first), so a
    client with a long backlog delays another client's job by at most one of its own. Within
    a client a ``move`` goes before hints and analyses. A client may have ``per_client`` jobs
    queued or running at once, a game ``per_game`` hints and analyses; past that :meth:`run`
    raises
    :class:`~diceboard.server.errors.TooManyRequests`. A job whose caller is cancelled before
    a worker took it is dropped.
    """

    def __init__(self, kind: str, workers: int, *, per_client: int = 8, per_game: int = 2) -> None:
        self._kind = kind
        self._workers = workers
        self._executor: Executor | None = None
        self.per_client = per_client
        self.per_game = per_game
        #: jobs waiting for a worker, per client, and when each client was last served (the
        #: number of the job; kept while it has jobs queued or running)
        self._waiting: dict[str, deque[_Job]] = {}
        self._served: dict[str, int] = {}
        self._dispatched = 0
        self._running = 0
        #: jobs queued or running, per client, and hints and analyses per game
        self._by_client: Counter[str] = Counter()
        self._by_game: Counter[str] = Counter()
        #: seconds the last jobs took (for the Retry-After of a refusal)
        self._recent = 1.0

    def _pool(self) -> Executor:
        if self._executor is None:
            if self._kind == "process":
                self._executor = ProcessPoolExecutor(
                    self._workers,
                    mp_context=WorkerContext(),
                    initializer=start_worker,
                    initargs=(os.getpid(),),
                )
            else:
                self._executor = ThreadPoolExecutor(self._workers, thread_name_prefix="computer")
        return self._executor

    def start(self, first: str | None = None) -> list[Future[Any]]:
        """Start the workers now, each importing what the computer players are made from
        and compiling the ``first`` game's evaluation (:func:`prepare`), so that their
        start overlaps the server's compiling; the futures tell when each is done."""
        pool = self._pool()
        return [pool.submit(prepare, first) for _ in range(self._workers)]

    def compile_search(self, game: str) -> list[Future[Any]]:
        """Have each worker compile the search of ``game``, whose rules kernels the server
        has just compiled (:func:`compile_search_ahead`); the futures tell when each is done."""
        pool = self._pool()
        return [pool.submit(compile_search_ahead, game) for _ in range(self._workers)]

    def warm_up(self, game: str | None = None, beside: bool = False) -> list[Future[Any]]:
        """Start the workers now rather than at the first computer move, and warm each one up
        for ``game`` (default: every game; see :func:`warm_up_search`) once the server has
        its kernels in numba's cache; the futures tell when each is warm. With ``beside``
        each worker warms the game up in a thread of its own and the futures are done at once
        (see :func:`warm_up_beside`)."""
        pool = self._pool()
        if beside and game is not None:
            return [pool.submit(warm_up_beside, game) for _ in range(self._workers)]
        return [pool.submit(warm_up, game) for _ in range(self._workers)]

    def load(self, client: str) -> int:
        """How many jobs ``client`` has queued or running."""
        return self._by_client[client]

    def waiting(self) -> int:
        """How many jobs wait for a worker (all clients)."""
        return sum(len(q) for q in self._waiting.values())

    def check_room(self, client: str | None = None, game: str | None = None) -> None:
        """:class:`TooManyRequests` unless ``client`` (default: the current request's) may add
        a job, and ``game`` (if given) a hint or analysis."""
        who = current_client() if client is None else client
        if self._by_client[who] >= self.per_client:
            raise TooManyRequests(
                f"the computer is already working on {self.per_client} requests from your "
                "address; wait for them to finish",
                self._recent * (1 + self._by_client[who] / self._workers),
            )
        if game is not None and self._by_game[game] >= self.per_game:
            raise TooManyRequests(
                f"the computer is already working on {self.per_game} requests for this game",
                self._recent,
            )

    async def run(
        self,
        task: Any,
        *,
        client: str | None = None,
        game: str | None = None,
        kind: str = "move",
        work: Callable[[Any], Any] = think,
    ) -> Any:
        """``work(task)`` (by default :func:`think`: the answer to a :class:`ThinkTask`) done
        by a worker, in ``client``'s turn (default: the current request's client).

        ``game`` (default: the task's ``game_id``) is the game the job is for; ``kind`` is
        one of :data:`KINDS`: hints and analyses are refused with
        :class:`~diceboard.server.errors.TooManyRequests` when the client or the game has its
        most, a move never is (it is counted all the same). ``work`` and ``task`` must be
        picklable for the process pool. A broken pool is replaced once."""
        if kind not in KINDS:
            raise ValueError(f"kind must be one of {', '.join(KINDS)}, not {kind!r}")
        who = current_client() if client is None else client
        where = game if game is not None else str(getattr(task, "game_id", ""))
        if kind != "move":
            self.check_room(who, where)
        loop = asyncio.get_running_loop()
        job = _Job(work, task, who, where, kind, loop.create_future())
        self._by_client[who] += 1
        if kind != "move":
            self._by_game[where] += 1
        queue = self._waiting.get(who)
        if queue is None:
            queue = self._waiting[who] = deque()
        if kind == "move":
            # a move goes before the client's own hints and analyses
            at = next((i for i, j in enumerate(queue) if j.kind != "move"), len(queue))
            queue.insert(at, job)
        else:
            queue.append(job)
        self._dispatch()
        try:
            return await job.future
        finally:
            if not job.future.done() or job.future.cancelled():
                self._drop(job)

    def _drop(self, job: _Job) -> None:
        """Forget ``job`` if it is still waiting (its caller gave up)."""
        queue = self._waiting.get(job.client)
        if queue is not None and job in queue:
            queue.remove(job)
            if not queue:
                del self._waiting[job.client]
            self._release(job)

    def _release(self, job: _Job) -> None:
        self._by_client[job.client] -= 1
        if self._by_client[job.client] <= 0:
            del self._by_client[job.client]
            self._served.pop(job.client, None)
        if job.kind != "move":
            self._by_game[job.game] -= 1
            if self._by_game[job.game] <= 0:
                del self._by_game[job.game]

    def _dispatch(self) -> None:
        """Hand waiting jobs to free workers, the client served least recently first."""
        while self._running < self._workers and self._waiting:
            client = min(self._waiting, key=lambda c: self._served.get(c, -1))
            queue = self._waiting[client]
            job = queue.popleft()
            if not queue:
                del self._waiting[client]
            self._dispatched += 1
            self._served[client] = self._dispatched
            if job.future.done():  # its caller was cancelled meanwhile
                self._release(job)
                continue
            self._start(job)

    def _start(self, job: _Job) -> None:
        loop = asyncio.get_running_loop()
        started = time.monotonic()
        try:
            future = loop.run_in_executor(self._pool(), job.work, job.task)
        except BrokenProcessPool:
            future = self._restart(loop, job)
        self._running += 1
        future.add_done_callback(lambda f: self._finished(job, f, started))

    def _restart(self, loop: asyncio.AbstractEventLoop, job: _Job) -> asyncio.Future[Any]:
        log.warning("the computer's worker pool broke; starting a new one")
        self._executor = None
        job.retried = True
        return loop.run_in_executor(self._pool(), job.work, job.task)

    def _finished(self, job: _Job, future: asyncio.Future[Any], started: float) -> None:
        self._running -= 1
        self._recent = 0.8 * self._recent + 0.2 * (time.monotonic() - started)
        error = None if future.cancelled() else future.exception()
        if isinstance(error, BrokenProcessPool) and not job.retried:
            loop = asyncio.get_running_loop()
            self._running += 1
            again = self._restart(loop, job)
            again.add_done_callback(lambda f: self._finished(job, f, time.monotonic()))
            return
        self._release(job)
        if not job.future.done():
            if future.cancelled():
                job.future.cancel()
            elif error is not None:
                job.future.set_exception(error)
            else:
                job.future.set_result(future.result())
        self._dispatch()

    def close(self) -> None:
        """Stop the workers (pending tasks are dropped)."""
        for queue in self._waiting.values():
            for job in queue:
                if not job.future.done():
                    job.future.cancel()
        self._waiting.clear()
        if isinstance(self._executor, ProcessPoolExecutor):
            stop_processes(self._executor)
        elif self._executor is not None:
            self._executor.shutdown(wait=False, cancel_futures=True)
        self._executor = None


def stop_processes(executor: ProcessPoolExecutor) -> None:
    """Stop ``executor``'s worker processes now, busy ones too: a worker compiling or
    thinking would otherwise hold the server's exit for as long as its task takes (the
    interpreter waits for a pool's running tasks as it exits), several seconds when a server
    is stopped during a cold start's warm-up. The tasks they were running are lost with them,
    as at any stop of the server."""
    # (the standard library has no public way to end busy workers before Python 3.14)
    processes = list((getattr(executor, "_processes", None) or {}).values())
    manager = getattr(executor, "_executor_manager_thread", None)
    executor.shutdown(wait=False, cancel_futures=True)
    for process in processes:
        process.terminate()
    # The pool's own thread sees its workers gone and lets go of the pool's queues, whose
    # semaphores are then removed. A server stopped by SIGTERM is ended by that signal just
    # after its shutdown (uvicorn raises it again), before Python's exit would remove them,
    # and the resource tracker warned of "leaked semaphore objects": wait for that thread
    # (a moment, its workers being gone).
    if isinstance(manager, threading.Thread):
        manager.join(timeout=5.0)
