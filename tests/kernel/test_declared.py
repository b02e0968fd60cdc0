"""Declared resolutions, effects, events and plans (issue 19, stage C).

The fixture tests/kernel/fixtures/retail_world is written in YAML only: resolutions with
arguments, selections, amounts, effects, a follow-up and required events, a declining
resolution, and policies over them. Its hand-worked examples (calls and plans) run here, and
every refusal of the loader is located by file and line.
"""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from novamart.analyst.explain import explain_facts
from novamart.kernel import Facts, PolicyKernel, RulebookError, load_rulebook
from novamart.kernel.coverage import coverage
from novamart.kernel.declared import ArgumentError, Call
from novamart.kernel.examples import check_example, run_examples
from novamart.kernel.requests import decide_call, decide_plan, request_facts
from novamart.kernel.rulebook import Example
from tests.rulefiles import edit, line_of

WORLD = Path(__file__).parent / "fixtures" / "retail_world"
KERNEL = PolicyKernel(WORLD)
ORDER = {"order_id": "#W1", "status": "delivered"}
ITEMS = [
    {"item_id": "I1", "order_id": "#W1", "price": 50, "new_price": 60, "status": "delivered"},
    {"item_id": "I2", "order_id": "#W1", "price": 30, "new_price": 25, "status": "delivered"},
]
GIFT = {"payment_id": "gift_card_1", "method": "gift_card", "balance": 100}
YES = {"event_id": "conversation", "identity_verified": True, "confirmed": True}
RETURN = Call(
    resolution="return_items",
    arguments={"order_id": "#W1", "item_ids": ["I1"], "payment_method_id": "gift_card_1"},
)


@pytest.fixture
def world(tmp_path: Path) -> Path:
    return Path(shutil.copytree(WORLD, tmp_path / "retail_world"))


@pytest.mark.parametrize("example", KERNEL.rulebook.examples, ids=lambda e: e.name)
def test_world_example(example: Example) -> None:
    result = check_example(KERNEL, example)
    assert result.passed, result.mismatches


def test_the_world_has_forty_hand_worked_calls_and_plans() -> None:
    examples = KERNEL.rulebook.examples
    assert len(examples) >= 40
    assert all(e.steps or e.requests for e in examples)
    assert sum(len([s for s in e.steps if isinstance(s, Call)]) > 1 for e in examples) >= 8


def test_a_wrong_expectation_fails() -> None:
    example = next(e for e in KERNEL.rulebook.examples if e.expect.get("plan") == ["return_items"])
    wrong = example.model_copy(update={"expect": {**example.expect, "plan": ["decline"]}})
    assert not check_example(KERNEL, wrong).passed


def test_effects_are_pure_and_the_old_facts_keep_their_decision() -> None:
    before = Facts(order=ORDER, item=ITEMS, payment=GIFT, event=YES)
    first = KERNEL.decide(request_facts(KERNEL.rulebook, before, RETURN))
    plan = decide_plan(KERNEL, before, [RETURN])
    assert before.as_dict()["order"]["status"] == "delivered"
    assert plan.state.value("order", "status") == "return requested"
    assert plan.state.value("payment", "balance") == 150.0
    assert plan.state.collection("request") is None and plan.state.record("request") is None
    assert KERNEL.decide(request_facts(KERNEL.rulebook, before, RETURN)) is first


def test_the_request_selects_the_named_items() -> None:
    facts = request_facts(KERNEL.rulebook, Facts(order=ORDER, item=ITEMS, payment=GIFT), RETURN)
    assert [m["selected"] for m in facts.collection("item")] == [True, False]
    assert facts.value("request", "resolution") == "return_items"
    assert facts.value("request", "reason") == "other"  # the declared default


@pytest.mark.parametrize(
    ("arguments", "message"),
    [
        ({"order_id": "#W9", "item_ids": ["I1"], "payment_method_id": "gift_card_1"}, "#W9"),
        ({"order_id": "#W1", "item_ids": ["I7"], "payment_method_id": "gift_card_1"}, "I7"),
        ({"order_id": "#W1", "item_ids": [], "payment_method_id": "gift_card_1"}, "at least"),
        (
            {"order_id": "#W1", "item_ids": ["I1", "I1"], "payment_method_id": "gift_card_1"},
            "twice",
        ),
        ({"order_id": "#W1", "item_ids": ["I1"]}, "payment_method_id"),
        (
            {
                "order_id": "#W1",
                "item_ids": ["I1"],
                "payment_method_id": "gift_card_1",
                "reason": "bored",
            },
            "bored",
        ),
    ],
)
def test_bad_arguments_are_refused_with_a_clear_error(arguments: dict, message: str) -> None:
    facts = Facts(order=ORDER, item=ITEMS, payment=GIFT, event=YES)
    with pytest.raises(ArgumentError, match=message):
        decide_call(KERNEL, facts, Call(resolution="return_items", arguments=arguments))


