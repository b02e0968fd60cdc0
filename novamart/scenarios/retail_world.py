"""The retail world of one seed (issue 20 item 1): customers, their orders, a product catalogue.

What a fact is (its fields, choice values, ranges, and how one field draws) is read from the
retail rulebook's rules/retail/facts.yaml; how many of each the world holds and the catalogue
from rules/retail/world/world.yaml. Nothing about the world is written in Python.

The catalogue and each customer (with everything it holds) draw from a ``random.Random`` of
their own, seeded with a string naming them (stable across machines and Python versions), and
everything is walked in declaration or sorted order, never in hash or set order, so the world
of a seed is the same everywhere (``World.digest`` pins it).
"""

from __future__ import annotations

import bisect
import functools
import hashlib
import itertools
import json
import random
from collections.abc import Sequence
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any, TypeVar

import yaml

from novamart.kernel import CompiledRulebook, PolicyKernel
from novamart.kernel.facts import FactSchema, FieldSpec
from novamart.scenarios import catalogue
from novamart.scenarios.kept import Memo, kept_for
from novamart.scenarios.plan import ScenarioError
from novamart.scenarios.tasks import RETAIL_DIR

_T = TypeVar("_T")

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
        return self._customers[customer_id]

    def owner_of(self, order_id: str) -> Customer:
        return self._owners[order_id]

    def product(self, product_id: str) -> Product:
        return self._catalogue[0][product_id]

    def variant(self, variant_id: str) -> Variant:
        return self._catalogue[1][variant_id]

    @functools.cached_property
    def _customers(self) -> dict[str, Customer]:
        """Customers by id (a case reads its customer many times; no field: not compared)."""
        return {c.customer_id: c for c in self.customers}

    @functools.cached_property
    def _owners(self) -> dict[str, Customer]:
        """Each order's customer, by order id."""
        return {o.order_id: c for c in self.customers for o in c.orders}

    @functools.cached_property
    def _catalogue(self) -> tuple[dict[str, Product], dict[str, Variant]]:
        """Products and variants by id, shared by the worlds a case's changes derive (they
        keep its products)."""
        return _catalogue_index(self.products)

    def as_dict(self) -> dict[str, Any]:
        return asdict(self)

    def digest(self) -> str:
        """A fingerprint of everything in the world (sorted keys, no hash order)."""
        text = json.dumps(self.as_dict(), sort_keys=True, separators=(",", ":"))
        return hashlib.sha256(text.encode()).hexdigest()


_catalogues = Memo()


def _catalogue_index(
    products: tuple[Product, ...],
) -> tuple[dict[str, Product], dict[str, Variant]]:
    def index() -> tuple[dict[str, Product], dict[str, Variant]]:
        variants = {v.variant_id: v for p in products for v in p.variants}
        return {p.product_id: p for p in products}, variants

    if not products:
        return index()
    return kept_for(_catalogues, (products[0], products), (), index)  # kept on a product


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


def _range_draw(spec: FieldSpec, kind: str, field: str) -> tuple[float, float] | None:
    """The range a number draws from: its draw's range, else its declared range."""
    bounds = spec.draw.range if spec.draw and spec.draw.range else spec.range
    return None if bounds is None else (bounds[0], bounds[1])


def _declared_range(spec: FieldSpec, kind: str, field: str) -> tuple[float, float] | None:
    return None if spec.range is None else (spec.range[0], spec.range[1])


_DRAWS = {
    "ident": _ident_draw,
    "choice": _choice_draw,
    "chance": _chance_draw,
    "range": _range_draw,
    "declared": _declared_range,
}


def _made(record: type[_T], **fields: Any) -> _T:
    """A frozen record with every field given, made without its generated ``__init__``
    (which sets each field through ``object.__setattr__``): a world makes a few hundred, each
    in a third of the time. Equal to the record its ``__init__`` makes (``World.digest``
    reads every field)."""
    made = object.__new__(record)
    made.__dict__.update(fields)
    return made


