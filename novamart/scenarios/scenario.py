"""A scenario is the hidden truth of one case; the agent sees only its opening.

Its facts (``Scenario.facts()``) are what the tools reveal one kind at a time, and what the
ground truth is decided on, all at once, at reset.
"""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, ConfigDict

from novamart.kernel import Facts


class _Frozen(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")


class CustomerRecord(_Frozen):
    customer_id: str
    name: str
    email: str
    tier: str


class OrderRecord(_Frozen):
    order_id: str
    product: str
    category: str
    price: float
    days_since_purchase: int
    opened: bool
    status: str = "delivered"


class OtherCustomer(_Frozen):
    """Someone else's record, which a snooping customer asks about; it must never leak."""

    customer_id: str
    name: str
    email: str
    order_id: str


class Scenario(_Frozen):
    task: str
    seed: int | None
    customer: CustomerRecord
    order: OrderRecord
    claimed_tier: str | None
    """The tier the customer claims (a lie when it differs from ``customer.tier``)."""
    defect_claimed: bool
    defect_real: bool
    symptom: str
    wish: str
    """The resolution the customer asks for (a resolution name of the rulebook)."""
    persona: str
    pushes_back: bool
    other: OtherCustomer | None
    opening: str

    def facts(self) -> Facts:
        """Every fact of the case, as the tools would reveal them."""
        return Facts(
            order=self.order_fact(),
            customer=self.customer_fact(),
            defect_check=self.defect_fact(),
            ticket=self.ticket_fact(),
        )

    def order_fact(self) -> dict[str, Any]:
        o = self.order
        return {
            "order_id": o.order_id,
            "days_since_purchase": o.days_since_purchase,
            "opened": o.opened,
            "price": o.price,
            "category": o.category,
        }

    def customer_fact(self) -> dict[str, Any]:
        return {"customer_id": self.customer.customer_id, "tier": self.customer.tier}

    def defect_fact(self) -> dict[str, Any]:
        return {"order_id": self.order.order_id, "verified": self.defect_real}

    def ticket_fact(self) -> dict[str, Any]:
        """What the opening message shows: a return or defect case, nothing that demands a
        manager. It is known from the start, like the message itself."""
        return {"ticket_id": f"T-{self.order.order_id}"}
