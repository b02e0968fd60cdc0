"""Several policies at once: the best eligible grant wins, others stay listed."""

import itertools

import pytest

from tests.policies.conftest import UNKNOWN, best, case


def test_standard_and_defect_both_grant_refund():
    decision = case(days=20, opened=False, verified=True, tier="gold")
    eligible = {(g.policy, g.resolution) for g in decision.eligible}
    assert {
        ("standard_return", "full_refund"),
        ("defective_item", "full_refund"),
        ("defective_item", "exchange"),
        ("loyalty_goodwill", "store_credit"),
    } == eligible
    assert best(decision) == "full_refund"


def test_defect_beats_goodwill():
    decision = case(days=55, verified=True, tier="gold")
    assert best(decision) == "full_refund"
    assert decision.optimal.policy == "defective_item"


def test_goodwill_when_defect_not_confirmed():
    decision = case(days=55, verified=False, tier="gold", price=1299.99)
    assert best(decision) == "store_credit"
    assert decision.grant_for("full_refund") is None
    assert "the defect check did not confirm a defect" in decision.blocking_reasons("full_refund")


def test_eligible_is_sorted_best_first():
    decision = case(days=20, opened=False, verified=True, tier="silver")
    qualities = [g.quality for g in decision.eligible]
    assert qualities == sorted(qualities, reverse=True)


DAYS = [0, 29, 30, 31, 59, 60, 61, 89, 90, 91, 365]


@pytest.mark.parametrize(
    ("days", "opened", "tier", "verified"),
    list(
        itertools.product(
            DAYS, [True, False], ["standard", "silver", "gold", UNKNOWN], [True, False, UNKNOWN]
        )
    ),
)
def test_grid_matches_the_written_policy(days, opened, tier, verified):
    """Every combination of the boundary grid, against the policy table in DESIGN.md."""
    decision = case(days=days, opened=opened, tier=tier, verified=verified)
    granted = {g.policy for g in decision.eligible}
    assert ("standard_return" in granted) == (days <= 30 and not opened)
    assert ("defective_item" in granted) == (days <= 90 and verified is True)
    assert ("loyalty_goodwill" in granted) == (days <= 60 and tier in ("silver", "gold"))
    others_open = (days <= 90 and verified is UNKNOWN) or (days <= 60 and tier is UNKNOWN)
    assert ("escalation" in granted) == (not granted - {"escalation"} and not others_open)
