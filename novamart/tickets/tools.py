"""The ticket tools: plain functions over a ``TicketState`` that return ``ToolResult``s.

Arguments are validated with pydantic models (the same models give ``/mcp`` its schemas; the
two tools order cases share, ``escalate_to_manager`` and ``respond_to_customer``, use the
order tools' models). Bad arguments come back as errors (code + message), never as
exceptions, and a decision (classification, extraction, escalation, reply) is final once
made: trying answers one after another against the step reward is not possible.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Annotated, Any

from pydantic import Field, StringConstraints, ValidationError

from novamart.kb import default_kb
from novamart.tickets.model import Category, Priority, ToolResult
from novamart.tickets.state import Search, TicketState
from novamart.tools.args import (
    ESCALATE,
    RESPOND,
    EscalateArgs,
    RespondArgs,
    ToolArgs,
    describe,
    json_schema,
    signature,
)

MAX_SEARCHES = 3
SEARCH_RESULTS = 3
Query = Annotated[str, StringConstraints(strip_whitespace=True, min_length=1, max_length=1000)]
FieldValue = Annotated[str, Field(max_length=500)]


class ClassifyArgs(ToolArgs):
    category: Category
    priority: Priority


class ExtractArgs(ToolArgs):
    fields: dict[str, FieldValue | None] = Field(
        description="Each requested field -> its value as written in the ticket, or null when "
        "the ticket does not state it"
    )


class SearchArgs(ToolArgs):
    query: Query


def classify_ticket(state: TicketState, args: ClassifyArgs) -> ToolResult:
    """Route the ticket: one category and one priority, once."""
    tool = "classify_ticket"
    if state.category is not None:
        return ToolResult.failure(tool, "already_done", "the ticket is already classified")
    state.category, state.priority = args.category, args.priority
    return ToolResult.success(tool, category=args.category, priority=args.priority)


def extract_info(state: TicketState, args: ExtractArgs) -> ToolResult:
    """Submit the requested fields (text, or null for a field the ticket does not state)."""
    tool = "extract_info"
    requested = state.scenario.ticket.requested_fields
    if state.extraction is not None:
        return ToolResult.failure(tool, "already_done", "the fields were already submitted")
    unknown = sorted(set(args.fields) - set(requested))
    if unknown:
        return ToolResult.failure(
            tool,
            "invalid_arguments",
            f"unrequested field(s) {', '.join(unknown)}; requested: {', '.join(requested)}",
        )
    state.extraction = {k: args.fields.get(k) for k in requested}
    return ToolResult.success(tool, fields=state.extraction)


def search_kb(state: TicketState, args: SearchArgs) -> ToolResult:
    """Search the help centre; returns the best articles with their full text."""
    tool = "search_kb"
    if len(state.searches) >= MAX_SEARCHES:
        return ToolResult.failure(
            tool, "limit_reached", f"at most {MAX_SEARCHES} searches per ticket"
        )
    kb = default_kb()
    hits = kb.search(args.query, SEARCH_RESULTS)
    state.searches.append(Search(query=args.query, hits=tuple(h.id for h in hits)))
    results = [
        {"id": h.id, "title": kb.articles[h.id].title, "text": kb.articles[h.id].body} for h in hits
    ]
    return ToolResult.success(tool, query=args.query, results=results)


def escalate_to_manager(state: TicketState, args: EscalateArgs) -> ToolResult:
    """Hand the ticket to a specialist team, saying why; once per ticket. The answer carries
    the kernel's verdict on the ticket's must-escalate policy, when the task has one."""
    tool = "escalate_to_manager"
    if state.escalation_reason is not None:
        return ToolResult.failure(tool, "already_done", "the ticket is already escalated")
    if state.response is not None:
        return ToolResult.failure(tool, "already_done", "the reply was already sent")
    state.escalation_reason = args.reason
    policy = {"policy": state.verdict} if state.verdict else {}
    return ToolResult.success(
        tool, escalated=True, ticket_id=state.scenario.ticket.ticket_id, **policy
    )


def respond_to_customer(state: TicketState, args: RespondArgs) -> ToolResult:
    """Send the reply to the customer; this closes the ticket."""
    tool = "respond_to_customer"
    if state.response is not None:
        return ToolResult.failure(tool, "already_done", "the reply was already sent")
    state.response = args.message
    return ToolResult.success(tool, sent=True)


@dataclass(frozen=True)
class TicketTool:
    name: str
    description: str
    args: type[ToolArgs]
    run: Callable[[TicketState, Any], ToolResult]
    schema: dict[str, Any] = field(init=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "schema", json_schema(self.args))


TOOLS: dict[str, TicketTool] = {
    t.name: t
    for t in (
        TicketTool(
            "classify_ticket",
            "Route a support ticket: its category (billing, technical, returns, shipping, "
            "account) and priority (low, medium, high, urgent). Final once made.",
            ClassifyArgs,
            classify_ticket,
        ),
        TicketTool(
            "extract_info",
            "Submit the fields the ticket asks for, as an object field -> value (null when the "
            "ticket does not state it). Final once made.",
            ExtractArgs,
            extract_info,
        ),
        TicketTool(
            "search_kb",
            f"Search the NovaMart help centre; returns the {SEARCH_RESULTS} best articles (id, "
            f"title, full text). At most {MAX_SEARCHES} searches per ticket.",
            SearchArgs,
            search_kb,
        ),
        TicketTool(
            "escalate_to_manager",
            ESCALATE,
            EscalateArgs,
            escalate_to_manager,
        ),
        TicketTool(
            "respond_to_customer",
            RESPOND,
            RespondArgs,
            respond_to_customer,
        ),
    )
}


def call_tool(
    state: TicketState, name: str, arguments: dict[str, Any], allowed: tuple[str, ...]
) -> ToolResult:
    """Run tool ``name`` if this task offers it, validating the arguments first."""
    if name not in allowed:
        return ToolResult.failure(
            name,
            "unknown_tool",
            f"{name!r} is not a tool of this task; use one of {', '.join(allowed)}",
        )
    tool = TOOLS[name]
    try:
        args = tool.args.model_validate(arguments)
    except ValidationError as error:
        return ToolResult.failure(
            name,
            "invalid_arguments",
            f"bad arguments for {name}: {describe(error)}; expected {signature(name, tool.schema)}",
        )
    return tool.run(state, args)
