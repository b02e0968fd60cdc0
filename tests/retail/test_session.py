"""The retail tools over a real session (real rules/retail, the real engine): authentication
gates the account, the yes is bound to the very write it listed, a write changes the world by
the rulebook's effects, bad input is a typed error and the session goes on."""

from __future__ import annotations

from typing import Any

import pytest

from novamart.retail import tools
from novamart.retail.session import RetailSession
from novamart.scenarios.retail_character import retail_character
from novamart.scenarios.retail_customer import case, opening
from novamart.scenarios.retail_requests import Request, settle
from novamart.scenarios.retail_world import retail_kernel
from novamart.scenarios.tasks import RETAIL_TASKS, RETAIL_TOOLS, Mode
from novamart.server.environment import NovamartEnvironment


def session(task: str = "retail_return", seed: int = 3, mode: Mode = "guided") -> RetailSession:
    drawn, p = case(task, seed)
    return RetailSession.start(drawn, p, mode, max_steps=40)


def run(s: RetailSession, tool: str, /, **arguments: Any) -> dict[str, Any]:
    return tools.call(s, tool, arguments)


def code(result: dict[str, Any]) -> str | None:
    return None if result["ok"] else result["error"]["code"]


def first_request(s: RetailSession) -> Request:
    return s.task.settled[0].request


def write_arguments(s: RetailSession, request: Request) -> tuple[str, dict[str, Any]]:
    tool = retail_kernel().rulebook.resolutions[request.call.resolution].tool
    arguments = dict(request.call.arguments)
    if request.targets:
        arguments["new_variant_ids"] = [v for _, v in request.targets]
    return tool, arguments


def listing(s: RetailSession, request: Request) -> str:
    """A message listing every detail of ``request`` (ids, amount, payment method)."""
    settled, _ = settle(s.world, request)
    amount = f" for ${settled.amount:.2f}" if settled.amount else ""
    items = " ".join(request.item_ids)
    variants = " ".join(v for _, v in request.targets)
    payment = request.call.arguments.get("payment_method_id", "")
    address = request.call.arguments.get("address", "")
    return (
        f"I will {request.call.resolution.replace('_', ' ')} on order {request.order_id}: "
        f"items {items} {variants}{amount} via {payment} {address}. Shall I go ahead?"
    )


def authenticate(s: RetailSession) -> None:
    assert run(s, "find_customer", email=s.profile.customer.email)["ok"]


def test_the_account_is_shown_only_after_authentication() -> None:
    s = session()
    customer = s.profile.customer
    order = first_request(s).order_id
    assert code(run(s, "lookup_customer", customer_id=customer.customer_id)) == "not_established"
    assert code(run(s, "lookup_order", order_id=order)) == "not_established"
    assert code(run(s, "find_customer", email="nobody@example.com")) == "wrong_customer"
    assert code(run(s, "find_customer", name=customer.name, zip="00000")) == "wrong_customer"
    assert run(s, "find_customer", name=customer.name.upper(), zip=customer.zip)["ok"]
    shown = run(s, "lookup_customer", customer_id=customer.customer_id)
    assert order in {o["order_id"] for o in shown["orders"]}
    assert run(s, "lookup_order", order_id=order)["ok"]
    assert [step.kind for step in s.trail.steps] == ["identified", "read", "read"]


def test_another_customers_order_is_refused_in_guided_play() -> None:
    s = session()
    authenticate(s)
    other = next(c for c in s.world.customers if c.customer_id != s.task.customer_id)
    assert code(run(s, "lookup_order", order_id=other.orders[0].order_id)) == "wrong_customer"
    assert code(run(s, "lookup_customer", customer_id=other.customer_id)) == "wrong_customer"
    cancel = run(s, "cancel_pending_order", order_id=other.orders[0].order_id, reason="other")
    assert code(cancel) == "wrong_customer"
    assert s.world == s.task.world


def test_a_write_needs_the_yes_to_its_own_details() -> None:
    s = session()
    authenticate(s)
    request = first_request(s)
    tool, arguments = write_arguments(s, request)
    refused = run(s, tool, **arguments)
    assert code(refused) == "not_allowed" and "confirmed" in refused["error"]["message"]
    run(s, "respond_to_customer", message="Can I go ahead and return everything?")
    assert s.yes_to is None  # the customer does not say yes to details it was not given
    reply = run(s, "respond_to_customer", message=listing(s, request))
    assert s.yes_to is not None, reply
    done = run(s, tool, **arguments)
    assert done["ok"], done
    assert s.world != s.task.world
    kinds = [step.kind for step in s.trail.steps]
    assert kinds[-2:] == ["confirmed", "write"] and s.trail.steps[-1].carried_out
    again = run(s, tool, **arguments)  # the yes was spent on the write it confirmed
    assert code(again) == "not_allowed"


def _with_items_not_asked_for(seed: int) -> bool:
    task = case("retail_return", seed)[0]
    request = task.settled[0].request
    order = task.world.customer(task.customer_id).order(request.order_id)
    return task.settled[0].status == "carried out" and len(order.items) > len(request.item_ids)


def test_a_yes_to_one_write_does_not_license_another() -> None:
    s = session(seed=next(seed for seed in range(100) if _with_items_not_asked_for(seed)))
    authenticate(s)
    request = first_request(s)
    run(s, "respond_to_customer", message=listing(s, request))
    assert s.yes_to is not None
    tool, arguments = write_arguments(s, request)
    order = s.world.customer(s.task.customer_id).order(request.order_id)
    others = [i.item_id for i in order.items if i.item_id not in request.item_ids]
    assert code(run(s, tool, **{**arguments, "item_ids": others})) == "not_allowed"
    assert s.world == s.task.world


