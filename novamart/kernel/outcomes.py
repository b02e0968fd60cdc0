"""The outcomes of the conditions the kernel evaluates, worked out once where they can be.

A rulebook of per-item policies repeats its tests (``order.status == delivered`` in every
policy) and most of them do not read the item in focus (the order's status, a sum over the
collection): deciding a 5-item order evaluated each of them once per policy and once per item.
Here each distinct test is evaluated once per decision, and one that reads no focused member
once per order (the items' decisions share the facts their focus was taken from).

The engine is then given each policy's outcomes in a canonical form: for a policy whose
conditions must all pass, what its grant and open rules can tell apart is only "all passed",
"one failed" or "neither yet", so items alike in that share one engine run.
"""

from __future__ import annotations

import threading
from collections.abc import Sequence
from typing import Any, Protocol

from novamart.kernel import expressions
from novamart.kernel.conditions import ExprTest, FieldTest, ScopeTest
from novamart.kernel.facts import FactRecord, Facts, FactSchema
from novamart.kernel.rulebook import Policy

KernelTest = FieldTest | ExprTest | ScopeTest
Decided = tuple[tuple[str, str, str], ...]
"""(policy, condition, pass or fail) for each kernel condition that can be told."""


class Case(Protocol):
    """What a kernel condition reads of a case: its fields, its collections, its focus."""

    def value(self, kind: str, field: str) -> Any: ...

    def collection(self, kind: str) -> tuple[FactRecord, ...] | None: ...

    def in_focus(self) -> tuple[str, ...]: ...


def holds(test: KernelTest, facts: Case) -> bool | None:
    """A kernel-evaluated condition's outcome on ``facts`` (None: cannot be told yet)."""
    if isinstance(test, ExprTest | ScopeTest):
        return test.holds(facts)
    value = facts.value(test.kind, test.field)
    return None if value is None else test.holds(value)


def _reads_focus(test: KernelTest, schema: FactSchema) -> bool:
    """Whether the outcome may change with the member in focus."""
    if isinstance(test, ScopeTest):
        return True
    if isinstance(test, FieldTest):
        return schema.kinds[test.kind].many
    return any(schema.kinds[r.kind].many for r in expressions.free_refs(test.expr))


class KernelOutcomes:
    """Evaluates a rulebook's kernel conditions, each distinct test once per decision."""

    def __init__(
        self,
        tests: Sequence[tuple[str, str, KernelTest]],
        policies: dict[str, Policy],
        schema: FactSchema,
    ):
        distinct: dict[KernelTest, int] = {}
        self._uses = tuple((p, n, distinct.setdefault(t, len(distinct))) for p, n, t in tests)
        self._tests = tuple(distinct)
        self._focused = tuple(i for i, t in enumerate(self._tests) if _reads_focus(t, schema))
        self._unfocused = tuple(i for i in range(len(self._tests)) if i not in self._focused)
        names: dict[str, list[str]] = {}
        for p, n, _ in tests:
            names.setdefault(p, []).append(n)
        self._all_of = {p: tuple(n) for p, n in names.items() if not policies[p].any_condition}
        self._last: tuple[object, list[bool | None]] | None = None
        self._lock = threading.Lock()

    def decided(self, facts: Facts) -> Decided:
        """Each kernel condition that can be told on ``facts``, in the rulebook's order."""
        values = self._shared(facts)
        for i in self._focused:
            values[i] = holds(self._tests[i], facts)
        return tuple(
            (p, n, "pass" if values[i] else "fail")
            for p, n, i in self._uses
            if values[i] is not None
        )

    def _shared(self, facts: Facts) -> list[bool | None]:
        """The focus-free outcomes, from the last decision when it had the same order."""
        origin = facts.origin()
        last = self._last
        if last is not None and last[0] is origin:
            return list(last[1])
        values: list[bool | None] = [None] * len(self._tests)
        for i in self._unfocused:
            values[i] = holds(self._tests[i], facts)
        with self._lock:
            self._last = (origin, list(values))
        return values

    def canonical(self, decided: Decided) -> Decided:
        """What the engine is told: for an all-conditions policy, its first failed kernel
        condition, or every one when all passed, or nothing while neither; the rest as is."""
        by_policy: dict[str, list[tuple[str, str, str]]] = {}
        for one in decided:
            by_policy.setdefault(one[0], []).append(one)
        told: list[tuple[str, str, str]] = []
        for policy, outcomes in by_policy.items():
            if policy not in self._all_of:
                told += outcomes
                continue
            failed = next((o for o in outcomes if o[2] == "fail"), None)
            if failed is not None:
                told.append(failed)
            elif len(outcomes) == len(self._all_of[policy]):
                told += outcomes
        return tuple(told)
