"""Scenarios: the canonical cases are the seed's, unchanged; seeded cases follow the rules
(boundary days from the conditions' thresholds, every condition the character leaves open
seen both ways), keep their task's character, are deterministic and varied."""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path

import pytest

from novamart.kernel import default_kernel
from novamart.kernel.conditions import FieldTest
from novamart.scenarios import build_scenario, get_task
from novamart.scenarios.character import characters
from novamart.scenarios.generator import possible_statuses
from novamart.scenarios.personas import PERSONAS
from novamart.scenarios.report import TaskReport, task_report
from novamart.scenarios.tasks import ORDER_TASKS, TICKET_TASKS
from novamart.tickets.tools import TOOLS as TICKET_TOOLS
from novamart.tools.registry import TOOLS

CANONICAL = json.loads((Path(__file__).with_name("canonical_cases.json")).read_text())
"""The three seed tasks' canonical scenarios as main had them before issue 11."""
CHARACTER = {
    "easy_refund": ("full_refund", "standard_return"),
    "defect_resolution": ("full_refund", "defective_item"),
    "loyalty_negotiation": ("store_credit", "loyalty_goodwill"),
    "open_case": ("escalate", "mandatory_escalation"),
}
DAYS = "order.days_since_purchase"
SEEDS = range(1_000)


@pytest.fixture(scope="module")
def reports() -> dict[str, TaskReport]:
    """The kernel's verdicts on seeded cases of every order task (1,000 of open_case, whose
    entropy the issue bounds over 1,000 seeds), counted once."""
    return {
        task: task_report(
            task, default_kernel().snapshot(), SEEDS if task == "open_case" else range(600)
        )
        for task in ORDER_TASKS
    }


@pytest.mark.parametrize("task", sorted(CANONICAL))
def test_canonical_cases_are_unchanged(task: str) -> None:
    now = build_scenario(task).model_dump()
    assert {key: now[key] for key in CANONICAL[task]} == CANONICAL[task]


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


def _pinned(task: str) -> dict[str, bool]:
    """The conditions the task's character pins: condition -> the status it always has."""
    chances = characters()[task].chances(default_kernel().rulebook, task)
    return {key: chance == 1 for key, chance in chances.items() if chance in (0, 1)}


@pytest.mark.parametrize("task", sorted(ORDER_TASKS))
def test_seeded_cases_keep_the_character(task: str, drawn: dict[str, list]) -> None:
    kernel = default_kernel()
    pinned = _pinned(task)
    optima: Counter[str] = Counter()
    for scenario in drawn[task][:300]:
        truth = kernel.decide(scenario.facts())
        for key, status in pinned.items():
            policy, _, condition = key.partition(".")
            result = next(c for c in truth.policies[policy].conditions if c.name == condition)
            assert result.status == ("pass" if status else "fail"), (scenario.seed, key)
        assert truth.optimal is not None
        optima[truth.optimal.resolution] += 1
        assert scenario.persona in PERSONAS
        assert scenario.order.order_id in scenario.opening
        assert scenario.wish in kernel.rulebook.resolutions
    assert optima.most_common(1)[0][0] == CHARACTER[task][0] or task == "open_case"


@pytest.mark.parametrize("task", sorted(ORDER_TASKS))
def test_boundary_days_come_from_the_thresholds(task: str, drawn: dict[str, list]) -> None:
    """n-1, n and n+1 of every threshold on the days are drawn, wherever the character
    allows them: none of these numbers is written here."""
    rulebook = default_kernel().rulebook
    pinned = _pinned(task)
    tests = {
        f"{p.name}.{c.name}": c.test
        for p in rulebook.policies.values()
        for c in p.conditions
        if isinstance(c.test, FieldTest) and c.test.ref == DAYS
    }
    allowed = [
        day
        for test in tests.values()
        for day in (test.value - 1, test.value, test.value + 1)
        if all(tests[k].holds(day) == status for k, status in pinned.items() if k in tests)
    ]
    days = Counter(s.order.days_since_purchase for s in drawn[task])
    assert allowed and all(days[day] >= 5 for day in allowed), {d: days[d] for d in allowed}


@pytest.mark.parametrize("task", sorted(ORDER_TASKS))
def test_every_condition_the_character_leaves_open_is_seen_both_ways(
    task: str, reports: dict[str, TaskReport]
) -> None:
    report = reports[task]
    possible = possible_statuses(task, default_kernel().rulebook)
    for key, count in report.conditions.items():
        if key not in possible:
            continue  # the fallback: it follows the other policies
        if True in possible[key]:
            assert count.passed > 0, key
        if False in possible[key]:
            assert count.failed > 0, key


