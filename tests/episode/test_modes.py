"""Play modes, policy variants and transient tool faults of the order tasks.

guided is the gated game; closed_book hands over the handbook and lets the write tools carry
out what they are asked, judged afterwards against the kernel's truth; a policy variant moves
the numbers for the handbook, check_policy and the truth alike; medium and hard cases make some
tools fail once, and retrying costs nothing.
"""

from __future__ import annotations

import re
import statistics

import pytest
from openenv.core.env_server.mcp_types import ListToolsAction

from novamart.agents import AGENTS, SCRIPTS
from novamart.agents.runner import run_episode
from novamart.kernel import default_kernel
from novamart.reward import grade
from novamart.scenarios import MODES, build_scenario
from novamart.scenarios.tasks import ORDER_TASKS
from novamart.server.environment import NovamartEnvironment
from tests.episode.conftest import act, error_code

ORDER = sorted(ORDER_TASKS)


def _oracle_scores(env: NovamartEnvironment, task: str, mode: str, variant: bool) -> list[float]:
    return [
        run_episode(
            env, AGENTS["oracle"](0), task, seed, mode=mode,
            policy_variant=None if not variant or seed is None else seed,
        ).final_score
        for seed in [None, *range(40)]
    ]  # fmt: skip


@pytest.mark.parametrize("task", ORDER)
@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("variant", [False, True])
def test_the_oracle_solves_every_task_mode_and_variant(
    env: NovamartEnvironment, task: str, mode: str, variant: bool
) -> None:
    assert min(_oracle_scores(env, task, mode, variant)) == 1.0


def test_closed_book_offers_no_check_policy_and_hands_over_the_handbook(
    env: NovamartEnvironment,
) -> None:
    guided = env.reset(task="open_case", seed=3)
    assert "check_policy" in guided.available_actions and guided.instructions == ""
    closed = env.reset(task="open_case", seed=3, mode="closed_book")
    assert "check_policy" not in closed.available_actions
    assert "check_policy" not in [t.name for t in env.step(ListToolsAction()).tools]
    for policy in default_kernel().rulebook.policies.values():
        assert policy.clause in closed.instructions
    assert "at most 30" in closed.instructions  # the rules' own window, rendered
    refused = act(env, "check_policy", policy="standard_return", order_id=closed.order_id)
    assert error_code(refused) == "unknown_tool"


def _closed_case(env: NovamartEnvironment, seed: int):
    observation = env.reset(task="loyalty_negotiation", seed=seed, mode="closed_book")
    episode = env.episode
    assert episode is not None and not episode.faults
    return observation, episode


def _goodwill_case() -> int:
    """A loyalty case whose best resolution is store credit and whose tools never fail."""
    return next(
        s
        for s in range(200)
        if not (sc := build_scenario("loyalty_negotiation", s)).faults
        and default_kernel().decide(sc.facts()).optimal.resolution == "store_credit"
    )


def test_closed_book_carries_out_what_it_is_asked_and_the_truth_judges_it(
    env: NovamartEnvironment,
) -> None:
    observation, episode = _closed_case(env, _goodwill_case())
    done = act(env, "process_refund", order_id=observation.order_id, amount=1.0)
    assert done.last_tool_result["ok"] and "policy" not in done.last_tool_result
    assert episode.executed is not None and episode.executed.amount == 1.0
    assert grade(episode).terms["resolution"] == 0.0
    assert grade(episode).terms["wrong_resolution"] == -0.3
    other = act(env, "process_refund", order_id="ORD-000001", amount=1.0)
    assert error_code(other) == "already_resolved"


def test_closed_book_credit_of_the_wrong_amount_earns_no_resolution(
    env: NovamartEnvironment,
) -> None:
    seed = _goodwill_case()
    observation, episode = _closed_case(env, seed)
    truth = episode.truth.optimal
    assert truth is not None and truth.amount is not None
    act(env, "issue_store_credit", order_id=observation.order_id, amount=truth.amount + 1)
    assert grade(episode).terms["resolution"] == 0.0
    observation, episode = _closed_case(env, seed)
    act(env, "issue_store_credit", order_id=observation.order_id, amount=truth.amount)
    assert grade(episode).terms["resolution"] > 0.5


