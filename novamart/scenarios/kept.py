"""Memos of pure results over frozen records, kept on the records they are about.

A retail world is a tree of frozen records, and a write replaces only the records along its
path: the worlds of one episode share most of their records, and a record met again is the
same object. Hashing a world (every customer, order and item) costs more than most results
computed from it, so these memos find a result by its owners' identity and keep it on the
first owner (in its ``__dict__``), beside the owners it was computed from: it counts only
while each is still the same object, and it goes when that owner goes. An episode's worlds
and what was graded of them are freed with the episode (and the task cache's worlds with
their case), where global tables of 4,096 results each held the worlds of the last few
thousand episodes (a process's memory grew from 234 to 803 MB over 3,000 new episodes, and
went on growing: ``bench/bench_collector.py``).
"""

from __future__ import annotations

from collections.abc import Callable, Hashable
from typing import Any, TypeVar

PER_OWNER = 64
"""How many results of one memo an owner keeps (emptied when full: they are cheap to redo).
A long-lived owner (a cached case's world, met by every episode of its seed) stays small."""
KEPT = 1024
"""How many results a memo keeps about owners that cannot hold them (no ``__dict__``)."""
_T = TypeVar("_T")
_Entries = dict[Any, tuple[tuple[object, ...], Any]]
_ON_OWNER = "_kept_here"
"""The attribute of an owner holding its results: (its id, {memo: entries})."""


class Memo:
    """One memo: its name among the results an owner keeps, and its own table for the owners
    that cannot keep any."""

    __slots__ = ("elsewhere",)

    def __init__(self) -> None:
        self.elsewhere: _Entries = {}


def kept(memo: Memo, key: Any, owner: object, compute: Callable[[], _T]) -> _T:
    """``compute()``, kept under ``key`` on ``owner`` for as long as it is that object."""
    return _kept(memo, key, (owner,), compute)


def kept_for(
    memo: Memo, owners: tuple[object, ...], extra: Hashable, compute: Callable[[], _T]
) -> _T:
    """``compute()`` of several records (and ``extra``, a plain value), kept on the first of
    ``owners`` (callers list the shortest-lived first) while each is the same object."""
    return _kept(memo, (tuple(map(id, owners)), extra), owners, compute)


def _kept(memo: Memo, key: Any, owners: tuple[object, ...], compute: Callable[[], _T]) -> _T:
    entries = _entries(memo, owners[0])
    # not the owner holding the entry: a cycle through its attributes would leave each world
    # to the collector's full passes instead of its last reference
    held = owners if entries is memo.elsewhere else owners[1:]
    found = entries.get(key)
    if found is not None and all(a is b for a, b in zip(found[0], held, strict=True)):
        return found[1]
    if len(entries) >= (KEPT if entries is memo.elsewhere else PER_OWNER):
        entries.clear()
    value = compute()
    entries[key] = (held, value)
    return value


def _entries(memo: Memo, owner: object) -> _Entries:
    """The memo's results kept on ``owner`` (its own table when ``owner`` has no
    ``__dict__``). The id tells a record from a copy (``copy.copy`` copies the attributes,
    so the copy's first look finds the original's results)."""
    held = getattr(owner, "__dict__", None)
    if held is None:
        return memo.elsewhere
    mine = held.get(_ON_OWNER)
    if mine is None or mine[0] != id(owner):
        mine = held[_ON_OWNER] = (id(owner), {})
    entries = mine[1].get(memo)
    if entries is None:
        entries = mine[1][memo] = {}
    return entries