def test_a_missing_event_is_named_with_the_tool_that_settles_it() -> None:
    facts = request_facts(KERNEL.rulebook, Facts(order=ORDER, item=ITEMS, payment=GIFT), RETURN)
    verdict = KERNEL.decide(facts).policies["return_delivered"]
    unknown = {c.name: (c.reason, c.needs_tool) for c in verdict.unknown()}
    assert unknown == {
        "requires_identity_verified": ("no event fact yet", "find_user"),
        "requires_confirmed": ("no event fact yet", "find_user"),
    }
    traced = explain_facts(KERNEL, facts, "return_items")
    assert traced.why_not is not None and not traced.why_not.allowed
    said = [c.test for c in traced.policies["return_delivered"].conditions]
    assert "event.confirmed == true" in said


def test_a_refused_write_says_which_event_is_missing() -> None:
    no_yes = {**YES, "confirmed": False}
    outcome, after = decide_call(
        KERNEL, Facts(order=ORDER, item=ITEMS, payment=GIFT, event=no_yes), RETURN
    )
    assert outcome.status == "refused"
    assert outcome.reasons == ["return_items requires confirmed first, and it has not happened yet"]
    assert after.value("order", "status") == "delivered"


# ---- refusals at load, each at its file and line ----------------------------------------


def _refused(rules: Path) -> list[str]:
    with pytest.raises(RulebookError) as error:
        load_rulebook(rules)
    return [str(i) for i in error.value.issues]


RETURN_STATUS = "      - order.status = 'return requested'"
RETURN_ITEMS = (
    "    selects: item\n    requires: [identity_verified, confirmed]\n"
    "    amount: sum(item.price where"
)
BAD_DECLARATIONS = [  # (the text replaced, its replacement, the line's text, the message)
    (RETURN_STATUS, "      - order.state = 'x'", "order.state", "unknown fact field 'order.state'"),
    (RETURN_STATUS, "      - order.order_id = 'X1'", "order.order_id =", "order.order_id is an id"),
    (RETURN_STATUS, "      - order.status = 5", "order.status = 5", "is assigned a number '5'"),
    (RETURN_STATUS, "      - order.status = gone", "= gone", "order.status is never 'gone'"),
    (
        "      - item.status = 'return requested' where item.selected",
        "      - item.status = 'return requested'",
        "- item.status = 'return requested'",
        "item is a collection: say which members",
    ),
    (
        RETURN_STATUS,
        "      - order.status = 'return requested' where item.final_sale",
        "where item.final_sale",
        "'item.final_sale' reads one member of the collection item",
    ),
    (
        RETURN_STATUS,
        "      - order.status = cancelled where 1",
        "where 1",
        "'where' takes a condition",
    ),
    (
        "      - event.confirmed = false\n  exchange_items:",
        "      - event.confirmed = false\n      - event.confirmed = true\n  exchange_items:",
        "event.confirmed = true",
        "event.confirmed is assigned twice",
    ),
    (
        "      - item.status = cancelled where true",
        "      - item.status = cancelled where true\n    then: cancel_order",
        "then: cancel_order",
        "then: a cycle (cancel_order -> release_items -> cancel_order)",
    ),
    (
        "    then: release_items",
        "    then: restock",
        "then: restock",
        "unknown resolution 'restock'",
    ),
    (
        RETURN_ITEMS,
        RETURN_ITEMS.replace("confirmed]", "smiled]"),
        "smiled]",
        "requires: unknown event 'smiled' (events: identity_verified, confirmed)",
    ),
    (
        "      item_ids: {type: ids, of: item}\n      payment_method_id",
        "      item_ids: {type: ids, of: order}\n      payment_method_id",
        "{type: ids, of: order}",
        "ids name members of a collection",
    ),
    (
        RETURN_ITEMS,
        RETURN_ITEMS.replace("selects: item", "selects: payment"),
        "selects: payment",
        "selects: 'payment' is not a collection kind",
    ),
    (
        "    amount: sum(item.price)\n",
        "    amount: order.status\n",
        "amount: order.status",
        "'order.status' is text, not a number",
    ),
    (
        "      explanation: {type: text, default: ''}",
        "      reason: {type: text, default: ''}",
        "reason: {type: text",
        "argument reason is text here but choice in another resolution",
    ),
]


