"""The retail world (issue 20 item 1): drawn from rules/retail, the same on every machine."""

from __future__ import annotations

import dataclasses
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
import yaml

from novamart.kernel.examples import run_examples
from novamart.scenarios.retail_world import RETAIL_DIR, RetailRules, build_world, retail_kernel

SEED_0_DIGEST = "f71061ce9049a529fd7f955cf8b6fc3bac38091869627ecfd5cf2011f0c75b36"
ROOT = Path(__file__).resolve().parents[2]


def test_the_world_of_seed_0_is_pinned() -> None:
    assert build_world(0).digest() == SEED_0_DIGEST


def test_the_world_does_not_depend_on_hash_order() -> None:
    code = "from novamart.scenarios.retail_world import build_world; print(build_world(0).digest())"
    for hash_seed in ("1", "12345"):
        env = {**os.environ, "PYTHONHASHSEED": hash_seed, "PYTHONPATH": str(ROOT)}
        out = subprocess.run(
            [sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True
        )
        assert out.stdout.strip() == SEED_0_DIGEST


def test_every_record_of_a_world_holds_every_field_as_its_init_would() -> None:
    """The builder makes records without their generated ``__init__`` (``_made``): each must
    hold every declared field itself, equal to the record ``__init__`` makes of them."""
    world = build_world(3)
    records = [*world.products, *world.customers]
    records += [v for p in world.products for v in p.variants]
    for customer in world.customers:
        records += [*customer.addresses, *customer.payments, *customer.orders]
        records += [i for o in customer.orders for i in o.items]
    for record in records:
        names = [f.name for f in dataclasses.fields(record)]
        held = {k: v for k, v in vars(record).items() if not k.startswith("_")}  # not memos
        assert list(held) == names, type(record).__name__
        assert type(record)(**held) == record


def test_seeds_give_different_worlds() -> None:
    assert len({build_world(s).digest() for s in range(20)}) == 20


@pytest.mark.parametrize("seed", range(30))
def test_the_world_keeps_the_declared_shape(seed: int) -> None:
    world = build_world(seed)
    schema = retail_kernel().rulebook.facts.kinds
    shape = yaml.safe_load((RETAIL_DIR / "world" / "world.yaml").read_text())["world"]
    assert len(world.customers) == shape["customers"]
    variants = {v.variant_id: v for p in world.products for v in p.variants}
    for customer in world.customers:
        assert len(customer.orders) in range(2, 5)
        assert customer.zip == customer.addresses[0].zip
        for payment in customer.payments:
            assert payment.method in schema["payment"].fields["method"].values
            assert payment.payment_id.startswith(payment.method + "_")
            assert 0 <= payment.balance <= 300 and (
                payment.balance == 0 or payment.method == "gift_card"
            )
        for order in customer.orders:
            assert order.status in schema["order"].fields["status"].values
            assert 1 <= len(order.items) <= 5
            assert order.paid_with in {p.payment_id for p in customer.payments}
            assert order.address in {a.text() for a in customer.addresses}
            for item in order.items:
                assert item.status == shape["item_status"][order.status]
                variant = variants[item.variant_id]
                assert variant.product_id == item.product_id and variant.price == item.price
    names = [(c.name, c.zip) for c in world.customers]
    emails = [c.email for c in world.customers]
    assert len(set(names)) == len(names) and len(set(emails)) == len(emails)


def test_identifiers_are_unique_and_keep_their_declared_form() -> None:
    world = build_world(3)
    ids = [o.order_id for c in world.customers for o in c.orders]
    ids += [i.item_id for c in world.customers for o in c.orders for i in o.items]
    ids += [v.variant_id for p in world.products for v in p.variants]
    assert len(ids) == len(set(ids))
    assert all(
        o.order_id.startswith("#W") and len(o.order_id) == 9
        for c in world.customers
        for o in c.orders
    )


def test_the_catalogue_holds_every_combination_of_options() -> None:
    world = build_world(0)
    catalogue = yaml.safe_load((RETAIL_DIR / "world" / "world.yaml").read_text())["catalogue"]
    for product in world.products:
        spec = catalogue[product.name]
        expected = 1
        for values in spec["options"].values():
            expected *= len(values)
        assert len(product.variants) == expected
        lo, hi = spec["price"]
        assert all(lo <= v.price <= hi for v in product.variants)
    availability = [v.available for p in world.products for v in p.variants]
    assert any(availability) and not all(availability)


def test_statuses_come_from_the_facts_file(tmp_path: Path) -> None:
    rules = Path(shutil.copytree(RETAIL_DIR, tmp_path / "retail"))
    facts = rules / "facts.yaml"
    text = facts.read_text().replace(
        "weights: {pending: 3, processed: 1, delivered: 4, cancelled: 1}",
        "weights: {pending: 0, processed: 0, delivered: 1, cancelled: 0}",
    )
    facts.write_text(text)
    world = build_world(0, RetailRules(rules))
    assert {o.status for c in world.customers for o in c.orders} == {"delivered"}
    assert build_world(0).digest() == SEED_0_DIGEST


def test_the_counts_come_from_the_world_file(tmp_path: Path) -> None:
    rules = Path(shutil.copytree(RETAIL_DIR, tmp_path / "retail"))
    world_file = rules / "world" / "world.yaml"
    world_file.write_text(world_file.read_text().replace("customers: 12", "customers: 3"))
    assert len(build_world(0, RetailRules(rules)).customers) == 3


def test_the_retail_rulebook_passes_its_own_examples() -> None:
    results = run_examples(retail_kernel())
    assert len(results) >= 46
    assert all(r.passed for r in results), [r.mismatches for r in results if not r.passed]
