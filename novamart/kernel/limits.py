"""The engine's hard limits, checked before a rule set is loaded (hazard 5).

durable_rules walks a fact through its alpha network with a fixed stack of 64 nodes
(events.c, MAX_STACK_SIZE): a fact that matches more tests than that fails with error
303 and leaves a corrupted session behind (a later segfault). It also refuses more
than 256 rules on one pattern (error 108). Each condition compiles to two tests (pass
and fail), one per listed value for ``in``; each tested field adds one existence test.

So a fact kind's plain tests go to the engine only while they fit in its stack
(``MAX_TESTS_PER_KIND``); a kind tested more often than that, and every expression test,
is evaluated by the kernel in Python on each fact set and reaches the engine as condition
facts, which pass through a handful of equality tests each, however many there are. What
stays limited is what the engine itself carries: conditions per policy (one rule joins
them all), policies, and conditions in all (each a pattern of the condition facts).
"""

from __future__ import annotations

from collections import Counter
from typing import TYPE_CHECKING

from novamart.kernel.conditions import ExprTest, FieldTest

if TYPE_CHECKING:
    from novamart.kernel.rulebook import Condition, Policy, _Collector

ENGINE_STACK = 64
MAX_TESTS_PER_KIND = 60
"""Engine tests one fact kind may pass through; past it, the kind is tested in Python."""
MAX_CONDITIONS_PER_KIND = 400
"""Conditions reading one fact kind (a 20-policy rulebook with 150 is a real one)."""
MAX_CONDITIONS_PER_POLICY = 16
"""One rule joins a policy's conditions, and a join holds at most 16 facts (MAX_MESSAGE_FRAMES
in state.h; a 17th gives error 304 on every assert)."""
MAX_CONDITIONS = 800  # measured: 50 policies of 16 conditions load and decide
MAX_POLICIES = 100  # each adds ~2 rules on the shared 'condition' pattern (< 256)


def tests_per_kind(policies: dict[str, Policy]) -> Counter[str]:
    """How many engine tests a fact of each kind would pass through, were all its plain
    tests compiled into the engine."""
    tests: Counter[str] = Counter()
    fields: set[tuple[str, str]] = set()
    for policy in policies.values():
        for cond in policy.conditions:
            if isinstance(cond.test, FieldTest):
                width = len(cond.test.value) if isinstance(cond.test.value, tuple) else 1
                tests[cond.test.kind] += 2 * width
                fields.add((cond.test.kind, cond.test.field))
    for kind, _ in fields:
        tests[kind] += 1
    return tests


def python_kinds(policies: dict[str, Policy]) -> frozenset[str]:
    """The fact kinds tested too often for the engine's stack: the kernel tests them."""
    return frozenset(k for k, n in tests_per_kind(policies).items() if n > MAX_TESTS_PER_KIND)


def in_engine(cond: Condition, python: frozenset[str]) -> bool:
    """Whether the engine tests ``cond`` on the fact itself (else the kernel does)."""
    return isinstance(cond.test, FieldTest) and cond.test.kind not in python


def _kinds_read(cond: Condition) -> tuple[str, ...]:
    if isinstance(cond.test, FieldTest):
        return (cond.test.kind,)
    return cond.test.kinds if isinstance(cond.test, ExprTest) else ()


def check(policies: dict[str, Policy], issues: _Collector) -> None:
    readers: Counter[str] = Counter()
    files: dict[str, set[str]] = {}
    for policy in policies.values():
        for cond in policy.conditions:
            for kind in _kinds_read(cond):
                readers[kind] += 1
                files.setdefault(kind, set()).add(policy.file)
        if len(policy.conditions) > MAX_CONDITIONS_PER_POLICY:
            issues.add(
                policy.file,
                (),
                f"policy {policy.name}",
                f"{len(policy.conditions)} conditions; the engine joins at most "
                f"{MAX_CONDITIONS_PER_POLICY} in one policy: split it, or join tests with "
                "'and' in one condition",
            )
    for kind, count in readers.items():
        if count > MAX_CONDITIONS_PER_KIND:
            where = sorted(files[kind])
            issues.add(
                where[0],
                (),
                f"fact kind {kind}",
                f"tested by {count} conditions across {', '.join(where)}; at most "
                f"{MAX_CONDITIONS_PER_KIND} conditions may read one fact kind: merge or "
                "remove conditions",
            )
    total = sum(len(p.conditions) for p in policies.values())
    if total > MAX_CONDITIONS:
        issues.add(
            "rules", (), "", f"{total} conditions; the engine allows at most {MAX_CONDITIONS}"
        )
    if len(policies) > MAX_POLICIES:
        issues.add(
            "rules", (), "", f"{len(policies)} policies; the engine allows at most {MAX_POLICIES}"
        )
