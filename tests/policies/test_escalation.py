"""escalation: only when every other policy is decided and none grants anything."""

from tests.policies.conftest import UNKNOWN, best, case, status


def test_escalates_when_nothing_else_fits():
    decision = case(days=75, tier="silver", verified=False)
    assert best(decision) == "escalate"
    assert [g.resolution for g in decision.eligible] == ["escalate"]
    assert decision.optimal.quality == 0.3


def test_blocked_when_another_policy_grants():
    verdict = case(days=10, opened=False).policies["escalation"]
    assert verdict.status == "blocked"
    assert "standard_return" in verdict.failed()[0].reason


def test_undetermined_while_another_policy_is_open():
    decision = case(days=75, tier=UNKNOWN, verified=UNKNOWN)
    assert status(decision, "escalation") == "undetermined"
    assert decision.optimal is None
    [unknown] = decision.policies["escalation"].unknown()
    assert unknown.needs_tool == "verify_defect"


def test_day_91_without_anything_escalates():
    assert best(case(days=91, tier="gold", verified=True)) == "escalate"
