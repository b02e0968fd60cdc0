"""The heuristic agent: no access to the truth. It investigates, asks check_policy, executes
the best resolution a policy grants, and explains any refusal with the policy's reasons.

Order of work: the order; the must-escalate policy when the message sounds like a safety,
legal or fraud sign; the standard return; a claimed defect (verify, then the defect policy);
loyalty goodwill; and escalation only when nothing else is eligible. It retries a tool that is
temporarily unavailable. Closed book (no check_policy) it applies the handbook to what it
looked up, and escalates what sounds like a sign.
"""

from __future__ import annotations

import re
from typing import Any

from novamart.agents import handbook_reader
from novamart.agents.base import Agent, Script, attempt, call, closing_message
from novamart.agents.fact_reader import carry_out, look_up
from novamart.agents.retail.heuristic import heuristic_play
from novamart.episode import Episode
from novamart.models import NovamartObservation
from novamart.tickets import agents as ticket_agents

DEFECT_CLAIM = re.compile(
    r"defect|broken|faulty|won't|doesn't work|stopped|not working|dead|flicker|crackle", re.I
)
GRANT_TOOLS = {
    "full_refund": "process_refund",
    "store_credit": "issue_store_credit",
    "exchange": "process_exchange",
    "escalate": "escalate_to_manager",
}
REFUND_POLICIES = ("standard_return", "defective_item")
SIGN = re.compile(
    r"swollen|bulg|puffed up|smoke|burning|scorched|too hot to touch|legal action|lawyer|"
    r"solicitor|court|\bsue\b|hacked|someone else logged in|unauthori[sz]ed charge|"
    r"charges i never made|never placed",
    re.I,
)


class HeuristicAgent(Agent):
    name = "heuristic"
    ticket_script = ticket_agents.heuristic
    retail_script = heuristic_play

    def script(self, first: NovamartObservation, episode: Episode | None) -> Script:
        if "check_policy" not in first.available_actions:
            yield from self.closed_book(first)
            return
        order = {"order_id": first.order_id}
        verdicts: dict[str, dict[str, Any]] = {}
        yield from attempt(call("lookup_order", **order))
        steps: list[tuple[str | None, str]] = [(None, "standard_return")]
        if SIGN.search(first.issue_description):
            steps.insert(0, (None, "mandatory_escalation"))
        if DEFECT_CLAIM.search(first.issue_description):
            steps.append(("verify_defect", "defective_item"))
        steps += [("check_loyalty", "loyalty_goodwill"), ("verify_defect", "escalation")]
        done: set[str] = set()
        grant = None
        for tool, policy in steps:
            if tool and tool not in done:
                done.add(tool)
                arg = {"customer_id": first.customer_id} if tool == "check_loyalty" else order
                yield from attempt(call(tool, **arg))
            observation = yield from attempt(call("check_policy", policy=policy, **order))
            verdicts[policy] = observation.last_tool_result or {}
            if verdicts[policy].get("grants"):
                grant = verdicts[policy]["grants"][0]
                break
        if grant is None:
            return
        args: dict[str, Any] = dict(order)
        if grant["resolution"] in ("full_refund", "store_credit"):
            args["amount"] = grant["amount"]
        if grant["resolution"] == "escalate":
            args["reason"] = "No return, defect or goodwill policy covers this case."
        yield from attempt(call(GRANT_TOOLS[grant["resolution"]], **args))
        reasons = []
        if grant["resolution"] != "full_refund":
            reasons = [
                f["reason"] for p in REFUND_POLICIES for f in verdicts.get(p, {}).get("failed", [])
            ]
        message = closing_message(
            first.customer_name, grant["resolution"], grant["amount"], reasons
        )
        observation = yield call("respond_to_customer", message=message)
        if not observation.done:
            yield call("respond_to_customer", message=f"To be clear: {message}")

    def closed_book(self, first: NovamartObservation) -> Script:
        """The handbook applied to every lookup; a sign in the message goes to a manager."""
        book = handbook_reader.read(first.instructions)
        facts = yield from look_up(first)
        allowed = book.allowed(facts)
        if SIGN.search(first.issue_description):
            allowed = [("escalate", 0.0)]
        if allowed:
            yield from carry_out(first, book, *allowed[0])
