"""Running reference agents in process: one episode, or a batch over generated scenarios."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from openenv.core.env_server.mcp_types import CallToolAction

from novamart.agents.base import Agent
from novamart.models import NovamartObservation
from novamart.scenarios import TASKS
from novamart.server.environment import NovamartEnvironment


@dataclass
class EpisodeRun:
    task: str
    seed: int | None
    rewards: list[float]
    final_score: float
    observations: list[NovamartObservation] = field(default_factory=list)
    actions: list[CallToolAction] = field(default_factory=list)


def run_episode(
    env: NovamartEnvironment,
    agent: Agent,
    task: str,
    seed: int | None = None,
    keep: bool = False,
    **case: Any,
) -> EpisodeRun:
    """Reset ``env`` to the task, let ``agent`` act until done; keep observations if asked.
    ``case``: an order case's ``mode`` and ``policy_variant``."""
    observation = env.reset(seed=seed, task=task, **case)
    agent.start(observation, env.episode if agent.privileged else None)
    run = EpisodeRun(task, seed, [], 0.0, [observation] if keep else [])
    while not observation.done:
        action = agent.act(observation)
        observation = env.step(action)
        run.rewards.append(float(observation.reward or 0.0))
        if keep:
            run.observations.append(observation)
            run.actions.append(action)
    assert observation.final_score is not None
    run.final_score = observation.final_score
    return run


def generated(count: int, start: int = 0) -> list[tuple[str, int]]:
    """``count`` generated scenarios: seeds from ``start``, tasks in turn."""
    names = sorted(TASKS)
    return [(names[i % len(names)], start + i) for i in range(count)]
