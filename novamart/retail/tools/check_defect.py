"""check_defect: what the defect check finds in one delivered item of the authenticated
customer's order. The finding (``item.defect_found``) is what keeps a faulty item returnable
or exchangeable past the return window: no other tool shows it, and a customer's word that
the item is faulty is not a finding."""

from __future__ import annotations

from pydantic import Field

from novamart.retail.session import RetailSession
from novamart.retail.tools.base import RetailTool, account_order, read
from novamart.tools.args import OrderId, ToolArgs
from novamart.tools.base import Result, fail, ok

NAME = "check_defect"


class CheckDefectArgs(ToolArgs):
    order_id: OrderId
    item_id: str = Field(min_length=1, max_length=64, description="From lookup_order")


def check_defect(session: RetailSession, args: CheckDefectArgs) -> Result:
    found, refusal = account_order(session, args.order_id)
    if found is None:
        return refusal
    customer, order = found
    wanted = args.item_id.strip()
    item = next((i for i in order.items if i.item_id == wanted), None)
    if item is None:
        items = ", ".join(i.item_id for i in order.items)
        return fail("invalid_arguments", f"order {order.order_id} has no item {wanted!r} ({items})")
    if item.status != "delivered":
        return fail(
            "invalid_arguments",
            f"item {item.item_id} is {item.status}: only a delivered item can be checked",
        )
    read(session, NAME, customer.customer_id, order.order_id)
    session.checked.add(item.item_id)
    return ok(
        order_id=order.order_id,
        item_id=item.item_id,
        defect_found=item.defect_found,
        finding="the check found a fault" if item.defect_found else "the check found no fault",
    )


SPEC = RetailTool(
    name=NAME,
    description="Run the defect check on one delivered item of the authenticated customer's "
    "order: whether it finds a fault.",
    args=CheckDefectArgs,
    run=check_defect,
)
