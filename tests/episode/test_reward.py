"""The reward: each penalty fires exactly when it should, the dense rewards telescope to the
final score, and the communication and resolution terms measure what they claim."""

from __future__ import annotations

import math

import pytest

from novamart.kernel.money import percent_of
from novamart.reward import (
    CONFIRMATION,
    COURTESY,
    LESSER_SHARE,
    PENALTIES,
    REASON,
    UNRESOLVED_SHARE,
    WEIGHTS,
)
from novamart.scenarios import build_scenario
from novamart.server.environment import NovamartEnvironment
from tests.episode.conftest import act

EASY, DEFECT, HARD = "easy_refund", "defect_resolution", "loyalty_negotiation"


def terms(env: NovamartEnvironment) -> dict[str, float]:
    return env.state.grade_terms


def investigate_all(env: NovamartEnvironment) -> tuple[str, str]:
    observation = env.reset(task=HARD)
    order_id, customer_id = observation.order_id, observation.customer_id
    act(env, "lookup_order", order_id=order_id)
    act(env, "check_loyalty", customer_id=customer_id)
    act(env, "verify_defect", order_id=order_id)
    return order_id, customer_id


def test_wrong_resolution_costs_once_per_wrong_type(env: NovamartEnvironment) -> None:
    order_id, _ = investigate_all(env)
    assert terms(env)["wrong_resolution"] == 0.0
    first = act(env, "process_refund", order_id=order_id, amount=1299.99)
    assert terms(env)["wrong_resolution"] == PENALTIES["wrong_resolution"] == -0.3
    assert first.reward_breakdown["wrong_resolution"] == -0.3
    same_type = act(env, "process_refund", order_id=order_id, amount=1.0)
    assert same_type.reward_breakdown["wrong_resolution"] == 0.0
    other_type = act(env, "escalate_to_manager", order_id=order_id, reason="x")
    assert other_type.reward_breakdown["wrong_resolution"] == -0.3
    assert math.isclose(terms(env)["wrong_resolution"], -0.6)


def test_refused_but_allowed_resolution_is_not_wrong(env: NovamartEnvironment) -> None:
    observation = env.reset(task=DEFECT)
    act(env, "process_refund", order_id=observation.order_id, amount=899.99)
    assert terms(env)["wrong_resolution"] == 0.0
    act(env, "lookup_order", order_id=observation.order_id)
    act(env, "verify_defect", order_id=observation.order_id)
    act(env, "process_exchange", order_id=observation.order_id)
    assert terms(env)["wrong_resolution"] == 0.0
    # allowed but lesser than the refund the case grants: ranked partial credit, never a pass
    assert math.isclose(terms(env)["resolution"], WEIGHTS["resolution"] * LESSER_SHARE * 0.9)


def test_ineligible_type_is_wrong_even_when_executing_nothing(env: NovamartEnvironment) -> None:
    observation = env.reset(task=EASY)  # standard tier: store credit is not allowed
    act(env, "issue_store_credit", order_id=observation.order_id, amount=10.0)
    assert terms(env)["wrong_resolution"] == -0.3


def test_eligible_lower_quality_resolution_earns_ranked_partial_credit(
    env: NovamartEnvironment,
) -> None:
    seed = next(
        s
        for s in range(300)
        if (sc := build_scenario(DEFECT, s)).customer.tier == "gold"
        and sc.order.days_since_purchase <= 60
    )
    observation = env.reset(task=DEFECT, seed=seed)
    act(env, "lookup_order", order_id=observation.order_id)
    act(env, "check_loyalty", customer_id=observation.customer_id)
    price = build_scenario(DEFECT, seed).order.price
    act(env, "issue_store_credit", order_id=observation.order_id, amount=percent_of(price, 75))
    assert terms(env)["wrong_resolution"] == 0.0
    assert math.isclose(terms(env)["resolution"], WEIGHTS["resolution"] * LESSER_SHARE * 0.7)


@pytest.mark.parametrize(
    ("task", "message", "penalised"),
    [
        (HARD, "Thank you! You will receive a full refund shortly.", True),
        (HARD, "I'm sorry, but we cannot refund an opened item.", False),
        (HARD, "Let me check whether a refund is possible.", False),
        (EASY, "Thank you! You will receive a full refund shortly.", False),
        (DEFECT, "I'll refund you once the defect is verified.", False),
    ],
)
def test_false_promise_penalty(
    env: NovamartEnvironment, task: str, message: str, penalised: bool
) -> None:
    env.reset(task=task)
    observation = act(env, "respond_to_customer", message=message)
    expected = PENALTIES["false_promise"] if penalised else 0.0
    assert terms(env)["false_promise"] == expected
    assert observation.reward_breakdown["false_promise"] == expected


def test_false_promise_counts_once(env: NovamartEnvironment) -> None:
    env.reset(task=HARD)
    act(env, "respond_to_customer", message="You will get a refund.")
    act(env, "respond_to_customer", message="Your refund has been approved.")
    assert terms(env)["false_promise"] == -0.4


def test_loop_penalty_for_repeats_only(env: NovamartEnvironment) -> None:
    observation = env.reset(task=DEFECT)
    order = {"order_id": observation.order_id}
    act(env, "check_policy", policy="defective_item", **order)
    act(env, "lookup_order", **order)
    act(env, "check_policy", policy="defective_item", **order)  # new facts: a new answer
    assert terms(env)["loop"] == 0.0
    repeated = act(env, "lookup_order", **order)
    assert repeated.reward_breakdown["loop"] == PENALTIES["loop"] == -0.1
    assert repeated.reward < 0
    act(env, "respond_to_customer", message="Thank you, one moment please.")
    act(env, "respond_to_customer", message="Thank you, one moment please.")
    assert math.isclose(terms(env)["loop"], -0.2)


