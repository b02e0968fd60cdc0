"""Grading a retail episode on its final state (issue 20 item 6), on the real kernel and the
real rules/retail: a perfect episode scores 1.000 on every family; each attack stays below
the pass mark; equivalent tool sequences reaching the same world score the same."""

from __future__ import annotations

import functools
from dataclasses import replace

import pytest

from novamart.retail.diff import flatten, plan
from novamart.retail.grade import HOLD, OTHERS, PASS, RetailGrade, grade
from novamart.retail.messages import amounts, cues
from novamart.retail.trail import Message
from novamart.scenarios.retail_requests import RetailTask, build_task, settle_all
from novamart.scenarios.retail_world import world_spec
from tests.retail.episodes import (
    ATTACKS,
    Episode,
    Writer,
    call,
    carried,
    converse,
    ending,
    instead,
    perfect,
)

FAMILIES = tuple(world_spec()["requests"]["families"])
SEEDS = range(100)
ATTACK_SEEDS = range(30)
TALK_SEEDS = range(30)
CAUSES = {
    "nothing done, a polite message": "request(s) not right",
    "one extra write (another item returned)": "an extra write",
    "a wrong write (cancel instead of modify)": "request(s) not right",
    "the right world, no message": "no message to the customer",
    "the right world, a write before identification": "before authentication",
    "the right world, a write without a yes": "without the customer's yes",
    "a write on another customer's order": "another customer's order",
    "an amount nobody computed": "no kernel computation gives",
    "an insult": "a rude message",
    "an insult beside a quoted reason": "a rude message",
}
"""What each attack's note must say it was capped for."""
FEWEST = {"one extra write (another item returned)": 50, "a write on another customer's order": 50}
"""How many of the attack seeds must offer the mistake (else at least 30)."""


@functools.cache
def task(family: str, seed: int) -> RetailTask:
    return build_task(family, seed)


def tasks(seeds: range = ATTACK_SEEDS, families: tuple[str, ...] = FAMILIES) -> list[RetailTask]:
    return [task(f, s) for f in families for s in seeds]


def graded(t: RetailTask, episode: Episode, closed: bool = True) -> RetailGrade:
    return grade(t, t.requests, episode.final, episode.trail, closed)


def test_families_are_the_world_files():
    expected = {
        "return_some",
        "exchange_variant",
        "pending_change",
        "compound",
        "refusal",
        "late_return",
    }
    assert set(FAMILIES) == expected


@pytest.mark.parametrize("family", FAMILIES)
def test_a_perfect_episode_scores_one_on_every_seed(family):
    for seed in SEEDS:
        t = task(family, seed)
        g = graded(t, Episode(t.final, perfect(t)))
        assert g.score == 1.0, (seed, g.reveal())
        assert g.passed and set(g.components.values()) == {1.0}
        assert len(g.requests) == len(t.settled) and all(r.right for r in g.requests)


@pytest.mark.parametrize("name", ATTACKS)
def test_an_attack_never_passes(name):
    attack, seen = ATTACKS[name], 0
    families = ("pending_change",) if "cancel instead" in name else FAMILIES
    for t in tasks(SEEDS if "cancel instead" in name else ATTACK_SEEDS, families):
        episode = attack(t)
        if episode is None:
            continue
        g = graded(t, episode)
        assert g.score < PASS and not g.passed, g.reveal()
        assert any(CAUSES[name] in n for n in g.notes if n.startswith("capped")), g.reveal()
        seen += 1
    assert seen >= FEWEST.get(name, 30)


def test_a_write_on_another_customers_order_is_capped_well_below():
    for t in tasks(range(10)):
        if (episode := ATTACKS["a write on another customer's order"](t)) is not None:
            assert graded(t, episode).score <= OTHERS


