"""Scripts that look everything up and then follow a fixed rule: the reference exploits an
optimiser finds once investigating pays.

- ``fact_reader`` runs the three lookups and applies the handbook as printed (the windows and
  percentages it reads: the episode's own handbook closed book, the published one otherwise),
  blind to what the customer's message says.
- ``always_refund``, ``always_credit``, ``always_escalate`` run the same lookups, then carry
  out one resolution whatever the case, for the amount the handbook sets for it: the scripts
  that pick the resolution from the task name.
"""

from __future__ import annotations

from typing import Any, ClassVar

from novamart.agents import handbook_reader
from novamart.agents.base import Agent, Script, attempt, call, closing_message
from novamart.agents.retail.heuristic import return_all_play, status_play
from novamart.episode import Episode
from novamart.kb.handbook import handbook
from novamart.kernel import default_kernel
from novamart.models import NovamartObservation

LOOKUPS = (("lookup_order", "order", "order_id"), ("check_loyalty", "customer", "customer_id"))
LOOKUPS += (("verify_defect", "defect_check", "order_id"),)
"""Tool, the fact kind it reports, and the id it takes."""


def published() -> str:
    """The handbook of the rules as published (not of any variant being played)."""
    return handbook(default_kernel().rulebook)


def look_up(first: NovamartObservation) -> Script:
    """Run every lookup (retrying transient failures); the facts are the value."""
    ids = {"order_id": first.order_id, "customer_id": first.customer_id}
    facts: handbook_reader.Facts = {}
    for tool, kind, arg in LOOKUPS:
        observation = yield from attempt(call(tool, **{arg: ids[arg]}))
        result = observation.last_tool_result or {}
        if result.get("ok"):
            facts |= {f"{kind}.{k}": v for k, v in result.items() if k != "ok"}
    return facts


def carry_out(
    first: NovamartObservation, book: handbook_reader.Handbook, resolution: str, amount: float
) -> Script:
    """Carry ``resolution`` out with its tool, then confirm it to the customer."""
    arguments: dict[str, Any] = {"order_id": first.order_id}
    tool = book.tools.get(resolution, "escalate_to_manager")
    if tool in ("process_refund", "issue_store_credit"):
        arguments["amount"] = amount
    if tool == "escalate_to_manager":
        arguments["reason"] = "The policies send this case to a manager."
    yield from attempt(call(tool, **arguments))
    message = closing_message(first.customer_name, resolution, amount, [])
    yield call("respond_to_customer", message=message)


class FactReaderAgent(Agent):
    name = "fact_reader"
    retail_script = status_play

    def script(self, first: NovamartObservation, episode: Episode | None) -> Script:
        book = handbook_reader.read(first.instructions or published())
        facts = yield from look_up(first)
        allowed = book.allowed(facts)
        if allowed:
            yield from carry_out(first, book, *allowed[0])


class FixedResolutionAgent(Agent):
    """Looks everything up, then carries out ``resolution`` whatever the case."""

    resolution: ClassVar[str]

    def script(self, first: NovamartObservation, episode: Episode | None) -> Script:
        book = handbook_reader.read(first.instructions or published())
        facts = yield from look_up(first)
        yield from carry_out(first, book, self.resolution, book.amount_for(self.resolution, facts))


class AlwaysRefundAgent(FixedResolutionAgent):
    name = "always_refund"
    retail_script = return_all_play
    resolution = "full_refund"


class AlwaysCreditAgent(FixedResolutionAgent):
    name = "always_credit"
    resolution = "store_credit"


class AlwaysEscalateAgent(FixedResolutionAgent):
    name = "always_escalate"
    resolution = "escalate"
