"""Tool argument models and their validation, shared by the order tools and the ticket tools.

This module imports only pydantic, so the ticket families can validate with the very models
that give ``/mcp`` its schemas: a tool name offered by both kinds of task
(``escalate_to_manager``, ``respond_to_customer``) has exactly one schema.
"""

from __future__ import annotations

from typing import Annotated, Any

from pydantic import BaseModel, ConfigDict, Field, StringConstraints, ValidationError

OrderId = Annotated[
    str, Field(min_length=1, max_length=64, description="The order id, e.g. ORD-100001")
]
MESSAGE_LIMIT = 4000
Message = Annotated[
    str, StringConstraints(strip_whitespace=True, min_length=1, max_length=MESSAGE_LIMIT)
]


class ToolArgs(BaseModel):
    """Arguments of one tool; unknown keys are refused."""

    model_config = ConfigDict(extra="forbid", frozen=True)


ESCALATE = (
    "Escalate the case to a manager or specialist team, saying why; once per case. In an order "
    "case (order_id required) it is allowed only when an escalation policy applies on the "
    "established facts; on a support ticket (no order_id) escalate when it is unsafe not to."
)
RESPOND = (
    "Send the customer a message. In an order case, read their reply; explain decisions with "
    "the real policy reason and confirm what was done and the amount. On a support ticket the "
    "reply closes the ticket."
)


class EscalateArgs(ToolArgs):
    order_id: OrderId | None = Field(
        default=None,
        description="The order id; required in order cases, not needed on support tickets",
    )
    reason: str = Field(min_length=1, max_length=1000, description="Why a manager should look")


class RespondArgs(ToolArgs):
    message: Message


def describe(error: ValidationError) -> str:
    """A validation error in one line: 'where: what' per problem."""
    parts = []
    for item in error.errors(include_url=False):
        where = ".".join(str(p) for p in item["loc"]) or "arguments"
        parts.append(f"{where}: {item['msg']}")
    return "; ".join(parts)


def signature(name: str, schema: dict[str, Any]) -> str:
    """``name(arg (type), ...)`` from a tool's JSON schema, for error messages."""
    properties = schema.get("properties", {})
    fields = ", ".join(f"{n} ({p.get('type', 'any')})" for n, p in properties.items())
    return f"{name}({fields})"


def json_schema(args: type[ToolArgs]) -> dict[str, Any]:
    """The JSON schema MCP clients see for ``args``."""
    schema = args.model_json_schema()
    schema.pop("title", None)
    return schema
