"""Relations, arithmetic and boolean composition in conditions and amounts (issue 19, stage A).

The fixture rulebook tests/kernel/fixtures/retail is written with them; its own examples run
in test_retail_rules.py. Here: what the language reads, how it decides when a field is unknown,
what it refuses at load (with file and line), and the reason it gives when a test fails.
"""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from novamart.kernel import Facts, PolicyKernel, RulebookError, load_rulebook
from novamart.kernel.conditions import ConditionSyntaxError, ExprTest, FieldTest, parse_test
from novamart.kernel.expressions import Decimal, holds, parse, value_of
from novamart.kernel.rulebook import DEFAULT_RULES_DIR
from tests.rulefiles import edit, line_of

RETAIL = Path(__file__).parent / "fixtures" / "retail"
SCHEMA = load_rulebook(RETAIL).facts
ORDER = {
    "order_id": "#W2378156",
    "status": "delivered",
    "price": 100.0,
    "new_price": 120.0,
    "days_since_delivery": 10,
    "opened": True,
}


@pytest.fixture
def retail(tmp_path: Path) -> Path:
    return Path(shutil.copytree(RETAIL, tmp_path / "retail"))


def lookup(**kinds: dict) -> Facts:
    """What an expression reads: facts, unchecked (the test gives only what it needs)."""
    return Facts(**kinds)


def test_a_field_compared_with_a_field_compares_the_fields() -> None:
    """The bug of issue 19: 'ticket.ticket_id == order.order_id' compared with the text."""
    test = parse_test("ticket.ticket_id == order.order_id", SCHEMA)
    assert isinstance(test, ExprTest)
    same = lookup(order=ORDER, ticket={"ticket_id": "#W2378156"})
    other = lookup(order=ORDER, ticket={"ticket_id": "#W0000001"})
    assert test.holds(same) is True
    assert test.holds(other) is False
    literal = lookup(order=ORDER, ticket={"ticket_id": "order.order_id"})
    assert test.holds(literal) is False


def test_a_plain_comparison_is_still_a_field_test() -> None:
    assert parse_test("order.price <= 30", SCHEMA) == FieldTest("order", "price", "<=", 30)
    test = parse_test("order.status in [pending, 'pending (item modified)']", SCHEMA)
    assert test == FieldTest("order", "status", "in", ("pending", "pending (item modified)"))
    shipped = load_rulebook(DEFAULT_RULES_DIR)
    for policy in shipped.policies.values():
        assert not any(isinstance(c.test, ExprTest) for c in policy.conditions)


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("order.new_price - order.price", Decimal("20")),
        ("(order.price + 20) * 10%", Decimal("12")),
        ("order.price - order.price * 10% / 2", Decimal("95")),
        ("-order.price + 1", Decimal("-99")),
    ],
)
def test_arithmetic_in_decimal(text: str, expected: Decimal) -> None:
    assert value_of(parse(text, SCHEMA), lookup(order=ORDER)) == expected


def test_money_adds_up_to_the_cent() -> None:
    """0.1 + 0.2 is 0.3 (binary floats say 0.30000000000000004)."""
    node = parse("order.price + order.new_price == 0.3", SCHEMA)
    assert holds(node, lookup(order={"price": 0.1, "new_price": 0.2})) is True


@pytest.mark.parametrize(
    ("text", "payment", "expected"),
    [
        ("payment.balance >= order.new_price - order.price", {"balance": 20.0}, True),
        ("payment.balance >= order.new_price - order.price", {"balance": 19.99}, False),
        ("payment.balance >= order.new_price - order.price", {}, None),
        ("payment.balance >= 1000 and order.price >= 1000", {}, False),  # known part decides
        ("payment.balance >= 1000 or order.price >= 50", {}, True),
        ("if payment.method == gift_card then payment.balance > 0", {"method": "paypal"}, True),
        ("if payment.method == gift_card then payment.balance > 0", {"method": "gift_card"}, None),
        ("not (payment.method == gift_card)", {"method": "gift_card"}, False),
        ("not order.opened or payment.balance > 0", {}, None),
    ],
)
def test_three_valued_logic(text: str, payment: dict, expected: bool | None) -> None:
    test = parse_test(text, SCHEMA)
    assert isinstance(test, ExprTest)
    assert test.holds(lookup(order=ORDER, payment=payment)) is expected


def test_a_division_by_zero_fails_the_test() -> None:
    test = parse_test("order.price / payment.balance > 1", SCHEMA)
    assert isinstance(test, ExprTest)
    values = lookup(order=ORDER, payment={"balance": 0.0})
    assert test.holds(values) is False
    assert "divides by zero" in test.failure(values)


def test_ids_and_choice_values_as_real_systems_write_them(retail: Path) -> None:
    kernel = PolicyKernel(retail)
    raw = {
        "order": {"order_id": "#W5918442", "status": "pending (item modified)", "price": 10.0},
        "ticket": {"ticket_id": "#W5918442", "request": "cancel", "reason": "no longer needed"},
    }
    decision = kernel.decide_raw(raw)
    assert decision.policies["cancel_pending"].status == "eligible"


