"""check_action (guided play only): would the policies allow this write on this order, for
how much, and if not, why and what instead. The customer's yes is assumed given (the gate
still needs it); the account must be the authenticated one.

With no ``resolution`` every write the rules declare is checked on the order, each with its
arguments defaulted to the whole order (every item, the method that paid, the address on it),
so an agent can see what the policies grant without saying what the customer asked for.
"""

from __future__ import annotations

from typing import Any

from pydantic import Field

from novamart.retail.session import RetailSession
from novamart.retail.tools.base import RetailTool, account_order
from novamart.retail.tools.writes import (
    VARIANTS,
    decided,
    misfit,
    request_of,
    swaps_variants,
    write_tools,
)
from novamart.tools.args import OrderId, ToolArgs
from novamart.tools.base import Result, fail, ok

NAME = "check_action"
STATUS = {"carried out": "allowed"}


class CheckActionArgs(ToolArgs):
    order_id: OrderId
    resolution: str | None = Field(
        default=None, max_length=64, description="The write to check (none: every write)"
    )
    item_ids: list[str] | None = Field(default=None, max_length=100)
    new_variant_ids: list[str] | None = Field(default=None, max_length=100)
    payment_method_id: str | None = Field(default=None, max_length=64)
    address: str | None = Field(default=None, max_length=500)
    reason: str | None = Field(default=None, max_length=64)


def check_action(session: RetailSession, args: CheckActionArgs) -> Result:
    found, refusal = account_order(session, args.order_id)
    if found is None:
        return refusal
    owner, order = found
    rulebook = session.kernel.rulebook
    writes = [
        name
        for name, spec in rulebook.resolutions.items()
        if spec.tool in write_tools(rulebook) and spec.declares_call and not spec.declines
    ]
    if args.resolution is not None and args.resolution not in writes:
        return fail(
            "invalid_arguments", f"no write {args.resolution!r}; writes: {', '.join(writes)}"
        )
    checked = [args.resolution] if args.resolution else writes
    given = args.model_dump(exclude={"order_id", "resolution", VARIANTS}, exclude_none=True)
    defaults = {
        "item_ids": [i.item_id for i in order.items],
        "payment_method_id": order.paid_with,
        "address": order.address,
    }
    verdicts = []
    for name in checked:
        spec = rulebook.resolutions[name]
        arguments: dict[str, Any] = {"order_id": order.order_id}
        for argument, declared in spec.arguments.items():
            value = given.get(argument, defaults.get(argument, declared.default))
            if value is not None and argument != "order_id":
                arguments[argument] = value
        variants = args.new_variant_ids if swaps_variants(spec) else None
        if problem := misfit(session, owner, order, arguments, variants):
            return fail("invalid_arguments", f"{name}: {problem}")
        request = request_of(owner, name, arguments, variants)
        try:
            outcome, _, _ = decided(session, request, confirmed=True)
        except ValueError as e:  # an argument the declaration refuses (ArgumentError)
            return fail("invalid_arguments", f"{name}: {e}")
        grant = outcome.grant
        verdicts.append(
            {
                "resolution": name,
                "tool": spec.tool,
                "status": STATUS.get(outcome.status, outcome.status),
                "amount": grant.amount if grant and outcome.status == "carried out" else None,
                "quality": spec.quality,
                "reasons": list(outcome.reasons),
                "instead": grant.resolution if outcome.status == "declined" and grant else None,
                "arguments": arguments,
            }
        )
    return ok(order_id=order.order_id, verdicts=verdicts)


SPEC = RetailTool(
    name=NAME,
    description="Ask whether a write would be allowed on an order (the customer's yes "
    "assumed): allowed with its amount, or declined/refused with the policies' reasons. "
    "Without a resolution, every write is checked on the whole order.",
    args=CheckActionArgs,
    run=check_action,
    guided_only=True,
)
