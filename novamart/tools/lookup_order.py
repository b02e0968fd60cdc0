"""lookup_order: the order's facts (days since purchase, opened, price, category)."""

from __future__ import annotations

from novamart.episode import Episode
from novamart.tools.args import OrderId, ToolArgs
from novamart.tools.base import Result, ToolSpec, ok, wrong_order


class LookupOrderArgs(ToolArgs):
    order_id: OrderId


def lookup_order(episode: Episode, args: LookupOrderArgs) -> Result:
    if refusal := wrong_order(episode, args.order_id):
        return refusal
    scenario = episode.scenario
    episode.reveal("order", scenario.order_fact(), "lookup_order")
    order = scenario.order
    return ok(
        order_id=order.order_id,
        customer_id=scenario.customer.customer_id,
        product=order.product,
        category=order.category,
        price=order.price,
        days_since_purchase=order.days_since_purchase,
        opened=order.opened,
        status=order.status,
    )


SPEC = ToolSpec(
    name="lookup_order",
    kind="investigate",
    description="Look up the order: product, category, price, days since purchase, whether "
    "it was opened.",
    args=LookupOrderArgs,
    run=lookup_order,
)
