"""The retail world of one seed (issue 20 item 1): customers, their orders, a product catalogue.

What a fact is (its fields, choice values, ranges, and how one field draws) is read from the
retail rulebook's rules/retail/facts.yaml; how many of each the world holds and the catalogue
from rules/retail/world/world.yaml. Nothing about the world is written in Python.

As in novamart.scenarios.generator, every thing drawn (a product, a variant, a customer, an
order, an item...) takes its own ``random.Random`` seeded with a string naming it (stable
across machines and Python versions), and everything is
walked in declaration or sorted order, never in hash or set order, so the world of a seed is
the same everywhere (``World.digest`` pins it).
"""

from __future__ import annotations

import functools
import hashlib
import itertools
import json
import random
from dataclasses import asdict, dataclass, replace
from pathlib import Path
from typing import Any

import yaml

from novamart.kernel import CompiledRulebook, PolicyKernel
from novamart.kernel.facts import FactSchema, FieldSpec
from novamart.scenarios import catalogue
from novamart.scenarios.plan import ScenarioError
from novamart.scenarios.tasks import RETAIL_DIR

WORLD_FILE = Path("world") / "world.yaml"
"""Inside the retail rules folder: a subfolder, so the rulebook (which loads *.yaml) skips it."""


@dataclass(frozen=True)
class Variant:
    variant_id: str
    product_id: str
    options: tuple[tuple[str, str], ...]
    price: float
    available: bool

    def label(self) -> str:
        """How a person names it: ``colour black, size M``."""
        return ", ".join(f"{k} {v}" for k, v in self.options)


@dataclass(frozen=True)
class Product:
    product_id: str
    name: str
    variants: tuple[Variant, ...]


@dataclass(frozen=True)
class Address:
    address_id: str
    line: str
    city: str
    zip: str

    def text(self) -> str:
        return f"{self.line}, {self.city} {self.zip}"


@dataclass(frozen=True)
class PaymentMethod:
    payment_id: str
    method: str
    balance: float


@dataclass(frozen=True)
class Item:
    item_id: str
    product_id: str
    variant_id: str
    price: float
    status: str
    final_sale: bool
    days_since_delivery: int = 0
    defect_found: bool = False
    """What the defect check finds (check_defect tells; the customer may or may not know)."""


@dataclass(frozen=True)
class Order:
    order_id: str
    status: str
    address: str
    paid_with: str
    items: tuple[Item, ...]


@dataclass(frozen=True)
class Customer:
    customer_id: str
    name: str
    email: str
    zip: str
    addresses: tuple[Address, ...]
    payments: tuple[PaymentMethod, ...]
    orders: tuple[Order, ...]
    tier: str = "standard"
    store_credit: float = 0.0

    def payment(self, payment_id: str) -> PaymentMethod:
        return next(p for p in self.payments if p.payment_id == payment_id)

    def order(self, order_id: str) -> Order:
        return next(o for o in self.orders if o.order_id == order_id)


@dataclass(frozen=True)
class World:
    seed: int
    products: tuple[Product, ...]
    customers: tuple[Customer, ...]

    def customer(self, customer_id: str) -> Customer:
        return next(c for c in self.customers if c.customer_id == customer_id)

    def owner_of(self, order_id: str) -> Customer:
        return next(c for c in self.customers if any(o.order_id == order_id for o in c.orders))

    def product(self, product_id: str) -> Product:
        return next(p for p in self.products if p.product_id == product_id)

    def variant(self, variant_id: str) -> Variant:
        return next(v for p in self.products for v in p.variants if v.variant_id == variant_id)

    def as_dict(self) -> dict[str, Any]:
        return asdict(self)

    def digest(self) -> str:
        """A fingerprint of everything in the world (sorted keys, no hash order)."""
        text = json.dumps(self.as_dict(), sort_keys=True, separators=(",", ":"))
        return hashlib.sha256(text.encode()).hexdigest()


