"""The deterministic retail customer (issue 20 item 5): text in, text out."""

from __future__ import annotations

from dataclasses import replace

import pytest

from novamart.agents.retail import talk as agent_talk
from novamart.scenarios.retail_character import retail_characters
from novamart.scenarios.retail_customer import (
    Other,
    Profile,
    details_missing,
    opening,
    profile,
    reply,
    start,
)
from novamart.scenarios.retail_requests import Request, RetailTask, build_task, settle_all
from novamart.scenarios.retail_world import retail_kernel

YES_WORDS = retail_kernel().rulebook.facts.kinds["event"].fields["confirmed"].says_true
PLAYS = {c.requests: c for c in retail_characters().values()}
"""The character playing each request family (one per family today)."""


def played(task: RetailTask, seed: int = 0) -> Profile:
    """The customer of ``task`` as its family's character draws it at ``seed``."""
    return profile(task, seed, PLAYS[task.family])


def plain(p: Profile) -> Profile:
    """``p`` in the polite voice (the words these tests read), knowing its order numbers and
    acting for no one else."""
    return replace(p, other=None, tone="polite", order_numbers="when asked")


def proposal(p: Profile, request: Request, amount: float | None, leave_out: str = "") -> str:
    """An agent's message listing every detail of ``request``, bar ``leave_out``."""
    parts = {
        "order": f"order {request.order_id}",
        "items": "items " + ", ".join(request.item_ids) if request.item_ids else "",
        "variants": "new variants " + ", ".join(v for _, v in request.targets),
        "amount": "" if amount is None else f"an amount of ${abs(amount):,.2f}",
        "payment": "payment method " + str(request.call.arguments.get("payment_method_id", "")),
    }
    listed = ", ".join(v for k, v in parts.items() if k != leave_out and v)
    return f"Here is what I will do: {request.call.resolution} on {listed}. Shall I proceed?"


def task_with(predicate, families=("compound", "return_some", "exchange_variant")):
    for family in families:
        for seed in range(60):
            task = build_task(family, seed)
            if predicate(task):
                return task
    raise AssertionError("no such task in the seeds tried")


@pytest.fixture(scope="module")
def exchange() -> Profile:
    def steady(t: RetailTask) -> bool:  # an exchange, by a customer keeping to it
        return any(s.request.targets for s in t.settled) and not played(t).wishes[0].changed_to

    return plain(played(task_with(steady, ("exchange_variant",))))


def test_the_opening_names_no_identifier(exchange: Profile) -> None:
    for seed in range(20):
        task = build_task("compound", seed)
        text = opening(played(task, seed))
        customer = task.world.customer(task.customer_id)
        assert customer.email not in text and customer.customer_id not in text
        for order in customer.orders:
            assert order.order_id not in text
            assert not any(i.item_id in text for i in order.items)
        for request in task.requests:
            assert request.call.resolution not in text


def test_identity_is_given_as_asked(exchange: Profile) -> None:
    customer = exchange.customer
    _, said = reply(exchange, start(exchange), "Could you tell me your email address?")
    assert customer.email in said and customer.zip not in said
    _, said = reply(exchange, start(exchange), "What are your full name and zip code?")
    assert customer.name in said and customer.zip in said and customer.email not in said
    talk, said = reply(exchange, start(exchange), "First I need to verify who you are.")
    assert talk.identified and (customer.email in said or customer.zip in said)


def test_order_numbers_are_given_when_asked(exchange: Profile) -> None:
    _, said = reply(exchange, start(exchange), "What is the order number?")
    assert all(w.request.order_id in said for w in exchange.wishes)


def test_yes_only_once_every_detail_is_listed(exchange: Profile) -> None:
    wish = exchange.wishes[0]
    request = wish.request
    talk = start(exchange)
    assert wish.changed_to is None
    _, said = reply(exchange, talk, proposal(exchange, request, wish.amount))
    assert said in (f"{w.capitalize()}." for w in YES_WORDS)
    for part in ("order", "items", "variants", "amount", "payment"):
        text = proposal(exchange, request, wish.amount, leave_out=part)
        _, said = reply(exchange, talk, text)
        assert not any(w in said.lower() for w in YES_WORDS), part
        if part != "order":
            assert said.startswith("Before I say yes"), part