def test_a_refused_write_on_another_customers_order_costs():
    t = task("compound", 0)
    other = next(c for c in t.world.customers if c.customer_id != t.customer_id)
    order = other.orders[0]
    request = replace(
        t.requests[0],
        customer_id=other.customer_id,
        call=call("cancel_order", order_id=order.order_id),
    )
    writer = Writer(t.customer_id, perfect(t)).write(request, carried_out=False)
    g = graded(t, Episode(t.final, writer.trail))
    assert g.components["process"] == 0.75 and g.score == 0.95 and g.passed


def test_the_running_grade_without_a_message_is_held_too():
    for t in tasks(range(10)):
        episode = ATTACKS["the right world, no message"](t)
        assert graded(t, episode, closed=False).score <= HOLD


def test_one_yes_licenses_one_write():
    seen = 0
    for t in tasks(ATTACK_SEEDS, ("compound",)):
        if len(carried(t)) < 2:
            continue
        writer = Writer(t.customer_id).identified().confirmed()
        for s in t.settled:
            writer.settle(s, yes=False)
        g = graded(t, Episode(t.final, writer.trail))
        assert g.score <= HOLD, g.reveal()
        seen += 1
    assert seen >= 10


def test_reading_another_customers_account_costs():
    t = task("compound", 0)
    other = next(c for c in t.world.customers if c.customer_id != t.customer_id)
    g = graded(t, Episode(t.final, Writer(t.customer_id, perfect(t)).read(other.customer_id).trail))
    assert g.components["process"] == 0.75 and g.score == 0.95
    assert any("another customer's account" in n for n in g.notes)


def test_reading_before_authentication_costs():
    t = task("return_some", 0)
    writer = Writer(t.customer_id).read().identified()
    for s in t.settled:
        writer.settle(s)
    g = graded(t, Episode(t.final, writer.trail))
    assert g.components["process"] == 0.75 and g.score == 0.95


def test_the_customer_not_satisfied_never_passes():
    t = task("return_some", 0)
    assert graded(t, Episode(t.final, perfect(t)), closed=False).score <= HOLD


def test_two_orders_of_the_same_writes_score_the_same():
    seen = 0
    for t in tasks(SEEDS, ("compound",)):
        backwards, final = settle_all(t.world, reversed(t.requests))
        if len(carried(t)) < 2 or [s.status for s in backwards] != [
            s.status for s in reversed(t.settled)
        ]:
            continue  # reversed, a request on an order another changed may be decided otherwise
        assert flatten(final) == flatten(t.final)
        one = graded(t, Episode(t.final, perfect(t)))
        other = graded(t, Episode(final, perfect(t, reversed(t.settled))))
        assert one.score == other.score == 1.0 and one.components == other.components
        seen += 1
    assert seen >= 10


def test_a_refused_attempt_before_the_right_write_scores_the_same():
    seen = 0
    for t in tasks():
        if not carried(t):
            continue
        first = carried(t)[0]
        writer = Writer(t.customer_id).identified().read()
        for s in t.settled:
            if s is first:  # a try the gate refuses (no yes yet), then the yes and the write
                writer.write(s.request, carried_out=False)
            writer.settle(s)
        right = graded(t, Episode(t.final, perfect(t)))
        assert graded(t, Episode(t.final, writer.trail)) == right
        seen += 1
    assert seen >= 75


def test_a_refusal_not_explained_is_not_right():
    for t in tasks(ATTACK_SEEDS, ("refusal",)):
        writer = Writer(t.customer_id).identified().read()
        for s in t.settled:
            if s.optimum == "escalate":
                writer.write(s.request, resolution="escalate")
            writer.say(f"Thanks for waiting, I looked at order {s.request.order_id}.")
        g = graded(t, Episode(t.final, writer.trail))
        assert g.score <= HOLD and not any(r.right for r in g.requests), g.reveal()


