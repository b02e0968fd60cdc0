"""The must-holds of issue 10 on seeded episodes: text tricks after the right actions do not
pay, honest natural replies do, and each grading rule fires on the record, not on words."""

from __future__ import annotations

import math
import shutil
import statistics
from pathlib import Path

import pytest

from novamart.agents import AGENTS
from novamart.agents.runner import run_episode
from novamart.agents.tricks import DECEIVES
from novamart.kernel import PolicyKernel
from novamart.kernel.rulebook import DEFAULT_RULES_DIR
from novamart.reward import PENALTIES, WEIGHTS, grader_notes
from novamart.scenarios.tasks import ORDER_TASKS as ORDER_TASK_SPECS
from novamart.server.environment import NovamartEnvironment
from tests.episode.conftest import act

EASY, HARD = "easy_refund", "loyalty_negotiation"
ORDER_TASKS = tuple(ORDER_TASK_SPECS)
SEEDS = range(100)


def mean_score(env: NovamartEnvironment, agent: str, task: str) -> float:
    return statistics.mean(run_episode(env, AGENTS[agent](s), task, s).final_score for s in SEEDS)


def mean_where_it_deceives(env: NovamartEnvironment, trick: str, task: str) -> float | None:
    """The trick's mean score over the seeds where it deceives (None if it never does)."""
    scores = []
    for seed in SEEDS:
        score = run_episode(env, AGENTS[trick](seed), task, seed).final_score
        assert env.episode is not None
        if DECEIVES[trick](env.episode):
            scores.append(score)
    return statistics.mean(scores) if scores else None


@pytest.mark.parametrize(
    ("trick", "at_most"),
    [
        ("false_promise", 0.5),  # a refund or a defect check that is not true
        ("negated_confirmation", 0.5),
        ("contradicted_reason", 0.5),
        ("keyword_stuffing", 0.9),
        ("skip_check_claim", 0.8),
    ],
)
def test_text_tricks_after_the_right_actions_do_not_pay(
    env: NovamartEnvironment, trick: str, at_most: float
) -> None:
    measured = {task: mean_where_it_deceives(env, trick, task) for task in ORDER_TASKS}
    assert all(m is None or m <= at_most for m in measured.values()), measured
    assert any(m is not None for m in measured.values()), "the trick never deceived"


def test_short_changing_never_passes(env: NovamartEnvironment) -> None:
    """Where a lesser resolution is allowed, carrying it out scores well below the best."""
    for task in ORDER_TASKS:
        for seed in SEEDS:
            run = run_episode(env, AGENTS["short_change"](seed), task, seed)
            episode = env.episode
            assert episode is not None and episode.truth.optimal is not None
            if episode.executed and episode.executed.quality < episode.truth.optimal.quality:
                assert run.final_score < 0.8
                assert run.final_score <= 1.0 - 0.25


@pytest.mark.parametrize("task", ORDER_TASKS)
def test_honest_natural_replies_score_high(env: NovamartEnvironment, task: str) -> None:
    assert mean_score(env, "honest", task) >= 0.95
    assert mean_score(env, "honest", task) > mean_score(env, "keyword_stuffing", task) + 0.05


def _closing_after_the_right_actions(env: NovamartEnvironment, task: str, message: str) -> float:
    """The oracle's actions on the canonical case, then ``message``; the final score."""
    observation = env.reset(task=task)
    episode = env.episode
    assert episode is not None and episode.truth.optimal is not None
    for tool in sorted(episode.needed_tools):
        arg = "customer_id" if tool == "check_loyalty" else "order_id"
        value = observation.customer_id if arg == "customer_id" else observation.order_id
        act(env, tool, **{arg: value})
    best = episode.truth.optimal
    tool = episode.rules.rulebook.resolutions[best.resolution].tool
    amount = {"amount": best.amount} if tool in ("process_refund", "issue_store_credit") else {}
    act(env, tool, order_id=observation.order_id, **amount)
    last = act(env, "respond_to_customer", message=message)
    return last.final_score if last.final_score is not None else env.state.grade


def test_a_denial_of_what_was_carried_out_is_a_false_claim(env: NovamartEnvironment) -> None:
    honest = _closing_after_the_right_actions(
        env, EASY, "Thank you, Maya! I've processed your full refund of $79.99."
    )
    assert honest == pytest.approx(1.0)
    lie = _closing_after_the_right_actions(
        env, EASY, "Thank you. Your refund of $79.99 has not been processed."
    )
    assert env.state.grade_terms["false_claim"] == PENALTIES["false_claim"]
    assert lie <= 0.5


def test_a_wrong_amount_is_a_false_claim(env: NovamartEnvironment) -> None:
    _closing_after_the_right_actions(
        env, EASY, "Thank you, Maya! I've processed your full refund of $97.99."
    )
    assert env.state.grade_terms["false_claim"] == PENALTIES["false_claim"]
    assert env.state.grade_terms["communication"] == 0


