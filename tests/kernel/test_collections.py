"""Collections, quantifiers and decisions per item (issue 19, stage B).

The fixture tests/kernel/fixtures/retail_items (an order of several items, one payment) is
written in YAML only; its examples expect per item (``each_item``) and run here, and the
loader's refusals of what cannot work are located by file and line.
"""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from pydantic import ValidationError

from novamart.analyst.explain import explain_each
from novamart.kernel import Facts, PolicyKernel, RulebookError, load_rulebook
from novamart.kernel.conditions import SCOPE
from novamart.kernel.coverage import coverage
from novamart.kernel.examples import check_example, run_examples
from novamart.kernel.facts import MAX_MEMBERS
from novamart.kernel.items import decide_each
from novamart.kernel.rulebook import DEFAULT_RULES_DIR, Example
from tests.rulefiles import edit, line_of

ITEMS = Path(__file__).parent / "fixtures" / "retail_items"
KERNEL = PolicyKernel(ITEMS)
ORDER = {"order_id": "#W100", "status": "delivered"}
TICKET = {"ticket_id": "#W100", "request": "return"}


def item(item_id: str, price: float, **fields: object) -> dict:
    return {"item_id": item_id, "order_id": "#W100", "price": price, **fields}


FOUR = [
    item("I1", 50, requested="return"),
    item("I2", 30.25, requested="return", opened=True),
    item("I3", 20, requested="return"),
    item("I4", 15),
]


@pytest.fixture
def items_rules(tmp_path: Path) -> Path:
    return Path(shutil.copytree(ITEMS, tmp_path / "retail_items"))


@pytest.mark.parametrize("example", KERNEL.rulebook.examples, ids=lambda e: e.name)
def test_items_example(example: Example) -> None:
    result = check_example(KERNEL, example)
    assert result.passed, result.mismatches


def test_every_item_example_is_covered_per_item_and_per_branch() -> None:
    report = coverage(KERNEL.rulebook, run_examples(KERNEL))
    assert not report.uncovered(), [i.description for i in report.uncovered()]
    quantifiers = [i for i in report.items if i.kind == "branch" and " item" in i.description]
    assert len(quantifiers) >= 4


def test_each_item_is_granted_or_refused_with_its_reason() -> None:
    facts = Facts(order=ORDER, item=FOUR, ticket=TICKET)
    each = decide_each(KERNEL, facts, "item")
    assert each.granted == {"full_refund": ["I1", "I3"]}
    assert each.totals == {"full_refund": 70.0}
    assert each.refused == ["I2", "I4"]
    by_id = {i.item: i.decision for i in each.items}
    (opened,) = by_id["I2"].policies["return_item"].failed()
    assert opened.reason == "item I2 has been opened"
    asked = {c.name: c.reason for c in by_id["I4"].policies["return_item"].failed()}
    assert asked == {"asked": "the customer does not ask to return item I4"}


def test_a_quantifier_names_each_member_that_failed() -> None:
    pending = {"order_id": "#W100", "status": "pending"}
    members = [item("P1", 20, final_sale=True), item("P2", 5), item("P3", 1, final_sale=True)]
    decision = KERNEL.decide(
        Facts(order=pending, item=members, ticket={"ticket_id": "#W100", "request": "cancel"})
    )
    (failed,) = decision.policies["cancel_order"].failed()
    assert failed.reason == (
        "an item was sold as final: item P1: item.final_sale is true; "
        "item P3: item.final_sale is true"
    )


def test_quantifiers_over_an_unknown_collection_are_unknown_and_an_empty_one_decides() -> None:
    pending = {"order_id": "#W100", "status": "pending"}
    cancel = {"ticket_id": "#W100", "request": "cancel"}
    unknown = KERNEL.decide(Facts(order=pending, ticket=cancel)).policies["cancel_order"]
    assert unknown.status == "undetermined"
    assert unknown.conditions[2].needs_tool == "lookup_order"
    empty = KERNEL.decide(Facts(order=pending, item=[], ticket=cancel))
    assert empty.policies["cancel_order"].status == "eligible"  # all of nothing holds
    assert empty.optimal is not None and empty.optimal.amount == 0.0


