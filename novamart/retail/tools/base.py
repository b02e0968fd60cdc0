"""What every retail tool shares: its entry (name, argument model, schema, function) and the
account checks a look-up or a write goes through.

A retail tool is a function ``(session, args) -> Result`` like the order tools
(novamart.tools.base): errors are data with a typed code, never exceptions.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from novamart.retail.session import RetailSession
from novamart.retail.trail import Step
from novamart.scenarios.retail_world import Customer, Order
from novamart.tools.args import ToolArgs, json_schema
from novamart.tools.base import Result, fail


@dataclass(frozen=True)
class RetailTool:
    name: str
    description: str
    args: type[ToolArgs]
    run: Callable[[RetailSession, Any], Result]
    guided_only: bool = False
    """A consulting tool: closed book gives the handbook instead."""
    schema: dict[str, Any] = field(init=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "schema", json_schema(self.args))


def order_of(session: RetailSession, order_id: str) -> tuple[Customer, Order] | None:
    """The order ``order_id`` of the world and its owner (None when there is none)."""
    wanted = order_id.strip()
    for customer in session.world.customers:
        for order in customer.orders:
            if order.order_id == wanted:
                return customer, order
    return None


def no_order(order_id: str) -> Result:
    return fail(
        "wrong_order",
        f"no order {order_id!r}; order numbers look like #W1234567 (the customer's account "
        "lists them: lookup_customer)",
    )


def account_refusal(session: RetailSession, owner: str) -> Result | None:
    """Guided, an account's details are shown only once its owner is authenticated; closed
    book they are shown (the grader counts a look before authentication, or at another
    customer's account, against the process)."""
    if session.mode != "guided" or session.identified == owner:
        return None
    if session.identified is None:
        return fail(
            "not_established",
            "authenticate the customer first: find_customer with the email on the account, "
            "or the full name and zip code",
        )
    return fail(
        "wrong_customer",
        "that belongs to another customer's account than the one authenticated in this "
        "conversation; only the account holder's own orders can be discussed or changed",
    )


def account_order(
    session: RetailSession, order_id: str
) -> tuple[tuple[Customer, Order], None] | tuple[None, Result]:
    """The order and its owner, or the refusal: no such order, or (guided) an account not
    authenticated as its owner."""
    found = order_of(session, order_id)
    if found is None:
        return None, no_order(order_id)
    if refusal := account_refusal(session, found[0].customer_id):
        return None, refusal
    return found, None


def read(session: RetailSession, tool: str, owner: str, order_id: str | None = None) -> None:
    """Record that ``owner``'s account details were shown."""
    session.record(Step(session.step, "read", owner, tool=tool, order_id=order_id))
