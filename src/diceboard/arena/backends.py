"""Where games are played: in this process, in a local process pool, or as Ray tasks.

Every backend plays the same :class:`~diceboard.arena.play.GameTask` objects with the same
:func:`~diceboard.arena.play.play_batch` and yields the results in task order, so a run gives
identical results whatever the backend and the number of workers. Work is sent in batches of
consecutive games (large enough to hide the per-task overhead) and only a few batches per worker
are in flight at a time, so that a run stopped early (an SPRT decision, Ctrl-C) wastes little.
"""

from __future__ import annotations

import logging
import math
import multiprocessing
import os
from collections.abc import Generator, Sequence
from concurrent.futures import Future, ProcessPoolExecutor
from dataclasses import dataclass
from typing import Any

from diceboard.arena.play import GameResult, GameTask, play_batch, play_game
from diceboard.core.errors import OptionError
from diceboard.core.workers import WorkerContext, start_worker

#: the backends by name
BACKENDS = ("local", "ray")

#: batches in flight per worker: enough to keep each busy, few enough to stop early cheaply
_IN_FLIGHT_PER_WORKER = 2
#: batches per worker over a whole run, for load balancing when game lengths differ
_BATCHES_PER_WORKER = 4
#: the largest batch: local pools pay little per task, Ray more
_MAX_BATCH = {"local": 16, "ray": 256}

RAY_INSTALL_HINT = "the Ray backend needs the ray package: pip install 'diceboard[ray]'"


@dataclass(frozen=True)
class Backend:
    """How to run games: ``kind`` is ``"local"`` (this process when ``workers`` is 1, else a
    pool of ``workers`` processes) or ``"ray"`` (Ray tasks on the cluster at ``address``, or
    on a local Ray with ``workers`` CPUs when no address is given). ``batch_size`` games go to
    a worker at a time (chosen from the run's size when ``None``).
    """

    kind: str = "local"
    workers: int = 1
    address: str | None = None
    batch_size: int | None = None

    def __post_init__(self) -> None:
        if self.kind not in BACKENDS:
            raise OptionError(f"unknown backend {self.kind!r}; backends: {', '.join(BACKENDS)}")
        if isinstance(self.workers, bool) or not isinstance(self.workers, int):
            raise OptionError(f"workers must be a whole number, not {self.workers!r}")
        if self.workers < 1:
            raise OptionError(f"workers must be 1 or more, not {self.workers}")
        if self.batch_size is not None and self.batch_size < 1:
            raise OptionError(f"batch size must be 1 or more, not {self.batch_size}")
        if self.address is not None and self.kind != "ray":
            raise OptionError("a Ray address needs the ray backend (--backend ray)")

    def batch_for(self, games: int) -> int:
        """The number of games sent to a worker at a time for a run of ``games`` games."""
        if self.batch_size is not None:
            return self.batch_size
        size = math.ceil(games / (self.workers * _BATCHES_PER_WORKER))
        return max(1, min(_MAX_BATCH[self.kind], size))


def run_tasks(tasks: Sequence[GameTask], backend: Backend) -> Generator[GameResult, None, None]:
    """Play ``tasks`` on ``backend``, yielding the results in task order.

    Closing the iterator early (``close()``, or leaving a ``with contextlib.closing(…)``
    block) cancels the games not started yet and waits for those already running.
    """
    if backend.kind == "ray":
        return _run_ray(tasks, backend)
    if backend.workers == 1:
        return (play_game(task) for task in tasks)
    return _run_pool(tasks, backend)


def _batches(tasks: Sequence[GameTask], size: int) -> list[list[GameTask]]:
    return [list(tasks[i : i + size]) for i in range(0, len(tasks), size)]


