"""loyalty_goodwill: silver/gold within 60 days (inclusive) -> store credit by tier."""

import pytest

from tests.policies.conftest import best, case, status


@pytest.mark.parametrize(
    ("days", "expected"), [(59, "eligible"), (60, "eligible"), (61, "blocked")]
)
def test_window_is_inclusive(days, expected):
    assert status(case(days=days, tier="gold"), "loyalty_goodwill") == expected


@pytest.mark.parametrize(
    ("tier", "expected"), [("standard", "blocked"), ("silver", "eligible"), ("gold", "eligible")]
)
def test_tiers(tier, expected):
    assert status(case(days=45, tier=tier), "loyalty_goodwill") == expected


@pytest.mark.parametrize(("tier", "amount"), [("silver", 100.0), ("gold", 150.0)])
def test_amount_by_tier(tier, amount):
    decision = case(days=45, tier=tier, verified=False, price=200.0)
    assert best(decision) == "store_credit"
    assert decision.optimal.amount == amount


def test_amount_rounds_to_cents():
    assert case(days=55, tier="gold", verified=False, price=1299.99).optimal.amount == 974.99


def test_standard_tier_reason_names_the_tier():
    [failed] = case(days=45, tier="standard").policies["loyalty_goodwill"].failed()
    assert "standard" in failed.reason


def test_unknown_tier_asks_check_loyalty():
    [unknown] = case(days=45).policies["loyalty_goodwill"].unknown()
    assert unknown.needs_tool == "check_loyalty"
