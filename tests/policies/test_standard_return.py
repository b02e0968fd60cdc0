"""standard_return: unopened, within 30 days (inclusive) -> full refund."""

import pytest

from tests.policies.conftest import best, case, status


@pytest.mark.parametrize(
    ("days", "expected"), [(0, "eligible"), (29, "eligible"), (30, "eligible"), (31, "blocked")]
)
def test_window_is_inclusive(days, expected):
    assert status(case(days=days, opened=False), "standard_return") == expected


def test_opened_item_is_blocked_with_reason():
    verdict = case(days=5, opened=True).policies["standard_return"]
    assert verdict.status == "blocked"
    [failed] = verdict.failed()
    assert failed.name == "item_unopened"
    assert "opened" in failed.reason


def test_refund_amount_is_the_price():
    decision = case(days=20, opened=False, price=79.99)
    assert best(decision) == "full_refund"
    assert decision.optimal.policy == "standard_return"
    assert decision.optimal.amount == 79.99


def test_late_reason_renders_observed_days():
    [failed] = case(days=45, opened=False).policies["standard_return"].failed()
    assert failed.reason == "purchased 45 days ago; the standard return window is 30 days"


def test_both_conditions_can_fail_at_once():
    verdict = case(days=31, opened=True).policies["standard_return"]
    assert {c.name for c in verdict.failed()} == {"within_return_window", "item_unopened"}


def test_needs_no_customer_or_defect_facts():
    assert status(case(days=3, opened=False), "standard_return") == "eligible"
