"""Each tool's success and error paths, through the real environment and kernel."""

from __future__ import annotations

import pytest
from openenv.core.env_server.mcp_types import ToolErrorType

from novamart.episode import Episode
from novamart.kernel import default_kernel
from novamart.scenarios import TASKS, build_scenario
from novamart.server.environment import NovamartEnvironment
from novamart.tools.registry import TOOLS, call_tool
from tests.episode.conftest import act, error_code

EASY, DEFECT, HARD = "easy_refund", "defect_resolution", "loyalty_negotiation"


def start(env: NovamartEnvironment, task: str, seed: int | None = None) -> tuple[str, str]:
    observation = env.reset(task=task, seed=seed)
    return observation.order_id, observation.customer_id


def test_lookup_order_reveals_the_order_with_provenance(env: NovamartEnvironment) -> None:
    order_id, _ = start(env, EASY)
    observation = act(env, "lookup_order", order_id=order_id)
    result = observation.last_tool_result
    assert result is not None and result["ok"]
    assert (result["days_since_purchase"], result["opened"], result["price"]) == (20, False, 79.99)
    assert observation.days_since_purchase == 20
    assert env.episode is not None
    provenance = env.episode.provenance["order"]
    assert (provenance.tool, provenance.step) == ("lookup_order", 1)


def test_lookup_order_refuses_another_order(env: NovamartEnvironment) -> None:
    start(env, EASY)
    observation = act(env, "lookup_order", order_id="ORD-999999")
    assert error_code(observation) == "wrong_order"
    assert observation.days_since_purchase is None
    assert "ORD-100001" in observation.last_tool_result["error"]["message"]


@pytest.mark.parametrize(
    ("arguments", "fragment"),
    [({}, "order_id: Field required"), ({"order_id": "ORD-1", "x": 1}, "x: Extra inputs")],
)
def test_bad_arguments_are_a_typed_error(
    env: NovamartEnvironment, arguments: dict, fragment: str
) -> None:
    start(env, EASY)
    observation = act(env, "lookup_order", **arguments)
    assert error_code(observation) == "invalid_arguments"
    assert observation.error is not None
    assert observation.error.error_type == ToolErrorType.INVALID_ARGS
    assert fragment in observation.error.message
    assert "lookup_order(order_id (string))" in observation.error.message
    assert not observation.done


def test_unknown_tool_is_a_typed_error(env: NovamartEnvironment) -> None:
    start(env, EASY)
    observation = act(env, "delete_database")
    assert error_code(observation) == "unknown_tool"
    assert observation.error is not None
    assert observation.error.error_type == ToolErrorType.TOOL_NOT_FOUND
    assert "lookup_order" in observation.error.message


def test_verify_defect_reports_the_truth_not_the_claim(env: NovamartEnvironment) -> None:
    order_id, _ = start(env, DEFECT)
    result = act(env, "verify_defect", order_id=order_id).last_tool_result
    assert result["ok"] and result["verified"] is True
    order_id, _ = start(env, HARD)
    result = act(env, "verify_defect", order_id=order_id).last_tool_result
    assert result["ok"] and result["verified"] is False
    assert error_code(act(env, "verify_defect", order_id="ORD-1")) == "wrong_order"


def test_check_loyalty_reveals_the_real_tier(env: NovamartEnvironment) -> None:
    seed = next(
        s
        for s in range(200)
        if (sc := build_scenario(EASY, s)).persona.endswith("tier_claim")
        and sc.claimed_tier != sc.customer.tier
    )
    _, customer_id = start(env, EASY, seed)
    observation = act(env, "check_loyalty", customer_id=customer_id)
    assert observation.customer_tier == build_scenario(EASY, seed).customer.tier
    assert observation.customer_tier != build_scenario(EASY, seed).claimed_tier
    refused = act(env, "check_loyalty", customer_id="CUST-00000")
    assert error_code(refused) == "wrong_customer"
    assert "never shares" in refused.last_tool_result["error"]["message"]


