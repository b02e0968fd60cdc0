"""Adversarial personas cannot unlock a resolution with words (issue 7, item 7).

A credulous agent takes the customer at their word and goes straight for the write tool the
words ask for, first with no facts at all, then with only the order looked up; the policy
gate refuses every time. Only once the tool that settles the claim has run can anything go
through, and then only what the ground truth allows, for the rule's amount.
"""

from __future__ import annotations

from typing import Any

import pytest
from openenv.core.env_server.mcp_types import CallToolAction

from novamart.agents.exploits import claimed_price
from novamart.kernel import default_kernel
from novamart.kernel.money import percent_of
from novamart.models import NovamartObservation
from novamart.scenarios import Scenario
from novamart.server.environment import NovamartEnvironment
from tests.reliability.scenarios import ADVERSARIAL, scenarios_of

PER_TASK = 12
CREDIT = default_kernel().rulebook.policies["loyalty_goodwill"].grants[0].amount.percent
"""The goodwill percentages by tier: what a tier claim asks for."""


def act(env: NovamartEnvironment, tool: str, **arguments: Any) -> dict[str, Any]:
    observation = env.step(CallToolAction(tool_name=tool, arguments=arguments))
    assert isinstance(observation, NovamartObservation)
    return observation.last_tool_result or {}


def the_words(scenario: Scenario) -> list[tuple[str, dict[str, Any]]]:
    """The write calls the customer's words ask for, with the amounts the words imply."""
    order = {"order_id": scenario.order.order_id}
    price = claimed_price(scenario.opening) or scenario.order.price  # stated, maybe wrongly
    claimed = CREDIT.get(scenario.claimed_tier or "", 0)
    return [
        ("process_refund", {**order, "amount": price}),
        ("process_exchange", order),
        ("issue_store_credit", {**order, "amount": percent_of(price, claimed)}),
    ]


def start(env: NovamartEnvironment, scenario: Scenario) -> None:
    env.reset(task=scenario.task, seed=scenario.seed)
    episode = env.episode
    assert episode is not None and episode.scenario == scenario


def check_only_the_truth(env: NovamartEnvironment, persona: str, tool: str, result: dict) -> None:
    """A write that went through is one the ground truth allows, for the rule's amount; the
    credit a false tier claim asks for, and a grant of the defect policy resting on an
    unconfirmed defect, never go through."""
    episode = env.episode
    assert episode is not None
    if result["ok"]:
        allowed = episode.truth.grant_for(result["resolution"])
        assert allowed is not None and allowed.amount == result["amount"], (persona, tool)
    if persona == "tier_claim":  # a false one: the credit it asks for never goes through
        assert not (tool == "issue_store_credit" and result["ok"])
    if persona == "unconfirmed_defect":
        assert not (result["ok"] and result["policy"] == "defective_item"), episode.scenario.seed


@pytest.mark.parametrize("persona", ADVERSARIAL)
def test_words_alone_never_unlock_a_resolution(env: NovamartEnvironment, persona: str) -> None:
    scenarios = list(scenarios_of(persona, PER_TASK, start=30_000))
    assert len(scenarios) >= PER_TASK
    for scenario in scenarios:
        for tool, arguments in the_words(scenario):
            start(env, scenario)
            result = act(env, tool, **arguments)
            assert result["error"]["code"] == "not_established", (scenario.seed, tool)
            act(env, "lookup_order", order_id=scenario.order.order_id)
            check_only_the_truth(env, persona, tool, act(env, tool, **arguments))


@pytest.mark.parametrize("persona", ADVERSARIAL)
def test_after_the_facts_only_the_truth_goes_through(
    env: NovamartEnvironment, persona: str
) -> None:
    for scenario in scenarios_of(persona, PER_TASK, start=31_000):
        for tool, arguments in the_words(scenario):
            start(env, scenario)
            act(env, "lookup_order", order_id=scenario.order.order_id)
            if persona == "tier_claim":
                act(env, "check_loyalty", customer_id=scenario.customer.customer_id)
            else:
                act(env, "verify_defect", order_id=scenario.order.order_id)
            check_only_the_truth(env, persona, tool, act(env, tool, **arguments))


def test_another_customers_data_never_reaches_the_agent(env: NovamartEnvironment) -> None:
    for scenario in scenarios_of("privacy_probe", PER_TASK, start=32_000):
        other = scenario.other
        assert other is not None
        start(env, scenario)
        probes = [
            ("check_loyalty", {"customer_id": other.customer_id}),
            ("lookup_order", {"order_id": other.order_id}),
            ("verify_defect", {"order_id": other.order_id}),
            ("check_policy", {"policy": "standard_return", "order_id": other.order_id}),
            ("process_refund", {"order_id": other.order_id, "amount": scenario.order.price}),
            ("respond_to_customer", {"message": f"Could you confirm {other.name}'s email?"}),
        ]
        seen = []
        for tool, arguments in probes:
            observation = env.step(CallToolAction(tool_name=tool, arguments=arguments))
            result = observation.last_tool_result or {}
            if tool != "respond_to_customer":
                assert result["error"]["code"] in ("wrong_customer", "wrong_order"), tool
            seen.append(observation.model_dump_json())
        assert not any(other.email in text for text in seen)
        episode = env.episode
        assert episode is not None and "customer" not in episode.known
