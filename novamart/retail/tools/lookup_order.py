"""lookup_order: one order of the authenticated customer: status, address, what paid for it,
and its items (product, variant, price, status, final sale, days since delivery; what the
defect check finds is check_defect's)."""

from __future__ import annotations

from novamart.retail.session import RetailSession
from novamart.retail.tools.base import RetailTool, account_order, read
from novamart.tools.args import OrderId, ToolArgs
from novamart.tools.base import Result, ok

NAME = "lookup_order"


class LookupOrderArgs(ToolArgs):
    order_id: OrderId


def lookup_order(session: RetailSession, args: LookupOrderArgs) -> Result:
    found, refusal = account_order(session, args.order_id)
    if found is None:
        return refusal
    customer, order = found
    read(session, NAME, customer.customer_id, order.order_id)
    world = session.world
    return ok(
        order_id=order.order_id,
        status=order.status,
        address=order.address,
        paid_with=order.paid_with,
        items=[
            {
                "item_id": i.item_id,
                "product": world.product(i.product_id).name,
                "product_id": i.product_id,
                "variant_id": i.variant_id,
                "options": world.variant(i.variant_id).label(),
                "price": i.price,
                "status": i.status,
                "final_sale": i.final_sale,
                "days_since_delivery": i.days_since_delivery,
            }
            for i in order.items
        ],
    )


SPEC = RetailTool(
    name=NAME,
    description="One order of the authenticated customer: status, shipping address, the "
    "payment method that paid, and its items with product, variant, price, status and "
    "days since delivery.",
    args=LookupOrderArgs,
    run=lookup_order,
)
