"""The computer's worker processes, started before the rest of the server is imported.

A cold ``diceboard serve`` spends a second and a half importing the web framework and the
database layer before its warm-up begins, and the first computer move then waits for a worker
to compile the search. :func:`start_workers` starts the workers first, from this module, which
imports only what a worker runs (:mod:`diceboard.server.computer_players`) and none of the web
framework: their interpreters, imports and first compiles (:func:`~.computer_players.prepare`)
then overlap the server's imports instead of following them. The
:class:`~diceboard.server.computer.ComputerPool` adopts the processes (see ``create_app``);
it makes its processes here too when nothing started them early.
"""

from __future__ import annotations

import multiprocessing
import os
from concurrent.futures import Future, ProcessPoolExecutor
from dataclasses import dataclass
from typing import Any

from diceboard.server.computer_players import prepare, start_worker


def process_pool(workers: int) -> ProcessPoolExecutor:
    """A pool of ``workers`` computer worker processes (started on their first tasks):
    spawned, not forked (a fork of a server with threads and numba's compiler state is not
    safe), each watching this process so as to leave when it is gone."""
    return ProcessPoolExecutor(
        workers,
        mp_context=multiprocessing.get_context("spawn"),
        initializer=start_worker,
        initargs=(os.getpid(),),
    )


@dataclass(frozen=True)
class StartedWorkers:
    """Worker processes started ahead of the server, and their first tasks."""

    executor: ProcessPoolExecutor
    #: one :func:`~.computer_players.prepare` per worker
    prepared: list[Future[Any]]

    def stop(self) -> None:
        """Stop the workers (a server that fails to start after starting them)."""
        stop_pool(self.executor)


def stop_pool(executor: ProcessPoolExecutor) -> None:
    """Stop ``executor``'s workers now, those busy too: a worker compiling or thinking
    would otherwise hold the server's exit for as long as its task takes (the interpreter
    waits for a pool's tasks as it exits), several seconds during a cold start's warm-up.
    The tasks they were running are lost with them, as at any server's stop."""
    # (the standard library has no public way to end busy workers before Python 3.14)
    processes = list((getattr(executor, "_processes", None) or {}).values())
    executor.shutdown(wait=False, cancel_futures=True)
    for process in processes:
        process.terminate()


def start_workers(workers: int, first: str | None = None) -> StartedWorkers:
    """Start ``workers`` worker processes now, each preparing the ``first`` game's search
    (:func:`~.computer_players.prepare`): imports, and what the search calls that calls no
    rules kernel."""
    executor = process_pool(workers)
    return StartedWorkers(executor, [executor.submit(prepare, first) for _ in range(workers)])