def test_closed_book_checks_only_the_arguments_and_the_order(env: NovamartEnvironment) -> None:
    observation = env.reset(task="easy_refund", mode="closed_book")
    assert error_code(act(env, "process_refund", order_id="ORD-1", amount=5.0)) == "wrong_order"
    bad = act(env, "process_refund", order_id=observation.order_id, amount=-5)
    assert error_code(bad) == "invalid_arguments"
    assert env.episode is not None and env.episode.executed is None


@pytest.mark.parametrize(
    ("arguments", "message"),
    [
        ({"task": "easy_refund", "mode": "open_book"}, "mode must be one of guided, closed_book"),
        ({"task": "ticket_triage", "mode": "closed_book"}, "is for order cases"),
        ({"task": "easy_refund", "policy_variant": -1}, "policy_variant must be an integer"),
        ({"task": "easy_refund", "policy_variant": "3"}, "policy_variant must be an integer"),
        ({"task": "kb_grounded_response", "policy_variant": 2}, "policy_variant is for order"),
    ],
)
def test_bad_modes_and_variants_are_clear_errors(
    env: NovamartEnvironment, arguments: dict, message: str
) -> None:
    with pytest.raises(ValueError, match=message):
        env.reset(**arguments)


def _window(text: str) -> int:
    match = re.search(r"Standard return policy.*?days since purchase is at most (\d+)", text, re.S)
    assert match
    return int(match[1])


def test_a_policy_variant_moves_the_handbook_check_policy_and_the_truth(
    env: NovamartEnvironment,
) -> None:
    kernel = default_kernel()
    variant = next(n for n in range(50) if _window_of(kernel.variant(n)) != 30)
    window = _window_of(kernel.variant(variant))
    observation = env.reset(task="easy_refund", seed=5, mode="closed_book", policy_variant=variant)
    assert _window(observation.instructions) == window
    episode = env.episode
    assert episode is not None and episode.rules is kernel.variant(variant)
    assert episode.scenario.order.days_since_purchase <= window
    env.reset(task="easy_refund", seed=5, policy_variant=variant)
    act(env, "lookup_order", order_id=env.episode.scenario.order.order_id)
    verdict = act(env, "check_policy", policy="standard_return", order_id=observation.order_id)
    assert verdict.last_tool_result["status"] == "eligible"
    assert str(window) in verdict.last_tool_result["clause"]
    assert env.state.policy_variant == variant and env.state.mode == "guided"


def _window_of(rules) -> int:
    return rules.rulebook.policies["standard_return"].conditions[0].test.value


def test_faults_come_on_medium_and_hard_tasks_only() -> None:
    for task, spec in ORDER_TASKS.items():
        faulty = [s for s in range(200) if build_scenario(task, s).faults]
        if spec.difficulty == "easy":
            assert not faulty, task
        else:
            assert 20 <= len(faulty) <= 120, (task, len(faulty))
        assert not build_scenario(task).faults  # the canonical cases are the seed's


def test_a_fault_is_typed_the_retry_works_and_costs_nothing(env: NovamartEnvironment) -> None:
    seed = next(s for s in range(300) if "lookup_order" in build_scenario("open_case", s).faults)
    observation = env.reset(task="open_case", seed=seed)
    failed = act(env, "lookup_order", order_id=observation.order_id)
    error = failed.last_tool_result["error"]
    assert error["code"] == "service_unavailable" and error["retryable"] is True
    assert failed.reward == 0.0
    retried = act(env, "lookup_order", order_id=observation.order_id)
    assert retried.last_tool_result["ok"] and retried.days_since_purchase is not None
    episode = env.episode
    assert episode is not None
    assert [c.fault for c in episode.calls] == [True, False]
    assert not any(c.repeat for c in episode.calls)
    again = act(env, "lookup_order", order_id=observation.order_id)
    assert env.episode.calls[-1].repeat and again.reward < 0  # a real repeat still is a loop


@pytest.mark.parametrize("mode", MODES)
def test_scripts_that_pick_the_resolution_from_the_task_name_fail_on_open_case(
    env: NovamartEnvironment, mode: str
) -> None:
    for name in SCRIPTS:
        scores = [
            run_episode(env, AGENTS[name](s), "open_case", s, mode=mode).final_score
            for s in range(300)
        ]
        if name.startswith("always_"):
            assert statistics.mean(scores) <= 0.5, (name, mode)
        else:  # the fact reader applies the handbook but misses what the message says
            assert 0.5 < statistics.mean(scores) < 0.95, (name, mode)