def test_check_policy_answers_on_established_facts(env: NovamartEnvironment) -> None:
    order_id, _ = start(env, DEFECT)
    before = act(env, "check_policy", policy="defective_item", order_id=order_id)
    result = before.last_tool_result
    assert result["status"] == "undetermined"
    assert {u["needs_tool"] for u in result["unknown"]} == {"lookup_order", "verify_defect"}
    act(env, "lookup_order", order_id=order_id)
    blocked = act(env, "check_policy", policy="standard_return", order_id=order_id)
    assert blocked.last_tool_result["status"] == "blocked"
    reasons = [f["reason"] for f in blocked.last_tool_result["failed"]]
    assert "purchased 40 days ago; the standard return window is 30 days" in reasons
    act(env, "verify_defect", order_id=order_id)
    after = act(env, "check_policy", policy="defective_item", order_id=order_id)
    assert after.last_tool_result["status"] == "eligible"
    grants = {g["resolution"]: g["amount"] for g in after.last_tool_result["grants"]}
    assert grants == {"full_refund": 899.99, "exchange": 0.0}


def test_check_policy_errors(env: NovamartEnvironment) -> None:
    order_id, _ = start(env, EASY)
    unknown = act(env, "check_policy", policy="money_back_guarantee", order_id=order_id)
    assert error_code(unknown) == "unknown_policy"
    assert "standard_return" in unknown.last_tool_result["error"]["message"]
    wrong = act(env, "check_policy", policy="standard_return", order_id="ORD-2")
    assert error_code(wrong) == "wrong_order"


def test_refund_on_the_defect_path_waits_for_verification(env: NovamartEnvironment) -> None:
    order_id, _ = start(env, DEFECT)
    act(env, "lookup_order", order_id=order_id)
    early = act(env, "process_refund", order_id=order_id, amount=899.99)
    assert error_code(early) == "not_established"
    assert early.last_tool_result["error"]["missing_tools"] == ["verify_defect"]
    assert "call verify_defect first" in early.last_tool_result["error"]["message"]
    act(env, "verify_defect", order_id=order_id)
    wrong = act(env, "process_refund", order_id=order_id, amount=100.0)
    assert error_code(wrong) == "wrong_amount"
    assert wrong.last_tool_result["error"]["expected_amount"] == 899.99
    done = act(env, "process_refund", order_id=order_id, amount=899.99)
    assert done.last_tool_result == {
        "ok": True,
        "resolution": "full_refund",
        "policy": "defective_item",
        "amount": 899.99,
        "reference": "RF-100002",
    }
    again = act(env, "process_exchange", order_id=order_id)
    assert error_code(again) == "already_resolved"


def test_refund_refused_with_the_kernel_reasons(env: NovamartEnvironment) -> None:
    order_id, _ = start(env, HARD)
    act(env, "lookup_order", order_id=order_id)
    act(env, "verify_defect", order_id=order_id)
    refused = act(env, "process_refund", order_id=order_id, amount=1299.99)
    assert error_code(refused) == "not_allowed"
    assert (
        "the defect check did not confirm a defect" in refused.last_tool_result["error"]["reasons"]
    )
    assert error_code(act(env, "process_refund", order_id="ORD-5", amount=1.0)) == "wrong_order"


def test_store_credit_for_the_rule_amount(env: NovamartEnvironment) -> None:
    order_id, customer_id = start(env, HARD)
    act(env, "lookup_order", order_id=order_id)
    early = act(env, "issue_store_credit", order_id=order_id, amount=974.99)
    assert early.last_tool_result["error"]["missing_tools"] == ["check_loyalty"]
    act(env, "check_loyalty", customer_id=customer_id)
    wrong = act(env, "issue_store_credit", order_id=order_id, amount=1299.99)
    assert wrong.last_tool_result["error"]["expected_amount"] == 974.99
    done = act(env, "issue_store_credit", order_id=order_id, amount=974.99)
    assert done.last_tool_result["resolution"] == "store_credit"