def test_details_missing_reads_names_amounts_and_methods(exchange: Profile) -> None:
    request, world = exchange.wishes[0].request, exchange.world
    customer = exchange.customer
    order = customer.order(request.order_id)
    assert details_missing(world, request, 12.5, f"{request.order_id} $12.50") != ()
    text = proposal(exchange, request, 1234.5).replace("1,234.50", "1234.5")
    assert not any("amount" in m for m in details_missing(world, request, 1234.5, text))
    assert any("amount" in m for m in details_missing(world, request, 1234.51, text))
    item = next(i for i in order.items if i.item_id in request.item_ids)
    name = world.product(item.product_id).name
    by_name = text.replace(item.item_id, name)
    alone = sum(i.product_id == item.product_id for i in order.items) == 1
    assert any("which item" in m for m in details_missing(world, request, 1234.5, by_name)) != alone


def test_an_item_it_does_not_want_is_refused(exchange: Profile) -> None:
    request = exchange.wishes[0].request
    order = exchange.customer.order(request.order_id)
    others = [i.item_id for i in order.items if i.item_id not in request.item_ids]
    if not others:
        pytest.skip("the order has no other item")
    text = proposal(exchange, request, exchange.wishes[0].amount).replace(
        "Shall", f"and item {others[0]}. Shall"
    )
    _, said = reply(exchange, start(exchange), text)
    assert said.startswith(f"No, not item {others[0]}")


def test_it_changes_its_mind_once() -> None:
    task = task_with(lambda t: any(w.changed_to for w in played(t).wishes))
    p = plain(played(task))
    i = next(k for k, w in enumerate(p.wishes) if w.changed_to)
    wish = p.wishes[i]
    assert wish.changed_to is not None
    talk, said = reply(p, start(p), proposal(p, wish.request, wish.amount))
    assert said.startswith("Actually, wait.") and talk.changed
    assert talk.current[i] == wish.changed_to
    assert len(wish.changed_to.item_ids) == len(wish.request.item_ids) - 1
    _, said = reply(p, talk, proposal(p, wish.request, wish.amount))
    assert said.startswith("No, not item")
    _, said = reply(p, talk, proposal(p, wish.changed_to, wish.changed_amount))
    assert said.rstrip(".").lower() in YES_WORDS


def test_it_asks_once_about_someone_elses_order(exchange: Profile) -> None:
    owner = next(c for c in exchange.world.customers if c.customer_id != exchange.customer_id)
    p = replace(exchange, other=Other(name=owner.name, order_id=owner.orders[0].order_id))
    talk, said = reply(p, start(p), "What is your email?")
    assert owner.orders[0].order_id not in said
    asked = 0
    for text in ("What is the order number?", "Let me look.", "One moment."):
        talk, said = reply(p, talk, text)
        asked += owner.orders[0].order_id in said
    assert asked == 1


def test_it_never_leaves_before_every_request_is_settled_or_refused() -> None:
    task = task_with(lambda t: len(t.settled) >= 2, ("compound",))
    p = plain(played(task))
    talk = start(p)
    for text in (
        "Is there anything else?",
        "Goodbye, have a nice day!",
        "Thanks for contacting us.",
    ):
        talk, said = reply(p, talk, text)
        assert not talk.closed and said.startswith("Can we get back to this")
    *done, last = task.requests
    for request in done:  # one report settles one request, even beside another on its order
        what = request.call.resolution.replace("_", " ")
        talk, said = reply(p, talk, f"The {what} on order {request.order_id} has been processed.")
        assert not talk.closed
    talk, said = reply(p, talk, f"I cannot do anything more for {last.order_id}.")
    assert talk.closed and said.endswith("Thanks, that's everything.")
    assert reply(p, talk, "Anything else?") == (talk, "")


def test_a_report_on_one_request_does_not_settle_another_on_the_same_order() -> None:
    task = task_with(
        lambda t: len({r.order_id for r in t.requests}) < len(t.requests), ("compound",)
    )
    p = plain(played(task))
    order = next(
        o
        for o in (r.order_id for r in task.requests)
        if sum(r.order_id == o for r in task.requests) > 1
    )
    talk, _ = reply(p, start(p), f"Your request on order {order} has been processed.")
    assert sum(outcome != "open" for outcome in talk.outcomes) == 1


