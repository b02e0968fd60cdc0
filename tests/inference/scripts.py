"""The stand-in's scripts: a stateless planner that plays a case, and a faulty server."""

from __future__ import annotations

import json
import re
from typing import Any

from tests.inference.standin import (
    GARBAGE,
    WRONG_JSON,
    Answer,
    status,
    text,
    tool_calls,
)

UNKNOWN_TOOL = "teleport_parcel"
MALFORMED_ARGUMENTS = '{"order_id": '


def _case_ids(body: dict[str, Any]) -> tuple[str, str]:
    brief = next(m["content"] for m in body["messages"] if m["role"] == "user")
    order = re.search(r"ORD-\d+", brief)
    customer = re.search(r"CUST-\d+", brief)
    assert order and customer, f"the case brief names no order/customer: {brief!r}"
    return order.group(0), customer.group(0)


def planner(body: dict[str, Any], _index: int) -> Answer:
    """Plays by the turn number (assistant messages so far): two parallel investigations,
    a defect check, a plain-text reply, an unknown tool, malformed arguments, an
    escalation, then closing messages. Stateless, so concurrent runs can share it."""
    order, customer = _case_ids(body)
    turn = sum(m["role"] == "assistant" for m in body["messages"])
    by_order = json.dumps({"order_id": order})
    plan = [
        lambda: tool_calls(
            ("lookup_order", by_order),
            ("check_loyalty", json.dumps({"customer_id": customer})),
        ),
        lambda: tool_calls(("verify_defect", by_order)),
        lambda: text("Thank you for your patience, I am checking your case now."),
        lambda: tool_calls((UNKNOWN_TOOL, "{}")),
        lambda: tool_calls(("lookup_order", MALFORMED_ARGUMENTS)),
        lambda: tool_calls(
            ("escalate_to_manager", json.dumps({"order_id": order, "reason": "needs review"}))
        ),
    ]
    if turn < len(plan):
        return plan[turn]()
    return text("Thank you! Your case is now with a manager, who will contact you soon.")


SLOW_S = 3.0
FAULTS = [
    # easy: a 500, then garbage: with --retries 1 the episode ends before any step
    status(500),
    GARBAGE,
    # medium: a slow reply (timed out), then a good call; then JSON that is no completion
    # and a 503: the episode ends after one step
    Answer(body=tool_calls(("lookup_order", '{"order_id": "x"}')).body, delay_s=SLOW_S),
    tool_calls(("lookup_order", '{"order_id": "ORD-1"}')),
    WRONG_JSON,
    status(503),
]


def faulty(_body: dict[str, Any], index: int) -> Answer:
    """FAULTS in order, then HTTP 500 for ever (the hard task never gets a reply)."""
    return FAULTS[index] if index < len(FAULTS) else status(500)
