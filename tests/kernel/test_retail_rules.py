"""The retail fixture rulebook, written only in YAML with the new constructs, decides its own
hand-worked examples exactly (issue 19: 'a rulebook ... decides hand-worked cases')."""

from __future__ import annotations

from pathlib import Path

import pytest

from novamart.kernel import PolicyKernel
from novamart.kernel.coverage import coverage
from novamart.kernel.examples import check_example, run_examples
from novamart.kernel.rulebook import Example

RETAIL = Path(__file__).parent / "fixtures" / "retail"
KERNEL = PolicyKernel(RETAIL)


@pytest.mark.parametrize("example", KERNEL.rulebook.examples, ids=lambda e: e.name)
def test_retail_example(example: Example) -> None:
    result = check_example(KERNEL, example)
    assert result.passed, result.mismatches


def test_every_branch_of_the_retail_rules_is_covered() -> None:
    report = coverage(KERNEL.rulebook, run_examples(KERNEL))
    branches = [i for i in report.items if i.kind == "branch"]
    assert len(branches) >= 8
    assert not report.uncovered(), [i.description for i in report.uncovered()]
