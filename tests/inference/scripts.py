"""The stand-in's scripts: a stateless planner that plays every task, and a faulty server.

The planner reads what a model would read, the case brief (the first user message) and the
tool results sent back, so it only plays well if the client shows the case: the ticket text,
the requested fields, the search results. Every episode also makes one call to an unknown
tool and one with malformed arguments, which the environment must score, not the client
repair.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable
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
HAZARDS = ("bulging", "swollen", "burning", "smoke", "lawyer", "legal", "fraud", "hacked")
CATEGORY_WORDS = {
    "billing": ("charged", "payment", "invoice"),
    "shipping": ("delivery", "parcel", "tracking"),
    "returns": ("return", "exchange"),
    "account": ("password", "locked", "log in"),
}
PATTERNS = {"order_id": r"\bNM-\d{6}\b", "email": r"[\w.+-]+@[\w-]+(?:\.[\w-]+)+"}


class Case:
    """What the model was told so far: the brief's fields and the tool results."""

    def __init__(self, body: dict[str, Any]) -> None:
        messages = body["messages"]
        self.brief: str = next(m["content"] for m in messages if m["role"] == "user")
        task = re.search(r"New case \((\w+)\)", self.brief)
        assert task, f"the case brief names no task: {self.brief!r}"
        self.task = task[1]
        self.turn = sum(m["role"] == "assistant" for m in messages)
        self.reports = [json.loads(m["content"]) for m in messages if m["role"] == "tool"]
        self.heard = " ".join(
            str(m.get("content") or "") for m in messages[1:] if m["role"] != "assistant"
        )
        """Everything sent back since the brief (tool reports, the replies to plain text)."""

    def field(self, name: str) -> str:
        """A one-line field of the brief, or a multi-line one joined (its lines indented)."""
        match = re.search(rf"^{name}(?: \(.*\))?:(.*(?:\n  .*)*)", self.brief, re.MULTILINE)
        assert match, f"the case brief has no {name}: {self.brief!r}"
        return " ".join(line.strip() for line in match[1].splitlines() if line.strip())

    def json_field(self, name: str) -> Any:
        return json.loads(self.field(name))

    def question(self) -> str:
        """The ticket's longest line: its substance, without greeting and signature."""
        match = re.search(r"^issue_description.*:\n((?:  .*\n?)+)", self.brief, re.MULTILINE)
        assert match, f"the case brief has no ticket text: {self.brief!r}"
        return max((line.strip() for line in match[1].splitlines()), key=len)

    def article(self) -> dict[str, Any]:
        """The first article of the last search: the updates must list it as a kb_result."""
        search = next(r for r in reversed(self.reports) if "kb_results" in r.get("updates", {}))
        first = search["result"]["results"][0]
        assert first["id"] in [a["article_id"] for a in search["updates"]["kb_results"]]
        return first


def _reply(case: Case) -> str:
    """A short answer in the article's words: its first sentences (headings and bullet lists
    left out, numbering dropped), citing it; pasting it whole would be penalised."""
    article = case.article()
    lines = [line.strip() for line in article["text"].splitlines()]
    prose = " ".join(
        re.sub(r"^\d+\.\s*", "", line)
        for line in lines
        if line and not line.endswith(":") and not line.startswith("- ")
    )
    summary = " ".join(re.split(r"(?<=[.!?])\s+", prose)[:3])
    first = case.field("customer_name").split()[0]
    return (
        f"Hello {first}, thank you for contacting NovaMart. {summary} (see {article['id']}) "
        "Kind regards, NovaMart Support"
    )


def _classify(case: Case) -> Answer:
    words = case.question().lower()
    category = next((c for c, ws in CATEGORY_WORDS.items() if any(w in words for w in ws)), None)
    choice = {"category": category or "technical", "priority": "high"}
    return tool_calls(("classify_ticket", json.dumps(choice)))


def _extract(case: Case) -> Answer:
    text_ = case.field("issue_description")
    found = {}
    for name in case.json_field("requested_fields"):
        match = re.search(PATTERNS.get(name, r"(?!)"), text_)
        found[name] = match[0] if match else None
    return tool_calls(("extract_info", json.dumps({"fields": found})))


def _search(case: Case) -> Answer:
    return tool_calls(("search_kb", json.dumps({"query": case.question()})))


def _respond(case: Case) -> Answer:
    return tool_calls(("respond_to_customer", json.dumps({"message": _reply(case)})))


def _answer_as_text(case: Case) -> Answer:
    """The answer as a plain reply: the client sends it through respond_to_customer."""
    return text(_reply(case))