@pytest.mark.parametrize(("old", "new", "needle", "message"), BAD_DECLARATIONS)
def test_a_bad_declaration_is_refused_at_its_line(
    world: Path, old: str, new: str, needle: str, message: str
) -> None:
    edit(world, "resolutions.yaml", old, new)
    line = line_of(world, "resolutions.yaml", needle)
    problems = _refused(world)
    located = [p for p in problems if message in p]
    assert located, problems
    assert any(f"resolutions.yaml:{line}:" in p for p in located), (line, located)


BALANCE = (
    "      - payment.balance = payment.balance - sum(item.new_price - item.price where "
    "item.selected) where payment.method == gift_card\n"
)
PRICE = "      - item.price = item.new_price where item.selected\n"


def test_order_dependent_effects_are_refused_at_the_reading_effect(world: Path) -> None:
    edit(
        world,
        "resolutions.yaml",
        BALANCE + PRICE + "      - item.status = modified",
        PRICE + BALANCE + "      - item.status = modified",
    )
    lines = (world / "resolutions.yaml").read_text().splitlines()
    reader = max(
        i for i, text in enumerate(lines, 1) if "payment.balance = payment.balance -" in text
    )
    problems = _refused(world)
    assert any(
        f"resolutions.yaml:{reader}:" in p and "reads item.price, which effect" in p
        for p in problems
    ), problems


def test_an_event_nothing_can_produce_is_unsatisfiable(world: Path) -> None:
    edit(world, "facts.yaml", "    revealed_by: find_user", "    revealed_by: null")
    edit(world, "facts.yaml", "        says_true: [yes please go ahead, yes that is right]\n", "")
    problems = _refused(world)
    line = line_of(world, "resolutions.yaml", "requires: [identity_verified, confirmed]")
    for event in ("identity_verified", "confirmed"):  # an effect only ever resets confirmed
        found = [p for p in problems if f"'{event}' is unsatisfiable" in p]
        assert found and f"resolutions.yaml:{line}:" in found[0], problems


def test_a_policy_wanting_a_required_event_false_is_unsatisfiable(world: Path) -> None:
    edit(
        world,
        "cancel_pending.yaml",
        "  - name: listed_reason",
        "  - name: not_confirmed\n    test: event.confirmed == false\n    reason: confirmed\n"
        "  - name: listed_reason",
    )
    line = line_of(world, "cancel_pending.yaml", "name: not_confirmed")
    problems = _refused(world)
    assert any(
        f"cancel_pending.yaml:{line}:" in p
        and "unsatisfiable: cancel_order requires confirmed" in p
        for p in problems
    ), problems


def test_a_bad_step_in_an_example_is_refused_at_its_line(world: Path) -> None:
    edit(world, "cancel_pending.yaml", "      - event: identity_verified", "      - event: smiled")
    line = line_of(world, "cancel_pending.yaml", "- event: smiled")
    problems = _refused(world)
    assert any(
        f"cancel_pending.yaml:{line}:" in p and "unknown event 'smiled'" in p for p in problems
    )


def test_rules_without_declarations_load_as_they_were() -> None:
    shipped = load_rulebook()
    assert "request" not in shipped.facts.kinds
    assert all(not d.effects and not d.requires for d in shipped.declared.values())


def test_every_branch_and_required_event_of_the_world_is_covered() -> None:
    report = coverage(KERNEL.rulebook, run_examples(KERNEL))
    assert not report.uncovered(), [i.description for i in report.uncovered()]
    required = [i.description for i in report.items if i.target == "requires_confirmed"]
    assert {"requires_confirmed seen passing", "requires_confirmed seen failing"} <= set(required)


def test_an_effect_says_whether_it_adds_to_or_takes_from_the_field_it_sets() -> None:
    """What a write does to a balance (the retail claims read it to tell a refund from a price
    difference the customer paid): +1 adds to what the field holds, -1 takes from it."""
    declared = KERNEL.rulebook.declared
    balance = {
        name: [e.added for e in d.effects if e.target == "payment.balance"]
        for name, d in declared.items()
    }
    assert balance["return_items"] == [1]
    assert balance["exchange_items"] == [-1]
    assert all(e.added == 0 for e in declared["return_items"].effects if e.field == "status")
