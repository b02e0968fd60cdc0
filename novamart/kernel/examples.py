"""Run the analysts' examples kept beside the rules (facts -> expected verdicts).

Examples run on anything that decides with a rulebook: the kernel, or one compiled version
of it, so a reload can test the new version before it serves (``PolicyKernel.reload``).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Protocol

from novamart.kernel.decision import Decision
from novamart.kernel.facts import Facts
from novamart.kernel.money import same_amount
from novamart.kernel.rulebook import (
    OPTIMUM_EXPECTATIONS,
    PLAN_EXPECTATIONS,
    Example,
    Rulebook,
    RuleIssue,
)


class Decider(Protocol):
    """A rulebook and its decisions (a PolicyKernel or a CompiledRulebook)."""

    @property
    def rulebook(self) -> Rulebook: ...

    def decide(self, facts: Facts) -> Decision: ...


@dataclass(frozen=True)
class ExampleResult:
    example: Example
    mismatches: list[str]
    decision: Decision
    item_decisions: tuple[Decision, ...] = ()
    """The decisions per item of an example that expects them (``each_<kind>``)."""
    call_decisions: tuple[Decision, ...] = ()
    """The decision of each call of an example's request or steps."""
    call_facts: tuple[Facts, ...] = ()
    """What each call was decided on (the state with its request)."""

    @property
    def seen(self) -> tuple[Facts, ...]:
        """Every fact set the example's decisions were made on."""
        return self.call_facts or (self.example.facts,)

    @property
    def passed(self) -> bool:
        return not self.mismatches


def check_example(rules: Decider, example: Example) -> ExampleResult:
    from novamart.kernel.items import EACH_PREFIX, decide_each  # items builds on Decider

    facts, mismatches, calls = example.facts, [], ()
    if example.steps:
        from novamart.kernel.requests import plan_mismatches  # requests build on Decider

        facts, mismatches, calls = plan_mismatches(rules, example)
    elif example.requests:
        from novamart.kernel.plans import optimum_mismatches  # plans build on Decider

        facts, mismatches, calls = optimum_mismatches(rules, example)
    decision = rules.decide(facts)
    per_item: list[Decision] = []
    for key, expected in example.expect.items():
        if key in PLAN_EXPECTATIONS or key in OPTIMUM_EXPECTATIONS:
            continue
        if key.startswith(EACH_PREFIX):
            each = decide_each(rules, facts, key.removeprefix(EACH_PREFIX))
            decided = {i.item: i.decision for i in each.items}
            per_item += decided.values()
            for item, expects in expected.items():
                if item not in decided:
                    mismatches.append(f"{key}.{item}: no such {each.kind} in the facts")
                    continue
                found = _mismatches(decided[item], expects)
                mismatches += [f"{key}.{item}.{m}" for m in found]
            continue
        mismatches += _mismatches(decision, {key: expected})
    return ExampleResult(
        example=example,
        mismatches=mismatches,
        decision=decision,
        item_decisions=tuple(per_item),
        call_decisions=tuple(o.decision for o in calls),
        call_facts=tuple(o.facts for o in calls),
    )


def _mismatches(decision: Decision, expect: dict) -> list[str]:
    mismatches = []
    for key, expected in expect.items():
        if key == "optimal":
            actual = decision.optimal.resolution if decision.optimal else "none"
        elif key == "amount":
            actual = decision.optimal.amount if decision.optimal else None
            if actual is not None and same_amount(actual, expected):
                continue
        else:
            actual = decision.policies[key].status
        if actual != expected:
            mismatches.append(f"{key}: expected {expected}, got {actual}")
    return mismatches


def run_examples(rules: Decider) -> list[ExampleResult]:
    return [check_example(rules, example) for example in rules.rulebook.examples]


def failures_as_issues(results: list[ExampleResult]) -> list[RuleIssue]:
    """Each failing example as a located issue, the way a broken rule file is reported."""
    return [
        RuleIssue(
            file=r.example.file,
            line=r.example.line,
            where=f"example {r.example.name!r}",
            message=f"fails: {'; '.join(r.mismatches)}",
        )
        for r in results
        if not r.passed
    ]
