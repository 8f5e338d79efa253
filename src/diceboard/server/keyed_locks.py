"""One asyncio lock per key (a game's id, a client's address), kept only while somebody holds
it or waits for it.

Every move takes its game's lock, and with a thousand games in play nearly every move finds
no lock left from the game's last one. The locks were held in a ``WeakValueDictionary``,
whose lookup and weak reference cost about 4 % of a move's time on the event loop; here a
plain dict holds a lock with the count of its users, and the last user removes it.
"""

from __future__ import annotations

import asyncio
from types import TracebackType


class _Entry:
    __slots__ = ("lock", "users")

    def __init__(self) -> None:
        self.lock = asyncio.Lock()
        #: the holder and the waiters
        self.users = 0


class KeyedLocks:
    """Locks by key: ``async with locks.hold(key):`` runs its body with the key's lock held
    (a body at a time per key, in the order they asked)."""

    def __init__(self) -> None:
        self._entries: dict[str, _Entry] = {}

    def hold(self, key: str) -> KeyedLock:
        """The lock of ``key``, to be held with ``async with``."""
        return KeyedLock(self._entries, key)

    def __len__(self) -> int:
        """How many keys' locks are held or waited for now."""
        return len(self._entries)


class KeyedLock:
    """One key's lock, as :meth:`KeyedLocks.hold` gives it: its entry is made when the
    first user comes and removed when the last one goes (also one cancelled while waiting)."""

    __slots__ = ("_entries", "_entry", "_key")

    def __init__(self, entries: dict[str, _Entry], key: str) -> None:
        self._entries = entries
        self._key = key
        self._entry: _Entry | None = None

    async def __aenter__(self) -> None:
        entry = self._entries.get(self._key)
        if entry is None:
            entry = self._entries[self._key] = _Entry()
        entry.users += 1
        try:
            await entry.lock.acquire()
        except BaseException:
            self._leave(entry)
            raise
        self._entry = entry

    async def __aexit__(
        self,
        kind: type[BaseException] | None,
        error: BaseException | None,
        traceback: TracebackType | None,
    ) -> None:
        entry = self._entry
        assert entry is not None, "a lock released that was not held"
        self._entry = None
        entry.lock.release()
        self._leave(entry)

    def _leave(self, entry: _Entry) -> None:
        entry.users -= 1
        if entry.users == 0:
            del self._entries[self._key]
