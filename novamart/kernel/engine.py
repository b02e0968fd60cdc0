"""The one place that touches durable_rules, wrapped against its measured hazards.

1. ``QuietHost`` never starts the background timer threads that segfault after
   out-of-order ``delete_state``.
2. Every evaluation runs in its own short-lived session, deleted in ``finally``, so
   the 1,024-session cap and the ~578 KB per session never accumulate.
3. Negation is decided in phases asserted after the ordinary facts (see compile.py).
4. A fact no rule stores, and one a consequence asserts that no rule stores (which the
   host would swallow into the session state), are both ``EngineError``: the runner runs
   the actions itself (``RulesetRunner._act``) and reads every assertion's answer.
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


def _consequence(name: str) -> dict[str, Any] | None:
    """The fact an action named ``name`` asserts (None: the sink, which asserts nothing)."""
    if name == SINK_ACTION:
        return None
    if name.startswith(ASSERT_PREFIX):
        return json.loads(name[len(ASSERT_PREFIX) :])
    raise EngineError(f"unknown action {name!r}")


def _action(name: str) -> Callable[[Any], None]:
    """The closure durable's host binds to an action name (``RulesetRunner._act`` runs the
    actions itself; the host needs one to register the ruleset)."""
    fact = _consequence(name)
    return lambda c: None if fact is None else c.assert_fact(dict(fact))


def _open_json(fact: dict[str, Any]) -> str:
    """``fact`` as JSON up to the value of a last key ``sid`` (its value and brace to come)."""
    return json.dumps(fact, ensure_ascii=False)[:-1] + (', "sid": ' if fact else '"sid": ')


def _stored(result: tuple[int, ...], payload: str) -> None:
    """Durable's answer to asserting ``payload``, read as its host reads it
    (``Ruleset._handle_result``)."""
    if result[0] == 1:
        raise EngineError(f"no rule stores this fact: {payload}")
    if result[0] == 2:
        raise EngineError(f"fact asserted twice: {payload}")


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
        self._handle = self._host.get_ruleset(name)._handle
        self._free = weakref.finalize(self, durable_rules_engine.delete_ruleset, self._handle)
        self._free.atexit = False
        self._consequences = {
            rule: None if (fact := _consequence(r["run"])) is None else _open_json(fact)
            for rule, r in definition.items()
        }
        """What each rule's action asserts (None: nothing), by rule name: its fact's JSON up
        to the value of its last key, ``sid``, which a session's id completes."""

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
                self._assert(batch, sid)
            for phase in PHASES:
                phased = {"kind": "phase", "name": phase, "id": f"phase:{phase}", "sid": sid}
                self._assert(phased, sid)
            derived = self._host.get_facts(self.name, sid)
        finally:
            self._delete(sid)
            self._sids.give_back(h)
        return sorted(derived, key=lambda f: f["id"])

    def _assert(self, facts: dict[str, Any] | list[dict[str, Any]], sid: str) -> None:
        """Assert ``facts`` (of session ``sid``) and run the actions they start, as durable's
        host does (``Host.assert_fact``) without its per-action machinery (a closure object,
        a promise, clock readings, the state parsed and written back as it was read): an
        action here only asserts its rule's fact or nothing, so the host's engine calls are
        made directly, in the host's order."""
        assert_ = (
            durable_rules_engine.assert_facts
            if isinstance(facts, list)
            else durable_rules_engine.assert_fact
        )
        payload = json.dumps(facts, ensure_ascii=False)
        try:
            result = assert_(self._handle, payload)
            _stored(result, payload)
            self._act(0 if result[0] == 3 else result[1], json.dumps(sid))
        except durable_rules_engine.error as e:
            raise EngineError(f"the engine refused a fact: {e}") from None

    def _act(self, state_handle: int, sid: str) -> None:
        """The actions an assertion started, one after another, each asserting its rule's
        fact in session ``sid`` (its id as JSON): durable's ``Ruleset.do_actions`` and
        ``_flush_actions``. A fact no rule stores or one asserted twice abandons the action:
        an EngineError, where the host would leave an exception in the session's state."""
        started = durable_rules_engine.start_action_for_state(self._handle, state_handle)
        if not started:
            return
        state, message = started[0], json.loads(started[1])
        while True:
            fact = self._consequences[next(iter(message))]
            if fact is not None:
                payload = f"{fact}{sid}}}"
                try:
                    _stored(durable_rules_engine.assert_fact(self._handle, payload), payload)
                except (EngineError, durable_rules_engine.error) as e:
                    durable_rules_engine.abandon_action(self._handle, state_handle)
                    raise EngineError(f"a rule consequence failed: {e}") from None
            durable_rules_engine.update_state(self._handle, state)
            following = durable_rules_engine.complete_and_start_action(self._handle, state_handle)
            if not following:
                return
            message = json.loads(following)

    def _delete(self, sid: str) -> None:
        """Close the session (so one action has run in it, see compile.py), then free it."""
        close = {"kind": "phase", "name": CLOSE_PHASE, "id": f"phase:{CLOSE_PHASE}", "sid": sid}
        with contextlib.suppress(EngineError):
            self._assert(close, sid)
        with contextlib.suppress(durable_rules_engine.error):
            self._host.delete_state(self.name, sid)

    def live_sessions(self) -> int:
        return self._sids.live()