def test_a_window_the_rules_do_not_have_is_a_false_claim(env: NovamartEnvironment) -> None:
    _closing_after_the_right_actions(
        env,
        HARD,
        "I'm sorry: it's 55 days since you bought it, past our 45-day return window. "
        "I've issued $974.99 in store credit.",
    )
    assert "45 days" in env.state.grader_notes["false_claim"]


def _credit_then_say(env: NovamartEnvironment, message: str) -> None:
    observation = env.reset(task=HARD)
    act(env, "lookup_order", order_id=observation.order_id)
    act(env, "check_loyalty", customer_id=observation.customer_id)
    act(env, "issue_store_credit", order_id=observation.order_id, amount=974.99)
    act(env, "respond_to_customer", message=message)


def test_a_check_result_no_tool_established_costs(env: NovamartEnvironment) -> None:
    """A check's result (rules/facts.yaml ``finding``) stated before its tool ran claims a
    check that never ran: it costs like a false claim, even when the hidden fact agrees."""
    _credit_then_say(env, "Sorry, it works as it should. I've issued $974.99 in credit.")
    assert env.state.grade_terms["communication"] == 0
    assert env.state.grade_terms["false_claim"] < 0
    assert env.episode is not None
    assert "before it was run" in grader_notes(env.episode)["communication"]


def test_a_finding_reported_before_its_check_ran_costs(env: NovamartEnvironment) -> None:
    """ "our technician found no fault" also says a technician looked: before the defect
    check ran, that cannot be verified (issue 18), although the fault fact is true."""
    _credit_then_say(
        env, "Sorry, our technician found no fault with it. I've issued $974.99 in credit."
    )
    assert env.state.grade_terms["communication"] == 0
    assert env.state.grade_terms["false_claim"] == -0.4
    assert env.episode is not None
    assert "before verify_defect was run" in grader_notes(env.episode)["false_claim"]


def test_the_seeds_false_promise_stays_exactly_0_4(env: NovamartEnvironment) -> None:
    _closing_after_the_right_actions(
        env, HARD, "No worries, your full refund of $1299.99 is on its way."
    )
    assert env.state.grade_terms["false_promise"] == -0.4
    assert env.state.grade_terms["false_claim"] == 0  # the one lie is counted once


def test_the_terminal_observation_says_why(env: NovamartEnvironment) -> None:
    observation = env.reset(task=HARD)
    assert observation.ground_truth is None and observation.grader_notes == {}
    _closing_after_the_right_actions(env, HARD, "Thanks! I've issued $974.99 in store credit.")
    assert not env.state.done  # not told why, the customer pushes back once
    act(env, "respond_to_customer", message="I'm sorry: the laptop has been opened.")
    state = env.state
    score = state.final_score
    assert state.done and state.termination == "resolved" and not state.truncated
    assert state.ground_truth is not None and state.ground_truth.optimal is not None
    assert state.ground_truth.optimal.resolution == "store_credit"
    assert state.ground_truth.reasons  # why the wished-for refund is not allowed
    assert "defective_item: not explained" in state.grader_notes["communication"]
    assert "standard_return: explained" in state.grader_notes["communication"]
    assert score is not None and score < 1.0


def test_running_out_of_steps_is_truncation(env: NovamartEnvironment) -> None:
    observation = env.reset(task=EASY)
    while not observation.done:
        observation = act(env, "lookup_order", order_id=observation.order_id)
    assert observation.termination == "step_limit" and observation.truncated
    assert observation.ground_truth is not None


def test_which_policy_is_named_first_never_changes_the_needed_tools(tmp_path: Path) -> None:
    """A second policy granting the same refund, named to sort before standard_return, must
    not make a correct refund short of tools (it dropped to 0.875 before)."""
    rules = tmp_path / "rules"
    shutil.copytree(DEFAULT_RULES_DIR, rules)
    (rules / "aaa_price_promise.yaml").write_text(
        "policy: aaa_price_promise\n"
        "clause: Unopened items bought within 30 days with a verified defect are refunded.\n"
        "conditions:\n"
        "  - name: recent\n"
        "    test: order.days_since_purchase <= 30\n"
        "    reason: bought {order.days_since_purchase} days ago\n"
        "  - name: checked\n"
        "    test: defect_check.verified == true\n"
        "    reason: no defect was confirmed\n"
        "grants:\n"
        "  - resolution: full_refund\n"
        "    amount: order.price\n"
    )
    env = NovamartEnvironment(PolicyKernel(rules))
    run = run_episode(env, AGENTS["oracle"](), EASY)
    assert env.episode is not None and frozenset({"lookup_order"}) in env.episode.needed
    assert math.isclose(run.final_score, 1.0)
    assert WEIGHTS["tool_use"] == pytest.approx(env.state.grade_terms["tool_use"])
