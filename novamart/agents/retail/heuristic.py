"""The retail heuristic and the fixed-choice scripts: no hidden state, only what the tools
say. Each authenticates the customer from its reply, looks up every order, takes the orders
whose products the opening names, and per order carries out one write: the heuristic the
best one check_action allows on the whole order (the way the order-case heuristic reads
check_policy), a fixed-choice script its one resolution whatever the case. Neither reads what
the customer asked for beyond the products, so neither knows which items, variants or
changes it wants: the headroom the retail family must show."""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

from novamart.agents.base import Script, call
from novamart.agents.retail import talk
from novamart.models import NovamartObservation
from novamart.retail.session import RetailSession
from novamart.scenarios.retail_world import retail_kernel

_EMAIL = re.compile(r"[\w.+-]+@[\w-]+(?:\.[\w-]+)+")
_NAME_ZIP = re.compile(r"I'm ([^,]+), zip code (\w+)")
Choose = Callable[[dict[str, Any], list[dict[str, Any]]], dict[str, Any] | None]
"""Given an order (lookup_order) and the verdicts check_action gave (none closed book), the
write to carry out: a verdict's resolution and arguments."""


def result(observation: NovamartObservation) -> dict[str, Any]:
    return observation.last_tool_result or {}


def best_allowed(order: dict[str, Any], verdicts: list[dict[str, Any]]) -> dict[str, Any] | None:
    allowed = [v for v in verdicts if v["status"] == "allowed"]
    return max(allowed, key=lambda v: v["quality"]) if allowed else None


def by_status(order: dict[str, Any], verdicts: list[dict[str, Any]]) -> dict[str, Any] | None:
    """Closed book: return a delivered order's items, cancel a pending one."""
    items = [i["item_id"] for i in order["items"]]
    if order["status"] == "delivered":
        arguments = {"item_ids": items, "payment_method_id": order["paid_with"]}
        return {"resolution": "return_items", "arguments": arguments, "amount": None}
    if order["status"] == "pending":
        return {"resolution": "cancel_order", "arguments": {}, "amount": None}
    return None


def fixed(resolution: str) -> Choose:
    """One resolution whatever the case, on the whole order."""

    def choose(order: dict[str, Any], verdicts: list[dict[str, Any]]) -> dict[str, Any] | None:
        known = {v["resolution"]: v for v in verdicts}
        if resolution in known:
            return known[resolution]
        items = [i["item_id"] for i in order["items"]]
        arguments = {"item_ids": items, "payment_method_id": order["paid_with"]}
        return {"resolution": resolution, "arguments": arguments, "amount": None}

    return choose


def identify(reply: str) -> dict[str, str] | None:
    if found := _EMAIL.search(reply):
        return {"email": found.group(0).rstrip(".")}
    if found := _NAME_ZIP.search(reply):
        return {"name": found.group(1), "zip": found.group(2)}
    return None


def play(first: NovamartObservation, choose: Choose) -> Script:
    rules = retail_kernel().rulebook
    observation = yield call("respond_to_customer", message=talk.IDENTITY)
    who = identify(str(result(observation).get("customer_reply", "")))
    if who is None:
        return
    found = result((yield call("find_customer", **who)))
    if not found.get("ok"):
        return
    account = result((yield call("lookup_customer", customer_id=found["customer_id"])))
    opening = first.issue_description.lower()
    guided = "check_action" in first.available_actions
    for listed in account.get("orders", []):
        order = result((yield call("lookup_order", order_id=listed["order_id"])))
        if not any(i["product"].lower() in opening for i in order.get("items", [])):
            continue
        verdicts = []
        if guided:
            verdicts = result((yield call("check_action", order_id=order["order_id"])))["verdicts"]
        chosen = choose(order, verdicts)
        if chosen is None:
            reasons = [r for v in verdicts for r in v["reasons"]][:2]
            yield call("respond_to_customer", message=_sorry(order["order_id"], reasons))
            continue
        spec = rules.resolutions[chosen["resolution"]]
        arguments = {**chosen["arguments"], "order_id": order["order_id"]}
        listed_details = _details(chosen["resolution"], arguments, chosen.get("amount"))
        yield call(
            "respond_to_customer",
            message=f"Here is what I will do: {listed_details}. Shall I go ahead?",
        )
        done = result((yield call(spec.tool, **arguments)))
        if done.get("ok"):
            message = f"Your request ({listed_details}) has been submitted."
        else:
            message = _sorry(order["order_id"], done.get("error", {}).get("reasons", [])[:2])
        yield call("respond_to_customer", message=message)


def _details(resolution: str, arguments: dict[str, Any], amount: float | None) -> str:
    parts = [f"{talk.action(resolution)}: order {arguments['order_id']}"]
    if items := arguments.get("item_ids"):
        parts.append(f"items {', '.join(items)}")
    if amount is not None:
        parts.append(f"amount ${amount:.2f}")
    if payment := arguments.get("payment_method_id"):
        parts.append(f"payment method {payment}")
    return "; ".join(parts)


def _sorry(order_id: str, reasons: list[str]) -> str:
    why = "; ".join(reasons) or "the policies do not allow it"
    return f"I'm sorry, but I can't change order {order_id}: {why}."


def heuristic_play(first: NovamartObservation, session: RetailSession | None, seed: int) -> Script:
    return play(first, best_allowed if "check_action" in first.available_actions else by_status)


def status_play(first: NovamartObservation, session: RetailSession | None, seed: int) -> Script:
    return play(first, by_status)


def return_all_play(first: NovamartObservation, session: RetailSession | None, seed: int) -> Script:
    return play(first, fixed("return_items"))
