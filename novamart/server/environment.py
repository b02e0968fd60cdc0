"""NovamartEnvironment: the OpenEnv environment around one episode at a time.

A task is an order case under the policies or a support ticket of one of the ticket
families; both run behind one interface (novamart.server.runs), so everything here is
shared: the step, the reward style, errors as data, the observation's common fields.

Every tool of either kind is registered with a FastMCP server (the two tools both kinds
offer, ``escalate_to_manager`` and ``respond_to_customer``, have one schema), so ``/mcp``
``tools/call`` works (it runs the same step as below, without the reward reaching the
caller) and ``tools/list`` lists the current task's tools, as ``ListToolsAction`` does (a
FastMCP transform filters the listing; before any reset, every tool). ``step`` and
``step_async`` handle ``CallToolAction`` themselves,
straight to the tool function (no FastMCP round trip on the hot path), and answer
``ListToolsAction`` from a list built once per task (free: not a step; no
``run_async_safely``, which deadlocks a ``/ws`` session).

Each tool call is one step. Its observation carries the reward (the change of the running
grade, see novamart.reward and novamart.tickets), scored by the environment's rubric tree
(novamart.server.rubrics), and the reward's breakdown by term, read off the same tree.
Termination: an order case is done when the customer closes the conversation (the first
agent message after a resolution closes it; a haggling customer who was not told the real
reason pushes back once first), a ticket when its closing tool succeeds (the classification,
the extraction, the reply); both at the step limit. The terminal observation carries
``final_score`` (= the sum of the episode's rewards). Unknown tools and bad arguments are
answered with an error (typed code and message) and scored as invalid calls; the session
goes on.

The task API (``list_splits`` ... ``get_task_range``, novamart.server.task_api) lists reset
arguments; ``reset(split=..., index=...)`` plays one of them.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any
from uuid import uuid4

from fastmcp import FastMCP
from fastmcp.server.transforms import Transform
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
from novamart.kernel import CompiledRulebook, PolicyKernel, Rulebook, default_kernel
from novamart.models import NovamartObservation, NovamartState
from novamart.retail.tools import retail_tools
from novamart.reward import CommunicationJudge
from novamart.scenarios import MODES, Mode, TaskSpec, get_task
from novamart.scenarios.retail_customer import PlaysRetail
from novamart.scenarios.retail_world import retail_kernel
from novamart.scenarios.tasks import DEFAULT_TASK
from novamart.server.runs import Hidden, Run, start_run
from novamart.server.task_api import TaskCatalog, get_split
from novamart.tickets.tools import TOOLS as TICKET_TOOLS
from novamart.tools.base import Result, fail
from novamart.tools.registry import TOOLS

if TYPE_CHECKING:
    from novamart.server.rubrics import NovamartRubric

FRAMEWORK_ERRORS = {
    "unknown_tool": ToolErrorType.TOOL_NOT_FOUND,
    "invalid_arguments": ToolErrorType.INVALID_ARGS,
}
RESET_ARGUMENTS = (
    "seed",
    "episode_id",
    "task",
    "ticket",
    "split",
    "index",
    "mode",
    "policy_variant",
)
NOT_THE_CASE = {"metadata", "tool_name", "result", "error", "reward", "done", "last_tool_result"}
"""Observation fields that are not about the case: the reset's metadata repeats the rest
(``case``), for clients that parse observations generically (OpenEnv's MCPToolClient keeps
only ``tool_name``, ``result``, ``error``, ``reward``, ``done`` and ``metadata``)."""
MAX_TOOL_NAME = 64
"""Longer names are cut before anything echoes them (no tool name comes near it)."""

Handler = Callable[[dict[str, Any]], Result]
CATALOGUE: dict[str, tuple[str, dict[str, Any]]] = {
    name: (spec.description, spec.schema) for name, spec in TOOLS.items()
} | {name: (t.description, t.schema) for name, t in TICKET_TOOLS.items() if name not in TOOLS}
CATALOGUE |= {
    name: (t.description, t.schema)
    for name, t in retail_tools(retail_kernel().rulebook).items()
    if name not in CATALOGUE
}
"""Every tool of any kind of task: name -> (description, input schema). A name several kinds
offer is validated by the same argument model on each side (novamart.tools.args)."""


README = Path(__file__).resolve().parents[2] / "README.md"
DOCUMENTATION_URL = "/docs"
"""The server's own API documentation (OpenAPI); the README itself goes out as
``readme_content``."""


class _EpisodeTool(FastTool):
    """A FastMCP tool whose call runs one environment step and returns the tool's result."""

    handler: Annotated[SkipJsonSchema[Handler], Field(exclude=True)]

    async def run(self, arguments: dict[str, Any]) -> ToolResult:
        return self.convert_result(self.handler(arguments))