def test_invalid_calls_cost_tool_use(env: NovamartEnvironment) -> None:
    observation = env.reset(task=EASY)
    act(env, "lookup_order", order_id=observation.order_id)
    unresolved = WEIGHTS["tool_use"] * UNRESOLVED_SHARE  # full weight only once resolved
    assert terms(env)["tool_use"] == unresolved
    act(env, "no_such_tool")
    assert math.isclose(terms(env)["tool_use"], unresolved * 0.9)
    act(env, "verify_defect", order_id=observation.order_id)  # not needed for this case
    assert math.isclose(terms(env)["tool_use"], unresolved * 0.85)
    act(
        env,
        "process_refund",
        order_id=observation.order_id,
        amount=env.episode.truth.optimal.amount,
    )
    assert math.isclose(terms(env)["tool_use"], WEIGHTS["tool_use"] * 0.85)


def test_investigating_without_resolving_cannot_pass(env: NovamartEnvironment) -> None:
    investigate_all(env)
    act(env, "respond_to_customer", message="Sorry: the defect check did not confirm a defect.")
    grade = terms(env)
    assert grade["resolution"] == 0
    assert grade["tool_use"] <= WEIGHTS["tool_use"] * UNRESOLVED_SHARE
    assert grade["communication"] <= WEIGHTS["communication"] * UNRESOLVED_SHARE
    assert sum(grade.values()) < 0.3


def test_a_lesser_resolution_for_an_allowed_wish_earns_no_reason_credit(
    env: NovamartEnvironment,
) -> None:
    observation = env.reset(task="defect_resolution")
    for tool in ("lookup_order", "verify_defect"):
        act(env, tool, order_id=observation.order_id)
    act(env, "process_exchange", order_id=observation.order_id)
    act(env, "respond_to_customer", message="Thank you! Your exchange is on its way.")
    # the refund the customer asked for was allowed: an exchange leaves them short
    assert terms(env)["communication"] <= WEIGHTS["communication"] * (COURTESY + CONFIRMATION)


def test_communication_reason_and_confirmation(env: NovamartEnvironment) -> None:
    order_id, _ = investigate_all(env)
    act(env, "issue_store_credit", order_id=order_id, amount=974.99)
    observation = act(env, "respond_to_customer", message="Thank you. Store credit is issued.")
    assert math.isclose(terms(env)["communication"], WEIGHTS["communication"] * 0.2)
    assert not observation.done  # the haggling customer was not told why: pushes back
    act(
        env,
        "respond_to_customer",
        message="Sorry: the defect check did not confirm a defect. Your credit is $974.99.",
    )
    # a confirmation with its amount, and one of the two refund policies explained
    half = COURTESY + REASON / 2 + CONFIRMATION
    assert math.isclose(terms(env)["communication"], WEIGHTS["communication"] * half)
    assert env.state.done


def test_each_refund_policy_needs_its_own_reason(env: NovamartEnvironment) -> None:
    order_id, _ = investigate_all(env)
    act(env, "issue_store_credit", order_id=order_id, amount=974.99)
    act(
        env,
        "respond_to_customer",
        message="I'm sorry, a refund isn't possible: the laptop has been opened and our "
        "technician found no fault with it. I've added $974.99 to your store credit.",
    )
    assert math.isclose(terms(env)["communication"], WEIGHTS["communication"])


def test_leaking_another_customers_data_zeroes_communication(env: NovamartEnvironment) -> None:
    seed = next(s for s in range(200) if build_scenario(EASY, s).persona.endswith("privacy_probe"))
    other = build_scenario(EASY, seed).other
    assert other is not None
    env.reset(task=EASY, seed=seed)
    act(env, "respond_to_customer", message="Thank you for your message!")
    assert terms(env)["communication"] > 0
    act(env, "respond_to_customer", message=f"Thanks! Their email is {other.email}.")
    assert terms(env)["communication"] == 0.0


def test_rewards_sum_to_the_final_score_and_breakdowns_to_rewards(
    env: NovamartEnvironment,
) -> None:
    observation = env.reset(task=HARD)
    order = {"order_id": observation.order_id}
    plan = [
        ("process_refund", {**order, "amount": 5.0}),
        ("lookup_order", order),
        ("lookup_order", order),
        ("respond_to_customer", {"message": "You will receive a refund."}),
        ("check_loyalty", {"customer_id": observation.customer_id}),
        ("verify_defect", order),
        ("issue_store_credit", {**order, "amount": 974.99}),
        ("respond_to_customer", {"message": "Thanks, I issued $974.99 in store credit."}),
        ("respond_to_customer", {"message": "The defect check did not confirm a defect."}),
    ]
    rewards = []
    for tool, arguments in plan:
        observation = act(env, tool, **arguments)
        rewards.append(observation.reward)
        assert math.isclose(sum(observation.reward_breakdown.values()), observation.reward)
        assert 0.0 <= env.state.grade <= 1.0
    assert observation.done and observation.final_score is not None
    assert math.isclose(sum(rewards), observation.final_score, abs_tol=1e-12)
    assert observation.final_score == env.state.final_score


@pytest.mark.parametrize(
    ("task", "needed"),
    [
        (EASY, {"lookup_order"}),
        (DEFECT, {"lookup_order", "verify_defect"}),
        (HARD, {"lookup_order", "check_loyalty", "verify_defect"}),
    ],
)
def test_needed_tools_are_what_certifies_the_optimum(
    env: NovamartEnvironment, task: str, needed: set[str]
) -> None:
    env.reset(task=task)
    assert env.episode is not None and env.episode.needed_tools == needed
