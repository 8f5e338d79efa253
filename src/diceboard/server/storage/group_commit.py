"""Group commit: the writes that arrive together share one transaction, and so one sync of
the disk, and each writer is answered only once that transaction has committed.

A move's write waits for nothing but the next turn of the event loop: the writes queued by
then (other games' moves read from their sockets in the same turn) go into the same
transaction, and those that come while it commits form the next one. What "committed before
acknowledged" promises is kept: :meth:`GroupCommit.commit` returns after the transaction that
holds the write has committed (or raises if it failed).

A write refused by its revision guard changes nothing, so it does not spoil the others. If the
shared transaction fails for another reason (a broken constraint, a deadlock between
processes), nothing of it was stored, and each of its writes is committed again on its own, so
one bad write never fails another.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Sequence

from sqlalchemy.exc import IntegrityError, OperationalError

from diceboard.server.storage.repository import Repository, Write

log = logging.getLogger(__name__)

#: the most writes one transaction takes (a larger queue is committed in several)
BATCH_LIMIT = 256


class GroupCommit:
    """Writes of :class:`~diceboard.server.storage.repository.Repository` batched into shared
    transactions. ``in_thread``: each transaction runs in a worker thread, so that the event
    loop goes on (building and sending other games' messages) while the disk syncs."""

    def __init__(self, repository: Repository, *, in_thread: bool = True) -> None:
        self._repository = repository
        self._in_thread = in_thread
        self._queue: list[tuple[Write, asyncio.Future[bool]]] = []
        self._task: asyncio.Task[None] | None = None
        #: how many transactions committed, and how many writes they held (for benchmarks)
        self.transactions = 0
        self.writes = 0

    async def commit(self, write: Write) -> bool:
        """Store ``write`` (see :meth:`Repository.commit`): ``True`` once it has committed,
        ``False`` when its game's revision had moved on (nothing stored)."""
        future: asyncio.Future[bool] = asyncio.get_running_loop().create_future()
        self._queue.append((write, future))
        if self._task is None:
            self._task = asyncio.create_task(self._drain())
        return await future

    async def _drain(self) -> None:
        try:
            while self._queue:
                # one turn of the loop: the writes of the messages read in this turn join
                await asyncio.sleep(0)
                batch, self._queue = self._queue[:BATCH_LIMIT], self._queue[BATCH_LIMIT:]
                writes = [write for write, _future in batch]
                try:
                    if self._in_thread:
                        results = await asyncio.to_thread(self._store, writes)
                    else:
                        results = self._store(writes)
                except BaseException as exc:
                    for _write, future in batch:
                        if not future.done():
                            future.set_exception(exc)
                    if isinstance(exc, asyncio.CancelledError):
                        raise
                    continue
                self.transactions += 1
                self.writes += len(batch)
                for (_write, future), result in zip(batch, results, strict=True):
                    if future.done():  # its writer went away (a closed socket)
                        continue
                    if isinstance(result, BaseException):
                        future.set_exception(result)
                    else:
                        future.set_result(result)
        finally:
            self._task = None
            # a write queued after the loop above had looked (while it was being cancelled)
            for _write, future in self._queue:
                if not future.done():
                    future.cancel()
            self._queue = []

    def _store(self, writes: Sequence[Write]) -> list[bool | Exception]:
        """Commit ``writes`` together, or, if that fails as a whole, one by one (each with its
        own answer or error)."""
        if len(writes) > 1:
            try:
                return list(self._repository.commit_all(writes))
            except (IntegrityError, OperationalError) as exc:
                log.info("a shared commit of %d writes failed (%s); one by one", len(writes), exc)
        results: list[bool | Exception] = []
        for write in writes:
            try:
                results.append(self._repository.commit_write(write))
            except Exception as exc:
                results.append(exc)
        return results
