"""NovaMart as a SkyRL-gym text environment: ``BaseTextEnv``'s ``init``, ``step``, ``close``.

SkyRL builds one environment per trajectory, ``skyrl_gym.make(id, env_config=...,
extras=...)`` with the dataset row's extras, and steps it with the model's text. Register it
with ``skyrl_gym.envs.register(id="novamart", entry_point="novamart.scale.skyrl:
NovamartTextEnv")``; it subclasses skyrl-gym's ``BaseTextEnv`` when that is installed (it is
not a dependency).

- The row (``extras``, or its ``extra_info``) names the case: ``task``/``seed``, or
  ``split``/``index`` (``case_of``). ``init`` resets to it and adds the case brief to the
  prompt (into an empty last user message, else as a new one).
- The model writes a tool call as ``<tool_call>{"name": ..., "arguments": {...}}</tool_call>``
  (the Hermes format of Qwen's and other chat templates); a step plays the first one. A text
  without a tool call ends the trajectory (only ``respond_to_customer`` reaches the
  customer), as TRL ends a rollout at the first turn without one. A malformed call is
  answered with an error and costs a turn.
- Each step's reward is the change of the running grade, so a trajectory's rewards add up to
  its grade (the final score once the episode ended, the grade so far when ``max_turns`` or
  a reply without a tool call cut it short).
- ``env_config``: ``max_turns`` (20), ``ray_actors`` (0: the episode runs in this process;
  N: on this process's ``EnvPool`` of N actors), ``cpus_per_actor`` (1).
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping
from typing import Any

from novamart.scale.episodes import Episode, case_of, open_episode
from novamart.training.episode import EpisodeOver

try:  # a genuine subclass where skyrl-gym is installed; the same shape where it is not
    from skyrl_gym.envs.base_text_env import BaseTextEnv as _Base
except ImportError:  # pragma: no cover - depends on the trainer's venv
    _Base = object  # type: ignore[assignment,misc]

__all__ = ["NovamartTextEnv", "parse_tool_call"]

Message = dict[str, str]
TOOL_CALL = re.compile(r"<tool_call>(.*?)</tool_call>", re.DOTALL)


class BadToolCall(ValueError):
    """The text has a tool call that is not a JSON object with a name and arguments."""


def parse_tool_call(text: str) -> tuple[str, dict[str, Any]] | None:
    """The first ``<tool_call>`` of ``text`` as (name, arguments); None when there is none."""
    found = TOOL_CALL.search(text)
    if found is None:
        return None
    try:
        call = json.loads(found.group(1))
    except json.JSONDecodeError as error:
        raise BadToolCall(f"the tool call is not valid JSON ({error.msg})") from None
    if not isinstance(call, dict) or not isinstance(call.get("name"), str):
        raise BadToolCall('a tool call is {"name": "<tool>", "arguments": {...}}')
    arguments = call.get("arguments", {})
    if not isinstance(arguments, dict):
        raise BadToolCall("a tool call's arguments are a JSON object")
    return call["name"], arguments


class NovamartTextEnv(_Base):  # type: ignore[misc,valid-type]
    """One NovaMart episode per trajectory, text in and text out (see the module)."""

    def __init__(
        self, env_config: Mapping[str, Any] | None = None, extras: Mapping[str, Any] | None = None
    ) -> None:
        super().__init__()
        config = env_config or {}
        row = extras or {}
        self.turns = 0
        self.max_turns = int(config.get("max_turns", 20))
        self._case = case_of(row.get("extra_info") or row)
        self._episode: Episode = open_episode(
            int(config.get("ray_actors", 0)), float(config.get("cpus_per_actor", 1.0))
        )

    def init(self, prompt: list[Message]) -> tuple[list[Message], dict[str, Any]]:
        brief = self._episode.reset(**self._case)
        messages = [dict(message) for message in prompt]
        if messages and messages[-1].get("role") == "user" and not messages[-1].get("content"):
            messages[-1]["content"] = brief
        else:
            messages.append({"role": "user", "content": brief})
        return messages, {"case": self._case}

    def step(self, action: str) -> dict[str, Any]:
        """A ``BaseTextEnvStepOutput``: observations, reward, done, metadata."""
        self.turns += 1
        before = self._episode.grade
        try:
            call = parse_tool_call(action)
            if call is None:
                return self._output([], before, done=True, why="no tool call")
            report = self._episode.call(*call)
        except (BadToolCall, EpisodeOver) as error:
            report = json.dumps({"ok": False, "error": str(error)})
        done = self._episode.done or self.turns >= self.max_turns
        observations = [] if done else [{"role": "user", "content": _response(report)}]
        return self._output(observations, before, done=done)

    def _output(
        self, observations: list[Message], before: float, done: bool, why: str | None = None
    ) -> dict[str, Any]:
        grade = self._episode.grade
        metadata: dict[str, Any] = {"grade": grade, "episode_done": self._episode.done}
        if why is not None:
            metadata["ended"] = why
        return {
            "observations": observations,
            "reward": grade - before,
            "done": done,
            "metadata": metadata,
            "postprocessed_action": None,
        }

    def close(self) -> None:
        self._episode.close()


def _response(report: str) -> str:
    return f"<tool_response>\n{report}\n</tool_response>"