def test_store_credit_refused_to_standard_members(env: NovamartEnvironment) -> None:
    order_id, customer_id = start(env, EASY)
    act(env, "lookup_order", order_id=order_id)
    act(env, "check_loyalty", customer_id=customer_id)
    refused = act(env, "issue_store_credit", order_id=order_id, amount=59.99)
    assert error_code(refused) == "not_allowed"
    assert "tier is standard" in refused.last_tool_result["error"]["message"]


def test_exchange_needs_a_verified_defect(env: NovamartEnvironment) -> None:
    order_id, _ = start(env, EASY)
    act(env, "lookup_order", order_id=order_id)
    assert error_code(act(env, "process_exchange", order_id=order_id)) == "not_established"
    act(env, "verify_defect", order_id=order_id)
    assert error_code(act(env, "process_exchange", order_id=order_id)) == "not_allowed"
    order_id, _ = start(env, DEFECT)
    act(env, "lookup_order", order_id=order_id)
    act(env, "verify_defect", order_id=order_id)
    done = act(env, "process_exchange", order_id=order_id)
    assert done.last_tool_result["resolution"] == "exchange"


def test_escalation_only_when_nothing_else_applies(env: NovamartEnvironment) -> None:
    order_id, _ = start(env, EASY)
    act(env, "lookup_order", order_id=order_id)
    refused = act(env, "escalate_to_manager", order_id=order_id, reason="customer upset")
    assert error_code(refused) == "not_allowed"
    assert "standard_return" in refused.last_tool_result["error"]["message"]
    empty = act(env, "escalate_to_manager", order_id=order_id, reason="")
    assert error_code(empty) == "invalid_arguments"


def test_escalation_succeeds_when_no_policy_covers_the_case() -> None:
    base = build_scenario(DEFECT)
    uncovered = base.with_facts(
        {"order": {"days_since_purchase": 75}, "defect_check": {"verified": False}}
    )
    episode = Episode.start(TASKS[DEFECT], uncovered, default_kernel().snapshot())
    order_id, customer_id = uncovered.order.order_id, uncovered.customer.customer_id
    assert episode.truth.optimal is not None and episode.truth.optimal.resolution == "escalate"
    early = call_tool(episode, "escalate_to_manager", {"order_id": order_id, "reason": "x"})
    assert early["error"]["code"] == "not_established"
    for tool, args in [
        ("lookup_order", {"order_id": order_id}),
        ("verify_defect", {"order_id": order_id}),
        ("check_loyalty", {"customer_id": customer_id}),
    ]:
        assert call_tool(episode, tool, args)["ok"]
    done = call_tool(episode, "escalate_to_manager", {"order_id": order_id, "reason": "none"})
    assert done == {
        "ok": True,
        "resolution": "escalate",
        "policy": "escalation",
        "amount": 0.0,
        "reference": "ES-100002",
    }


def test_respond_to_customer_success_and_errors(env: NovamartEnvironment) -> None:
    start(env, EASY)
    observation = act(env, "respond_to_customer", message="Hello! Thank you for writing.")
    result = observation.last_tool_result
    assert result["ok"] and result["customer_reply"]
    assert observation.conversation_history[-2] == "agent: Hello! Thank you for writing."
    assert observation.conversation_history[-1] == f"customer: {result['customer_reply']}"
    for message in ("", "   ", "x" * 4001):
        assert error_code(act(env, "respond_to_customer", message=message)) == "invalid_arguments"


def test_registry_schemas_are_json_schema_objects() -> None:
    assert list(TOOLS) == list(TASKS[EASY].tools)
    for spec in TOOLS.values():
        assert spec.schema["type"] == "object"
        assert spec.schema["additionalProperties"] is False
        assert spec.description
    assert TOOLS["process_refund"].schema["required"] == ["order_id", "amount"]
