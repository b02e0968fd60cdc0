"""NovamartEnvironment: the OpenEnv environment around one episode at a time.

A task is an order case under the policies or a support ticket of one of the ticket
families; both run behind one interface (novamart.server.runs), so everything here is
shared: the step, the reward style, errors as data, the observation's common fields.

Every tool of either kind is registered with a FastMCP server (the two tools both kinds
offer, ``escalate_to_manager`` and ``respond_to_customer``, have one schema), so ``/mcp``
``tools/list`` and
``tools/call`` work (a ``tools/call`` runs the same step as below, without the reward
reaching the caller). ``step`` and ``step_async`` handle ``CallToolAction`` themselves,
straight to the tool function (no FastMCP round trip on the hot path), and answer
``ListToolsAction`` from a list built once per task (free: not a step; no
``run_async_safely``, which deadlocks a ``/ws`` session).

Each tool call is one step. Its observation carries the reward (the change of the running
grade, see novamart.reward and novamart.tickets) and the reward's breakdown. Termination: an
order case is done when the customer closes the conversation (the first agent message after a
resolution closes it; a haggling customer who was not told the real reason pushes back once
first), a ticket when its closing tool succeeds (the classification, the extraction, the
reply); both at the step limit. The terminal observation carries ``final_score`` (= the sum of the
episode's rewards). Unknown tools and bad arguments are answered with an error (typed code
and message) and scored as invalid calls; the session goes on.
"""

from __future__ import annotations

import functools
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

from novamart.episode import CustomerSimulator
from novamart.kernel import PolicyKernel, default_kernel
from novamart.models import NovamartObservation, NovamartState
from novamart.scenarios import get_task
from novamart.scenarios.tasks import DEFAULT_TASK
from novamart.server.runs import Hidden, Run, start_run
from novamart.tickets.tools import TOOLS as TICKET_TOOLS
from novamart.tools.base import Result, fail
from novamart.tools.registry import TOOLS

FRAMEWORK_ERRORS = {
    "unknown_tool": ToolErrorType.TOOL_NOT_FOUND,
    "invalid_arguments": ToolErrorType.INVALID_ARGS,
}
RESET_ARGUMENTS = ("seed", "episode_id", "task", "ticket")
MAX_TOOL_NAME = 64
"""Longer names are cut before anything echoes them (no tool name comes near it)."""

Handler = Callable[[dict[str, Any]], Result]
CATALOGUE: dict[str, tuple[str, dict[str, Any]]] = {
    name: (spec.description, spec.schema) for name, spec in TOOLS.items()
} | {name: (t.description, t.schema) for name, t in TICKET_TOOLS.items() if name not in TOOLS}
"""Every tool of either kind of task: name -> (description, input schema). A name both kinds
offer is validated by the same argument model on both sides (novamart.tools.args)."""


class _EpisodeTool(FastTool):
    """A FastMCP tool whose call runs one environment step and returns the tool's result."""

    handler: Annotated[SkipJsonSchema[Handler], Field(exclude=True)]

    async def run(self, arguments: dict[str, Any]) -> ToolResult:
        return self.convert_result(self.handler(arguments))


@functools.cache
def tool_list(names: tuple[str, ...]) -> list[Tool]:
    """The MCP tool specs of a task's tools (built once per tool set)."""
    return [Tool(name=n, description=CATALOGUE[n][0], input_schema=CATALOGUE[n][1]) for n in names]


def check_seed(seed: Any) -> int | None:
    if seed is None:
        return None
    if isinstance(seed, bool) or not isinstance(seed, int):
        raise ValueError(f"seed must be a non-negative integer or null, got {seed!r}")
    if seed < 0:
        raise ValueError(f"seed must be a non-negative integer, got {seed}")
    return seed


MAX_EPISODE_ID = 255  # what OpenEnv's HTTP /reset allows; /ws passes it unchecked


def check_episode_id(episode_id: Any) -> str | None:
    if episode_id is None:
        return None
    if not isinstance(episode_id, str) or not 0 < len(episode_id) <= MAX_EPISODE_ID:
        raise ValueError(f"episode_id must be text of 1 to {MAX_EPISODE_ID} characters")
    return episode_id


class SessionEnded(RuntimeError):
    """The session was closed (its client left, or it idled past the session timeout)."""


