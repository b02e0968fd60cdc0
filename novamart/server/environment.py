"""NovamartEnvironment: the OpenEnv environment around one episode at a time.

Every tool is registered with a FastMCP server, so ``/mcp`` ``tools/list`` and
``tools/call`` work (a ``tools/call`` runs the same step as below, without the reward
reaching the caller). ``step`` and ``step_async`` handle ``CallToolAction`` themselves,
straight to the tool function (no FastMCP round trip on the hot path), and answer
``ListToolsAction`` from a list built once per task (free: not a step; no
``run_async_safely``, which deadlocks a ``/ws`` session).

Each tool call is one step. Its observation carries the reward (the change of the running
grade, see novamart.reward) and the reward's breakdown. Termination: the episode is done when
the customer closes the conversation (the first agent message after a resolution closes it;
a haggling customer who was not told the real reason pushes back once first), or when the
step limit is reached. The terminal observation carries ``final_score`` (= the sum of the
episode's rewards). Unknown tools and bad arguments are answered with an error (typed code
and message) and scored as invalid calls; the session goes on.
"""

from __future__ import annotations

import functools
import json
from collections.abc import Callable
from typing import Annotated, Any
from uuid import uuid4

from fastmcp import FastMCP
from fastmcp.tools.base import Tool as FastTool
from fastmcp.tools.base import ToolResult
from openenv.core.env_server.mcp_environment import MCPEnvironment
from openenv.core.env_server.mcp_types import (
    RESERVED_TOOL_NAMES,
    CallToolAction,
    ListToolsAction,
    ListToolsObservation,
    Tool,
    ToolError,
    ToolErrorType,
)
from openenv.core.env_server.types import Action, EnvironmentMetadata, Observation
from pydantic import Field
from pydantic.json_schema import SkipJsonSchema

from novamart.episode import Episode
from novamart.kernel import PolicyKernel, default_kernel
from novamart.models import NovamartObservation, NovamartState
from novamart.reward import ZERO, Grade, grade, step_breakdown
from novamart.scenarios import build_scenario, get_task
from novamart.scenarios.tasks import DEFAULT_TASK
from novamart.tools.base import Result, fail
from novamart.tools.registry import TOOLS, call_tool

FRAMEWORK_ERRORS = {
    "unknown_tool": ToolErrorType.TOOL_NOT_FOUND,
    "invalid_arguments": ToolErrorType.INVALID_ARGS,
}
RESET_ARGUMENTS = ("seed", "episode_id", "task")

Handler = Callable[[dict[str, Any]], Result]


class _EpisodeTool(FastTool):
    """A FastMCP tool whose call runs one environment step and returns the tool's result."""

    handler: Annotated[SkipJsonSchema[Handler], Field(exclude=True)]

    async def run(self, arguments: dict[str, Any]) -> ToolResult:
        return self.convert_result(self.handler(arguments))


@functools.cache
def tool_list(names: tuple[str, ...]) -> list[Tool]:
    """The MCP tool specs of a task's tools (built once per tool set)."""
    return [
        Tool(name=n, description=TOOLS[n].description, input_schema=TOOLS[n].schema) for n in names
    ]


def check_seed(seed: Any) -> int | None:
    if seed is None:
        return None
    if isinstance(seed, bool) or not isinstance(seed, int):
        raise ValueError(f"seed must be a non-negative integer or null, got {seed!r}")
    if seed < 0:
        raise ValueError(f"seed must be a non-negative integer, got {seed}")
    return seed


