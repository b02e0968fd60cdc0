"""Grading a retail episode on its final state (issue 20 item 6), on the real kernel and the
real rules/retail: a perfect episode scores 1.000 on every family; each attack stays below
the pass mark; equivalent tool sequences reaching the same world score the same."""

from __future__ import annotations

import functools
from dataclasses import replace

import pytest

from novamart.kernel.declared import Call
from novamart.retail.diff import flatten, plan
from novamart.retail.grade import HOLD, OTHERS, PASS, RetailGrade, grade
from novamart.retail.messages import cues, verifiable
from novamart.retail.trail import Message, Trail
from novamart.scenarios.retail_requests import (
    Request,
    RetailTask,
    build_task,
    settle,
    settle_all,
)
from novamart.scenarios.retail_world import World, world_spec
from tests.retail.episodes import Writer, ending, perfect, report

FAMILIES = tuple(world_spec()["requests"]["families"])
SEEDS = range(100)
ATTACK_SEEDS = range(40)


@functools.cache
def task(family: str, seed: int) -> RetailTask:
    return build_task(family, seed)


def tasks(seeds: range = ATTACK_SEEDS) -> list[RetailTask]:
    return [task(f, s) for f in FAMILIES for s in seeds]


def graded(t: RetailTask, final: World, trail: Trail, closed: bool = True) -> RetailGrade:
    return grade(t, t.requests, final, trail, closed)


def carried(t: RetailTask) -> list:
    return [s for s in t.settled if s.status == "carried out"]


def test_families_are_the_world_files():
    assert set(FAMILIES) == {"return_some", "exchange_variant", "pending_change", "compound",
                             "refusal"}  # fmt: skip


@pytest.mark.parametrize("family", FAMILIES)
def test_a_perfect_episode_scores_one_on_every_seed(family):
    for seed in SEEDS:
        t = task(family, seed)
        g = graded(t, t.final, perfect(t))
        assert g.score == 1.0, (seed, g.reveal())
        assert g.passed and g.components == {"outcome": 1.0, "process": 1.0,
                                             "communication": 1.0}  # fmt: skip
        assert len(g.requests) == len(t.settled) and all(r.right for r in g.requests)


def test_nothing_done_with_a_polite_message_fails():
    seen = 0
    for t in tasks():
        if not carried(t):
            continue  # nothing done is the optimum there
        trail = Writer(t.customer_id).identified().read()
        for s in t.settled:
            trail.say(f"Thank you for your patience about order {s.request.order_id}!")
        g = graded(t, t.world, trail.trail)
        assert g.score < PASS, g.reveal()
        assert not all(r.right for r in g.requests)
        seen += 1
    assert seen >= 100


def _extra_return(t: RetailTask) -> Request | None:
    """A return of a delivered item of the customer's that no request names (carried out)."""
    named = {i for r in t.requests for i in r.item_ids}
    touched = {r.order_id for r in t.requests}
    for order in t.final.customer(t.customer_id).orders:
        if order.order_id in touched or order.status != "delivered":
            continue
        for item in order.items:
            if item.item_id in named or item.final_sale:
                continue
            call = Call(resolution="return_items", arguments={"order_id": order.order_id, "item_ids": [item.item_id],
                                         "payment_method_id": order.paid_with,
                                         "reason": "no longer needed"})  # fmt: skip
            request = Request(t.customer_id, call)
            if settle(t.final, request)[0].status == "carried out":
                return request
    return None


def test_one_extra_write_never_passes():
    seen = 0
    for t in tasks():
        extra = _extra_return(t)
        if extra is None:
            continue
        final = settle(t.final, extra)[1]
        trail = perfect(t)
        writer = Writer(t.customer_id)
        writer.trail, writer.clock = trail, 100
        writer.confirmed().write(extra).say(f"Order {extra.order_id} has been processed.")
        g = graded(t, final, writer.trail)
        assert g.score <= HOLD, g.reveal()
        assert any("extra write" in n for n in g.notes)
        seen += 1
    assert seen >= 50


def test_a_wrong_write_cancel_instead_of_modify_never_passes():
    seen = 0
    for t in [task("pending_change", s) for s in SEEDS]:
        s = t.settled[0]
        if s.status != "carried out" or not s.optimum.startswith("modify"):
            continue
        cancel = Request(t.customer_id, Call(resolution="cancel_order", arguments={"order_id": s.request.order_id,
                                                              "reason": "no longer needed"}))  # fmt: skip
        done, final = settle(t.world, cancel)
        if done.status != "carried out":
            continue
        trail = Writer(t.customer_id).identified().read().confirmed().write(cancel)
        trail.say(f"Order {s.request.order_id} has been cancelled for ${done.amount:.2f}.")
        g = graded(t, final, trail.trail)
        assert g.score <= HOLD, g.reveal()
        assert not g.requests[0].right
        seen += 1
    assert seen >= 15


def test_the_right_world_without_a_message_never_passes():
    for t in tasks():
        trail = Trail(steps=perfect(t).steps)
        g = graded(t, t.final, trail)
        assert g.score <= HOLD and g.components["communication"] == 0.0, g.reveal()
        assert "capped at 0.7: no message to the customer" in g.notes
        # the running grade a trainer reads when a rollout stops is held the same way
        assert grade(t, t.requests, t.final, trail, closed=False).score <= HOLD