WORLDS_KEPT = 256
"""How many worlds ``build_world`` keeps (a world is immutable; each family of a seed shares it)."""


@dataclass(frozen=True)
class RetailRules:
    """Which retail rulebook a case plays: a rules folder, as written or moved to policy
    variant ``variant`` (novamart.kernel.variants). A key, so everything a case reads (the
    draw, the optimum, the gates, the handbook, the grade) reads the same rules."""

    folder: Path = RETAIL_DIR
    variant: int | None = None


AS_WRITTEN = RetailRules()
"""The repository's rules/retail, as written."""

VARIANTS_KEPT = 64
"""How many compiled (folder, variant) rulebooks ``retail_kernel`` keeps."""


def retail_kernel(rules: RetailRules = AS_WRITTEN) -> CompiledRulebook:
    """The compiled retail rulebook of ``rules``: its folder loaded once, a variant moved
    and compiled once (``retail_kernel()`` and ``retail_kernel(AS_WRITTEN)`` are one)."""
    return _kernel(rules)


@functools.lru_cache(maxsize=VARIANTS_KEPT)
def _kernel(rules: RetailRules) -> CompiledRulebook:
    kernel = _folder(rules.folder)
    return kernel.snapshot() if rules.variant is None else kernel.variant(rules.variant)


@functools.cache
def _folder(folder: Path) -> PolicyKernel:
    return PolicyKernel(folder)


def world_spec(rules: RetailRules = AS_WRITTEN) -> dict[str, Any]:
    """world.yaml, checked against the facts it speaks of (read once per folder: a variant
    moves policies, never the world)."""
    return _world_spec(rules.folder)


@functools.cache
def _world_spec(folder: Path) -> dict[str, Any]:
    spec = yaml.safe_load((folder / WORLD_FILE).read_text())
    schema = _folder(folder).rulebook.facts
    order_statuses = _field(schema, "order", "status").values or ()
    item_statuses = _field(schema, "item", "status").values or ()
    for order_status, item_status in spec["world"]["item_status"].items():
        if order_status not in order_statuses or item_status not in item_statuses:
            raise ScenarioError(
                f"{WORLD_FILE}: item_status {order_status}: {item_status} names a value "
                "facts.yaml does not declare"
            )
    return spec


def _field(schema: FactSchema, kind: str, name: str) -> FieldSpec:
    return schema.kinds[kind].fields[name]


def build_world(seed: int, rules: RetailRules = AS_WRITTEN) -> World:
    """The retail world of ``seed`` (an int >= 0) under ``rules``; the same on every machine.
    Kept per (seed, rules, rulebook version): drawn once, then shared."""
    return _world(seed, rules, retail_kernel(rules).version)


@functools.lru_cache(maxsize=WORLDS_KEPT)
def _world(seed: int, rules: RetailRules, version: str) -> World:
    return _Builder(seed, rules).world()


def _ident_draw(spec: FieldSpec, kind: str, field: str) -> tuple[str, int, int]:
    """An identifier's prefix and the range of its number (``digits`` digits)."""
    draw = spec.draw
    if draw is None or draw.digits is None:
        raise ScenarioError(f"facts.yaml: {kind}.{field} needs draw: {{prefix, digits}}")
    return draw.prefix or "", 10 ** (draw.digits - 1), 10**draw.digits - 1


def _choice_draw(spec: FieldSpec, kind: str, field: str) -> tuple[list[str], list[float]]:
    """A choice's values and their cumulative weights (the draw's weights, else even)."""
    weights = (spec.draw.weights if spec.draw else None) or dict.fromkeys(spec.values or (), 1)
    names = list(weights)
    return names, list(itertools.accumulate(weights[n] for n in names))


def _chance_draw(spec: FieldSpec, kind: str, field: str) -> float:
    """A flag's chance of being true (the draw's, else even)."""
    return spec.draw.chance if spec.draw and spec.draw.chance is not None else 0.5