class NovamartEnvironment(MCPEnvironment):
    SUPPORTS_CONCURRENT_SESSIONS = True

    def __init__(self, kernel: PolicyKernel | None = None) -> None:
        server = FastMCP("novamart")
        for name, spec in TOOLS.items():
            server.add_tool(
                _EpisodeTool(
                    name=name,
                    description=spec.description,
                    parameters=spec.schema,
                    handler=functools.partial(self._mcp_call, name),
                )
            )
        super().__init__(server)
        self._kernel = kernel or default_kernel()
        self._episode: Episode | None = None
        self._episode_id: str | None = None
        self._grade: Grade = ZERO

    def _validate_tool_names(self, mcp_server: Any) -> None:
        """Check the registry, not the server: the base class would list the server's tools
        through ``run_async_safely`` (a thread and an event loop per environment)."""
        clash = sorted(set(TOOLS) & RESERVED_TOOL_NAMES)
        if clash:
            raise ValueError(f"tool names {clash} are reserved by OpenEnv")

    # ---- OpenEnv API ------------------------------------------------------------------

    def reset(
        self,
        seed: int | None = None,
        episode_id: str | None = None,
        task: str = DEFAULT_TASK,
        **kwargs: Any,
    ) -> NovamartObservation:
        """Start ``task`` (canonical without a seed, variant ``seed`` with one)."""
        if kwargs:
            raise ValueError(
                f"unknown reset arguments {sorted(kwargs)}; "
                f"reset takes {', '.join(RESET_ARGUMENTS)}"
            )
        spec = get_task(task)
        scenario = build_scenario(spec.name, check_seed(seed))
        self._episode = Episode.start(spec, scenario, self._kernel.snapshot())
        self._episode_id = episode_id or str(uuid4())
        self._grade = ZERO
        return self._observe("", None, reward=0.0, breakdown={})

    def step(self, action: Action, timeout_s: float | None = None, **kwargs: Any) -> Observation:
        if isinstance(action, ListToolsAction):
            return ListToolsObservation(tools=self._tools())
        if isinstance(action, CallToolAction):
            return self._call(action.tool_name, action.arguments)
        return self._step_impl(action)

    async def step_async(
        self, action: Action, timeout_s: float | None = None, **kwargs: Any
    ) -> Observation:
        return self.step(action, timeout_s, **kwargs)

    def _step_impl(
        self, action: Action, timeout_s: float | None = None, **kwargs: Any
    ) -> Observation:
        message = f"NovaMart takes CallToolAction or ListToolsAction, not {type(action).__name__}"
        return NovamartObservation(
            error=ToolError(error_type=ToolErrorType.INVALID_ARGS, message=message)
        )

    @property
    def state(self) -> NovamartState:
        episode = self._episode
        if episode is None:
            return NovamartState(episode_id=self._episode_id)
        return NovamartState(
            episode_id=self._episode_id,
            step_count=episode.step,
            task=episode.task.name,
            seed=episode.scenario.seed,
            max_steps=episode.task.max_steps,
            done=episode.done,
            resolution=episode.executed.resolution if episode.executed else None,
            grade=self._grade.value,
            grade_terms=dict(self._grade.terms),
            final_score=self._grade.value if episode.done else None,
        )

    @property
    def episode(self) -> Episode | None:
        """The running episode, hidden truth included (for in-process tools: the oracle,
        transcripts); clients over the wire never see it."""
        return self._episode

    def get_metadata(self) -> EnvironmentMetadata:
        return EnvironmentMetadata(
            name="novamart",
            description="Customer service under rule-based return, defect and goodwill policies.",
            version="0.1.0",
        )

    # ---- one step -----------------------------------------------------------------------

    def _call(self, name: str, arguments: dict[str, Any]) -> NovamartObservation:
        episode = self._episode or self._start_default()
        if episode.done:
            over = fail("episode_over", "the episode is over; call reset to start another")
            return self._observe(name, over, reward=0.0, breakdown={})
        episode.step += 1
        key = f"{name}:{json.dumps(arguments, sort_keys=True, default=str)}"
        result = call_tool(episode, name, arguments)
        spec = TOOLS.get(name)
        episode.record(name, key, result, by_key=spec is not None and spec.kind == "communicate")
        before, self._grade = self._grade, grade(episode)
        return self._observe(
            name,
            result,
            reward=self._grade.value - before.value,
            breakdown=step_breakdown(before, self._grade),
        )

    def _mcp_call(self, name: str, arguments: dict[str, Any]) -> Result:
        observation = self._call(name, arguments)
        return observation.last_tool_result or {}

    def _start_default(self) -> Episode:
        """A tool call before any reset (e.g. over /mcp) starts the canonical default task."""
        self.reset()
        assert self._episode is not None
        return self._episode

    def _tools(self) -> list[Tool]:
        names = self._episode.task.tools if self._episode else tuple(TOOLS)
        return tool_list(names)

    def _observe(
        self,
        name: str,
        result: Result | None,
        reward: float,
        breakdown: dict[str, float],
    ) -> NovamartObservation:
        episode = self._episode
        assert episode is not None
        scenario = episode.scenario
        order, customer = episode.known.get("order"), episode.known.get("customer")
        code = None if result is None or result["ok"] else result["error"]["code"]
        error = None
        if code in FRAMEWORK_ERRORS:
            error = ToolError(error_type=FRAMEWORK_ERRORS[code], message=result["error"]["message"])
        done = episode.done
        return NovamartObservation(
            tool_name=name,
            result=result,
            error=error,
            done=done,
            reward=reward,
            task=episode.task.name,
            customer_id=scenario.customer.customer_id,
            customer_name=scenario.customer.name,
            issue_description=scenario.opening,
            order_id=scenario.order.order_id,
            days_since_purchase=getattr(order, "days_since_purchase", None),
            customer_tier=getattr(customer, "tier", None),
            conversation_history=list(episode.conversation),
            available_actions=self._available(episode),
            step_number=episode.step,
            max_steps=episode.task.max_steps,
            tools_used=[call.tool for call in episode.calls],
            last_tool_result=result,
            reward_breakdown=breakdown,
            final_score=self._grade.value if done else None,
        )

    @staticmethod
    def _available(episode: Episode) -> list[str]:
        if episode.done:
            return []
        tools = episode.task.tools
        if episode.executed is not None:
            return [t for t in tools if TOOLS[t].kind != "resolve"]
        return list(tools)