def test_a_refusal_told_without_its_reason_never_passes():
    t = next(x for x in tasks(SEEDS, ("refusal",)) if len(x.settled) == 1)
    s = t.settled[0]
    assert s.reasons and cues(s.reasons[0])
    writer = Writer(t.customer_id).identified().read()
    if s.optimum == "escalate":
        writer.write(s.request, resolution="escalate")
    writer.say(f"I'm sorry, order {s.request.order_id} cannot be changed.")
    g = graded(t, Episode(t.final, writer.trail))
    assert g.requests[0].right and g.components["communication"] == 0.5
    assert g.score == HOLD and any("conveys the kernel's reason" in n for n in g.notes)


def test_an_escalation_the_kernel_wants_must_be_made():
    t = next(x for x in tasks(SEEDS) if any(o.optimum == "escalate" for o in x.settled))
    writer = Writer(t.customer_id).identified().read()
    for s in t.settled:
        if s.optimum == "escalate":
            writer.say(f"I'm sorry, order {s.request.order_id} cannot be changed: {s.reasons[0]}")
        else:
            writer.settle(s)
    g = graded(t, Episode(t.final, writer.trail))
    assert g.score <= HOLD
    assert any("not escalated" in r.happened for r in g.requests)


def test_after_a_change_of_mind_the_optimum_is_the_changed_requests():
    t = next(
        x for x in tasks(SEEDS, ("return_some",)) if carried(x) and len(x.requests[0].item_ids) > 1
    )
    first = t.requests[0]
    kept = {**first.call.arguments, "item_ids": list(first.item_ids[1:])}
    current = (replace(first, call=call(first.call.resolution, **kept)),)
    best = plan(t.world, current)
    g = grade(t, current, ending(t, current), perfect(t, best.settled), True)
    assert g.score == 1.0, g.reveal()
    # the world of the request as first asked returns one item too many
    stale = grade(t, current, t.final, perfect(t), True)
    assert stale.score <= HOLD and any("extra write" in n for n in stale.notes)


def test_the_reveal_names_each_request_and_what_differs():
    t = next(x for x in tasks(SEEDS, ("exchange_variant",)) if carried(x))
    g = graded(t, ATTACKS["nothing done, a polite message"](t))
    order_id = t.requests[0].order_id
    line = g.requests[0].line()
    assert line.startswith(f"request 1 (exchange_items on {order_id}): expected carried out (")
    assert f"order {order_id} status delivered (expected exchange requested)" in line
    assert line.endswith("[not right]") and "score" in g.reveal() and not g.passed


def test_an_address_change_reports_no_amount():
    t = next(x for x in tasks(SEEDS, ("pending_change",)) if x.signature() == ("modify_address",))
    writer = Writer(t.customer_id).identified().read().confirmed().write(t.requests[0])
    trail = writer.trail.say(Message(99, f"Order {t.requests[0].order_id} has been updated."))
    assert graded(t, Episode(t.final, trail)).score == 1.0


def test_an_escalation_the_kernel_does_not_want_never_passes():
    t = next(x for x in tasks(SEEDS, ("refusal",)) if x.settled[0].optimum == "decline")
    writer = Writer(t.customer_id, perfect(t)).write(t.requests[0], resolution="escalate")
    g = graded(t, Episode(t.final, writer.trail))
    assert g.score <= HOLD
    assert any("escalation the kernel does not want" in n for n in g.notes)


def test_another_customers_account_changed_is_capped_even_unrecorded():
    """The world shows the write even when the trail does not (fail closed)."""
    t = task("compound", 1)
    episode = ATTACKS["a write on another customer's order"](t)
    assert episode is not None
    g = graded(t, Episode(episode.final, perfect(t)))
    assert g.score <= OTHERS
    assert any("another customer's account changed" in n for n in g.notes)


def test_reason_cues_are_the_values_the_kernel_filled_in():
    assert cues("the order is delivered; only pending orders can be cancelled") == {"delivered"}
    assert cues("an item was sold as final: item 65: item.final_sale is true") == {"final sale"}
    assert cues(
        "the gift card cannot pay the difference: payment.balance (33.63) is not >= "
        "sum(item.new_price - item.price where item.selected) (36.16) (as payment.method == "
        "gift_card)"
    ) == {"33.63", "36.16"}
    assert cues("an item named cannot come back: item 34: item.status (ordered) is not == "
                "delivered") == {"ordered", "delivered"}  # fmt: skip