@pytest.mark.parametrize(
    ("old", "new", "needle", "message"),
    [
        (
            "test: ticket.ticket_id == order.order_id\n    reason: the request is about "
            "{ticket.ticket_id}, not order {order.order_id}\n  - name: asks_for_exchange",
            "test: ticket.ticket_id == order.order_no\n    reason: the request is about "
            "{ticket.ticket_id}, not order {order.order_id}\n  - name: asks_for_exchange",
            "order.order_no",
            "unknown fact field 'order.order_no' (known: order.order_id, order.status",
        ),
        (
            "payment.balance >= order.new_price - order.price",
            "payment.balance >= order.new_price - order.status",
            "- order.status",
            "'order.status' is text; arithmetic needs numbers",
        ),
        (
            "payment.balance >= order.new_price - order.price",
            "payment.balance >= payment.method",
            "payment.balance >= payment.method",
            "'payment.balance' is a number but is compared with text 'payment.method'",
        ),
        (
            "payment.balance >= order.new_price - order.price",
            "payment.balance >= order.new_price - orders.price",
            "orders.price",
            "unknown fact kind 'orders'",
        ),
        (
            "payment.balance >= order.new_price - order.price",
            "payment.balance >= order.new_price - order.price and",
            "order.price and",
            "cannot read test",
        ),
        (
            "payment.balance >= order.new_price - order.price",
            "payment.balance + 1",
            "payment.balance + 1",
            "'if/then' joins conditions, but 'payment.balance + 1' is a number",
        ),
        (
            "payment.balance >= order.new_price - order.price",
            "payment.method == store_card",
            "store_card",
            "payment.method is never 'store_card'",
        ),
        (
            "the gift card cannot pay the difference: {failed}",
            "the gift card holds {payment.balanse}",
            "balanse",
            "reason uses unknown fact field {payment.balanse} (known: payment.payment_id",
        ),
        (
            "the gift card cannot pay the difference: {failed}",
            "the gift card is short of {limit}",
            "short of",
            "an expression test has no single value",
        ),
        (
            "amount: order.new_price - order.price",
            "amount: order.new_price - order.prise",
            "order.prise",
            "amount: unknown fact field 'order.prise'",
        ),
        (
            "amount: order.new_price - order.price",
            "amount: order.new_price - ticket.request",
            "- ticket.request",
            "amount: 'ticket.request' is text; arithmetic needs numbers",
        ),
        (
            "amount: order.new_price - order.price",
            "amount: order.price > 5",
            "order.price > 5",
            "amount: 'order.price > 5' is true/false, not a number",
        ),
    ],
)
def test_load_refuses_with_file_line_and_known_fields(
    retail: Path, old: str, new: str, needle: str, message: str
) -> None:
    edit(retail, "exchange_delivered.yaml", old, new)
    with pytest.raises(RulebookError) as raised:
        load_rulebook(retail)
    issues = [i for i in raised.value.issues if message in i.message]
    assert issues, [str(i) for i in raised.value.issues]
    assert issues[0].file.endswith("exchange_delivered.yaml")
    assert issues[0].line == line_of(retail, "exchange_delivered.yaml", needle)


def test_a_test_must_be_true_or_false() -> None:
    with pytest.raises(ConditionSyntaxError, match="a test must be true or false"):
        parse_test("order.price + 1", SCHEMA)


def test_a_dotted_word_of_no_kind_is_refused_not_read_as_text() -> None:
    with pytest.raises(ConditionSyntaxError, match="quote a text value"):
        parse_test("order.status == orders.status and order.price > 1", SCHEMA)


def test_a_failed_reason_names_the_part_that_failed(retail: Path) -> None:
    kernel = PolicyKernel(retail)
    facts = Facts(
        order=ORDER,
        payment={"payment_id": "gift_card_1", "method": "gift_card", "balance": 19.99},
        ticket={"ticket_id": "#W2378156", "request": "exchange"},
    )
    verdict = kernel.decide(facts).policies["exchange_delivered"]
    (failed,) = [c for c in verdict.conditions if c.status == "fail"]
    assert failed.name == "gift_card_covers_difference"
    assert failed.reason == (
        "the gift card cannot pay the difference: payment.balance (19.99) is not >= "
        "order.new_price - order.price (20) (as payment.method == gift_card)"
    )
    unknown = kernel.decide(Facts(order=ORDER, ticket=facts.as_dict()["ticket"]))
    waiting = unknown.policies["exchange_delivered"].conditions[-1]
    assert (waiting.status, waiting.needs_tool) == ("unknown", "check_loyalty")
    assert waiting.reason == "no payment fact yet"


def test_an_expression_amount_rounds_half_up_to_the_cent(retail: Path) -> None:
    kernel = PolicyKernel(retail)
    order = {**ORDER, "price": 100.05, "days_since_delivery": 7}
    decision = kernel.decide(
        Facts(order=order, ticket={"ticket_id": "#W2378156", "request": "return"})
    )
    assert decision.optimal is not None
    assert (decision.optimal.resolution, decision.optimal.amount) == ("full_refund", 90.05)


def test_equal_outcomes_share_an_engine_run_and_decide_alike(retail: Path) -> None:
    """The kernel-evaluated outcomes are part of the memo key: a case across the boundary
    gets its own run."""
    kernel = PolicyKernel(retail)
    ticket = {"ticket_id": "#W2378156", "request": "exchange"}
    decide = lambda balance: kernel.decide(  # noqa: E731
        Facts(
            order=ORDER,
            ticket=ticket,
            payment={"payment_id": "g", "method": "gift_card", "balance": balance},
        )
    )
    assert decide(20.0).policies["exchange_delivered"].status == "eligible"
    assert decide(19.99).policies["exchange_delivered"].status == "blocked"
    assert decide(25.0).policies["exchange_delivered"].status == "eligible"
