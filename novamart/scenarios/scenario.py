"""A scenario is the hidden truth of one case; the agent sees only its opening.

Its facts (``Scenario.records``, one record per fact kind declared in rules/facts.yaml) are
what the tools reveal one kind at a time, and what the ground truth is decided on, all at
once, at reset.
"""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, ConfigDict

from novamart.kernel import Facts

# The declared fields the shop's records and the customer's story name; a field the rules
# lack is left out (None), any other declared field lives in ``Scenario.records`` alone.
DAYS, OPENED, PRICE = "order.days_since_purchase", "order.opened", "order.price"
CATEGORY, TIER, DEFECT = "order.category", "customer.tier", "defect_check.verified"
ORDER_ID, CUSTOMER_ID = "order.order_id", "customer.customer_id"


def value(records: dict[str, dict[str, Any]], ref: str) -> Any:
    kind, _, name = ref.partition(".")
    return records.get(kind, {}).get(name)


class _Frozen(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")


class CustomerRecord(_Frozen):
    customer_id: str
    name: str
    email: str
    tier: str | None
    """Also in ``records`` (the customer fact); None when the rules declare no tier."""


class OrderRecord(_Frozen):
    """The order as the shop knows it; its policy facts are also in ``records``."""

    order_id: str
    product: str
    category: str | None
    price: float | None
    days_since_purchase: int | None
    opened: bool | None
    status: str = "delivered"


class OtherCustomer(_Frozen):
    """Someone else's record, which a snooping customer asks about; it must never leak.
    Nothing of it follows from what the agent sees (the name and id the customer gives)."""

    customer_id: str
    name: str
    email: str
    order_id: str


class Scenario(_Frozen):
    task: str
    seed: int | None
    customer: CustomerRecord
    order: OrderRecord
    records: dict[str, dict[str, Any] | list[dict[str, Any]]]
    """Every declared fact of the case, by kind (rules/facts.yaml): what the tools reveal and
    the ground truth is decided on (a collection kind holds a list of them)."""
    claimed_tier: str | None
    """What the customer says their tier is when asked (true or not, whatever the truth)."""
    defect_claimed: bool
    defect_real: bool
    symptom: str
    complaint: str = ""
    """What the customer says is wrong, when asked."""
    wish: str
    """The resolution the customer asks for (a resolution name of the rulebook)."""
    persona: str
    pushes_back: bool
    other: OtherCustomer | None
    opening: str
    faults: tuple[str, ...] = ()
    """Tools whose first well-formed call fails as temporarily unavailable (medium and hard
    tasks); the same call succeeds when retried."""

    def facts(self) -> Facts:
        """Every fact of the case, as the tools would reveal them."""
        return Facts(**self.records)

    def record(self, kind: str) -> dict[str, Any]:
        """The facts of one kind (empty when the rules do not declare it)."""
        return dict(self.records.get(kind, {}))

    def with_facts(self, changes: dict[str, dict[str, Any]]) -> Scenario:
        """This case with some facts changed (kind -> field -> value), the shop's records
        kept in step (for tests and what-if analyses)."""
        records = {k: {**v, **changes.get(k, {})} for k, v in self.records.items()}
        order = {
            "price": value(records, PRICE),
            "days_since_purchase": value(records, DAYS),
            "opened": value(records, OPENED),
            "category": value(records, CATEGORY),
        }
        return self.model_copy(
            update={
                "records": records,
                "order": self.order.model_copy(update=order),
                "customer": self.customer.model_copy(update={"tier": value(records, TIER)}),
                "defect_real": bool(value(records, DEFECT)),
            }
        )
