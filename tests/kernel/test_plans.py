"""The plan optimum (issue 19, stage C, section 4): every order of the customer's requests
and every call each may become, decided with effects in between; the best for the customer
wins, ties going to the customer's own order. The hand-worked optima are the fixture's
``requests:`` examples (tests/kernel/fixtures/retail_world); decide_plan still decides the
order given, as the ``steps:`` examples check."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from novamart.kernel import Facts, PolicyKernel, RulebookError
from novamart.kernel.declared import ArgumentError, Request, parse_request
from novamart.kernel.examples import check_example
from novamart.kernel.plans import best_plan, value
from novamart.kernel.requests import decide_plan
from tests.rulefiles import edit, line_of

WORLD = Path(__file__).parent / "fixtures" / "retail_world"
KERNEL = PolicyKernel(WORLD)
DECLARED = KERNEL.rulebook.declared
PENDING = Facts(
    order={"order_id": "#W2", "status": "pending"},
    item=[
        {"item_id": "P1", "order_id": "#W2", "price": 40, "new_price": 45, "status": "ordered"},
        {"item_id": "P2", "order_id": "#W2", "price": 10, "new_price": 12, "status": "ordered"},
    ],
    payment={"payment_id": "gift_card_2", "method": "gift_card", "balance": 20},
    event={"event_id": "conversation", "identity_verified": True},
)
CARD = {"order_id": "#W2", "payment_method_id": "gift_card_2"}
MODIFY_P1 = parse_request(DECLARED, {"resolution": "modify_items", **CARD, "item_ids": ["P1"]})
CANCEL = parse_request(
    DECLARED, {"resolution": "cancel_order", "order_id": "#W2", "reason": "no longer needed"}
)


def test_the_world_has_hand_worked_optima() -> None:
    optima = [e for e in KERNEL.rulebook.examples if e.requests]
    assert len(optima) >= 8
    assert any(len(e.requests) == 3 for e in optima)
    assert any(
        e.expect.get("best_order", [1]) != sorted(e.expect.get("best_order", [1])) for e in optima
    )
    assert all(check_example(KERNEL, e).passed for e in optima)


def test_a_wrong_optimum_fails() -> None:
    example = next(e for e in KERNEL.rulebook.examples if e.expect.get("best_order") == [2, 1])
    wrong = example.model_copy(update={"expect": {**example.expect, "best_order": [1, 2]}})
    assert "best_order: expected [1, 2], got [2, 1]" in check_example(KERNEL, wrong).mismatches


def test_the_optimum_beats_the_order_given_and_says_why_per_request() -> None:
    asked = [CANCEL, MODIFY_P1]
    best = best_plan(KERNEL, PENDING, asked, before_each=["confirmed"])
    in_order = decide_plan(
        KERNEL,
        PENDING,
        ["confirmed", *asked[0].calls(DECLARED), "confirmed", *asked[1].calls(DECLARED)],
    )
    assert in_order.labels() == ["cancel_order", "decline"]
    assert best.labels() == ["decline", "modify_items"] and best.order == [1, 0]
    assert value(best.plan.outcomes) > value(in_order.outcomes)
    assert best.refused() == {
        0: ["the order is pending (item modified); only pending orders can be cancelled"]
    }
    assert best.plan.state.value("order", "status") == "pending (item modified)"


def test_a_tie_keeps_the_customers_order_and_the_search_is_deterministic() -> None:
    modify_p2 = parse_request(DECLARED, {"resolution": "modify_items", **CARD, "item_ids": ["P2"]})
    twice = [
        best_plan(KERNEL, PENDING, [modify_p2, CANCEL, MODIFY_P1], ["confirmed"]) for _ in "ab"
    ]
    assert twice[0].order == twice[1].order == [2, 0, 1]
    assert twice[0].labels() == twice[1].labels()
    same = parse_request(DECLARED, {"resolution": "modify_items", **CARD, "item_ids": ["P1"]})
    tie = best_plan(KERNEL, PENDING, [MODIFY_P1, same], ["confirmed"])
    assert tie.order == [0, 1]  # equal worth either way: the order given


def test_choices_become_calls_in_the_order_written() -> None:
    request = Request(
        resolutions=("return_items", "exchange_items"),
        arguments={"order_id": "#W1", "reason": "other"},
        choices={"item_ids": (["I1"], ["I2"])},
    )
    calls = request.calls(DECLARED)
    assert [(c.resolution, c.arguments["item_ids"]) for c in calls] == [
        ("return_items", ["I1"]),
        ("return_items", ["I2"]),
        ("exchange_items", ["I1"]),
        ("exchange_items", ["I2"]),
    ]
    assert "reason" not in calls[2].arguments  # an exchange takes no reason


@pytest.mark.parametrize(
    ("raw", "message"),
    [
        ({"resolution": "teleport"}, "unknown resolution 'teleport'"),
        ({"resolution": "cancel_order", "colour": "red"}, "takes no argument colour"),
        ({"resolution": "cancel_order", "choices": {"reason": []}}, "at least one"),
        (
            {"resolution": "cancel_order", "reason": "other", "choices": {"reason": ["other"]}},
            "say one",
        ),
    ],
)
def test_a_request_that_does_not_fit_is_refused(raw: dict, message: str) -> None:
    with pytest.raises(ArgumentError, match=message):
        parse_request(DECLARED, raw)


def test_too_many_requests_or_none_fitting_are_refused() -> None:
    with pytest.raises(ArgumentError, match="1 to 6 requests"):
        best_plan(KERNEL, PENDING, [CANCEL] * 7)
    stranger = parse_request(DECLARED, {"resolution": "modify_items", **CARD, "item_ids": ["X9"]})
    with pytest.raises(ArgumentError, match="fits none of its calls"):
        best_plan(KERNEL, PENDING, [stranger])


def test_a_bad_request_in_an_example_is_refused_at_its_line(tmp_path: Path) -> None:
    world = Path(shutil.copytree(WORLD, tmp_path / "world"))
    needle = "choices: {item_ids: [[P1], [P2]]}"
    edit(world, "modify_pending.yaml", needle, needle.replace("item_ids", "item_idz"))
    line = line_of(world, "modify_pending.yaml", "item_idz")
    with pytest.raises(RulebookError) as refused:
        PolicyKernel(world)
    [issue] = [i for i in refused.value.issues if "item_idz" in i.message]
    assert (issue.file.endswith("modify_pending.yaml"), issue.line) == (True, line)