def test_the_write_changes_the_world_as_the_rulebook_declares() -> None:
    s = session()
    authenticate(s)
    request = first_request(s)
    run(s, "respond_to_customer", message=listing(s, request))
    tool, arguments = write_arguments(s, request)
    assert run(s, tool, **arguments)["ok"]
    _, expected = settle(s.task.world, request)
    assert s.world == expected


def test_closed_book_carries_out_what_it_is_asked_and_offers_no_check() -> None:
    s = session(mode="closed_book")
    assert "check_action" not in tools.offered(retail_kernel().rulebook, "closed_book")
    assert code(run(s, "check_action", order_id="#W1")) == "unknown_tool"
    request = first_request(s)
    tool, arguments = write_arguments(s, request)
    assert run(s, tool, **arguments)["ok"]  # no authentication, no yes: the grader costs it
    assert s.trail.steps[-1].kind == "write" and s.trail.steps[-1].carried_out


@pytest.mark.parametrize(
    ("name", "arguments", "expected"),
    [
        ("lookup_order", {}, "invalid_arguments"),
        ("lookup_order", {"order_id": "#W0000000"}, "wrong_order"),
        ("lookup_order", {"order_id": "x", "extra": 1}, "invalid_arguments"),
        ("find_customer", {"name": "Only A Name"}, "invalid_arguments"),
        ("lookup_product", {"product_id": "nope"}, "invalid_arguments"),
        ("process_refund", {"order_id": "#W1"}, "unknown_tool"),
        ("cancel_pending_order", {"order_id": "#W1", "reason": "boredom"}, "invalid_arguments"),
        ("escalate_to_manager", {"reason": "no order named"}, "invalid_arguments"),
        ("decline", {"explanation": "nothing asked yet"}, "not_allowed"),
    ],
)
def test_bad_input_is_a_typed_error_and_the_session_goes_on(
    name: str, arguments: dict[str, Any], expected: str
) -> None:
    s = session()
    assert code(run(s, name, **arguments)) == expected
    authenticate(s)
    assert s.step == 2 and not s.done


def test_arguments_that_name_nothing_of_the_order_are_refused() -> None:
    s = session("retail_exchange", 3)
    authenticate(s)
    request = first_request(s)
    tool, arguments = write_arguments(s, request)
    stray = run(s, tool, **{**arguments, "item_ids": ["0000000000"]})
    assert code(stray) == "invalid_arguments" and "not in order" in stray["error"]["message"]
    other_product = next(
        v.variant_id
        for p in s.world.products
        for v in p.variants
        if v.variant_id not in {t for _, t in request.targets}
        and p.product_id
        != s.world.customer(s.task.customer_id).order(request.order_id).items[0].product_id
    )
    wrong = {**arguments, "new_variant_ids": [other_product] * len(arguments["item_ids"])}
    assert code(run(s, tool, **wrong)) == "invalid_arguments"
    short = {**arguments, "new_variant_ids": arguments["new_variant_ids"][:-1] or ["x", "y"]}
    assert code(run(s, tool, **short)) == "invalid_arguments"
    not_theirs = {**arguments, "payment_method_id": "gift_card_0000000"}
    assert code(run(s, tool, **not_theirs)) == "invalid_arguments"


def test_a_declined_request_is_declined_and_only_then() -> None:
    s = session("retail_refusal", 3)
    authenticate(s)
    settled = s.task.settled[0]
    assert settled.status == "declined"
    tool, arguments = write_arguments(s, settled.request)
    refused = run(s, tool, **arguments)
    assert code(refused) == "not_allowed" and refused["error"]["instead"] == "decline"
    declined = run(s, "decline", explanation="; ".join(settled.reasons))
    assert declined["ok"] and declined["order_id"] == settled.request.order_id
    assert code(run(s, "decline", explanation="again")) == "not_allowed"
    assert s.world == s.task.world


def test_check_action_lists_what_the_policies_allow_on_the_whole_order() -> None:
    s = session()
    authenticate(s)
    request = first_request(s)
    verdicts = run(s, "check_action", order_id=request.order_id)["verdicts"]
    by_name = {v["resolution"]: v for v in verdicts}
    assert by_name["return_items"]["status"] == "allowed"
    assert by_name["cancel_order"]["status"] == "declined"  # a delivered order
    assert by_name["cancel_order"]["reasons"]
    asked = run(
        s,
        "check_action",
        order_id=request.order_id,
        resolution="return_items",
        item_ids=list(request.item_ids),
    )
    assert asked["verdicts"][0]["amount"] == s.task.settled[0].amount


def test_the_task_registry_lists_the_tools_the_rulebook_generates() -> None:
    rulebook = retail_kernel().rulebook
    assert tools.offered(rulebook, "guided") == RETAIL_TOOLS
    assert all(spec.tools == RETAIL_TOOLS for spec in RETAIL_TASKS.values())


@pytest.mark.parametrize("task", RETAIL_TASKS)
def test_a_reset_plays_the_tasks_character(task: str) -> None:
    """Through the environment, a retail reset's customer is its task's character's: the
    opening is ``case(task, seed)``'s, in a voice the character draws."""
    env = NovamartEnvironment()
    voices = retail_character(task).voices
    tones = set()
    for seed in range(12):
        observation = env.reset(seed=seed, task=task)
        p = case(task, seed)[1]
        assert observation.issue_description == opening(p)
        tones.add(p.tone)
    assert tones <= set(voices) and len(tones) >= 2