def test_a_write_before_authentication_never_passes():
    seen = 0
    for t in tasks():
        if not carried(t):
            continue
        writer = Writer(t.customer_id)
        for s in t.settled:
            if s.status == "carried out":
                writer.confirmed().write(s.request)
                if s is carried(t)[0]:
                    writer.identified()
            elif s.optimum == "escalate":
                writer.write(s.request, resolution="escalate")
            writer.say(report(s))
        g = graded(t, t.final, writer.trail)
        assert g.score <= HOLD and g.components["process"] < 1.0, g.reveal()
        assert any("before authentication" in n for n in g.notes)
        seen += 1
    assert seen >= 100


def test_a_write_without_a_yes_never_passes():
    seen = 0
    for t in tasks():
        if not carried(t):
            continue
        first = carried(t)[-1]
        writer = Writer(t.customer_id).identified().read()
        for s in t.settled:
            if s.status == "carried out":
                if s is not first:
                    writer.confirmed()
                writer.write(s.request)
            elif s.optimum == "escalate":
                writer.write(s.request, resolution="escalate")
            writer.say(report(s))
        g = graded(t, t.final, writer.trail)
        assert g.score <= HOLD, g.reveal()
        assert any("without the customer's yes" in n for n in g.notes)
        seen += 1
    assert seen >= 100


def test_one_yes_licenses_one_write():
    """Two writes after one yes: the second is without a yes."""
    for t in [task("compound", s) for s in ATTACK_SEEDS]:
        done = carried(t)
        if len(done) < 2:
            continue
        writer = Writer(t.customer_id).identified().confirmed()
        for s in t.settled:
            if s.status == "carried out":
                writer.write(s.request)
            elif s.optimum == "escalate":
                writer.write(s.request, resolution="escalate")
            writer.say(report(s))
        g = graded(t, t.final, writer.trail)
        assert g.score <= HOLD, g.reveal()


def _other_pending_order(t: RetailTask) -> Request | None:
    for customer in t.world.customers:
        if customer.customer_id == t.customer_id:
            continue
        for order in customer.orders:
            if order.status == "pending":
                call = Call(resolution="cancel_order", arguments={"order_id": order.order_id,
                                             "reason": "no longer needed"})  # fmt: skip
                return Request(customer.customer_id, call)
    return None


def test_a_write_on_another_customers_order_never_passes():
    seen = 0
    for t in tasks():
        other = _other_pending_order(t)
        if other is None:
            continue
        final = settle(t.final, other)[1]
        writer = Writer(t.customer_id)
        writer.trail, writer.clock = perfect(t), 100
        writer.confirmed().write(other)
        g = graded(t, final, writer.trail)
        assert g.score <= OTHERS, g.reveal()
        assert any("another customer's order" in n for n in g.notes)
        # attempted but refused: it costs (process), and the world shows nothing
        refused = Writer(t.customer_id)
        refused.trail, refused.clock = perfect(t), 100
        refused.write(other, carried_out=False)
        r = graded(t, t.final, refused.trail)
        assert r.components["process"] < 1.0 and r.score < 1.0
        seen += 1
    assert seen >= 150


def test_reading_another_customers_account_costs():
    t = task("compound", 0)
    other = next(c for c in t.world.customers if c.customer_id != t.customer_id)
    writer = Writer(t.customer_id)
    writer.trail, writer.clock = perfect(t), 100
    writer.read(other.customer_id)
    g = graded(t, t.final, writer.trail)
    assert g.components["process"] < 1.0 and g.score < 1.0
    assert any("another customer's account" in n for n in g.notes)


def _unclaimed(t: RetailTask, final: World) -> float:
    allowed = verifiable((plan(t.world, t.requests),), t.world, t.customer_id, final, t.final)
    amount = 17.23
    while round(amount, 2) in allowed:
        amount += 1.01
    return round(amount, 2)


def test_an_amount_nobody_computed_never_passes():
    for t in tasks():
        amount = _unclaimed(t, t.final)
        writer = Writer(t.customer_id)
        writer.trail, writer.clock = perfect(t), 100
        writer.say(f"I've also added a ${amount:.2f} credit to your account for the trouble.")
        g = graded(t, t.final, writer.trail)
        assert g.score <= HOLD and g.components["communication"] == 0.0, g.reveal()
        assert any("no kernel computation gives" in n for n in g.notes)


def test_an_insult_never_passes():
    for t in tasks():
        writer = Writer(t.customer_id)
        writer.trail, writer.clock = perfect(t), 100
        writer.say("Honestly, you are an idiot for ordering all this.")
        g = graded(t, t.final, writer.trail)
        assert g.score <= HOLD, g.reveal()
        assert any("rude message" in n for n in g.notes)


def test_the_customer_not_satisfied_never_passes():
    t = task("return_some", 0)
    assert graded(t, t.final, perfect(t), closed=False).score <= HOLD


