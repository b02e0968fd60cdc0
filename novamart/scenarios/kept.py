"""Bounded memos of pure results over frozen records, found again by identity.

A retail world is a tree of frozen records, and a write replaces only the records along its
path: the worlds of one episode share most of their records, and a record met again is the
same object. Hashing a world (every customer, order and item) costs more than most results
computed from it, so these memos key on the owners' ids and hold the owners beside the
result: an entry counts only while each id is still its owner's.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable
from typing import Any, TypeVar

KEPT = 4096
"""How many results one memo keeps (it is emptied when full: its entries are cheap to redo)."""
_T = TypeVar("_T")
Memo = dict[Any, tuple[tuple[object, ...], Any]]


def kept(memo: Memo, key: Any, owner: object, compute: Callable[[], _T]) -> _T:
    """``compute()``, kept under ``key`` (which holds ``owner``'s id) for as long as that id
    is still ``owner``'s."""
    return _kept(memo, key, (owner,), compute)


def kept_for(
    memo: Memo, owners: tuple[object, ...], extra: Hashable, compute: Callable[[], _T]
) -> _T:
    """``compute()`` of several records (and ``extra``, a plain value), kept while each of
    ``owners`` is the same object."""
    return _kept(memo, (tuple(map(id, owners)), extra), owners, compute)


def _kept(memo: Memo, key: Any, owners: tuple[object, ...], compute: Callable[[], _T]) -> _T:
    found = memo.get(key)
    if found is not None and all(a is b for a, b in zip(found[0], owners, strict=True)):
        return found[1]
    if len(memo) >= KEPT:
        memo.clear()
    value = compute()
    memo[key] = (owners, value)
    return value
