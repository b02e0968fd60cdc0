"""A bounded, thread-safe map that keeps what was used last: the one shape of NovaMart's
caches of immutable things built per rules version (lexicons, knowledge bases), per case
(seeded scenarios) or per engine outcome (engine runs)."""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Callable, Hashable
from typing import Generic, TypeVar

K = TypeVar("K", bound=Hashable)
V = TypeVar("V")
_MISSING = object()
"""What ``get`` finds for a key not kept (a value may be None)."""


class RecentlyUsed(Generic[K, V]):
    """At most ``size`` entries, the least recently used dropped first. ``get`` builds a
    missing value outside the lock, so a slow build never holds up the other threads; two
    threads may then build one value twice, which is harmless because values are immutable
    functions of their key."""

    def __init__(self, size: int) -> None:
        self._size = size
        self._entries: OrderedDict[K, V] = OrderedDict()
        self._lock = threading.Lock()
        self.misses = 0
        """Values built (for tests and benchmarks)."""

    def get(self, key: K, build: Callable[[], V]) -> V:
        with self._lock:
            found = self._entries.get(key, _MISSING)  # a key hashed twice, not thrice
            if found is not _MISSING:
                self._entries.move_to_end(key)
                return found  # type: ignore[return-value]
        value = build()
        with self._lock:
            self.misses += 1
            self._entries[key] = value
            while len(self._entries) > self._size:
                self._entries.popitem(last=False)
        return value

    def clear(self) -> None:
        with self._lock:
            self._entries.clear()