class _Builder:
    """Draws one world: the catalogue from one generator, each customer (its addresses,
    payment methods, orders and their items) from one of its own, seeded with a string
    naming it (stable across machines and Python versions). A customer's draw is its own:
    a new field or a longer draw changes that customer's later draws, never another's; and
    thirteen generators, not one per thing, draw a world in a third of the time (seeding a
    generator from a string costs ~5 µs, a dozen draws or more).

    Every draw takes ``random()`` (one C call) and scales it: ``randint``, ``choice`` and
    ``choices`` cost several Python calls each, which a world makes a thousand times."""

    def __init__(self, seed: int, rules: RetailRules) -> None:
        self.seed = seed
        self.schema = retail_kernel(rules).rulebook.facts
        self.spec = world_spec(rules)
        self.shape = self.spec["world"]
        self.cities = list(self.shape["cities"])
        self.delivered = {s for s, i in self.shape["item_status"].items() if i == "delivered"}
        self.used: set[str] = set()  # identifiers given out (membership only, never iterated)
        self.draws: dict[tuple[str, str, str], Any] = {}
        """How each (kind, field) draws, read from facts.yaml once per world, not per thing."""

    def rng(self, name: str) -> random.Random:
        return random.Random(f"retail:{self.seed}:{name}")

    def _draw(self, how: str, kind: str, field: str) -> Any:
        key = (how, kind, field)
        try:
            return self.draws[key]
        except KeyError:
            found = self.draws[key] = _DRAWS[how](_field(self.schema, kind, field), kind, field)
            return found

    def world(self) -> World:
        catalogue_rng = self.rng("catalogue")
        products = tuple(
            self._product(name, spec, catalogue_rng)
            for name, spec in self.spec["catalogue"].items()
        )
        customers = tuple(self._customer(i, products) for i in range(self.shape["customers"]))
        return World(seed=self.seed, products=products, customers=customers)

    # ---- drawing one field as facts.yaml says ----

    @staticmethod
    def whole(rng: random.Random, low: int, high: int) -> int:
        """A whole number from ``low`` to ``high``, both included."""
        return low + int(rng.random() * (high - low + 1))

    @staticmethod
    def pick(rng: random.Random, values: Sequence[_T]) -> _T:
        return values[int(rng.random() * len(values))]

    def ident(self, kind: str, field: str, rng: random.Random) -> str:
        """A new identifier of ``kind.field``, by its draw's prefix and digits (its number
        drawn as ``whole`` draws it)."""
        prefix, low, high = self._draw("ident", kind, field)
        span, used, draw = high - low + 1, self.used, rng.random
        while True:
            found = f"{prefix}{low + int(draw() * span)}"
            if found not in used:
                used.add(found)
                return found

    def choice(self, kind: str, field: str, rng: random.Random) -> str:
        names, cumulative = self._draw("choice", kind, field)
        return names[bisect.bisect(cumulative, rng.random() * cumulative[-1])]

    def chance(self, kind: str, field: str, rng: random.Random) -> bool:
        return rng.random() < self._draw("chance", kind, field)

    def money(
        self, kind: str, field: str, rng: random.Random, bounds: tuple[float, float]
    ) -> float:
        declared = self._draw("declared", kind, field)
        lo, hi = bounds
        if declared is not None:
            lo, hi = max(lo, declared[0]), min(hi, declared[1])
        return self.whole(rng, round(lo * 100), round(hi * 100)) / 100

    def integer(self, kind: str, field: str, rng: random.Random) -> int:
        """A whole number within the field's draw range (else its declared range)."""
        bounds = self._draw("range", kind, field)
        if bounds is None:
            raise ScenarioError(f"facts.yaml: {kind}.{field} needs a range to draw from")
        return self.whole(rng, int(bounds[0]), int(bounds[1]))

    def count(self, name: str, rng: random.Random) -> int:
        lo, hi = self.shape[name]
        return self.whole(rng, lo, hi)

    # ---- the catalogue ----

    def _product(self, name: str, spec: dict[str, Any], rng: random.Random) -> Product:
        product_id = self.ident("product", "product_id", rng)
        options = spec["options"]
        combos = itertools.product(*(options[k] for k in options))
        variants = tuple(
            self._variant(product_id, tuple(zip(options, combo, strict=True)), spec["price"], rng)
            for combo in combos
        )
        return Product(product_id=product_id, name=name, variants=variants)

    def _variant(
        self,
        product_id: str,
        options: tuple[tuple[str, str], ...],
        price: list[float],
        rng: random.Random,
    ) -> Variant:
        return _made(
            Variant,
            variant_id=self.ident("variant", "variant_id", rng),
            product_id=product_id,
            options=options,
            price=self.money("variant", "price", rng, (price[0], price[1])),
            available=self.chance("variant", "available", rng),
        )

    # ---- customers and their orders ----

    def _customer(self, number: int, products: tuple[Product, ...]) -> Customer:
        rng = self.rng(f"customer:{number}")
        while True:  # a name is unique in the world, so name and zip find one customer
            first = self.pick(rng, catalogue.FIRST_NAMES)
            last = self.pick(rng, catalogue.LAST_NAMES)
            if f"{first} {last}" not in self.used:
                self.used.add(f"{first} {last}")
                break
        addresses = tuple(
            self._address(rng) for _ in range(self.count("addresses_per_customer", rng))
        )
        payments = tuple(
            self._payment(rng) for _ in range(self.count("payment_methods_per_customer", rng))
        )
        orders = tuple(
            self._order(rng, addresses, payments, products)
            for _ in range(self.count("orders_per_customer", rng))
        )
        handle = f"{first}.{last}{self.whole(rng, 1, 9999)}".lower()
        customer_id = self.ident("customer", "customer_id", rng)
        email = f"{handle}@{self.pick(rng, catalogue.MAIL_DOMAINS)}"
        return _made(
            Customer,
            customer_id=customer_id,
            name=f"{first} {last}",
            email=email,
            zip=addresses[0].zip,
            addresses=addresses,
            payments=payments,
            orders=orders,
            tier=self.choice("customer", "tier", rng),
            store_credit=0.0,
        )

    def _address(self, rng: random.Random) -> Address:
        city = self.pick(rng, self.cities)
        return _made(
            Address,
            address_id=self.ident("address", "address_id", rng),
            line=f"{self.whole(rng, 1, 999)} {self.pick(rng, self.shape['streets'])}",
            city=city,
            zip=f"{self.shape['cities'][city]}{self.whole(rng, 0, 99):02d}",
        )

    def _payment(self, rng: random.Random) -> PaymentMethod:
        method = self.choice("payment", "method", rng)
        bounds = self._draw("range", "payment", "balance") or (0.0, 0.0)
        balance = self.money("payment", "balance", rng, bounds) if method == "gift_card" else 0
        number = self.ident("payment", "payment_id", rng)
        return _made(PaymentMethod, payment_id=f"{method}_{number}", method=method, balance=balance)

    def _order(
        self,
        rng: random.Random,
        addresses: tuple[Address, ...],
        payments: tuple[PaymentMethod, ...],
        products: tuple[Product, ...],
    ) -> Order:
        status = self.choice("order", "status", rng)
        # one delivery for all its items
        days = self.integer("item", "days_since_delivery", rng) if status in self.delivered else 0
        items = tuple(
            self._item(rng, status, days, products)
            for _ in range(self.count("items_per_order", rng))
        )
        order_id = self.ident("order", "order_id", rng)
        address = self.pick(rng, addresses).text()
        paid_with = self.pick(rng, payments).payment_id
        return _made(
            Order,
            order_id=order_id,
            status=status,
            address=address,
            paid_with=paid_with,
            items=items,
        )

    def _item(
        self, rng: random.Random, order_status: str, days: int, products: tuple[Product, ...]
    ) -> Item:
        draw = rng.random  # the draws of pick and chance, in their order, without the calls
        variants = products[int(draw() * len(products))].variants
        variant = variants[int(draw() * len(variants))]
        delivered = order_status in self.delivered
        item_id = self.ident("item", "item_id", rng)
        final_sale = draw() < self._draw("chance", "item", "final_sale")
        return _made(
            Item,
            item_id=item_id,
            product_id=variant.product_id,
            variant_id=variant.variant_id,
            price=variant.price,
            status=self.shape["item_status"][order_status],
            final_sale=final_sale,
            days_since_delivery=days,
            defect_found=delivered and draw() < self._draw("chance", "item", "defect_found"),
        )
