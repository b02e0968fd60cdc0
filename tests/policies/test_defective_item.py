"""defective_item: verified defect within 90 days (inclusive) -> refund (1.0) or exchange (0.9)."""

import pytest

from tests.policies.conftest import UNKNOWN, best, case, status


@pytest.mark.parametrize(
    ("days", "expected"), [(89, "eligible"), (90, "eligible"), (91, "blocked")]
)
def test_window_is_inclusive(days, expected):
    assert status(case(days=days, verified=True), "defective_item") == expected


@pytest.mark.parametrize(
    ("verified", "expected"), [(True, "eligible"), (False, "blocked"), (None, "undetermined")]
)
def test_verification_states(verified, expected):
    decision = case(days=40, verified=UNKNOWN if verified is None else verified)
    assert status(decision, "defective_item") == expected


def test_unverified_defect_names_the_tool():
    verdict = case(days=40).policies["defective_item"]
    [unknown] = verdict.unknown()
    assert unknown.name == "defect_verified"
    assert unknown.needs_tool == "verify_defect"


def test_refund_ranks_above_exchange():
    decision = case(days=40, verified=True, price=899.99)
    assert [(g.resolution, g.quality) for g in decision.eligible][:2] == [
        ("full_refund", 1.0),
        ("exchange", 0.9),
    ]
    assert best(decision) == "full_refund"
    assert decision.optimal.amount == 899.99


def test_refused_defect_gives_reason():
    [failed] = case(days=40, verified=False).policies["defective_item"].failed()
    assert failed.reason == "the defect check did not confirm a defect"
