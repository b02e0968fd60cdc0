"""A rollout cut short before a confirming reply never reads as a pass (issue 18, item 5).

A trainer may stop a rollout after any tool call (``max_tool_calling_iterations``, the
completion length, a turn without a tool call) and read the running grade. Here the
oracle's actions are played one call at a time on every order task, and the grade is read
after each: through TRL's adapter (``get_reward()``; the adapter plays the guided mode, the
only one a dataset row can ask for), and on the environment in both modes (the grade a
server-side trainer reads). Only the confirming reply lifts it to the pass mark.
"""

from __future__ import annotations

import pytest
from openenv.core.env_server.mcp_types import CallToolAction

from novamart.agents.oracle import OracleAgent, optimal_actions
from novamart.evaluation.stats import PASS_THRESHOLD
from novamart.scenarios.tasks import MODES, ORDER_TASKS
from novamart.server.environment import NovamartEnvironment
from novamart.training.trl_env import ENVIRONMENTS

SEEDS = range(6)
INSULT = "Next time read the policy before you waste my time, you idiot."


@pytest.mark.parametrize("task", sorted(ORDER_TASKS))
def test_trl_reads_less_than_a_pass_after_every_call_before_the_reply(task: str) -> None:
    for seed in SEEDS:
        env = ENVIRONMENTS["order"]()
        env.reset(task=task, seed=seed)
        hidden, first = env.episode.hidden, env.episode.observation
        assert hidden is not None and hidden.truth.optimal is not None
        actions = optimal_actions(first, hidden)
        graded = []
        try:
            action = next(actions)
            while True:
                getattr(env, action.tool_name)(**action.arguments)
                graded.append(env.get_reward())
                action = actions.send(env.episode.observation)
        except StopIteration:
            pass
        assert graded and not env.episode.done
        assert max(graded) < PASS_THRESHOLD, (task, seed, graded)
        closing = OracleAgent(seed).closing(hidden, first, hidden.truth.optimal)
        env.respond_to_customer(message=f"{closing} {INSULT}")
        assert env.get_reward() <= PASS_THRESHOLD, (task, seed, "an insulting closing")


@pytest.mark.parametrize(("task", "mode"), [(t, m) for t in sorted(ORDER_TASKS) for m in MODES])
def test_the_running_grade_stays_below_the_pass_mark_until_the_reply(task: str, mode: str) -> None:
    env = NovamartEnvironment()
    for seed in SEEDS:
        first = env.reset(task=task, seed=seed, mode=mode)
        episode = env.episode
        assert episode is not None and episode.truth.optimal is not None
        actions = optimal_actions(first, episode)
        graded = []
        try:
            action = next(actions)
            while True:
                observation = env.step(action)
                graded.append(env.state.grade)
                action = actions.send(observation)
        except StopIteration:
            pass
        assert max(graded) < PASS_THRESHOLD, (task, mode, seed, graded)
        closing = OracleAgent(seed).closing(episode, first, episode.truth.optimal)
        reply = CallToolAction(tool_name="respond_to_customer", arguments={"message": closing})
        assert env.step(reply).final_score == 1.0, (task, mode, seed)
