"""NovaMart sessions for OpenEnv's harness (``openenv.core.harness``): rollouts, collection.

OpenEnv's harness takes the episode reward from the last tool result that carries one
(``metadata["reward"]``) and checks that ``verify`` forwards the same number. Its stock
``StepEnvSessionAdapter`` reports each step's reward there, so a NovaMart rollout would be
recorded with the grade's last change (0.2 for a perfect episode). These sessions report the
running grade after every call instead, so the recorded reward is the episode's grade (its
final score when it ended). Tool results are the same JSON reports the TRL adapter returns
(``ToolResult.data`` as a dict), never the observation's repr (which would show the reward).

``NovamartSessionFactory().create(task)`` takes a task name, or a task entry of the task API
(``{"task": ..., "seed": ...}``, or ``{"split": ..., "index": ...}``); ``seed`` overrides the
entry's; ``episode_id`` is not used (NovaMart names its episodes). In-process by default,
on a server with ``base_url`` (several: each session pins to one, spread evenly).
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

from openenv.core.env_server.mcp_types import Tool
from openenv.core.harness import (
    Message,
    ResourceSession,
    ResourceSessionFactory,
    ToolResult,
    VerifyResult,
)

from novamart.client import ServerUrls
from novamart.training.dataset import TRAINING_PROMPT
from novamart.training.episode import EpisodeOver, ToolEpisode


class NovamartSession(ResourceSession):
    """One NovaMart episode behind OpenEnv's harness session interface."""

    def __init__(self, episode: ToolEpisode, brief: str) -> None:
        self._episode = episode
        self._brief = brief

    def initial_messages(self) -> list[Message]:
        return [
            {"role": "system", "content": TRAINING_PROMPT},
            {"role": "user", "content": self._brief},
        ]

    def list_tools(self) -> list[Tool]:
        return self._episode.tools()

    def call_tool(self, name: str, arguments: dict[str, Any]) -> ToolResult:
        try:
            report = json.loads(self._episode.call(name, arguments))
        except EpisodeOver as over:
            return ToolResult(error=str(over), done=True, metadata={"reward": self._episode.grade})
        return ToolResult(
            data=report, done=self._episode.done, metadata={"reward": self._episode.grade}
        )

    def verify(self, transcript: list[Message], final_state: Any | None = None) -> VerifyResult:
        observation = self._episode.observation
        return VerifyResult(
            env_reward=self._episode.grade,
            done=self._episode.done,
            metrics={
                "task": observation.task,
                "steps": observation.step_number,
                "step_rewards": list(self._episode.step_rewards),
            },
        )

    def close(self) -> None:
        self._episode.close()


class NovamartSessionFactory(ResourceSessionFactory[NovamartSession]):
    """Fresh NovaMart sessions for rollouts: in-process, or on the server at ``base_url``."""

    def __init__(self, base_url: ServerUrls | None = None) -> None:
        self._base_url = base_url

    def create(
        self, task: Any, seed: int | None = None, episode_id: str | None = None
    ) -> NovamartSession:
        entry: dict[str, Any] = dict(task) if isinstance(task, Mapping) else {"task": task}
        if seed is not None:
            entry["seed"] = seed
        columns = ("task", "seed", "split", "index", "mode", "policy_variant")
        known = {k: entry[k] for k in columns if k in entry}
        episode = ToolEpisode(self._base_url)
        try:
            brief = episode.reset(**known)
        except BaseException:
            episode.close()
            raise
        return NovamartSession(episode, brief)
