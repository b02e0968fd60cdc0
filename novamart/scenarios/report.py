"""What a task's generated cases come to under a rulebook: how often each policy condition
passes and fails, the distribution of the optimal resolution, and its entropy in bits (0: the
task name gives the answer away; log2 of the number of resolutions at most).

The numbers are the kernel's own verdicts on every fact of each case, the ground truth an
episode is graded against; ``novamart scenarios`` prints them.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Iterable

from pydantic import BaseModel

from novamart.kernel import CompiledRulebook
from novamart.scenarios.generator import build_scenario, possible_statuses

NONE = "none"


class ConditionCount(BaseModel):
    passed: int = 0
    failed: int = 0
    can_pass: bool | None = None
    can_fail: bool | None = None
    """Whether the task's character lets the condition pass, and fail (False: it pins it;
    None for the fallback, which follows the other policies)."""


class TaskReport(BaseModel):
    task: str
    rules_version: str
    cases: int
    conditions: dict[str, ConditionCount]
    """``policy.condition`` -> how often it passed and failed on all the facts."""
    optimal: dict[str, int]
    """Optimal resolution -> cases."""
    optimal_by_policy: dict[str, int]
    """``resolution under policy`` -> cases."""
    entropy_bits: float
    entropy_by_policy_bits: float
    open_at_once: dict[int, int]
    """How many resolutions were allowed at once -> cases."""


def entropy(counts: Iterable[int]) -> float:
    """Shannon entropy in bits of a distribution given by counts."""
    counts = [c for c in counts if c]
    total = sum(counts)
    return 0.0 - sum(c / total * math.log2(c / total) for c in counts) if total else 0.0


def task_report(task: str, rules: CompiledRulebook, seeds: Iterable[int]) -> TaskReport:
    conditions: dict[str, ConditionCount] = {}
    optimal: Counter[str] = Counter()
    by_policy: Counter[str] = Counter()
    open_at_once: Counter[int] = Counter()
    cases = 0
    declared = {
        (name, c.name)
        for name, policy in rules.rulebook.policies.items()
        for c in policy.conditions
    }
    possible = possible_statuses(task, rules.rulebook)
    for seed in seeds:
        truth = rules.decide(build_scenario(task, seed, rules.rulebook).facts())
        cases += 1
        for policy, verdict in truth.policies.items():
            for c in verdict.conditions:
                if (policy, c.name) not in declared:
                    continue  # "set aside by an overriding policy" is not a condition of it
                key = f"{policy}.{c.name}"
                if key not in conditions:
                    can = possible.get(key)
                    conditions[key] = ConditionCount(
                        can_pass=None if can is None else True in can,
                        can_fail=None if can is None else False in can,
                    )
                count = conditions[key]
                if c.status == "pass":
                    count.passed += 1
                elif c.status == "fail":
                    count.failed += 1
        best = truth.optimal
        optimal[best.resolution if best else NONE] += 1
        by_policy[f"{best.resolution} under {best.policy}" if best else NONE] += 1
        open_at_once[len({g.resolution for g in truth.eligible})] += 1
    return TaskReport(
        task=task,
        rules_version=rules.rulebook.version,
        cases=cases,
        conditions=conditions,
        optimal=dict(optimal.most_common()),
        optimal_by_policy=dict(by_policy.most_common()),
        entropy_bits=round(entropy(optimal.values()), 4),
        entropy_by_policy_bits=round(entropy(by_policy.values()), 4),
        open_at_once=dict(sorted(open_at_once.items())),
    )
