"""The ticket tools: plain functions over a ``TicketState`` that return ``ToolResult``s.

Bad arguments come back as errors (code + message), never as exceptions, and a decision
(classification, extraction, escalation, reply) is final once made: trying answers one
after another against the step reward is not possible.
"""

from __future__ import annotations

import inspect
from collections.abc import Callable
from typing import Any

from novamart.kb import default_kb
from novamart.tickets.model import CATEGORIES, PRIORITIES, ToolResult
from novamart.tickets.state import Search, TicketState

MAX_SEARCHES = 3
MAX_TEXT = 40_000
SEARCH_RESULTS = 3


def _text_problem(tool: str, name: str, value: object) -> ToolResult | None:
    if not isinstance(value, str) or not value.strip():
        return ToolResult.failure(tool, "invalid_argument", f"{name} must be non-empty text")
    if len(value) > MAX_TEXT:
        return ToolResult.failure(
            tool, "invalid_argument", f"{name} is {len(value)} characters; the limit is {MAX_TEXT}"
        )
    return None


def classify_ticket(state: TicketState, category: str, priority: str) -> ToolResult:
    """Route the ticket: one category and one priority, once."""
    tool = "classify_ticket"
    if state.category is not None:
        return ToolResult.failure(tool, "already_done", "the ticket is already classified")
    for name, value, allowed in (
        ("category", category, CATEGORIES),
        ("priority", priority, PRIORITIES),
    ):
        if value not in allowed:
            return ToolResult.failure(
                tool, "invalid_argument", f"{name} {value!r} is not one of {', '.join(allowed)}"
            )
    state.category, state.priority = category, priority
    return ToolResult.success(tool, category=category, priority=priority)


def extract_info(state: TicketState, fields: dict[str, Any]) -> ToolResult:
    """Submit the requested fields (text, or null for a field the ticket does not state)."""
    tool = "extract_info"
    requested = state.scenario.ticket.requested_fields
    if state.extraction is not None:
        return ToolResult.failure(tool, "already_done", "the fields were already submitted")
    if not isinstance(fields, dict):
        return ToolResult.failure(tool, "invalid_argument", "fields must be an object")
    unknown = sorted(set(fields) - set(requested))
    if unknown:
        return ToolResult.failure(
            tool,
            "invalid_argument",
            f"unrequested field(s) {', '.join(unknown)}; requested: {', '.join(requested)}",
        )
    bad = sorted(k for k, v in fields.items() if v is not None and not isinstance(v, str))
    if bad:
        return ToolResult.failure(
            tool, "invalid_argument", f"field(s) {', '.join(bad)} must be text or null"
        )
    state.extraction = {k: fields.get(k) for k in requested}
    return ToolResult.success(tool, fields=state.extraction)


def search_kb(state: TicketState, query: str) -> ToolResult:
    """Search the help centre; returns the best articles with their full text."""
    tool = "search_kb"
    if problem := _text_problem(tool, "query", query):
        return problem
    if len(state.searches) >= MAX_SEARCHES:
        return ToolResult.failure(
            tool, "limit_reached", f"at most {MAX_SEARCHES} searches per ticket"
        )
    kb = default_kb()
    hits = kb.search(query, SEARCH_RESULTS)
    state.searches.append(Search(query=query, hits=tuple(h.id for h in hits)))
    results = [
        {"id": h.id, "title": kb.articles[h.id].title, "text": kb.articles[h.id].body} for h in hits
    ]
    return ToolResult.success(tool, query=query, results=results)


def escalate_to_manager(state: TicketState, reason: str) -> ToolResult:
    """Hand the ticket to a specialist team, saying why; once per ticket."""
    tool = "escalate_to_manager"
    if problem := _text_problem(tool, "reason", reason):
        return problem
    if state.escalation_reason is not None:
        return ToolResult.failure(tool, "already_done", "the ticket is already escalated")
    if state.response is not None:
        return ToolResult.failure(tool, "already_done", "the reply was already sent")
    state.escalation_reason = reason
    return ToolResult.success(tool, escalated=True, ticket_id=state.scenario.ticket.ticket_id)


def respond_to_customer(state: TicketState, message: str) -> ToolResult:
    """Send the reply to the customer; this closes the ticket."""
    tool = "respond_to_customer"
    if problem := _text_problem(tool, "message", message):
        return problem
    if state.response is not None:
        return ToolResult.failure(tool, "already_done", "the reply was already sent")
    state.response = message
    return ToolResult.success(tool, sent=True)


TOOLS: dict[str, Callable[..., ToolResult]] = {
    f.__name__: f
    for f in (classify_ticket, extract_info, search_kb, escalate_to_manager, respond_to_customer)
}


def call_tool(
    state: TicketState, name: str, arguments: dict[str, Any], allowed: tuple[str, ...]
) -> ToolResult:
    """Run tool ``name`` if this task offers it, checking the argument names first."""
    if name not in allowed:
        return ToolResult.failure(
            name,
            "unavailable_tool",
            f"{name!r} is not a tool of this task; use one of {', '.join(allowed)}",
        )
    if not isinstance(arguments, dict):
        return ToolResult.failure(name, "invalid_argument", "arguments must be an object")
    params = list(inspect.signature(TOOLS[name]).parameters)[1:]
    missing = [p for p in params if p not in arguments]
    extra = sorted(set(arguments) - set(params))
    if missing or extra:
        parts = [f"missing {', '.join(missing)}"] if missing else []
        parts += [f"unexpected {', '.join(extra)}"] if extra else []
        return ToolResult.failure(
            name, "invalid_argument", f"{'; '.join(parts)} (takes: {', '.join(params)})"
        )
    return TOOLS[name](state, **arguments)
