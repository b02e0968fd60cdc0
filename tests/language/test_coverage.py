"""A policy said to cover the case is a claim on the kernel's verdict, the policy found by its
name as the rules write it (novamart.language.coverage)."""

from __future__ import annotations

import pytest

from novamart.kernel import default_kernel
from novamart.language import Reading, lexicon_for, read


def reading(text: str) -> Reading:
    return read(text, lexicon_for(default_kernel().rulebook))


@pytest.mark.parametrize(
    ("text", "want"),
    [
        ("It's covered under our defect policy.", {("defective_item", True, False)}),
        ("You are not covered by the return policy.", {("standard_return", False, False)}),
        ("Your order falls under the standard return policy.", {("standard_return", True, False)}),
        ("There's no way you're not covered by the defect policy.",
         {("defective_item", True, False)}),
        ("I wouldn't say you're covered by the return policy.",
         {("standard_return", False, True)}),
        # no claim: a condition, a generic rule, a policy covering no case
        ("If you're covered by the defect policy, we can refund you.", set()),
        ("Items with a verified defect are covered by the defect policy.", set()),
        ("Our return policy covers unopened items.", set()),
    ],
)  # fmt: skip
def test_a_policy_said_to_cover_the_case(text: str, want: set) -> None:
    assert {(c.policy, c.covered, c.hedged) for c in reading(text).policies} == want


def test_a_policy_the_rules_do_not_have_is_unverifiable() -> None:
    r = reading("You're covered by our price protection policy.")
    assert r.policies == ()
    assert "a policy the rules do not have covering the case" in [u.what for u in r.unverifiable]
    assert reading("You're not covered by our price protection policy.").unverifiable == ()