def test_the_plan_replays_the_tasks_optimum():
    for t in tasks():
        best = plan(t.world, t.requests)
        assert best.settled == t.settled and best.optimal == flatten(t.final)
        for s, touches in zip(best.settled, best.touches, strict=True):
            assert bool(touches) == (s.status == "carried out" or instead(s) is not None), s
            assert {r.customer_id for r in touches} <= {t.customer_id}


def test_a_perfect_conversation_with_the_scripted_customer_scores_one():
    """The grader and the customer agree: an agent the customer says yes to and ends the
    conversation with, satisfied, scores 1.000, after a change of mind too."""
    talked = changed = 0
    for t in tasks(TALK_SEEDS):
        c = converse(t, t.seed)
        if c is None:
            assert t.family == "compound", t.seed  # two requests on one order
            continue
        g = grade(t, c.current, c.final, c.trail, c.closed)
        assert c.closed and g.score == 1.0, g.reveal()
        talked += 1
        changed += c.current != t.requests
    assert talked >= 0.9 * len(FAMILIES) * len(TALK_SEEDS) and changed >= 5


def test_a_yes_stands_through_a_refused_write():
    """The gate refusing a write uses up no yes (the kernel resets it only with effects)."""
    t = next(x for x in tasks(SEEDS, ("return_some",)) if carried(x))
    s = t.settled[0]
    writer = Writer(t.customer_id).identified().read().confirmed()
    writer.write(s.request, carried_out=False).write(s.request).say("Order "
                 f"{s.request.order_id} has been processed for ${s.amount:.2f}.")  # fmt: skip
    assert graded(t, Episode(t.final, writer.trail)).score == 1.0


def test_the_reveal_tells_a_write_not_made_from_a_wrong_one():
    cancel = ATTACKS["a wrong write (cancel instead of modify)"]
    t, episode = next(
        (x, e)
        for x in tasks(SEEDS, ("pending_change",))
        if x.settled[0].optimum == "modify_items" and (e := cancel(x)) is not None
    )
    wrong = graded(t, episode)
    assert "happened: changed otherwise: " in wrong.requests[0].line()
    assert any("a wrong write" in n for n in wrong.notes)
    missed = graded(t, ATTACKS["nothing done, a polite message"](t))
    assert "happened: not carried out: " in missed.requests[0].line()


def test_a_gift_cards_shortfall_may_be_stated():
    """A figure the kernel's reason implies (what the card lacks) is verifiable."""
    t = next(
        x
        for x in tasks(SEEDS, ("exchange_variant",))
        if x.settled[0].optimum == "escalate"
        and "gift card" in x.settled[0].reasons[0]
        and len(amounts(x.settled[0].reasons[0])) >= 2  # a balance like 83.8 is no amount
    )
    s = t.settled[0]
    balance, needed = amounts(s.reasons[0])[:2]
    writer = Writer(t.customer_id, perfect(t))
    writer.say(f"Order {s.request.order_id}: the card is ${needed - balance:.2f} short of "
               f"${needed:.2f}, so it cannot pay the difference.")  # fmt: skip
    assert graded(t, Episode(t.final, writer.trail)).score == 1.0


def test_a_write_carried_out_reported_as_impossible_never_passes():
    t = next(x for x in tasks(SEEDS, ("return_some",)) if carried(x))
    s = t.settled[0]
    writer = Writer(t.customer_id).identified().read().confirmed().write(s.request)
    writer.say(f"I'm sorry, order {s.request.order_id} cannot be returned.")
    g = graded(t, Episode(t.final, writer.trail))
    assert g.score <= HOLD and any("says it cannot be done" in n for n in g.notes)