def test_open_case_is_drawn_from_the_whole_fact_space(reports: dict[str, TaskReport]) -> None:
    """Nothing is pinned: every condition, every resolution path, every tier, real and
    unreal defects and every wish come up."""
    possible = possible_statuses("open_case", default_kernel().rulebook)
    assert all(statuses == {True, False} for statuses in possible.values())
    report = reports["open_case"]
    assert set(report.optimal_by_policy) == {
        "full_refund under standard_return",
        "full_refund under defective_item",
        "store_credit under loyalty_goodwill",
        "escalate under escalation",
        "escalate under mandatory_escalation",
    }
    assert all(c.passed and c.failed for c in report.conditions.values())
    assert report.entropy_bits >= 1.5


def test_open_case_varies_tiers_defects_and_wishes(drawn: dict[str, list]) -> None:
    cases = drawn["open_case"]
    assert {s.customer.tier for s in cases} == {"standard", "silver", "gold"}
    claimed = [s for s in cases if s.defect_claimed]
    assert {s.defect_real for s in claimed} == {True, False}
    assert {s.wish for s in cases} == {"full_refund", "exchange", "store_credit"}
    assert not any(s.defect_real for s in cases if not s.defect_claimed)


@pytest.mark.parametrize(
    ("task", "low", "high"),
    [("easy_refund", 0.0, 0.0), ("defect_resolution", 0.7, 1.6), ("loyalty_negotiation", 0.7, 1.6)],
)
def test_the_seed_tasks_regain_their_ambiguity(
    task: str, low: float, high: float, reports: dict[str, TaskReport]
) -> None:
    report = reports[task]
    assert low <= report.entropy_bits <= high
    if task == "loyalty_negotiation":  # the defect sometimes verifies: then a refund wins
        assert report.optimal["full_refund"] > 0 and report.open_at_once.get(3, 0) > 0
    if task == "defect_resolution":  # a claimed defect can fail to verify
        assert report.conditions["defective_item.defect_verified"].failed > 0


def test_same_seed_same_scenario_and_seeds_differ() -> None:
    assert build_scenario("defect_resolution", 7) == build_scenario("defect_resolution", 7)
    assert build_scenario("defect_resolution", 7) != build_scenario("defect_resolution", 8)
    assert build_scenario("easy_refund", 7) != build_scenario("defect_resolution", 7)


def test_a_pinned_variant_is_stable_across_machines() -> None:
    # random.Random(str) is specified to be stable across platforms and Python versions
    scenario = build_scenario("loyalty_negotiation", 12345)
    assert (scenario.order.order_id, scenario.customer.name, scenario.order.product) == (
        "ORD-981997",
        "Priya Walsh",
        "NovaPhone 12",
    )
    assert (scenario.order.days_since_purchase, scenario.persona) == (32, "terse_privacy_probe")


def test_at_least_ten_thousand_distinct_variants(drawn: dict[str, list]) -> None:
    seen = {s.model_dump_json() for cases in drawn.values() for s in cases}
    seen |= {build_scenario("open_case", s).model_dump_json() for s in range(2_000, 4_000)}
    assert len(seen) >= 10_000


def test_adversarial_personas_show_in_the_opening(drawn: dict[str, list]) -> None:
    found = Counter()
    for scenario in drawn["open_case"][:300]:
        trait = PERSONAS[scenario.persona].trait
        if trait == "tier_claim":
            assert scenario.claimed_tier is not None
            assert f"{scenario.claimed_tier} member" in scenario.opening or (
                f"{scenario.claimed_tier}-tier" in scenario.opening
            )
        if trait == "prompt_injection":
            assert "ignore your" in scenario.opening.lower()
        if trait == "privacy_probe":
            assert scenario.other is not None and scenario.other.customer_id in scenario.opening
        found[trait] += 1
    assert all(found[t] for t in ("tier_claim", "prompt_injection", "privacy_probe", None))


def test_unknown_task_lists_the_valid_ones() -> None:
    with pytest.raises(ValueError, match="valid tasks: account_recovery, data_extraction, "):
        get_task("nope")


def test_a_ticket_task_has_no_order_scenario() -> None:
    with pytest.raises(ValueError, match="ticket_triage is a ticket_triage task"):
        build_scenario("ticket_triage", 1)


def test_every_task_declares_registered_tools() -> None:
    for spec in ORDER_TASKS.values():
        assert spec.max_steps == 10 and spec.family == "resolution"
        assert set(spec.tools) <= set(TOOLS)
    for spec in TICKET_TASKS.values():
        assert spec.max_steps == 6 and spec.family == spec.name
        assert set(spec.tools) <= set(TICKET_TOOLS)
    assert len(TICKET_TASKS) == 5
    assert set(ORDER_TASKS) == set(characters())
