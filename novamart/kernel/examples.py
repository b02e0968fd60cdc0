"""Run the analysts' examples kept beside the rules (facts -> expected verdicts)."""

from __future__ import annotations

from dataclasses import dataclass

from novamart.kernel.decide import PolicyKernel
from novamart.kernel.money import same_amount
from novamart.kernel.rulebook import Example


@dataclass(frozen=True)
class ExampleResult:
    example: Example
    mismatches: list[str]

    @property
    def passed(self) -> bool:
        return not self.mismatches


def check_example(kernel: PolicyKernel, example: Example) -> ExampleResult:
    decision = kernel.decide(example.facts)
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
    return ExampleResult(example=example, mismatches=mismatches)


def run_examples(kernel: PolicyKernel) -> list[ExampleResult]:
    return [check_example(kernel, example) for example in kernel.rulebook.examples]
