"""The reward's terms as an OpenEnv rubric tree: named by the graders at run time, and the
breakdown and rewards read off it are what the graders compute."""

import math

import pytest
from openenv.core.rubrics import Rubric

from novamart.agents import AGENTS
from novamart.agents.runner import run_episode
from novamart.reward import TERMS, grade, step_breakdown
from novamart.scenarios.tasks import TASKS, TICKET_TASKS
from novamart.server.environment import NovamartEnvironment
from novamart.server.rubrics import CLIP

AGENT_NAMES = ("oracle", "heuristic", "random", "refund_everything", "promise_everything")


def test_named_rubrics_are_the_reward_terms_and_the_ticket_families() -> None:
    env = NovamartEnvironment()
    names = [name for name, _ in env.rubric.named_rubrics()]
    assert names[: len(TERMS)] == list(TERMS)  # resolution, tool_use, communication, penalties
    assert {f"tickets.{task}" for task in TICKET_TASKS} <= set(names)
    assert isinstance(env.rubric, Rubric)


@pytest.mark.parametrize("agent_name", AGENT_NAMES)
def test_order_breakdowns_are_the_graders_and_rewards_unchanged(agent_name: str) -> None:
    env = NovamartEnvironment()
    for task in ("easy_refund", "defect_resolution", "loyalty_negotiation"):
        for seed in (1, 2, 3):
            agent = AGENTS[agent_name](seed)
            observation = env.reset(task=task, seed=seed)
            agent.start(observation, env.episode)
            before = grade(env.episode)
            while not observation.done:
                observation = env.step(agent.act(observation))
                after = grade(env.episode)
                assert observation.reward == after.value - before.value
                assert observation.reward_breakdown == step_breakdown(before, after)
                assert env.rubric.last_score == observation.reward
                for name in TERMS:
                    assert (
                        env.rubric.get_rubric(name).last_score == observation.reward_breakdown[name]
                    )
                before = after
            assert math.isclose(env.state.grade, observation.final_score)


def test_ticket_components_become_leaves_and_sum_with_the_charge_to_the_reward() -> None:
    env = NovamartEnvironment()
    for task in TICKET_TASKS:
        run = run_episode(env, AGENTS["heuristic"](4), task, 4, keep=True)
        family = env.rubric.get_rubric(f"tickets.{TASKS[task].family}")
        final_terms = env.state.grade_terms
        assert set(final_terms) <= {name for name, _ in family.named_children()}
        for observation in run.observations[1:]:
            assert CLIP not in observation.reward_breakdown
            assert all(change != 0 for change in observation.reward_breakdown.values())


def test_a_hook_on_a_leaf_sees_every_step() -> None:
    env = NovamartEnvironment()
    seen: list[float] = []
    env.rubric.get_rubric("tool_use").register_forward_hook(
        lambda r, a, o, score: seen.append(score)
    )
    run = run_episode(env, AGENTS["oracle"](5), "defect_resolution", 5, keep=True)
    assert seen == [o.reward_breakdown["tool_use"] for o in run.observations[1:]]
    assert sum(seen) == pytest.approx(env.state.grade_terms["tool_use"])
