"""One episode played one tool call at a time, as trainers drive it: text in, text out.

TRL's environments and OpenEnv's harness sessions both need the same few things of
NovaMart: reset to a case given plain reset arguments, call a tool by name and get its
result back as text the model reads, know whether the episode is over, and read the reward.
The reward is the running grade (the sum of the step rewards so far: the final score once
the episode is over, a partial grade for a rollout the trainer cut short), never the last
step's reward, which is only the grade's last change.

The episode runs in this process by default, or on a NovaMart server (``base_url``: one URL,
or several as a list or comma-separated, of which each episode pins to one) over one plain
``/ws`` session, so any worker of a multi-worker server can serve it; a session the server
reaped while it idled between rollouts (longer than SESSION_TIMEOUT_S), or closed while it
drained for a shutdown, is reopened by the next reset (on the next server when it was
draining or full).
"""

from __future__ import annotations

from typing import Any

from openenv.core.env_server.mcp_types import CallToolAction, Tool

from novamart.client import NovamartServerError, ServerUrls
from novamart.evaluation.llm_agent import SYSTEM_PROMPT, case_brief, case_fields, step_report
from novamart.evaluation.sessions import EnvSession, open_session
from novamart.models import NovamartObservation
from novamart.scenarios.tasks import DEFAULT_TASK
from novamart.server.runs import Hidden
from novamart.server.task_api import get_split

__all__ = ["SYSTEM_PROMPT", "EpisodeOver", "ToolEpisode"]


class EpisodeOver(RuntimeError):
    """A tool was called after the episode ended (or before any reset)."""


class ToolEpisode:
    """A NovaMart episode for a trainer: in-process, or on (one of) the server(s) at
    ``base_url``."""

    def __init__(self, base_url: ServerUrls | None = None) -> None:
        self._session: EnvSession = open_session(base_url)
        self._observation: NovamartObservation | None = None
        self._known: dict[str, Any] = {}
        self.step_rewards: list[float] = []

    def reset(
        self,
        task: str | None = None,
        seed: int | None = None,
        ticket: dict[str, Any] | None = None,
        split: str | None = None,
        index: int | None = None,
        mode: str | None = None,
        policy_variant: int | None = None,
    ) -> str:
        """Start a case: ``task`` (canonical, or variant ``seed``; a ticket task may play a
        dataset row ``ticket``), or entry ``index`` of a task-API ``split``; an order or
        retail case in ``mode`` (guided by default) under the rules as written or their
        ``policy_variant``. Returns the case brief a model reads first."""
        if split is not None or index is not None:
            if split is None or index is None:
                raise ValueError("split and index go together")
            entry = get_split(split).entry(index)
            task, seed = entry["task"], entry["seed"]
        task = task or DEFAULT_TASK
        case = {"mode": mode, "policy_variant": policy_variant}
        case = {k: v for k, v in case.items() if v is not None}
        try:
            observation = self._session.reset(task, seed, ticket, **case)
        except (NovamartServerError, ConnectionError):  # reaped while idle: a new session
            observation = self._session.reset(task, seed, ticket, **case)
        self._observation = observation
        self._known = case_fields(observation)
        self.step_rewards = []
        return case_brief(observation)

    def call(self, name: str, arguments: dict[str, Any]) -> str:
        """Run one tool call as one step; what the model reads back (JSON text). Raises
        ``EpisodeOver`` once the episode has ended: TRL feeds the error back and stops."""
        observation = self.observation
        if observation.done:
            raise EpisodeOver("the conversation is closed: the episode is over, stop calling tools")
        result = self._session.step(CallToolAction(tool_name=name, arguments=arguments))
        self._observation = result
        self.step_rewards.append(result.reward or 0.0)
        report = step_report(result, self._known)
        self._known = case_fields(result)
        return report

    @property
    def observation(self) -> NovamartObservation:
        if self._observation is None:
            raise EpisodeOver("no episode yet: reset first")
        return self._observation

    @property
    def done(self) -> bool:
        return self._observation is not None and self._observation.done

    @property
    def grade(self) -> float:
        """The running grade: the final score once done, else the sum of the step rewards."""
        observation = self._observation
        if observation is not None and observation.final_score is not None:
            return observation.final_score
        return sum(self.step_rewards)

    @property
    def hidden(self) -> Hidden | None:
        """The episode's hidden truth when it runs in this process (for a scripted oracle
        in tests and benchmarks; a model never sees it); None on a server."""
        return self._session.episode

    @property
    def task(self) -> str:
        return self.observation.task

    def tools(self) -> list[Tool]:
        """The current task's tools, as the environment lists them."""
        return self._session.tools()

    def close(self) -> None:
        self._session.close()
