"""An analyst's edit of a copy of rules/ drives the cases with no code: a window moved from 30
to 45 days moves the boundary days to 44/45/46 and the tasks keep their character; a new
field (order.competitor_price) with a policy testing it is drawn, reported by lookup_order
and decided on in the truth."""

from __future__ import annotations

import shutil
import statistics
from collections import Counter
from pathlib import Path

import pytest
from openenv.core.env_server.mcp_types import ListToolsAction

from novamart.agents import AGENTS
from novamart.agents.runner import run_episode
from novamart.kernel import PolicyKernel
from novamart.kernel.rulebook import DEFAULT_RULES_DIR
from novamart.scenarios import build_scenario
from novamart.server.environment import NovamartEnvironment
from tests.episode.conftest import act

FIELD = """      competitor_price:
        type: money
        range: [0, 1000000]
        describe: the lowest price a competitor advertises for the item
        draw: {relative_to: order.price, factor: [0.6, 1.1]}
"""
POLICY = """policy: price_match
clause: Within 14 days, an item sold for less than 400 dollars elsewhere earns 25 dollars of credit.
conditions:
  - name: within_price_match_window
    test: order.days_since_purchase <= 14
    reason: purchased {order.days_since_purchase} days ago; price matching lasts {limit} days
  - name: competitor_cheaper
    test: order.competitor_price < 400
    reason: the competitor's price of {order.competitor_price} is not under {limit}
grants:
  - resolution: store_credit
    amount: 25
"""
SEEDS = range(600)


def _copy(tmp: Path, window: bool, field: bool, policy: bool = True) -> Path:
    rules = tmp / f"rules-{window}-{field}-{policy}"
    shutil.copytree(DEFAULT_RULES_DIR, rules, ignore=shutil.ignore_patterns("*.md"))
    if window:
        path = rules / "standard_return.yaml"
        text = path.read_text()
        assert "order.days_since_purchase <= 30" in text
        path.write_text(
            text.replace("order.days_since_purchase <= 30", "order.days_since_purchase <= 45")
        )
    if field:
        path = rules / "facts.yaml"
        text = path.read_text()
        anchor = "      category:\n"
        assert anchor in text
        path.write_text(text.replace(anchor, FIELD + anchor, 1))
    if field and policy:
        (rules / "price_match.yaml").write_text(POLICY)
    return rules


@pytest.fixture(scope="module")
def edited(tmp_path_factory: pytest.TempPathFactory) -> PolicyKernel:
    return PolicyKernel(_copy(tmp_path_factory.mktemp("edit"), window=True, field=True))


def _days(kernel: PolicyKernel, task: str) -> Counter[int]:
    rules = kernel.rulebook
    return Counter(build_scenario(task, s, rules).order.days_since_purchase for s in SEEDS)


def test_the_moved_window_moves_the_boundary_days(edited: PolicyKernel) -> None:
    easy = _days(edited, "easy_refund")
    assert max(easy) == 45 and easy[44] and easy[45]
    for task in ("defect_resolution", "loyalty_negotiation"):
        days = _days(edited, task)
        assert min(days) == 46 and days[46], task
    everything = _days(edited, "open_case")
    assert everything[44] and everything[45] and everything[46]
    assert not easy[30] or easy[30] < easy[45]  # 30 is no boundary any more


def test_the_tasks_keep_their_character(edited: PolicyKernel) -> None:
    rules = edited.snapshot()
    for seed in SEEDS[:200]:
        truth = rules.decide(build_scenario("easy_refund", seed, rules.rulebook).facts())
        assert truth.policies["standard_return"].status == "eligible"
        assert truth.optimal is not None and truth.optimal.resolution == "full_refund"
        hard = rules.decide(build_scenario("loyalty_negotiation", seed, rules.rulebook).facts())
        assert hard.policies["loyalty_goodwill"].status in ("eligible", "blocked")
        assert hard.policies["standard_return"].status == "blocked"


def test_the_new_field_is_drawn_reported_and_decided(edited: PolicyKernel) -> None:
    rules = edited.snapshot()
    cases = [build_scenario("open_case", s, rules.rulebook) for s in SEEDS]
    prices = [s.record("order")["competitor_price"] for s in cases]
    assert all(isinstance(p, float) for p in prices) and 399.99 in prices and 400.0 in prices
    decided = [
        s
        for s in cases
        if (best := rules.decide(s.facts()).optimal) is not None and best.policy == "price_match"
    ]
    assert decided, "the new policy decides some cases"
    env = NovamartEnvironment(edited)
    scenario = decided[0]
    observation = env.reset(task="open_case", seed=scenario.seed)
    result = act(env, "lookup_order", order_id=observation.order_id).last_tool_result or {}
    if result.get("error", {}).get("code") == "service_unavailable":
        result = act(env, "lookup_order", order_id=observation.order_id).last_tool_result or {}
    assert result["competitor_price"] == scenario.record("order")["competitor_price"]
    scores = [
        run_episode(env, AGENTS["oracle"](0), "open_case", s.seed).final_score for s in decided
    ]
    assert statistics.mean(scores) == 1.0


def test_adding_a_field_leaves_the_other_draws_of_a_seed_alone(tmp_path: Path) -> None:
    """Each field is drawn from its own generator: a new field (before a policy tests it and
    adds its own boundaries) changes nothing else of a seed's case."""
    plain = PolicyKernel(_copy(tmp_path, window=False, field=False)).rulebook
    more = PolicyKernel(_copy(tmp_path, window=False, field=True, policy=False)).rulebook
    for seed in range(50):
        before = build_scenario("open_case", seed, plain).records
        after = build_scenario("open_case", seed, more).records
        after["order"].pop("competitor_price")
        assert before == after


def test_check_policy_lists_the_policies_of_the_rules_being_played(edited: PolicyKernel) -> None:
    """A client learns the policy names from the tool's schema: a new policy is listed (and
    answered) with no code, and every name listed is one check_policy knows."""
    env = NovamartEnvironment(edited)
    observation = env.reset(task="open_case", seed=1)
    listed = {tool.name: tool for tool in env.step(ListToolsAction()).tools}
    names = listed["check_policy"].input_schema["properties"]["policy"]["enum"]
    assert names == list(edited.rulebook.policies) and "price_match" in names
    for name in names:
        answer = act(env, "check_policy", policy=name, order_id=observation.order_id)
        result = answer.last_tool_result or {}
        assert result.get("policy") == name or result["error"]["code"] == "service_unavailable"
    plain = NovamartEnvironment()
    plain.reset(task="open_case", seed=1)
    tools = plain.step(ListToolsAction()).tools
    default = next(t for t in tools if t.name == "check_policy").input_schema
    assert "price_match" not in default["properties"]["policy"]["enum"]
