"""OpenEnv 0.10's harness rollout records NovaMart's final grade as the episode reward.

A scripted model step (the oracle, or a weaker heuristic, as tool calls) drives
``build_harness_rollout_func`` with ``MCPHarnessAdapter``, exactly as TRL's ``rollout_func``
would; the reward it records must be the episode's final score, not its last step reward."""

from typing import Any

import pytest
from openenv.core.harness import (
    HarnessRunLimits,
    MCPHarnessAdapter,
    ModelStepResult,
    build_harness_rollout_func,
)
from openenv.core.llm_client import LLMResponse, ToolCall

from novamart.agents import AGENTS
from novamart.agents.runner import run_episode
from novamart.server.environment import NovamartEnvironment
from novamart.server.task_api import get_split
from novamart.training.harness import NovamartSession, NovamartSessionFactory

PROMPTS = [
    {"task": "easy_refund", "seed": 3},
    {"task": "loyalty_negotiation", "seed": 8},
    {"task": "kb_grounded_response", "seed": 2},
    {"split": "test", "index": 11},
]


def scripted(agent_name: str):
    """A model_step_builder: a reference agent answering as a model would, with tool calls."""

    def build(trainer: Any, session: NovamartSession):
        episode = session._episode  # the in-process episode this model step plays
        agent = AGENTS[agent_name](0)
        agent.start(episode.observation, episode.hidden)

        def model_step(messages: list, tools: list, sampling: dict) -> ModelStepResult:
            if episode.done:
                return ModelStepResult(response=LLMResponse(content="Goodbye."))
            action = agent.act(episode.observation)
            call = ToolCall(
                id=f"call-{len(messages)}", name=action.tool_name, args=action.arguments
            )
            return ModelStepResult(response=LLMResponse(content="", tool_calls=[call]))

        return model_step

    return build


@pytest.mark.parametrize("agent_name", ["oracle", "heuristic"])
def test_the_recorded_reward_is_the_final_score(agent_name: str) -> None:
    rollout = build_harness_rollout_func(
        session_factory=NovamartSessionFactory(),
        harness_adapter=MCPHarnessAdapter(),
        model_step_builder=scripted(agent_name),
        limits=HarnessRunLimits(max_turns=12),
    )
    recorded = rollout(PROMPTS, trainer=None)
    expected = [
        run_episode(NovamartEnvironment(), AGENTS[agent_name](0), **_entry(prompt)).final_score
        for prompt in PROMPTS
    ]
    assert recorded["env_reward"] == pytest.approx(expected)
    last_steps = [metrics["step_rewards"][-1] for metrics in recorded["verify_metrics"]]
    if agent_name == "oracle":
        assert expected == [1.0] * len(PROMPTS)
        assert min(last_steps) < 1.0  # the last step alone, as the stock adapter records it


def _entry(prompt: dict) -> dict:
    """The prompt's task and seed (a task-API prompt resolved through its split)."""
    if "task" in prompt:
        return prompt
    return get_split(prompt["split"]).entry(prompt["index"])
