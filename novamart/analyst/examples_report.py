"""``rules test`` as data: which examples ran, which failed and why, and the coverage.

The CLI prints it, ``--json`` dumps it, the workbench can show it: one report, one shape.
"""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict

from novamart.kernel import PolicyKernel
from novamart.kernel.coverage import CoverageReport, coverage
from novamart.kernel.examples import ExampleResult, run_examples
from novamart.kernel.rulebook import Example


class ExampleOutcome(BaseModel):
    model_config = ConfigDict(frozen=True)
    name: str
    policy: str
    file: str
    line: int | None
    passed: bool
    mismatches: list[str]


class ExamplesReport(BaseModel):
    model_config = ConfigDict(frozen=True)
    rules_version: str
    pattern: str | None
    passed: int
    failed: int
    deselected: int
    examples: list[ExampleOutcome]
    coverage: CoverageReport | None = None


def selected(example: Example, pattern: str | None) -> bool:
    """Whether ``-k pattern`` picks the example: a case-insensitive substring of its
    policy, file or name."""
    if not pattern:
        return True
    haystack = f"{example.policy} {example.file} {example.name}".lower()
    return pattern.lower() in haystack


def examples_report(
    kernel: PolicyKernel, pattern: str | None = None, with_coverage: bool = False
) -> ExamplesReport:
    results = [r for r in run_examples(kernel) if selected(r.example, pattern)]
    failed = sum(not r.passed for r in results)
    return ExamplesReport(
        rules_version=kernel.version,
        pattern=pattern,
        passed=len(results) - failed,
        failed=failed,
        deselected=len(kernel.rulebook.examples) - len(results),
        examples=[_outcome(r) for r in results],
        coverage=coverage(kernel.rulebook, results) if with_coverage else None,
    )


def _outcome(result: ExampleResult) -> ExampleOutcome:
    e = result.example
    return ExampleOutcome(
        name=e.name,
        policy=e.policy,
        file=e.file,
        line=e.line,
        passed=result.passed,
        mismatches=result.mismatches,
    )
