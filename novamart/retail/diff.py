"""The world compared field by field: what a retail episode changed, against what the kernel's
optimal plan changes, grouped per request (issue 20 item 6).

A world is flattened into its fields (each order's status, address and paid_with; each item's
status, variant and price; each payment method's balance; and every other field of a customer,
which no write should touch), money to the cent. The optimal plan is replayed request by
request (``settle`` on the state the ones before left), so each request owns the fields its
optimal write changes; a field the final world holds differently from the optimum that no
optimal write changes is an extra or wrong write. Worlds are compared, not call sequences:
two tool sequences that leave the same world compare the same.
"""

from __future__ import annotations

import dataclasses
import functools
from collections.abc import Iterable, Iterator, Mapping
from typing import Any, NamedTuple

from novamart.kernel.money import cents
from novamart.scenarios.kept import Memo, kept
from novamart.scenarios.retail_requests import Request, Settled, settle
from novamart.scenarios.retail_world import AS_WRITTEN, Customer, RetailRules, World

NESTED = frozenset({"orders", "items", "payments"})
"""The fields that hold records of their own (flattened one by one, not compared whole)."""
IDENTITY = frozenset({"customer_id", "order_id", "item_id", "payment_id"})
"""The fields that name a record (its key, not a value a write changes)."""


class Ref(NamedTuple):
    """One field of the world: whose, which record, which item of it, which field."""

    customer_id: str
    kind: str
    """``customer``, ``order``, ``item`` or ``payment``."""
    record: str
    """The order id (order, item), the payment id (payment) or the customer id (customer)."""
    item: str
    """The item id (item), else ''."""
    name: str

    @property
    def order_id(self) -> str | None:
        return self.record if self.kind in ("order", "item") else None

    def label(self) -> str:
        """How the reveal names it: ``item 123 of #W1 variant_id``, ``payment gift_card_7
        balance``."""
        where = f"item {self.item} of {self.record}" if self.item else f"{self.kind} {self.record}"
        return f"{where} {self.name}"


Fields = dict[Ref, Any]


@functools.cache
def _names(kind: type) -> tuple[str, ...]:
    """The fields of a record type compared (not its key, nor the records it holds)."""
    return tuple(f.name for f in dataclasses.fields(kind) if f.name not in NESTED | IDENTITY)


def _value(record: object, name: str) -> Any:
    value = getattr(record, name)
    return cents(value) if isinstance(value, float) else value


_fields = Memo()
_plans = Memo()
_orders = Memo()


def customer_fields(customer: Customer) -> Fields:
    """Every field of one customer's account: its own, its payment methods', its orders' and
    their items' (money to the cent). A world after a write shares every customer it did not
    change with the world before (frozen records, replaced along the path), so each customer
    is flattened once and then found by identity (the fields are shared: read only)."""
    return kept(_fields, (), customer, lambda: _flattened(customer))


def _flattened(customer: Customer) -> Fields:
    who = customer.customer_id
    found: Fields = {
        Ref(who, "customer", who, "", n): _value(customer, n) for n in _names(Customer)
    }
    for payment in customer.payments:
        for n in _names(type(payment)):
            found[Ref(who, "payment", payment.payment_id, "", n)] = _value(payment, n)
    for order in customer.orders:
        for n in _names(type(order)):
            found[Ref(who, "order", order.order_id, "", n)] = _value(order, n)
        for item in order.items:
            for n in _names(type(item)):
                found[Ref(who, "item", order.order_id, item.item_id, n)] = _value(item, n)
    return found


