"""mandatory_escalation: any sign that demands a manager overrides every other policy."""

import pytest

from tests.policies.conftest import UNKNOWN, best, case, status

SIGNS = ["battery_swelling", "burning_smell", "legal_threat", "account_takeover", "payment_fraud"]


@pytest.mark.parametrize("sign", SIGNS)
def test_each_sign_alone_escalates_over_a_refund(sign):
    decision = case(days=10, opened=False, verified=True, tier="gold", signs=(sign,))
    assert best(decision) == "escalate"
    assert decision.optimal.policy == "mandatory_escalation"
    assert decision.optimal.quality == 1.0
    assert [g.resolution for g in decision.eligible] == ["escalate"]
    assert decision.grant_for("full_refund") is None


def test_displaced_policies_say_why():
    decision = case(days=10, opened=False, signs=("legal_threat",))
    verdict = decision.policies["standard_return"]
    assert verdict.status == "blocked"
    [failed] = verdict.failed()
    assert failed.name == "not_overridden"
    assert "mandatory_escalation" in failed.reason
    assert decision.blocking_reasons("full_refund") == [failed.reason]


def test_several_signs_at_once():
    decision = case(days=10, signs=("battery_swelling", "burning_smell"))
    assert status(decision, "mandatory_escalation") == "eligible"
    passed = [
        c.name for c in decision.policies["mandatory_escalation"].conditions if c.status == "pass"
    ]
    assert passed == ["battery_swelling", "burning_smell"]


def test_calm_ticket_blocks_it_and_lists_every_sign():
    verdict = case(days=10, opened=False).policies["mandatory_escalation"]
    assert verdict.status == "blocked"
    assert [c.name for c in verdict.failed()] == SIGNS


def test_unread_ticket_leaves_it_and_the_fallback_undetermined():
    decision = case(days=75, tier="standard", verified=False, signs=UNKNOWN)
    assert status(decision, "mandatory_escalation") == "undetermined"
    assert status(decision, "escalation") == "undetermined"
    assert decision.optimal is None


def test_the_fallback_is_blocked_when_the_case_must_be_escalated():
    decision = case(days=75, tier="standard", verified=False, signs=("payment_fraud",))
    assert status(decision, "escalation") == "blocked"
    assert best(decision) == "escalate"