def _escalate_if_unsafe(case: Case) -> Answer:
    question = case.question().lower()
    if not any(word in question for word in HAZARDS):
        return _respond(case)
    reason = f"Unsafe to leave: {case.question()[:200]}"
    return tool_calls(("escalate_to_manager", json.dumps({"reason": reason})))


Move = Callable[[Case], Answer]


def _unknown(_case: Case) -> Answer:
    return tool_calls((UNKNOWN_TOOL, "{}"))


def _malformed(tool: str) -> Move:
    return lambda _case: tool_calls((tool, MALFORMED_ARGUMENTS))


TICKET_PLANS: dict[str, list[Move]] = {
    "ticket_triage": [_unknown, _malformed("classify_ticket"), _classify],
    "data_extraction": [_malformed("extract_info"), _unknown, _extract],
    "kb_grounded_response": [_search, _unknown, _malformed("respond_to_customer"), _answer_as_text],
    "escalation_safety": [
        _search,
        _unknown,
        _escalate_if_unsafe,
        _malformed("search_kb"),
        _respond,
    ],
    "account_recovery": [_unknown, _search, _malformed("respond_to_customer"), _respond],
}
"""The sensible run of each ticket task with the two faults mixed in; its last move closes
the ticket."""


def _order_plan(case: Case) -> Answer:
    """Two parallel investigations, a defect check, a plain-text reply, an unknown tool,
    malformed arguments, an escalation, then closing messages."""
    order = re.search(r"ORD-\d+", case.brief)
    customer = re.search(r"CUST-\d+", case.brief)
    assert order and customer, f"the case brief names no order/customer: {case.brief!r}"
    by_order = json.dumps({"order_id": order[0]})
    plan = [
        lambda: tool_calls(
            ("lookup_order", by_order),
            ("check_loyalty", json.dumps({"customer_id": customer[0]})),
        ),
        lambda: tool_calls(("verify_defect", by_order)),
        lambda: text("Thank you for your patience, I am checking your case now."),
        lambda: tool_calls((UNKNOWN_TOOL, "{}")),
        lambda: tool_calls(("lookup_order", MALFORMED_ARGUMENTS)),
        lambda: tool_calls(
            ("escalate_to_manager", json.dumps({"order_id": order[0], "reason": "needs review"}))
        ),
    ]
    if case.turn < len(plan):
        return plan[case.turn]()
    return text("Thank you! Your case is now with a manager, who will contact you soon.")


def _retail_plan(case: Case) -> Answer:
    """Ask who the customer is (a plain-text reply), authenticate with the email or the name
    and zip it gives, look up the account, an unknown tool, malformed arguments, a close."""
    said = case.heard
    email = re.search(PATTERNS["email"], said)
    named = re.search(r"I'm ([^,]+), zip code (\w+)", said)
    who = {"email": email[0].rstrip(".")} if email else {}
    if named and not email:
        who = {"name": named[1], "zip": named[2]}
    found = re.search(r'"customer_id": "(user_\d+)"', said)
    plan = [
        lambda: text("Hello! Could you give me the email on your account, or your name and zip?"),
        lambda: tool_calls(("find_customer", json.dumps(who or {"email": "nobody@example.com"}))),
        lambda: tool_calls(
            ("lookup_customer", json.dumps({"customer_id": found[1] if found else "nobody"}))
        ),
        lambda: tool_calls((UNKNOWN_TOOL, "{}")),
        lambda: tool_calls(("lookup_order", MALFORMED_ARGUMENTS)),
    ]
    if case.turn < len(plan):
        return plan[case.turn]()
    return text("Thank you, I have noted your requests and will follow up shortly.")


def planner(body: dict[str, Any], _index: int) -> Answer:
    """Plays by the turn number (assistant messages so far); stateless, so concurrent runs
    can share it."""
    case = Case(body)
    plan = TICKET_PLANS.get(case.task)
    if case.task.startswith("retail_"):
        return _retail_plan(case)
    if plan is None:
        return _order_plan(case)
    return plan[min(case.turn, len(plan) - 1)](case)


SLOW_S = 3.0
FAULTS = [
    # first episode: a 500, then garbage: with --retries 1 it ends before any step
    status(500),
    GARBAGE,
    # second: a slow reply (timed out), then a well-formed call (the env refuses the tool);
    # then JSON that is no completion and a 503: the episode ends after one step
    Answer(body=tool_calls(("lookup_order", '{"order_id": "x"}')).body, delay_s=SLOW_S),
    tool_calls(("lookup_order", '{"order_id": "ORD-1"}')),
    WRONG_JSON,
    status(503),
]


def faulty(_body: dict[str, Any], index: int) -> Answer:
    """FAULTS in order, then HTTP 500 for ever (later episodes never get a reply)."""
    return FAULTS[index] if index < len(FAULTS) else status(500)
