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
from novamart.kernel.rulebook import Example, Rulebook, RuleIssue


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

    @property
    def passed(self) -> bool:
        return not self.mismatches


def check_example(rules: Decider, example: Example) -> ExampleResult:
    decision = rules.decide(example.facts)
    mismatches = []
    for key, expected in example.expect.items():
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
    return ExampleResult(example=example, mismatches=mismatches, decision=decision)


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