def _run_pool(tasks: Sequence[GameTask], backend: Backend) -> Generator[GameResult, None, None]:
    batches = _batches(tasks, backend.batch_for(len(tasks)))
    # spawn, not fork: forking a process that runs threads (numba, the pool's own manager
    # thread, a caller's) can deadlock; spawned workers import diceboard afresh instead, leave
    # Ctrl-C to this process, which stops them itself, and exit if it is killed
    children_before = set(multiprocessing.active_children())
    pool = ProcessPoolExecutor(
        max_workers=backend.workers,
        mp_context=WorkerContext(),
        initializer=start_worker,
        initargs=(os.getpid(),),
    )
    futures: dict[int, Future[list[GameResult]]] = {}
    finished = False
    try:
        submitted = 0
        for head in range(len(batches)):
            limit = head + backend.workers * _IN_FLIGHT_PER_WORKER
            while submitted < len(batches) and submitted < limit:
                futures[submitted] = pool.submit(play_batch, batches[submitted])
                submitted += 1
            yield from futures.pop(head).result()
        finished = True
    finally:
        if finished:
            pool.shutdown(wait=True)
        else:
            # stopped early (SPRT decision, Ctrl-C, an error): games still running are of no
            # use, so stop their workers rather than wait for them
            pool.shutdown(wait=False, cancel_futures=True)
            workers = set(multiprocessing.active_children()) - children_before
            for process in workers:
                process.terminate()
            for process in workers:
                process.join()


def _import_ray() -> Any:
    try:
        import ray
    except ImportError:
        raise OptionError(RAY_INSTALL_HINT) from None
    return ray


def _start_ray(ray: Any, backend: Backend) -> bool:
    """Connect to Ray: the cluster at the backend's address; without one, a running cluster
    that Ray finds by itself (``RAY_ADDRESS``, or ``ray start`` on this machine), else a new
    local Ray with ``workers`` CPUs. True when this call connected (and should disconnect)."""
    if ray.is_initialized():
        return False
    quiet: dict[str, Any] = {
        "include_dashboard": False,
        "logging_level": logging.WARNING,
        "log_to_driver": False,
    }
    where = backend.address or "a local Ray instance"
    try:
        if backend.address is not None:
            _probe(backend.address)
            ray.init(address=backend.address, **quiet)
            return True
        try:
            ray.init(address="auto", **quiet)
        except ConnectionError:  # no cluster to join: start one here
            ray.init(num_cpus=backend.workers, **quiet)
    except (ConnectionError, RuntimeError, ValueError) as exc:
        raise OptionError(f"cannot start Ray on {where}: {exc}") from None
    return True


#: seconds to wait for a Ray head at a HOST:PORT address before giving up
PROBE_TIMEOUT = 5.0


def _probe(address: str) -> None:
    """Refuse a ``HOST:PORT`` Ray address where nothing listens, within
    :data:`PROBE_TIMEOUT` (``ray.init`` would otherwise wait, and search, for a long time)."""
    import socket

    host, sep, port = address.removeprefix("ray://").rpartition(":")
    if not sep or not port.isascii() or not port.isdigit():
        return  # "auto" and other forms Ray resolves itself
    try:
        with socket.create_connection((host.strip("[]"), int(port)), timeout=PROBE_TIMEOUT):
            pass
    except (OSError, ValueError, OverflowError) as exc:
        raise OptionError(f"no Ray cluster answers at {address}: {exc}") from None


def _run_ray(tasks: Sequence[GameTask], backend: Backend) -> Generator[GameResult, None, None]:
    ray = _import_ray()
    batches = _batches(tasks, backend.batch_for(len(tasks)))
    started = _start_ray(ray, backend)
    remote_batch = ray.remote(num_cpus=1)(play_batch)
    slots = max(backend.workers, int(ray.cluster_resources().get("CPU", 1)))
    pending: dict[Any, int] = {}
    done: dict[int, list[GameResult]] = {}
    try:
        submitted = 0
        for head in range(len(batches)):
            limit = head + slots * _IN_FLIGHT_PER_WORKER
            while submitted < len(batches) and submitted < limit:
                pending[remote_batch.remote(batches[submitted])] = submitted
                submitted += 1
            while head not in done:
                ready, _ = ray.wait(list(pending), num_returns=1)
                for ref in ready:
                    done[pending.pop(ref)] = ray.get(ref)
            yield from done.pop(head)
    finally:
        for ref in pending:
            ray.cancel(ref, force=True)
        if started:
            ray.shutdown()