class NovamartEnvironment(MCPEnvironment):
    SUPPORTS_CONCURRENT_SESSIONS = True

    def __init__(
        self, kernel: PolicyKernel | None = None, customer: CustomerSimulator | None = None
    ) -> None:
        """``customer`` answers the agent's messages in order cases (None: the deterministic
        simulator, novamart.customer; the server always plays that one)."""
        server = FastMCP("novamart")
        for name, (description, schema) in CATALOGUE.items():
            server.add_tool(
                _EpisodeTool(
                    name=name,
                    description=description,
                    parameters=schema,
                    handler=functools.partial(self._mcp_call, name),
                )
            )
        super().__init__(server)
        self._kernel = kernel or default_kernel()
        self._customer = customer
        self._run: Run | None = None
        self._episode_id: str | None = None
        self._closed = False

    def _validate_tool_names(self, mcp_server: Any) -> None:
        """Check the catalogue, not the server: the base class would list the server's tools
        through ``run_async_safely`` (a thread and an event loop per environment)."""
        clash = sorted(set(CATALOGUE) & RESERVED_TOOL_NAMES)
        if clash:
            raise ValueError(f"tool names {clash} are reserved by OpenEnv")

    # ---- OpenEnv API ------------------------------------------------------------------

    def reset(
        self,
        seed: int | None = None,
        episode_id: str | None = None,
        task: str = DEFAULT_TASK,
        ticket: dict[str, Any] | None = None,
        **kwargs: Any,
    ) -> NovamartObservation:
        """Start ``task``: canonical without a seed, variant ``seed`` with one; on a ticket
        task, ``ticket`` plays one dataset row instead (text, category, priority, kb_id,
        requires_escalation, reference_answer, ...; a bad row is a DatasetError)."""
        self._check_open()
        if kwargs:
            raise ValueError(
                f"unknown reset arguments {sorted(kwargs)}; "
                f"reset takes {', '.join(RESET_ARGUMENTS)}"
            )
        spec = get_task(task)
        episode_id = check_episode_id(episode_id)
        rules = self._kernel.snapshot()
        self._run = start_run(spec, check_seed(seed), rules, ticket, self._customer)
        self._episode_id = episode_id or str(uuid4())
        return self._observe("", None, reward=0.0, breakdown={})

    async def reset_async(self, **kwargs: Any) -> NovamartObservation:
        return self.reset(**kwargs)  # no I/O: skip OpenEnv's hop to a worker thread

    def step(self, action: Action, timeout_s: float | None = None, **kwargs: Any) -> Observation:
        self._check_open()
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

    def close(self) -> None:
        """OpenEnv ends the session: its client left, or the idle reaper freed its slot. A
        socket that is still open after that must not go on playing past the session cap."""
        self._closed = True
        super().close()

    def _check_open(self) -> None:
        if self._closed:
            raise SessionEnded(
                "this session has ended (idle longer than the session timeout, or closed); "
                "open a new connection to play again"
            )

    @property
    def state(self) -> NovamartState:
        run = self._run
        if run is None:
            return NovamartState(episode_id=self._episode_id)
        return NovamartState(
            **self._reveal(run),
            episode_id=self._episode_id,
            step_count=run.step,
            task=run.task.name,
            seed=run.seed,
            max_steps=run.task.max_steps,
            done=run.done,
            resolution=run.resolution,
            grade=run.score,
            grade_terms=run.terms,
            final_score=run.score if run.done else None,
        )

    @property
    def episode(self) -> Hidden | None:
        """The running episode, hidden truth included (an order case's Episode or a ticket's
        TicketSession), for in-process tools: the oracle, transcripts. Clients over the wire
        never see it."""
        return self._run.hidden if self._run else None

    def get_metadata(self) -> EnvironmentMetadata:
        return EnvironmentMetadata(
            name="novamart",
            description="Customer service under rule-based return, defect and goodwill "
            "policies, and support tickets: triage, extraction, grounded answers, escalation "
            "safety and account recovery.",
            version="0.1.0",
        )

    @staticmethod
    def _reveal(run: Run) -> dict[str, Any]:
        """The terminal fields: empty until the episode is over, so no hidden fact leaks."""
        if not run.done:
            return {}
        ending = run.ending()
        return {
            "termination": ending.termination,
            "truncated": ending.truncated,
            "ground_truth": ending.ground_truth,
            "grader_notes": ending.notes,
        }

    # ---- one step -----------------------------------------------------------------------

    def _call(self, name: str, arguments: dict[str, Any]) -> NovamartObservation:
        if len(name) > MAX_TOOL_NAME:
            name = name[:MAX_TOOL_NAME] + "..."
        run = self._run or self._start_default()
        if run.done:
            over = fail("episode_over", "the episode is over; call reset to start another")
            return self._observe(name, over, reward=0.0, breakdown={})
        outcome = run.call(name, arguments)
        return self._observe(name, outcome.result, outcome.reward, outcome.breakdown)

    def _mcp_call(self, name: str, arguments: dict[str, Any]) -> Result:
        observation = self._call(name, arguments)
        return observation.last_tool_result or {}

    def _start_default(self) -> Run:
        """A tool call before any reset (e.g. over /mcp) starts the canonical default task."""
        self.reset()
        assert self._run is not None
        return self._run

    def _tools(self) -> list[Tool]:
        return tool_list(self._run.task.tools if self._run else tuple(CATALOGUE))

    def _observe(
        self,
        name: str,
        result: Result | None,
        reward: float,
        breakdown: dict[str, float],
    ) -> NovamartObservation:
        run = self._run
        assert run is not None
        code = None if result is None or result["ok"] else result["error"]["code"]
        error = None
        if code in FRAMEWORK_ERRORS:
            error = ToolError(error_type=FRAMEWORK_ERRORS[code], message=result["error"]["message"])
        done = run.done
        return NovamartObservation(
            **self._reveal(run),
            tool_name=name,
            result=result,
            error=error,
            done=done,
            reward=reward,
            task=run.task.name,
            step_number=run.step,
            max_steps=run.task.max_steps,
            last_tool_result=result,
            reward_breakdown=breakdown,
            final_score=run.score if done else None,
            **run.fields(),
        )
