"""lookup_order: the order's facts, every field rules/facts.yaml declares for it (days since
purchase, opened, price, category, ...), with the product and the order's status."""

from __future__ import annotations

from novamart.episode import Episode
from novamart.tools.args import OrderId, ToolArgs
from novamart.tools.base import Result, ToolSpec, ok, reveal_kinds, wrong_order


class LookupOrderArgs(ToolArgs):
    order_id: OrderId


def lookup_order(episode: Episode, args: LookupOrderArgs) -> Result:
    if refusal := wrong_order(episode, args.order_id):
        return refusal
    scenario = episode.scenario
    facts = reveal_kinds(episode, "lookup_order")
    order = scenario.order
    extra = {"customer_id": scenario.customer.customer_id, "product": order.product}
    status = facts.get("status", order.status)  # the world's, once the rules declare it
    return ok(**{"order_id": order.order_id, **facts, **extra, "status": status})


SPEC = ToolSpec(
    name="lookup_order",
    kind="investigate",
    description="Look up the order: product, category, price, days since purchase, whether "
    "it was opened.",
    args=LookupOrderArgs,
    run=lookup_order,
)
