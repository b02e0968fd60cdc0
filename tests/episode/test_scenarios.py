"""Scenarios: canonical cases match the seed, variants are deterministic, varied and keep
their task's character (checked against the real kernel)."""

from __future__ import annotations

import pytest

from novamart.kernel import default_kernel
from novamart.scenarios import build_scenario, get_task
from novamart.scenarios.personas import PERSONAS
from novamart.scenarios.tasks import ORDER_TASKS, TICKET_TASKS
from novamart.tickets.tools import TOOLS as TICKET_TOOLS
from novamart.tools.registry import TOOLS

CHARACTER = {
    "easy_refund": ("full_refund", "standard_return"),
    "defect_resolution": ("full_refund", "defective_item"),
    "loyalty_negotiation": ("store_credit", "loyalty_goodwill"),
}


def test_canonical_scenarios_are_the_seed_cases() -> None:
    easy = build_scenario("easy_refund")
    assert (easy.order.category, easy.order.days_since_purchase, easy.order.opened) == (
        "earbuds",
        20,
        False,
    )
    assert easy.customer.tier == "standard"
    defect = build_scenario("defect_resolution")
    assert (defect.order.category, defect.order.opened, defect.defect_real) == ("phone", True, True)
    assert defect.order.days_since_purchase == 40
    hard = build_scenario("loyalty_negotiation")
    assert (hard.customer.tier, hard.order.category, hard.order.days_since_purchase) == (
        "gold",
        "laptop",
        55,
    )
    assert hard.defect_claimed and not hard.defect_real and hard.pushes_back


@pytest.mark.parametrize("task", sorted(ORDER_TASKS))
def test_canonical_ground_truth(task: str) -> None:
    truth = default_kernel().decide(build_scenario(task).facts())
    assert truth.optimal is not None
    assert (truth.optimal.resolution, truth.optimal.policy) == CHARACTER[task]
    if task == "defect_resolution":
        assert truth.grant_for("exchange") is not None
    if task == "loyalty_negotiation":
        assert truth.grant_for("full_refund") is None
        assert truth.optimal.amount == 974.99


@pytest.mark.parametrize("task", sorted(ORDER_TASKS))
def test_variants_keep_the_character(task: str) -> None:
    kernel = default_kernel()
    days = set()
    for seed in range(150):
        scenario = build_scenario(task, seed)
        truth = kernel.decide(scenario.facts())
        assert truth.optimal is not None
        assert (truth.optimal.resolution, truth.optimal.policy) == CHARACTER[task], seed
        days.add(scenario.order.days_since_purchase)
        assert scenario.persona in PERSONAS
        assert scenario.order.order_id in scenario.opening
    boundaries = {"easy_refund": {29, 30}, "defect_resolution": {89, 90}}
    assert boundaries.get(task, {59, 60}) <= days


def test_same_seed_same_scenario_and_seeds_differ() -> None:
    assert build_scenario("defect_resolution", 7) == build_scenario("defect_resolution", 7)
    assert build_scenario("defect_resolution", 7) != build_scenario("defect_resolution", 8)
    assert build_scenario("easy_refund", 7) != build_scenario("defect_resolution", 7)


def test_a_pinned_variant_is_stable_across_machines() -> None:
    # random.Random(str) is specified to be stable across platforms and Python versions
    scenario = build_scenario("loyalty_negotiation", 12345)
    assert (scenario.order.order_id, scenario.customer.name, scenario.order.product) == (
        "ORD-614452",
        "Daniel Iyer",
        "Pixelon X",
    )
    assert (scenario.order.days_since_purchase, scenario.persona) == (60, "frustrated_false_tier")


def test_at_least_ten_thousand_distinct_variants() -> None:
    seen = {
        build_scenario(task, seed).model_dump_json()
        for task in ORDER_TASKS
        for seed in range(3_600)
    }
    assert len(seen) >= 10_000


def test_adversarial_personas_show_in_the_opening() -> None:
    found = {"false_tier": False, "prompt_injection": False, "privacy_probe": False}
    for seed in range(60):
        scenario = build_scenario("easy_refund", seed)
        trait = PERSONAS[scenario.persona].trait
        if trait == "false_tier":
            assert scenario.claimed_tier == "gold" != scenario.customer.tier
            assert "gold" in scenario.opening.lower()
        if trait == "prompt_injection":
            assert "ignore your" in scenario.opening.lower()
        if trait == "privacy_probe":
            assert scenario.other is not None and scenario.other.customer_id in scenario.opening
        if trait:
            found[trait] = True
    assert all(found.values())


def test_unknown_task_lists_the_valid_ones() -> None:
    with pytest.raises(ValueError, match="valid tasks: account_recovery, data_extraction, "):
        get_task("nope")


def test_every_task_declares_registered_tools() -> None:
    for spec in ORDER_TASKS.values():
        assert spec.max_steps == 10 and spec.family == "resolution"
        assert set(spec.tools) <= set(TOOLS)
    for spec in TICKET_TASKS.values():
        assert spec.max_steps == 6 and spec.family == spec.name
        assert set(spec.tools) <= set(TICKET_TOOLS)
    assert len(TICKET_TASKS) == 5
