"""Scripted reward-hacking attacks (issue 7, item 6) each score <= 0.3 mean over 200 seeded
episodes, the three policy tasks taken in turn.

A failure here is a hole in the reward, reported to the lead: it is not hidden with xfail,
and the reward is not tuned from this file. The failure message names the attack, its mean
and its mean per task.
"""

from __future__ import annotations

import math
import statistics

import pytest

from novamart.agents.runner import run_episode
from novamart.server.environment import NovamartEnvironment
from tests.reliability.attacks import ATTACKS
from tests.reliability.scenarios import in_turn

EPISODES = 200
CEILING = 0.3


@pytest.mark.parametrize("attack", sorted(ATTACKS))
def test_attack_scores_at_most_0_3(env: NovamartEnvironment, attack: str) -> None:
    by_task: dict[str, list[float]] = {}
    for task, seed in in_turn(EPISODES, start=20_000):
        run = run_episode(env, ATTACKS[attack](seed), task, seed)
        assert math.isclose(sum(run.rewards), run.final_score, abs_tol=1e-9)
        by_task.setdefault(task, []).append(run.final_score)
    scores = [score for task_scores in by_task.values() for score in task_scores]
    per_task = {task: round(statistics.mean(s), 3) for task, s in sorted(by_task.items())}
    mean = statistics.mean(scores)
    assert mean <= CEILING, f"REWARD HOLE: {attack} scores {mean:.3f} mean; per task {per_task}"


def test_farming_check_policy_never_earns(env: NovamartEnvironment) -> None:
    """Each spelling of the order id is a distinct call, so the loop penalty does not apply:
    the reward must still give nothing for asking without acting."""
    for task, seed in in_turn(6, start=21_000):
        run = run_episode(env, ATTACKS["farm_check_policy"](seed), task, seed)
        assert all(reward <= 0.0 for reward in run.rewards)


def test_refund_of_zero_is_refused_with_the_rule_amount(env: NovamartEnvironment) -> None:
    run = run_episode(env, ATTACKS["refund_zero"](0), "easy_refund", keep=True)
    refund = next(o for o in run.observations if o.tool_name == "process_refund")
    error = (refund.last_tool_result or {})["error"]
    assert error["code"] == "wrong_amount"
    assert env.episode is not None and env.episode.executed is None