_DRAWS = {"ident": _ident_draw, "choice": _choice_draw, "chance": _chance_draw}


class _Builder:
    """Draws one world; ``rng(name)`` is the generator of one named thing (a product, a
    variant, a customer, an address, a payment method, an order, an item), which draws that
    thing's fields in declaration order: so a new field changes only its own kind's later
    fields, and one generator per thing keeps a world's draw in a few milliseconds."""

    def __init__(self, seed: int, rules: RetailRules) -> None:
        self.seed = seed
        self.schema = retail_kernel(rules).rulebook.facts
        self.spec = world_spec(rules)
        self.shape = self.spec["world"]
        self.used: set[str] = set()  # identifiers given out (membership only, never iterated)
        self.draws: dict[tuple[str, str, str], Any] = {}
        """How each (kind, field) draws, read from facts.yaml once per world, not per thing."""

    def rng(self, name: str) -> random.Random:
        return random.Random(f"retail:{self.seed}:{name}")

    def _draw(self, how: str, kind: str, field: str) -> Any:
        key = (how, kind, field)
        if key not in self.draws:
            self.draws[key] = _DRAWS[how](_field(self.schema, kind, field), kind, field)
        return self.draws[key]

    def world(self) -> World:
        products = tuple(self._product(name, spec) for name, spec in self.spec["catalogue"].items())
        customers = tuple(self._customer(i, products) for i in range(self.shape["customers"]))
        return World(seed=self.seed, products=products, customers=customers)

    # ---- drawing one field as facts.yaml says ----

    def ident(self, kind: str, field: str, rng: random.Random) -> str:
        """A new identifier of ``kind.field``, by its draw's prefix and digits."""
        prefix, low, high = self._draw("ident", kind, field)
        while True:
            found = f"{prefix}{rng.randint(low, high)}"
            if found not in self.used:
                self.used.add(found)
                return found

    def choice(self, kind: str, field: str, rng: random.Random) -> str:
        names, cumulative = self._draw("choice", kind, field)
        return rng.choices(names, cum_weights=cumulative)[0]

    def chance(self, kind: str, field: str, rng: random.Random) -> bool:
        return rng.random() < self._draw("chance", kind, field)

    def money(
        self, kind: str, field: str, rng: random.Random, bounds: tuple[float, float]
    ) -> float:
        spec = _field(self.schema, kind, field)
        lo, hi = bounds
        if spec.range is not None:
            lo, hi = max(lo, spec.range[0]), min(hi, spec.range[1])
        cents = rng.randint(round(lo * 100), round(hi * 100))
        return cents / 100

    def integer(self, kind: str, field: str, rng: random.Random) -> int:
        """A whole number within the field's draw range (else its declared range)."""
        spec = _field(self.schema, kind, field)
        bounds = spec.draw.range if spec.draw and spec.draw.range else spec.range
        if bounds is None:
            raise ScenarioError(f"facts.yaml: {kind}.{field} needs a range to draw from")
        return rng.randint(int(bounds[0]), int(bounds[1]))

    def count(self, name: str, rng: random.Random) -> int:
        lo, hi = self.shape[name]
        return rng.randint(lo, hi)

    # ---- the catalogue ----

    def _product(self, name: str, spec: dict[str, Any]) -> Product:
        product_id = self.ident("product", "product_id", self.rng(f"product:{name}"))
        options = spec["options"]
        combos = itertools.product(*(options[k] for k in options))
        variants = tuple(
            self._variant(product_id, tuple(zip(options, combo, strict=True)), spec["price"])
            for combo in combos
        )
        return Product(product_id=product_id, name=name, variants=variants)

    def _variant(
        self, product_id: str, options: tuple[tuple[str, str], ...], price: list[float]
    ) -> Variant:
        rng = self.rng(f"variant:{product_id}:{'/'.join(v for _, v in options)}")
        return Variant(
            variant_id=self.ident("variant", "variant_id", rng),
            product_id=product_id,
            options=options,
            price=self.money("variant", "price", rng, (price[0], price[1])),
            available=self.chance("variant", "available", rng),
        )

    # ---- customers and their orders ----

    def _customer(self, number: int, products: tuple[Product, ...]) -> Customer:
        stream = f"customer:{number}"
        rng = self.rng(stream)
        while True:  # a name is unique in the world, so name and zip find one customer
            first, last = rng.choice(catalogue.FIRST_NAMES), rng.choice(catalogue.LAST_NAMES)
            if f"{first} {last}" not in self.used:
                self.used.add(f"{first} {last}")
                break
        addresses = tuple(
            self._address(f"{stream}:address:{i}")
            for i in range(self.count("addresses_per_customer", rng))
        )
        payments = tuple(
            self._payment(f"{stream}:payment:{i}")
            for i in range(self.count("payment_methods_per_customer", rng))
        )
        orders = tuple(
            self._order(f"{stream}:order:{i}", addresses, payments, products)
            for i in range(self.count("orders_per_customer", rng))
        )
        handle = f"{first}.{last}{rng.randint(1, 9999)}".lower()
        customer_id = self.ident("customer", "customer_id", rng)
        email = f"{handle}@{rng.choice(catalogue.MAIL_DOMAINS)}"
        return Customer(
            customer_id=customer_id,
            name=f"{first} {last}",
            email=email,
            zip=addresses[0].zip,
            addresses=addresses,
            payments=payments,
            orders=orders,
            tier=self.choice("customer", "tier", rng),
        )

    def _address(self, stream: str) -> Address:
        rng = self.rng(stream)
        cities = self.shape["cities"]
        city = rng.choice(list(cities))
        return Address(
            address_id=self.ident("address", "address_id", rng),
            line=f"{rng.randint(1, 999)} {rng.choice(self.shape['streets'])}",
            city=city,
            zip=f"{cities[city]}{rng.randint(0, 99):02d}",
        )

    def _payment(self, stream: str) -> PaymentMethod:
        rng = self.rng(stream)
        method = self.choice("payment", "method", rng)
        balance_draw = _field(self.schema, "payment", "balance").draw
        bounds = balance_draw.range if balance_draw and balance_draw.range else (0.0, 0.0)
        balance = self.money("payment", "balance", rng, bounds) if method == "gift_card" else 0
        number = self.ident("payment", "payment_id", rng)
        return PaymentMethod(payment_id=f"{method}_{number}", method=method, balance=balance)

    def _order(
        self,
        stream: str,
        addresses: tuple[Address, ...],
        payments: tuple[PaymentMethod, ...],
        products: tuple[Product, ...],
    ) -> Order:
        rng = self.rng(stream)
        status = self.choice("order", "status", rng)
        items = tuple(
            self._item(f"{stream}:item:{i}", status, products)
            for i in range(self.count("items_per_order", rng))
        )
        order_id = self.ident("order", "order_id", rng)
        address, paid_with = rng.choice(addresses).text(), rng.choice(payments).payment_id
        if self.shape["item_status"][status] == "delivered":  # one delivery for all its items
            days = self.integer("item", "days_since_delivery", rng)
            items = tuple(replace(i, days_since_delivery=days) for i in items)
        return Order(
            order_id=order_id, status=status, address=address, paid_with=paid_with, items=items
        )

    def _item(self, stream: str, order_status: str, products: tuple[Product, ...]) -> Item:
        rng = self.rng(stream)
        variant = rng.choice(rng.choice(products).variants)
        delivered = self.shape["item_status"][order_status] == "delivered"
        return Item(
            item_id=self.ident("item", "item_id", rng),
            product_id=variant.product_id,
            variant_id=variant.variant_id,
            price=variant.price,
            status=self.shape["item_status"][order_status],
            final_sale=self.chance("item", "final_sale", rng),
            defect_found=delivered and self.chance("item", "defect_found", rng),
        )