class _TaskTools(Transform):
    """Lists the tools of the environment's current task (FastMCP lists every tool), with
    the schemas of the rules being played."""

    def __init__(
        self, names: Callable[[], tuple[str, ...]], rulebook: Callable[[], Rulebook]
    ) -> None:
        self._names = names
        self._rulebook = rulebook

    async def list_tools(self, tools: Sequence[FastTool]) -> Sequence[FastTool]:
        by_name = {tool.name: tool for tool in tools}
        rulebook = self._rulebook()
        return [
            by_name[name].model_copy(update={"parameters": listed_schema(name, rulebook)})
            for name in self._names()
            if name in by_name
        ]


def listed_schema(name: str, rulebook: Rulebook) -> dict[str, Any]:
    """Tool ``name``'s input schema under ``rulebook`` (an order tool's may list what the
    rules name, e.g. check_policy's policies; CATALOGUE keeps the rule-free one)."""
    spec = TOOLS.get(name)
    return spec.schema_for(rulebook) if spec else CATALOGUE[name][1]


def tool_list(names: tuple[str, ...], rulebook: Rulebook) -> list[Tool]:
    """The MCP tool specs of a task's tools under ``rulebook``."""
    return [
        Tool(name=n, description=CATALOGUE[n][0], input_schema=listed_schema(n, rulebook))
        for n in names
    ]


def check_seed(seed: Any) -> int | None:
    if seed is None:
        return None
    if isinstance(seed, bool) or not isinstance(seed, int):
        raise ValueError(f"seed must be a non-negative integer or null, got {seed!r}")
    if seed < 0:
        raise ValueError(f"seed must be a non-negative integer, got {seed}")
    return seed


def check_mode(mode: Any) -> Mode:
    if mode not in MODES:
        raise ValueError(f"mode must be one of {', '.join(MODES)}, got {mode!r}")
    return mode


MAX_VARIANT = 2**31 - 1


def check_variant(variant: Any, task: TaskSpec) -> int | None:
    if variant is None:
        return None
    if isinstance(variant, bool) or not isinstance(variant, int) or not 0 <= variant <= MAX_VARIANT:
        raise ValueError(f"policy_variant must be an integer from 0 to {MAX_VARIANT} or null")
    if task.is_ticket:
        raise ValueError(
            f"policy_variant is for order and retail cases; {task.name} plays the rules as written"
        )
    return variant


MAX_EPISODE_ID = 255  # what OpenEnv's HTTP /reset allows; /ws passes it unchecked


def check_episode_id(episode_id: Any) -> str | None:
    if episode_id is None:
        return None
    if not isinstance(episode_id, str) or not 0 < len(episode_id) <= MAX_EPISODE_ID:
        raise ValueError(f"episode_id must be text of 1 to {MAX_EPISODE_ID} characters")
    return episode_id


class SessionEnded(RuntimeError):
    """The session was closed (its client left, or it idled past the session timeout)."""


@functools.cache
def readme_text() -> str | None:
    """The README for ``/metadata`` (None where the package is installed without it)."""
    return README.read_text(encoding="utf-8") if README.is_file() else None


