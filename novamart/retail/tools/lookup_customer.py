"""lookup_customer: an authenticated customer's account: loyalty tier, store credit,
addresses, payment methods (with a gift card's balance) and orders (number and status;
lookup_order shows the items)."""

from __future__ import annotations

from pydantic import Field

from novamart.retail.session import RetailSession
from novamart.retail.tools.base import RetailTool, account_refusal, read
from novamart.tools.args import ToolArgs
from novamart.tools.base import Result, fail, ok

NAME = "lookup_customer"


class LookupCustomerArgs(ToolArgs):
    customer_id: str = Field(min_length=1, max_length=64, description="From find_customer")


def lookup_customer(session: RetailSession, args: LookupCustomerArgs) -> Result:
    wanted = args.customer_id.strip()
    customer = next((c for c in session.world.customers if c.customer_id == wanted), None)
    if customer is None:
        return fail("wrong_customer", f"no customer {wanted!r}; find_customer gives the id")
    if refusal := account_refusal(session, customer.customer_id):
        return refusal
    read(session, NAME, customer.customer_id)
    return ok(
        customer_id=customer.customer_id,
        name=customer.name,
        email=customer.email,
        zip=customer.zip,
        tier=customer.tier,
        store_credit=customer.store_credit,
        addresses=[a.text() for a in customer.addresses],
        payment_methods=[
            {"payment_method_id": p.payment_id, "method": p.method, "balance": p.balance}
            if p.method == "gift_card"
            else {"payment_method_id": p.payment_id, "method": p.method}
            for p in customer.payments
        ],
        orders=[{"order_id": o.order_id, "status": o.status} for o in customer.orders],
    )


SPEC = RetailTool(
    name=NAME,
    description="An authenticated customer's account: loyalty tier, store credit, addresses, "
    "payment methods (a gift card with its balance) and orders with their status.",
    args=LookupCustomerArgs,
    run=lookup_customer,
)