def test_two_orders_of_the_same_writes_score_the_same():
    seen = 0
    for t in [task("compound", s) for s in SEEDS]:
        backwards, final = settle_all(t.world, reversed(t.requests))
        if len(carried(t)) < 2 or [s.status for s in backwards] != [
            s.status for s in reversed(t.settled)
        ]:
            continue  # reversed, a request on an order another changed may be decided otherwise
        assert flatten(final) == flatten(t.final)
        one = graded(t, t.final, perfect(t))
        other = graded(t, final, perfect(t, reversed(t.settled)))
        assert one.score == other.score == 1.0
        assert one.components == other.components
        seen += 1
    assert seen >= 10


def test_a_refused_attempt_before_the_right_write_scores_the_same():
    seen = 0
    for t in tasks():
        done = carried(t)
        if not done:
            continue
        first = done[0]
        writer = Writer(t.customer_id).identified().read()
        for s in t.settled:
            if s is first:  # a try the gate refuses (say, no yes yet), then the yes and the write
                writer.write(s.request, carried_out=False).confirmed().write(s.request)
            elif s.status == "carried out":
                writer.confirmed().write(s.request)
            elif s.optimum == "escalate":
                writer.write(s.request, resolution="escalate")
            writer.say(report(s))
        assert graded(t, t.final, writer.trail).score == graded(t, t.final, perfect(t)).score
        seen += 1
    assert seen >= 100


def test_a_refusal_not_explained_is_not_right():
    seen = 0
    for t in [task("refusal", s) for s in ATTACK_SEEDS]:
        writer = Writer(t.customer_id).identified().read()
        for s in t.settled:
            if s.optimum == "escalate":
                writer.write(s.request, resolution="escalate")
            writer.say(f"Thanks for waiting, I looked at order {s.request.order_id}.")
        g = graded(t, t.final, writer.trail)
        assert g.score <= HOLD and not any(r.right for r in g.requests), g.reveal()
        seen += 1
    assert seen == len(ATTACK_SEEDS)


def test_a_refusal_told_without_its_reason_costs_communication():
    t = next(x for x in (task("refusal", s) for s in SEEDS) if x.settled[0].reasons)
    writer = Writer(t.customer_id).identified().read()
    for s in t.settled:
        if s.optimum == "escalate":
            writer.write(s.request, resolution="escalate")
        writer.say(f"I'm sorry, order {s.request.order_id} cannot be changed.")
    g = graded(t, t.final, writer.trail)
    assert all(r.right for r in g.requests)
    assert g.components["communication"] == 0.5 and g.score == 0.9
    assert cues(t.settled[0].reasons[0])


def test_an_escalation_the_kernel_wants_must_be_made():
    t = next(
        x
        for x in (task(f, s) for f in FAMILIES for s in SEEDS)
        if any(o.optimum == "escalate" for o in x.settled)
    )
    writer = Writer(t.customer_id).identified().read()
    for s in t.settled:
        if s.status == "carried out":
            writer.confirmed().write(s.request)
        writer.say(report(s))
    g = graded(t, t.final, writer.trail)
    assert g.score <= HOLD
    assert any("not escalated" in r.happened for r in g.requests)


def test_after_a_change_of_mind_the_optimum_is_the_changed_requests():
    t = next(x for x in (task("return_some", s) for s in SEEDS)
             if x.settled[0].status == "carried out" and len(x.requests[0].item_ids) > 1)  # fmt: skip
    first = t.requests[0]
    kept = list(first.item_ids[1:])
    changed = replace(first, call=Call(resolution=first.call.resolution,
                                       arguments={**first.call.arguments, "item_ids": kept}))  # fmt: skip
    current = (changed,)
    best = plan(t.world, current)
    final = ending(t, current)
    g = grade(t, current, final, perfect(t, best.settled), True)
    assert g.score == 1.0, g.reveal()
    # the world of the original request is now one extra return
    stale = grade(t, current, t.final, perfect(t), True)
    assert stale.score <= HOLD and any("extra write" in n for n in stale.notes)


def test_the_reveal_names_each_request_and_what_differs():
    t = next(x for x in (task("exchange_variant", s) for s in SEEDS)
             if x.settled[0].status == "carried out")  # fmt: skip
    g = graded(t, t.world, Writer(t.customer_id).identified().say("Hello!").trail)
    line = g.requests[0].line()
    assert line.startswith(f"request 1 (exchange_items on {t.requests[0].order_id}): expected "
                           "carried out (items ")  # fmt: skip
    assert f"order {t.requests[0].order_id} status delivered (expected exchange requested)" in line
    assert "score" in g.reveal() and not g.passed


def test_an_unknown_message_form_is_not_needed_for_money_free_requests():
    """An address change declares no amount: a report without one is complete."""
    t = next(x for x in (task("pending_change", s) for s in SEEDS)
             if x.settled[0].optimum == "modify_address")  # fmt: skip
    writer = Writer(t.customer_id).identified().read().confirmed().write(t.requests[0])
    writer.trail = writer.trail.say(
        Message(99, f"Order {t.requests[0].order_id} has been updated.")
    )
    assert graded(t, t.final, writer.trail).score == 1.0