def test_a_sum_over_selected_members_is_an_amount() -> None:
    members = [item(f"G{i}", p) for i, p in enumerate((100.1, 20.05, 30.2))]
    ticket = {"ticket_id": "#W100", "request": "goodwill"}
    decision = KERNEL.decide(Facts(order=ORDER, item=members, ticket=ticket))
    assert decision.optimal is not None
    assert (decision.optimal.resolution, decision.optimal.amount) == ("store_credit", 7.52)


def test_an_item_of_another_order_and_duplicate_ids_are_refused() -> None:
    schema = KERNEL.rulebook.facts
    with pytest.raises(ValidationError, match=r"item.order_id '#W999' does not match order"):
        schema.validate({"order": ORDER, "item": [item("I1", 5) | {"order_id": "#W999"}]})
    with pytest.raises(ValidationError, match="ids are unique"):
        schema.validate({"order": ORDER, "item": [item("I1", 5), item("I1", 6)]})
    with pytest.raises(ValidationError, match=f"at most {MAX_MEMBERS}"):
        schema.validate({"item": [item(f"I{i}", 1) for i in range(MAX_MEMBERS + 1)]})


def test_one_fact_for_a_collection_stands_for_a_list_of_one() -> None:
    facts = KERNEL.rulebook.facts.validate({"order": ORDER, "item": item("I1", 5)})
    assert facts.collection("item") is not None and len(facts.collection("item") or ()) == 1


@pytest.mark.parametrize(
    ("file", "old", "new", "needle", "message"),
    [
        (
            "cancel_order.yaml",
            '"all item: not item.final_sale"',
            '"all ticket: ticket.request == cancel"',
            "all ticket",
            "quantifies over ticket, which is one fact, not a collection",
        ),
        (
            "cancel_order.yaml",
            "amount: sum(item.price)",
            "amount: sum(item.requested)",
            "sum(item.requested)",
            "sum adds up numbers, but 'item.requested' is text",
        ),
        (
            "bulk_goodwill.yaml",
            "count(item) >= 3",
            "count(items) >= 3",
            "count(items)",
            "expected a fact kind to quantify over",
        ),
        (
            "return_item.yaml",
            "for_each: item",
            "for_each: order",
            "for_each: order",
            "for_each: 'order' is not a collection kind",
        ),
        (
            "return_item.yaml",
            "for_each: item",
            "for_each: item\napplies_when: any condition holds",
            "return_item",
            "cannot be used in a rulebook that decides per item",
        ),
        (
            "return_item.yaml",
            "I2: {optimal: none, return_item: blocked}",
            "I2: {optimal: none, return_item: shut}",
            "return_item: shut",
            "each_item.I2.return_item: expected one of eligible",
        ),
        (
            "return_item.yaml",
            "{item_id: I4, order_id: '#W100', price: 15}",
            "{item_id: I4, order_id: '#W999', price: 15}",
            "#W999",
            "does not match order.order_id",
        ),
    ],
)
def test_load_refuses_with_file_and_line(
    items_rules: Path, file: str, old: str, new: str, needle: str, message: str
) -> None:
    edit(items_rules, file, old, new)
    with pytest.raises(RulebookError) as raised:
        load_rulebook(items_rules)
    issues = [i for i in raised.value.issues if message in i.message]
    assert issues, [str(i) for i in raised.value.issues]
    assert issues[0].file.endswith(file)
    if needle != "return_item":  # a rulebook-wide refusal names the policy's file only
        assert issues[0].line is not None
        assert abs(issues[0].line - line_of(items_rules, file, needle)) <= 1


def test_explain_each_traces_every_item_in_focus() -> None:
    facts = Facts(order=ORDER, item=FOUR[:2], ticket=TICKET)
    traced = explain_each(KERNEL, facts, "item")
    assert list(traced) == ["I1", "I2"]
    assert traced["I1"].optimal is not None and traced["I1"].optimal.amount == 50.0
    unopened = traced["I2"].policies["return_item"].conditions[2]
    assert (unopened.status, unopened.observed) == ("fail", True)
    with pytest.raises(ValueError, match="not a collection kind"):
        explain_each(KERNEL, facts, "order")


def test_rulebooks_without_for_each_get_no_scope_condition() -> None:
    shipped = load_rulebook(DEFAULT_RULES_DIR)
    names = {c.name for p in shipped.policies.values() for c in p.conditions}
    assert SCOPE not in names
    scoped = {c.name for p in KERNEL.rulebook.policies.values() for c in p.conditions}
    assert SCOPE in scoped
