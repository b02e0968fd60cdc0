"""Bounded memos of pure results over frozen records, found again by identity.

A retail world is a tree of frozen records, and a write replaces only the records along its
path: the worlds of one episode share most of their records, and a record met again is the
same object. Hashing a world (every customer, order and item) costs more than most results
computed from it, so these memos key on ``id(owner)`` and hold the owner beside the result:
an entry counts only while its id is still that owner's.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar

KEPT = 4096
"""How many results one memo keeps (it is emptied when full: its entries are cheap to redo)."""
_T = TypeVar("_T")
Memo = dict[Any, tuple[object, Any]]


def kept(memo: Memo, key: Any, owner: object, compute: Callable[[], _T]) -> _T:
    """``compute()``, kept under ``key`` (which holds ``owner``'s id) for as long as that id
    is still ``owner``'s."""
    found = memo.get(key)
    if found is not None and found[0] is owner:
        return found[1]
    if len(memo) >= KEPT:
        memo.clear()
    value = compute()
    memo[key] = (owner, value)
    return value
