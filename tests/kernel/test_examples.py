"""The analysts' examples beside the rules all hold (what `novamart rules test` runs)."""

import pytest

from novamart.kernel import default_kernel
from novamart.kernel.examples import check_example

EXAMPLES = default_kernel().rulebook.examples


def test_every_policy_has_examples():
    files = {e.file.rsplit("/", 1)[-1] for e in EXAMPLES}
    for policy in default_kernel().rulebook.policies.values():
        assert policy.file.rsplit("/", 1)[-1] in files


@pytest.mark.parametrize("example", EXAMPLES, ids=[e.name for e in EXAMPLES])
def test_example(example):
    result = check_example(default_kernel(), example)
    assert result.passed, result.mismatches