class NovamartEnvironment(TaskCatalog, MCPEnvironment):
    SUPPORTS_CONCURRENT_SESSIONS = True

    def __init__(
        self,
        kernel: PolicyKernel | None = None,
        customer: CustomerSimulator | None = None,
        judge: CommunicationJudge | None = None,
    ) -> None:
        """``customer`` answers the agent's messages in order cases (None: the deterministic
        simulator, novamart.customer) and ``judge`` grades their communication (None: the
        reader); the server always plays the deterministic ones."""
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
        server.add_transform(_TaskTools(self._tool_names, self._rulebook))
        super().__init__(server)
        # OpenEnv's rubric package imports openai (~1.3 s): not before the first environment,
        # so a server answers /health without it
        from novamart.server.rubrics import NovamartRubric

        self.rubric: NovamartRubric = NovamartRubric()
        self._kernel = kernel or default_kernel()
        self._customer = customer
        self._retail_customer = (
            customer.retail_customer() if isinstance(customer, PlaysRetail) else None
        )
        self._judge = judge
        self._run: Run | None = None
        self._variant: int | None = None
        self._rules: CompiledRulebook | None = None
        self._rules_version = ""
        self._mode: Mode = "guided"
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
        split: str | None = None,
        index: int | None = None,
        mode: Mode = "guided",
        policy_variant: int | None = None,
        **kwargs: Any,
    ) -> NovamartObservation:
        """Start ``task``: canonical without a seed, variant ``seed`` with one; on a ticket
        task, ``ticket`` plays one dataset row instead (text, category, priority, kb_id,
        requires_escalation, reference_answer, ...; a bad row is a DatasetError). With
        ``split`` and ``index``, the task API's entry plays (its task and seed). An order
        case plays ``mode`` guided (check_policy, gated writes) or closed_book (the handbook
        in ``instructions``, writes carried out as asked), under the rules as written or
        their ``policy_variant`` N (thresholds and percentages moved within declared bounds);
        a retail case the same, over the retail rules."""
        self._check_open()
        if kwargs:
            raise ValueError(
                f"unknown reset arguments {sorted(kwargs)}; "
                f"reset takes {', '.join(RESET_ARGUMENTS)}"
            )
        if split is not None or index is not None:
            if split is None or index is None:
                raise ValueError("split and index go together: reset(split=..., index=...)")
            entry = get_split(split).entry(index)
            task, seed = entry["task"], entry["seed"]
        spec = get_task(task)
        episode_id = check_episode_id(episode_id)
        variant = check_variant(policy_variant, spec)
        base = self._kernel.snapshot()
        retail = spec.is_retail  # a retail run moves the retail rules itself
        rules = base if variant is None or retail else self._kernel.variant(variant)
        self._mode = check_mode(mode)
        self._run = start_run(
            spec,
            check_seed(seed),
            rules,
            ticket,
            self._mode,
            self._customer,
            self._judge,
            self._retail_customer,
            variant,
        )
        self._variant = variant
        self._rules = rules
        self._rules_version = base.rulebook.version
        self._episode_id = episode_id or str(uuid4())
        self.rubric.bind(self._run)
        self._reset_rubric()
        observation = self._observe("", None, reward=0.0, breakdown={})
        observation.metadata = {
            "case": observation.model_dump(exclude=NOT_THE_CASE, exclude_defaults=True)
        }
        return observation

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
            mode=self._mode,
            policy_variant=self._variant,
            max_steps=run.task.max_steps,
            done=run.done,
            resolution=run.resolution,
            grade=run.score,
            grade_terms=run.terms,
            final_score=run.score if run.done else None,
        )

    @property
    def playing(self) -> bool:
        """Whether an episode is under way in an open session (what a drain waits for)."""
        return self._run is not None and not self._run.done and not self._closed

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
            readme_content=readme_text(),
            author="NovaMart engineering",
            documentation_url=DOCUMENTATION_URL,
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
        result = run.call(name, arguments)
        reward = self.rubric(CallToolAction(tool_name=name, arguments=arguments), result)
        return self._observe(name, result, reward, self.rubric.breakdown())

    def _mcp_call(self, name: str, arguments: dict[str, Any]) -> Result:
        observation = self._call(name, arguments)
        return observation.last_tool_result or {}

    def _start_default(self) -> Run:
        """A tool call before any reset (e.g. over /mcp) starts the canonical default task."""
        self.reset()
        assert self._run is not None
        return self._run

    def _tool_names(self) -> tuple[str, ...]:
        return self._run.tools if self._run else tuple(CATALOGUE)

    def _rulebook(self) -> Rulebook:
        """The rules the current episode plays (before any reset, the kernel's)."""
        return (self._rules or self._kernel.snapshot()).rulebook

    def _tools(self) -> list[Tool]:
        return tool_list(self._tool_names(), self._rulebook())

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
            rules_version=self._rules_version,
            **run.fields(),
        )