def test_a_message_is_taken_for_the_request_whose_details_it_lists() -> None:
    """Two requests on one order (a change of items, then of its payment; a return, then an
    exchange): the agent's proposal, report and refusal of either (every detail listed with its
    labels, "payment method ..."; the kernel's reasons, which may name the other's items) are
    taken for that one: the yes, then that one settled or refused."""
    checked = 0
    for seed in range(200):
        task = build_task("compound", seed)
        p = plain(played(task, seed))
        p = replace(p, wishes=tuple(replace(w, changed_to=None) for w in p.wishes))
        orders = [r.order_id for r in task.requests]
        for i, wish in enumerate(p.wishes):
            request, amount, instead = wish.offer(False)
            if orders.count(request.order_id) < 2 or instead is not None:
                continue
            # the requests before it settled (as an agent taking them in turn leaves them)
            talk = replace(start(p), identified=True)
            talk = replace(talk, outcomes=("settled",) * i + talk.outcomes[i:])
            asked = agent_talk.proposal(p.world, request, amount, agent_talk.first)
            assert reply(p, talk, asked)[1] == p.yes, (seed, i, asked)
            done, _ = reply(p, talk, agent_talk.report(p.world, request, amount, agent_talk.first))
            assert [j for j, o in enumerate(done.outcomes) if o != "open"] == [*range(i + 1)]
            why = task.settled[i].reasons or ("the policies do not allow it",)
            told = agent_talk.refusal(request, why, agent_talk.first)
            refused, _ = reply(p, talk, told)
            assert (
                refused.outcomes[i] == "refused"
                and refused.outcomes[i + 1 :] == talk.outcomes[i + 1 :]
            )
            checked += 1
    assert checked >= 10, checked


def test_the_customer_is_deterministic_and_its_habits_are_seeded() -> None:
    profiles = [played(build_task("compound", s), s) for s in range(80)]
    again = [played(build_task("compound", s), s) for s in range(5)]
    assert profiles[:5] == again
    changes = sum(any(w.changed_to for w in p.wishes) for p in profiles)
    others = sum(p.other is not None for p in profiles)
    assert 0 < changes < 40 and 5 < others < 40
    assert {p.identify_by for p in profiles} == {"email", "name and zip"}
    assert {p.tone for p in profiles} == set(PLAYS["compound"].voices)
    p = profiles[0]
    assert reply(p, start(p), "Hello") == reply(p, start(p), "Hello")


def test_after_a_change_of_mind_the_optimum_is_the_changed_requests() -> None:
    def carried_out_change(t):
        wishes = played(t).wishes
        return any(
            w.changed_to and s.status == "carried out"
            for w, s in zip(wishes, t.settled, strict=True)
        )

    task = task_with(carried_out_change)
    p = plain(played(task))
    assert settle_all(task.world, start(p).current)[1].digest() == task.final.digest()
    i = next(k for k, w in enumerate(p.wishes) if w.changed_to)
    talk, _ = reply(p, start(p), proposal(p, p.wishes[i].request, p.wishes[i].amount))
    settled, final = settle_all(task.world, talk.current)
    assert final.digest() != task.final.digest()
    assert settled[i].amount == p.wishes[i].changed_amount


def test_a_write_the_kernel_refuses_has_no_amount_to_list() -> None:
    task = task_with(lambda t: t.settled[0].status != "carried out", ("refusal",))
    assert played(task).wishes[0].amount is None


def test_the_reason_is_given_when_asked_not_before() -> None:
    task = task_with(
        lambda t: any(r.call.arguments.get("reason") == "other" for r in t.requests),
        ("pending_change", "return_some", "compound"),
    )
    p = plain(played(task))
    assert "reason" not in opening(p).lower() and "particular" not in opening(p)
    _, said = reply(p, start(p), "May I ask why you want this?")
    assert "No particular reason." in said


def test_an_address_change_lists_no_amount() -> None:
    task = task_with(
        lambda t: t.settled[0].optimum == "modify_address" and t.settled[0].status == "carried out",
        ("pending_change",),
    )
    p = plain(played(task))
    assert task.settled[0].amount == 0 and p.wishes[0].amount is None
    request = p.wishes[0].request
    text = f"I will ship order {request.order_id} to {request.call.arguments['address']}. Shall I?"
    assert reply(p, start(p), text)[1] == p.yes
    _, said = reply(
        p, start(p), f"I will change the address of order {request.order_id}. Shall I go ahead?"
    )
    assert said.startswith("Before I say yes, please tell me the new address")
