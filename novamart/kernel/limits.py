"""The engine's hard limits, checked before a rule set is loaded (hazard 5).

durable_rules walks a fact through its alpha network with a fixed stack of 64 nodes
(events.c, MAX_STACK_SIZE): a fact that matches more tests than that fails with error
303 and leaves a corrupted session behind (a later segfault). It also refuses more
than 256 rules on one pattern (error 108). Each condition compiles to two tests (pass
and fail), one per listed value for ``in``; each tested field adds one existence test.
"""

from __future__ import annotations

from collections import Counter
from typing import TYPE_CHECKING

from novamart.kernel.conditions import FieldTest

if TYPE_CHECKING:
    from novamart.kernel.rulebook import Policy, _Collector

ENGINE_STACK = 64
MAX_TESTS_PER_KIND = 60
MAX_POLICIES = 100  # each adds ~2 rules on the shared 'condition' pattern (< 256)


def tests_per_kind(policies: dict[str, Policy]) -> Counter[str]:
    """How many engine tests a fact of each kind can pass through."""
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


def check(policies: dict[str, Policy], issues: _Collector) -> None:
    for kind, count in tests_per_kind(policies).items():
        if count > MAX_TESTS_PER_KIND:
            files = sorted(
                {
                    p.file
                    for p in policies.values()
                    for c in p.conditions
                    if isinstance(c.test, FieldTest) and c.test.kind == kind
                }
            )
            issues.add(
                files[0],
                (),
                f"fact kind {kind}",
                f"tested {count} times across {', '.join(files)}; the engine handles at "
                f"most {MAX_TESTS_PER_KIND} tests per fact kind safely (its limit is "
                f"{ENGINE_STACK}): merge or remove conditions",
            )
    if len(policies) > MAX_POLICIES:
        issues.add(
            "rules", (), "", f"{len(policies)} policies; the engine allows at most {MAX_POLICIES}"
        )
