"""The facts the policies reason over, validated before they reach the engine.

durable_rules compares loosely (``'12' <= 30`` is true, ``0 == false``), so every fact is
checked here with strict types first. Each fact kind names the tool that reveals it, which
is how an explanation can say which tool would settle an unknown condition.
"""

from __future__ import annotations

from types import UnionType
from typing import Annotated, Any, ClassVar, Literal, Union, get_args, get_origin

from pydantic import BaseModel, ConfigDict, Field, StrictBool, StrictInt, model_validator

Tier = Literal["standard", "silver", "gold"]
Category = Literal["phone", "laptop", "earbuds", "smartwatch"]
Identifier = Annotated[str, Field(min_length=1, max_length=64, pattern=r"^[A-Za-z0-9_.:-]+$")]
Money = Annotated[float, Field(ge=0, le=1_000_000, allow_inf_nan=False, strict=True)]


class Fact(BaseModel):
    """A fact kind: one per case, revealed by one tool (None: read from the ticket itself)."""

    model_config = ConfigDict(extra="forbid", frozen=True)
    source_tool: ClassVar[str | None]


class Order(Fact):
    source_tool: ClassVar[str] = "lookup_order"
    order_id: Identifier
    days_since_purchase: Annotated[StrictInt, Field(ge=0, le=36_500)] | None = None
    opened: StrictBool | None = None
    price: Money | None = None
    category: Category | None = None


class Customer(Fact):
    source_tool: ClassVar[str] = "check_loyalty"
    customer_id: Identifier
    tier: Tier | None = None


class DefectCheck(Fact):
    source_tool: ClassVar[str] = "verify_defect"
    order_id: Identifier
    verified: StrictBool | None = None


class Ticket(Fact):
    """What the customer's own message shows: the signs that demand a manager. A sign
    the message does not show is false, so a read ticket is never partly unknown."""

    source_tool: ClassVar[str | None] = None
    ticket_id: Identifier
    battery_swelling: StrictBool = False
    burning_smell: StrictBool = False
    legal_threat: StrictBool = False
    account_takeover: StrictBool = False
    payment_fraud: StrictBool = False


class Facts(BaseModel):
    """Everything known about one case; a missing kind makes its conditions unknown."""

    model_config = ConfigDict(extra="forbid", frozen=True)
    order: Order | None = None
    customer: Customer | None = None
    defect_check: DefectCheck | None = None
    ticket: Ticket | None = None

    @model_validator(mode="after")
    def _same_order(self) -> Facts:
        if self.order and self.defect_check and self.defect_check.order_id != self.order.order_id:
            raise ValueError(
                f"defect_check.order_id {self.defect_check.order_id!r} does not match "
                f"order.order_id {self.order.order_id!r}"
            )
        return self

    def present(self) -> dict[str, Fact]:
        """The kinds that are known, by name."""
        return {kind: fact for kind in FACT_KINDS if (fact := getattr(self, kind)) is not None}

    def value(self, kind: str, field: str) -> Any:
        """The observed value of ``kind.field``, or None when unknown."""
        fact = getattr(self, kind, None)
        return None if fact is None else getattr(fact, field)


FACT_KINDS: dict[str, type[Fact]] = {
    name: info.annotation.__args__[0]  # type: ignore[union-attr]
    for name, info in Facts.model_fields.items()
}


def _leaves(annotation: Any) -> list[Any]:
    """The plain types inside an annotation, through unions and Annotated wrappers."""
    origin = get_origin(annotation)
    if origin is Annotated:
        return _leaves(get_args(annotation)[0])
    if origin in (Union, UnionType):
        return [leaf for arg in get_args(annotation) for leaf in _leaves(arg)]
    return [] if annotation is type(None) else [annotation]


def field_values(kind: str, field: str) -> tuple[Any, ...] | None:
    """The allowed values of a Literal field (e.g. tiers), or None for open fields."""
    for leaf in _leaves(FACT_KINDS[kind].model_fields[field].annotation):
        if get_origin(leaf) is Literal:
            return get_args(leaf)
    return None


def field_type(kind: str, field: str) -> type:
    """The plain Python type of a fact field: str, int, float or bool."""
    (leaf,) = _leaves(FACT_KINDS[kind].model_fields[field].annotation)
    return str if get_origin(leaf) is Literal else leaf
