"""The one place that touches durable_rules, wrapped against its measured hazards.

1. ``QuietHost`` never starts the background timer threads that segfault after
   out-of-order ``delete_state``.
2. Every evaluation runs in its own short-lived session, deleted in ``finally``, so
   the 1,024-session cap and the ~578 KB per session never accumulate.
3. Negation is decided in phases asserted after the ordinary facts (see compile.py).
4. A fact no rule stores, and an exception swallowed into the session state, are both
   turned into ``EngineError`` on every evaluation.
6. Sessions are told apart by a 32-bit FNV-1a hash only: a new session id is never one
   whose hash is live, and a rulebook whose fact ids collide is refused.
8. A ruleset name registers once per host: each rulebook version gets its own host.
"""

from __future__ import annotations

import contextlib
import copy
import itertools
import json
import threading
import weakref
from collections.abc import Callable, Iterable
from typing import Any

import durable_rules_engine
from durable import engine

from novamart.kernel.compile import ASSERT_PREFIX, CLOSE_PHASE, PHASES, SINK_ACTION

# The engine holds at most 1,024 live sessions per ruleset; a 1,025th fails half-built
# and crashes on delete. Evaluations beyond this many wait for a free session instead.
MAX_LIVE_SESSIONS = 1_000


class EngineError(RuntimeError):
    """The engine misbehaved; the evaluation's result cannot be trusted."""


def fnv1a_32(text: str) -> int:
    """durable_rules' identity hash for session and fact ids."""
    h = 0x811C9DC5
    for byte in text.encode():
        h = ((h ^ byte) * 0x01000193) & 0xFFFFFFFF
    return h


class QuietHost(engine.Host):
    """A durable_rules host without background threads, binding action names to closures."""

    def __init__(self, actions: Callable[[str], Callable[[Any], None]]):
        self._resolve_action = actions
        super().__init__()

    def _run(self) -> None:  # the timer/dispatch loop of hazard 1: never started
        return None

    def get_action(self, action_name: str) -> Callable[[Any], None]:
        return self._resolve_action(action_name)


def _action(name: str) -> Callable[[Any], None]:
    if name == SINK_ACTION:
        return lambda c: None
    if name.startswith(ASSERT_PREFIX):
        fact = json.loads(name[len(ASSERT_PREFIX) :])
        return lambda c: c.assert_fact(dict(fact))
    raise EngineError(f"unknown action {name!r}")


class _SessionIds:
    """Hands out session ids whose 32-bit hashes are not live (hazard 6)."""

    def __init__(self) -> None:
        self._counter = itertools.count(1)
        self._live: set[int] = set()
        self._lock = threading.Lock()
        self._slots = threading.BoundedSemaphore(MAX_LIVE_SESSIONS)

    def take(self) -> tuple[str, int]:
        self._slots.acquire()
        with self._lock:
            while True:
                sid = str(next(self._counter))
                h = fnv1a_32(sid)
                if h not in self._live:
                    self._live.add(h)
                    return sid, h

    def give_back(self, h: int) -> None:
        with self._lock:
            self._live.discard(h)
        self._slots.release()

    def live(self) -> int:
        return len(self._live)


class RulesetRunner:
    """One compiled ruleset in its own quiet host; ``run`` is thread-safe."""

    def __init__(self, name: str, definition: dict[str, dict[str, Any]], fact_ids: Iterable[str]):
        ids = list(fact_ids)
        hashes = {fnv1a_32(i) for i in ids}
        if len(hashes) != len(set(ids)):
            raise EngineError("two fact ids of this rulebook share a 32-bit hash; rename one")
        self.name = name
        self._host = QuietHost(_action)
        # Ruleset() deletes the 'run' keys of what it is given: hand it a copy.
        self._host.register_rulesets({name: copy.deepcopy(definition)})
        self._sids = _SessionIds()
        # The engine's ruleset lives in C: free it when this runner is collected (nothing
        # can evaluate on it then), but not at interpreter exit, when the engine goes anyway.
        handle = self._host.get_ruleset(name)._handle
        self._free = weakref.finalize(self, durable_rules_engine.delete_ruleset, handle)
        self._free.atexit = False

    def run(
        self, facts: dict[str, dict[str, Any]], derived: Iterable[dict[str, Any]] = ()
    ) -> list[dict[str, Any]]:
        """Assert ``facts`` (kind -> fields) and ``derived`` facts the caller worked out
        (each with its kind and id), run every phase, return all facts, sorted."""
        sid, h = self._sids.take()
        try:
            batch = [
                {**fields, "kind": kind, "id": kind, "sid": sid} for kind, fields in facts.items()
            ]
            batch += [{**fact, "sid": sid} for fact in derived]
            if batch:
                self._assert(batch)
            for phase in PHASES:
                self._assert({"kind": "phase", "name": phase, "id": f"phase:{phase}", "sid": sid})
            state = self._host.get_state(self.name, sid)
            if "exception" in state:
                raise EngineError(f"a rule consequence failed: {state['exception']}")
            derived = self._host.get_facts(self.name, sid)
        finally:
            self._delete(sid)
            self._sids.give_back(h)
        return sorted(derived, key=lambda f: f["id"])

    def _assert(self, facts: dict[str, Any] | list[dict[str, Any]]) -> None:
        try:
            self._host.assert_fact(self.name, facts)
        except engine.MessageNotHandledException as e:
            raise EngineError(f"no rule stores this fact: {e.message}") from None
        except engine.MessageObservedException as e:
            raise EngineError(f"fact asserted twice: {e.message}") from None
        except durable_rules_engine.error as e:
            raise EngineError(f"the engine refused a fact: {e}") from None

    def _delete(self, sid: str) -> None:
        """Close the session (so one action has run in it, see compile.py), then free it."""
        close = {"kind": "phase", "name": CLOSE_PHASE, "id": f"phase:{CLOSE_PHASE}", "sid": sid}
        with contextlib.suppress(EngineError):
            self._assert(close)
        with contextlib.suppress(durable_rules_engine.error):
            self._host.delete_state(self.name, sid)

    def live_sessions(self) -> int:
        return self._sids.live()
