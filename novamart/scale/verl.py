"""NovaMart tools for verl's agent loop: ``BaseTool``'s ``create``, ``execute``,
``calc_reward``, ``release`` (async), one tool object per NovaMart tool.

verl's ``ToolAgentLoop`` makes each tool call of a trajectory as ``instance_id, _ = await
tool.create(create_kwargs=...)``, ``response, reward, metrics = await tool.execute(instance_id,
arguments, agent_data=agent_data)``, ``await tool.release(instance_id)``: a tool instance
lives for one call, while a NovaMart episode lives for the whole trajectory. So the episodes
are keyed by the trajectory (``agent_data.request_id``; the instance id when a caller passes
no ``agent_data``), shared by all the NovaMart tools of the process, opened at the
trajectory's first call on the case its row names (``create_kwargs``: ``task``/``seed`` or
``split``/``index``), and kept for the last ``max_open`` trajectories (4096).

- ``verl_row(case)`` is a dataset row: the prompt (system prompt and case brief; verl's
  prompt is fixed in the dataset, the brief is a function of the case) and
  ``extra_info.tools_kwargs`` naming the case for every tool of the task.
- ``tool_config(task)`` is the ``multi_turn.tool_config_path`` file's content (write it as
  YAML): this class for each tool of the task, with the schema the environment lists.
- ``config`` (per tool, from that file): ``ray_actors`` (0: episodes in this process; N: on
  this process's ``EnvPool`` of N actors), ``cpus_per_actor``, ``max_open``.

The environment's work runs in a thread (``asyncio.to_thread``), so a step never blocks the
agent loop's event loop; calls of one trajectory run one at a time. The execute reward is the
change of the running grade; ``calc_reward`` is the grade. Not a dependency: the classes
follow verl's documented shapes (``ToolResponse`` is verl's when verl is installed).
"""

from __future__ import annotations

import asyncio
import json
import uuid
from collections import OrderedDict
from dataclasses import dataclass, field
from typing import Any, ClassVar

from novamart.scale.episodes import Episode, case_of, open_episode
from novamart.training.dataset import TRAINING_PROMPT
from novamart.training.episode import EpisodeOver, ToolEpisode

try:  # verl's own response type where verl is installed
    from verl.tools.schemas import ToolResponse
except ImportError:  # pragma: no cover - depends on the trainer's venv

    @dataclass
    class ToolResponse:  # type: ignore[no-redef]
        """verl's ``ToolResponse`` shape: what the agent loop reads of a tool's answer."""

        text: str | None = None
        image: Any = None
        video: Any = None


__all__ = ["NovamartTool", "ToolResponse", "tool_config", "verl_row"]

CLASS_NAME = f"{__name__}.NovamartTool"


@dataclass
class _Trajectory:
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    episode: Episode | None = None


class NovamartTool:
    """One NovaMart tool for verl's agent loop (see the module)."""

    _trajectories: ClassVar[OrderedDict[str, _Trajectory]] = OrderedDict()
    """Every NovaMart tool of the process shares the trajectories' episodes."""

    def __init__(self, config: dict[str, Any], tool_schema: Any) -> None:
        self.config = dict(config or {})
        self.tool_schema = tool_schema
        if isinstance(tool_schema, dict):  # as the config file has it
            self.name: str = tool_schema["function"]["name"]
        else:  # verl's OpenAIFunctionToolSchema
            self.name = tool_schema.function.name
        self._cases: dict[str, dict[str, Any]] = {}

    def get_openai_tool_schema(self) -> Any:
        return self.tool_schema

    async def create(
        self, instance_id: str | None = None, create_kwargs: dict[str, Any] | None = None, **_: Any
    ) -> tuple[str, ToolResponse]:
        instance_id = instance_id or uuid.uuid4().hex
        self._cases[instance_id] = case_of(create_kwargs or {})
        return instance_id, ToolResponse()

    async def execute(
        self, instance_id: str, parameters: dict[str, Any], agent_data: Any = None, **_: Any
    ) -> tuple[ToolResponse, float, dict[str, Any]]:
        trajectory = self._trajectory(_key(instance_id, agent_data))
        async with trajectory.lock:
            if trajectory.episode is None:
                trajectory.episode = await asyncio.to_thread(self._open, instance_id)
            episode = trajectory.episode
            before = episode.grade
            try:
                report = await asyncio.to_thread(episode.call, self.name, parameters)
            except EpisodeOver as over:
                report = json.dumps({"ok": False, "error": str(over)})
        grade = episode.grade
        return ToolResponse(text=report), grade - before, {"grade": grade, "done": episode.done}

    async def calc_reward(self, instance_id: str, agent_data: Any = None, **_: Any) -> float:
        """The trajectory's running grade (0 before its first call)."""
        trajectory = self._trajectories.get(_key(instance_id, agent_data))
        episode = None if trajectory is None else trajectory.episode
        return 0.0 if episode is None else episode.grade

    async def release(self, instance_id: str, **_: Any) -> None:
        self._cases.pop(instance_id, None)

    def _trajectory(self, key: str) -> _Trajectory:
        trajectories = self._trajectories
        if key in trajectories:
            trajectories.move_to_end(key)
            return trajectories[key]
        trajectory = trajectories[key] = _Trajectory()
        while len(trajectories) > int(self.config.get("max_open", 4096)):
            _, oldest = trajectories.popitem(last=False)
            if oldest.episode is not None:
                oldest.episode.close()
        return trajectory

    def _open(self, instance_id: str) -> Episode:
        case = self._cases.get(instance_id)
        if not case:
            raise ValueError(
                "no case for this trajectory: give every NovaMart tool create_kwargs naming "
                "it (task and seed, or split and index; verl_row writes them)"
            )
        episode = open_episode(
            int(self.config.get("ray_actors", 0)), float(self.config.get("cpus_per_actor", 1.0))
        )
        episode.reset(**case)
        return episode


def _key(instance_id: str, agent_data: Any) -> str:
    return getattr(agent_data, "request_id", None) or instance_id


def _tools_of(case: dict[str, Any]) -> tuple[str, list[Any]]:
    """The case brief and the tools its task lists, from an in-process reset."""
    episode = ToolEpisode()
    try:
        return episode.reset(**case), episode.tools()
    finally:
        episode.close()


def verl_row(case: dict[str, Any]) -> dict[str, Any]:
    """A verl dataset row for ``case`` (``task``/``seed`` or ``split``/``index``)."""
    case = case_of(case)
    brief, tools = _tools_of(case)
    return {
        "prompt": [
            {"role": "system", "content": TRAINING_PROMPT},
            {"role": "user", "content": brief},
        ],
        "extra_info": {"tools_kwargs": {tool.name: {"create_kwargs": case} for tool in tools}},
    }


def tool_config(task: str, **config: Any) -> dict[str, Any]:
    """verl's tool config for ``task``'s tools (``config``: ``ray_actors`` and the rest)."""
    _, tools = _tools_of({"task": task})
    return {
        "tools": [
            {
                "class_name": CLASS_NAME,
                "config": {"type": "native", **config},
                "tool_schema": {
                    "type": "function",
                    "function": {
                        "name": tool.name,
                        "description": tool.description,
                        "parameters": tool.input_schema,
                    },
                },
            }
            for tool in tools
        ]
    }
