"""The work a decision shares (issue 19, speed): a test many policies write is one engine
test, the items of one order share what reads no item, and items whose policies come out
alike share one engine run; none of it may change a decision."""

from __future__ import annotations

from pathlib import Path

from novamart.kernel import Facts, PolicyKernel
from novamart.kernel.compile import compile_rulebook, engine_conditions, engine_tests
from novamart.kernel.conditions import FieldTest
from novamart.kernel.decide import ENGINE_RUNS, CompiledRulebook
from novamart.kernel.items import decide_each

ITEMS = Path(__file__).parent / "fixtures" / "retail_items"
KERNEL = PolicyKernel(ITEMS)


def order(*members: dict) -> Facts:
    return Facts(
        order={"order_id": "#W1", "status": "delivered"},
        item=[{"order_id": "#W1", **m} for m in members],
        ticket={"ticket_id": "#W1", "request": "return"},
        payment={"payment_id": "gift_card_1", "method": "gift_card", "balance": 100.0},
    )


FIVE = order(
    {"item_id": "I1", "price": 50, "requested": "return"},
    {"item_id": "I2", "price": 30.25, "requested": "return", "opened": True},
    {"item_id": "I3", "price": 20, "requested": "return"},
    {"item_id": "I4", "price": 15, "requested": "exchange", "new_price": 20},
    {"item_id": "I5", "price": 15},
)


def test_a_test_written_in_several_policies_is_one_engine_test() -> None:
    rulebook = KERNEL.rulebook
    written = [
        c.test
        for p in rulebook.policies.values()
        for c in engine_conditions(rulebook, p)
        if isinstance(c.test, FieldTest)
    ]
    tests = engine_tests(rulebook)
    assert len(tests) == len(set(written)) < len(written)  # order.status == delivered, twice
    rules = [name for name in compile_rulebook(rulebook) if name.startswith("test:")]
    assert len(rules) == 2 * len(tests)  # a pass and a fail rule per distinct test
    shared = next(t for t, readers in tests.items() if len(readers) > 1)
    assert {p for p, _ in tests[shared]} >= {"return_item", "exchange_item"}


def test_an_orders_items_decide_as_if_each_were_decided_alone() -> None:
    together = decide_each(KERNEL, FIVE, "item")
    for i, item in enumerate(together.items):
        alone = CompiledRulebook(KERNEL.rulebook)  # its own memo: nothing shared with the order
        rebuilt = Facts(**FIVE.as_dict()).focus("item", i)
        assert alone.decide(rebuilt) == item.decision


def test_items_whose_policies_come_out_alike_share_an_engine_run() -> None:
    alike = order(
        {"item_id": "I1", "price": 50, "requested": "return"},
        {"item_id": "I2", "price": 20, "requested": "return"},  # other prices, same outcome
        {"item_id": "I3", "price": 15, "requested": "return", "opened": True},
    )
    ENGINE_RUNS.clear()
    before = ENGINE_RUNS.misses
    each = decide_each(CompiledRulebook(KERNEL.rulebook), alike, "item")
    assert each.granted.get("full_refund", []) == ["I1", "I2"]
    assert ENGINE_RUNS.misses - before == 2  # I1 and I2 share one; the opened I3 its own
    reasons = each.items[2].decision.blocking_reasons("full_refund")
    assert any("opened" in r for r in reasons)
