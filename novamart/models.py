"""NovaMart's wire types: what a client sends and receives.

The action is OpenEnv's own ``CallToolAction(tool_name, arguments)`` (``ListToolsAction`` lists
the tools, free of charge). The observation extends ``CallToolObservation`` so MCP clients keep
working, and promotes everything an agent or trainer needs to typed fields (OpenEnv 0.10 sends
``metadata`` too, but untyped; NovaMart fills it only at reset, where ``metadata["case"]``
repeats the case's fields for clients that parse observations generically, such as OpenEnv's
MCPToolClient). Facts the agent has not discovered yet stay
empty: ``days_since_purchase`` is filled by ``lookup_order``, ``customer_tier`` by
``check_loyalty``, ``kb_results`` by ``search_kb``.

Two kinds of task share the observation: order cases (``family`` "resolution": customer,
order, tier fields) and support tickets (``family`` names the ticket family: ``ticket_*``,
``requested_fields``, ``kb_results``, ``account_on_file``, ``instructions``). Fields of the
other kind stay empty.

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
    "already_done",
    "limit_reached",
    "service_unavailable",
]
"""Why a tool refused; errors are data in ``last_tool_result["error"]``, never exceptions."""


class ToolFailure(BaseModel):
    """A refused tool call: a typed code and a message that says what to do instead."""

    model_config = ConfigDict(extra="allow")

    code: ToolErrorCode
    message: str


class KbResult(BaseModel):
    """A help-centre article a search returned (its full text is in that step's result)."""

    article_id: str
    title: str
    snippet: str


TerminationReason = Literal["resolved", "ticket_closed", "step_limit"]
"""Why an episode ended: the customer closed the conversation after a resolution, the
ticket's closing tool succeeded, or the step limit ran out (``truncated``)."""


class TruthGrant(BaseModel):
    """A resolution the case allows, with the policy granting it."""

    resolution: str
    policy: str
    amount: float | None
    quality: float


class GroundTruth(BaseModel):
    """The case's hidden truth, shown once the episode is over."""

    optimal: TruthGrant | None = Field(default=None, description="The best allowed resolution")
    granted_by: list[str] = Field(
        default_factory=list, description="Every policy granting the optimal resolution"
    )
    eligible: list[TruthGrant] = Field(default_factory=list)
    wish: str | None = Field(default=None, description="What the customer asked for")
    reasons: list[str] = Field(
        default_factory=list, description="The kernel's reasons the wish is not allowed"
    )
    needed_tools: list[list[str]] = Field(
        default_factory=list,
        description="The cheapest sets of investigation tools that settle the case",
    )
    expected: dict[str, Any] = Field(
        default_factory=dict,
        description="Ticket tasks: the expected labels (category, priority, fields, article, "
        "escalation)",
    )


class NovamartObservation(CallToolObservation):
    """One step's view of the case; also the reset observation (then ``tool_name`` is "")."""

    tool_name: str = Field(default="", description="Tool called this step ('' after reset)")
    task: str = Field(default="", description="Task id, e.g. easy_refund")
    family: str = Field(
        default="", description="'resolution' for order cases, else the ticket family"
    )
    difficulty: str = Field(default="", description="easy, medium or hard")
    instructions: str = Field(default="", description="What a ticket task asks of the agent")
    customer_id: str = ""
    customer_name: str = ""
    issue_description: str = Field(
        default="", description="The customer's opening message (a ticket's text)"
    )
    ticket_id: str = ""
    ticket_subject: str = ""
    requested_fields: list[str] = Field(
        default_factory=list, description="The fields extract_info must submit"
    )
    account_on_file: dict[str, str] = Field(
        default_factory=dict,
        description="The CRM record support staff see (account_recovery); not the customer's "
        "to read before verification",
    )
    kb_results: list[KbResult] = Field(
        default_factory=list,
        description="Articles the searches so far returned, in order of first appearance",
    )
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
        default_factory=dict,
        description="Order cases: this step's reward split by grade term. Tickets: the change "
        "of each grade component (unweighted)",
    )
    final_score: float | None = Field(default=None, description="The episode's grade, when done")
    rules_version: str = Field(
        default="",
        description="The rule-set version this episode plays (as /admin/rules/version names "
        "it; a policy variant is drawn from it)",
    )
    truncated: bool = Field(
        default=False, description="The episode hit its step limit (not a natural end)"
    )
    termination: TerminationReason | None = Field(default=None, description="Why it ended")
    ground_truth: GroundTruth | None = Field(
        default=None, description="The hidden truth, on the terminal observation only"
    )
    grader_notes: dict[str, str] = Field(
        default_factory=dict,
        description="Per grade term, in plain words, why it scored what it did (at the end)",
    )


class NovamartState(State):
    """Episode bookkeeping for ``/state`` and the WS ``state`` message."""

    task: str = ""
    seed: int | None = None
    mode: str = Field(default="", description="guided or closed_book (order cases)")
    policy_variant: int | None = Field(default=None, description="The policy variant played")
    max_steps: int = 0
    done: bool = False
    resolution: str | None = Field(default=None, description="The resolution executed, if any")
    grade: float = Field(default=0.0, description="The running grade (sum of rewards so far)")
    grade_terms: dict[str, float] = Field(
        default_factory=dict,
        description="The running grade's weighted terms, before clipping (tickets: the "
        "grade's components)",
    )
    final_score: float | None = None
    truncated: bool = False
    termination: TerminationReason | None = None
    ground_truth: GroundTruth | None = None
    grader_notes: dict[str, str] = Field(default_factory=dict)
