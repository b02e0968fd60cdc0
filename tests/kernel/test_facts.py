"""The fact vocabulary lives in rules/facts.yaml: a new field is a rule-file edit, not code."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
import yaml
from pydantic import ValidationError

from novamart.kernel import Facts, PolicyKernel, RulebookError
from novamart.kernel.money import cents, percent_of
from novamart.kernel.rulebook import DEFAULT_RULES_DIR


def copy_rules(tmp_path: Path) -> Path:
    rules = tmp_path / "rules"
    shutil.copytree(DEFAULT_RULES_DIR, rules)
    return rules


def test_a_new_field_and_a_policy_on_it_need_no_code(tmp_path: Path) -> None:
    rules = copy_rules(tmp_path)
    declared = yaml.safe_load((rules / "facts.yaml").read_text())
    declared["facts"]["order"]["fields"]["competitor_price"] = {
        "type": "money",
        "range": [0, 100000],
        "describe": "the lowest price a competitor advertises",
    }
    (rules / "facts.yaml").write_text(yaml.safe_dump(declared))
    (rules / "price_match.yaml").write_text(
        "policy: price_match\n"
        "clause: We match a competitor's lower price within 14 days.\n"
        "conditions:\n"
        "  - name: within_match_window\n"
        "    test: order.days_since_purchase <= 14\n"
        "    reason: purchased {order.days_since_purchase} days ago; we match for {limit} days\n"
        "  - name: competitor_cheaper\n"
        "    test: order.competitor_price < 500\n"
        "    reason: the competitor asks {order.competitor_price}\n"
        "grants:\n"
        "  - resolution: store_credit\n"
        "    amount: 25\n"
    )
    kernel = PolicyKernel(rules)
    order = {"order_id": "O-1", "days_since_purchase": 40, "opened": True, "price": 600.0}
    cheaper = kernel.decide(
        Facts(order={**order, "days_since_purchase": 10, "competitor_price": 450.0})
    )
    assert cheaper.policies["price_match"].status == "eligible"
    dearer = kernel.decide(
        Facts(order={**order, "days_since_purchase": 10, "competitor_price": 550.0})
    )
    assert dearer.policies["price_match"].conditions[1].reason == "the competitor asks 550.00"
    assert kernel.decide(Facts(order=order)).policies["price_match"].status == "blocked"


@pytest.mark.parametrize(
    ("edit", "message"),
    [
        (lambda d: d["facts"]["order"]["fields"]["category"].pop("values"), "needs its values"),
        (lambda d: d["facts"]["order"]["fields"].pop("order_id"), "exactly one field of type id"),
        (lambda d: d["facts"]["order"]["fields"]["opened"].update(type="flag"), "type"),
        (
            lambda d: d["facts"]["customer"]["fields"]["tier"].update(says_true=["gold"]),
            "only for a bool",
        ),
    ],
)
def test_a_broken_declaration_is_refused_with_its_file(tmp_path: Path, edit, message: str) -> None:
    rules = copy_rules(tmp_path)
    declared = yaml.safe_load((rules / "facts.yaml").read_text())
    edit(declared)
    (rules / "facts.yaml").write_text(yaml.safe_dump(declared))
    with pytest.raises(RulebookError) as refused:
        PolicyKernel(rules)
    assert any(i.file.endswith("facts.yaml") and message in i.message for i in refused.value.issues)


def test_a_missing_declaration_is_named(tmp_path: Path) -> None:
    rules = copy_rules(tmp_path)
    (rules / "facts.yaml").unlink()
    with pytest.raises(RulebookError, match="fact declaration is missing"):
        PolicyKernel(rules)


def test_facts_are_checked_against_the_declaration() -> None:
    schema = PolicyKernel().rulebook.facts
    with pytest.raises(ValidationError):
        schema.validate({"order": {"order_id": "O", "colour": "red"}})
    with pytest.raises(ValidationError, match="does not match"):
        schema.validate({"order": {"order_id": "A"}, "defect_check": {"order_id": "B"}})
    read = schema.validate({"ticket": {"ticket_id": "T"}})
    assert read.value("ticket", "burning_smell") is False  # a sign the message does not show


def test_equal_fact_sets_are_equal_and_hash_alike() -> None:
    a = Facts(order={"order_id": "O", "price": 5.0}, customer=None)
    b = Facts(order={"price": 5.0, "order_id": "O"})
    assert a == b and hash(a) == hash(b)
    assert a != Facts(order={"order_id": "O", "price": 6.0})


@pytest.mark.parametrize(
    ("base", "percent", "expected"),
    [
        (79.99, 50, 40.0),
        (49.99, 50, 25.0),
        (1299.99, 75, 974.99),
        (129.0, 75, 96.75),
        (0.15, 50, 0.08),
    ],
)
def test_percentages_round_half_up_to_the_cent(
    base: float, percent: float, expected: float
) -> None:
    assert percent_of(base, percent) == expected
    assert cents(expected) == expected


def test_facts_that_differ_only_where_no_rule_looks_keep_their_own_amounts() -> None:
    """The engine runs once for the tested fields (novamart.kernel.decide), but amounts and
    reasons still come from each case's own facts."""
    kernel = PolicyKernel()

    def case(order_id: str, price: float, category: str) -> dict:
        order = {"order_id": order_id, "days_since_purchase": 45, "opened": True}
        return {
            "order": {**order, "price": price, "category": category},
            "customer": {"customer_id": "CUST-1", "tier": "gold"},
        }

    one = kernel.decide_raw(case("ORD-1", 100.0, "phone"))
    other = kernel.decide_raw(case("ORD-2", 79.99, "earbuds"))
    assert one.optimal is not None and other.optimal is not None
    assert one.optimal.resolution == other.optimal.resolution == "store_credit"
    assert (one.optimal.amount, other.optimal.amount) == (
        percent_of(100.0, 75),
        percent_of(79.99, 75),
    )
    assert one.policies == other.policies  # the verdicts, reasons included, depend on days only
