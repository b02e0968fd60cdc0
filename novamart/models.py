"""NovaMart's wire types: what a client sends and receives.

The action is OpenEnv's own ``CallToolAction(tool_name, arguments)`` (``ListToolsAction`` lists
the tools, free of charge). The observation extends ``CallToolObservation`` so MCP clients keep
working, and promotes everything an agent or trainer needs to typed fields, because
``Observation.metadata`` never reaches the client. Facts the agent has not discovered yet stay
empty: ``days_since_purchase`` is filled by ``lookup_order``, ``customer_tier`` by
``check_loyalty``.

This module imports only openenv types and pydantic, so a trainer machine needs neither the
server nor the rule engine.
"""

from __future__ import annotations

from typing import Any, Literal

from openenv.core.env_server.mcp_types import CallToolAction, CallToolObservation
from openenv.core.env_server.types import State
from pydantic import BaseModel, ConfigDict, Field

NovamartAction = CallToolAction

ToolErrorCode = Literal[
    "unknown_tool",
    "invalid_arguments",
    "wrong_order",
    "wrong_customer",
    "unknown_policy",
    "not_established",
    "not_allowed",
    "wrong_amount",
    "already_resolved",
    "episode_over",
]
"""Why a tool refused; errors are data in ``last_tool_result["error"]``, never exceptions."""


class ToolFailure(BaseModel):
    """A refused tool call: a typed code and a message that says what to do instead."""

    model_config = ConfigDict(extra="allow")

    code: ToolErrorCode
    message: str


class NovamartObservation(CallToolObservation):
    """One step's view of the case; also the reset observation (then ``tool_name`` is "")."""

    tool_name: str = Field(default="", description="Tool called this step ('' after reset)")
    task: str = Field(default="", description="Task id, e.g. easy_refund")
    customer_id: str = ""
    customer_name: str = ""
    issue_description: str = Field(default="", description="The customer's opening message")
    order_id: str = ""
    days_since_purchase: int | None = Field(default=None, description="Known after lookup_order")
    customer_tier: str | None = Field(default=None, description="Known after check_loyalty")
    conversation_history: list[str] = Field(default_factory=list)
    available_actions: list[str] = Field(default_factory=list, description="Tools callable now")
    step_number: int = 0
    max_steps: int = 0
    tools_used: list[str] = Field(default_factory=list)
    last_tool_result: dict[str, Any] | None = None
    reward_breakdown: dict[str, float] = Field(
        default_factory=dict, description="This step's reward split by grade term"
    )
    final_score: float | None = Field(default=None, description="The episode's grade, when done")


class NovamartState(State):
    """Episode bookkeeping for ``/state`` and the WS ``state`` message."""

    task: str = ""
    seed: int | None = None
    max_steps: int = 0
    done: bool = False
    resolution: str | None = Field(default=None, description="The resolution executed, if any")
    grade: float = Field(default=0.0, description="The running grade (sum of rewards so far)")
    grade_terms: dict[str, float] = Field(
        default_factory=dict, description="The running grade's weighted terms, before clipping"
    )
    final_score: float | None = None