class WorldFields(Mapping[Ref, Any]):
    """Every field of every customer of a world (money to the cent), flattened a customer at
    a time when one of its fields is first read: grading reads the fields of the customer
    whose requests it judges, and compares the others by identity (``changed_worlds``)."""

    def __init__(self, world: World) -> None:
        self.customers = world.customers  # not the world: a plan kept on it would hold it
        self._read: dict[str, Fields] = {}

    def customer(self, customer_id: str) -> Fields:
        """One customer's fields (none for a customer the world does not hold)."""
        found = self._read.get(customer_id)
        if found is None:
            owner = next((c for c in self.customers if c.customer_id == customer_id), None)
            found = self._read[customer_id] = {} if owner is None else customer_fields(owner)
        return found

    def __getitem__(self, ref: Ref) -> Any:
        return self.customer(ref.customer_id)[ref]

    def get(self, ref: Ref, default: Any = None) -> Any:
        return self.customer(ref.customer_id).get(ref, default)

    def __iter__(self) -> Iterator[Ref]:
        for customer in self.customers:
            yield from customer_fields(customer)

    def __len__(self) -> int:
        return sum(len(customer_fields(c)) for c in self.customers)


def flatten(world: World) -> WorldFields:
    """Every field of every customer of ``world`` (money to the cent)."""
    return WorldFields(world)


def changed(before: Fields, after: Fields) -> frozenset[Ref]:
    """The fields whose value differs (a field only one side has counts as changed)."""
    return frozenset(r for r in before.keys() | after.keys() if before.get(r) != after.get(r))


def changed_worlds(before: World, after: World) -> frozenset[Ref]:
    """``changed`` of two worlds of the same seed, customer by customer: a customer record
    both worlds share (no write touched it in either) has no field that differs."""
    if [c.customer_id for c in before.customers] != [c.customer_id for c in after.customers]:
        return changed(dict(flatten(before)), dict(flatten(after)))
    found: set[Ref] = set()
    for one, other in zip(before.customers, after.customers, strict=True):
        if one is not other:
            found |= changed(customer_fields(one), customer_fields(other))
    return frozenset(found)


@dataclasses.dataclass(frozen=True)
class Plan:
    """The kernel's optimum for the requests as the customer finally wants them: each request's
    settlement, the fields its optimal write changes, and the worlds before and after."""

    settled: tuple[Settled, ...]
    touches: tuple[frozenset[Ref], ...]
    start: WorldFields
    optimal: WorldFields
    world: World
    """The optimal end state itself (its untouched customers are the start's records)."""

    @property
    def touched(self) -> frozenset[Ref]:
        return frozenset().union(*self.touches)


def plan(world: World, requests: Iterable[Request], rules: RetailRules = AS_WRITTEN) -> Plan:
    """``requests`` settled one after another on ``world`` (as ``settle_all`` does), keeping
    the fields each one's optimal write changes; memoised (an episode is graded after every
    step, on the same world and requests until the customer changes its mind)."""
    wanted = tuple(requests)
    key = (id(world), rules, tuple(r.key() for r in wanted))
    return kept(_plans, key, world, lambda: _plan(world, wanted, rules))


def _plan(world: World, requests: Iterable[Request], rules: RetailRules) -> Plan:
    start = flatten(world)
    settled, touches = [], []
    for request in requests:
        before = flatten(world).customer(request.customer_id)
        one, world = settle(world, request, rules)
        mine = flatten(world).customer(request.customer_id)  # a write changes no other
        settled.append(one)
        touches.append(changed({r: before[r] for r in mine if r in before}, mine))
    return Plan(tuple(settled), tuple(touches), start, flatten(world), world)


def order_fields(fields: WorldFields, order_id: str) -> frozenset[Ref]:
    """The fields of one order and its items (kept on ``fields``: a plan's are asked for
    after every step)."""
    return kept(_orders, order_id, fields, lambda: _order_fields(fields.customers, order_id))


def _order_fields(customers: tuple[Customer, ...], order_id: str) -> frozenset[Ref]:
    owner = next((c for c in customers if any(o.order_id == order_id for o in c.orders)), None)
    mine = {} if owner is None else customer_fields(owner)
    return frozenset(r for r in mine if r.order_id == order_id)
