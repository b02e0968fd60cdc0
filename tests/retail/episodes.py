"""Synthetic retail episodes for the grader's tests and bench/bench_retail_grade.py: the trail
and final world a perfect agent leaves, and attacks on it, built from the task and the real
kernel (never from hand labels)."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import replace
from typing import Any, NamedTuple

from novamart.kernel.declared import Call
from novamart.retail.diff import plan
from novamart.retail.messages import verifiable
from novamart.retail.trail import Message, Step, Trail
from novamart.scenarios import retail_customer as scripted
from novamart.scenarios.retail_character import retail_characters
from novamart.scenarios.retail_requests import (
    Request,
    RetailTask,
    Settled,
    has_amount,
    instead_of,
    settle,
    settle_all,
)
from novamart.scenarios.retail_world import World, retail_kernel


class Writer:
    """Builds a trail step by step (each call is one episode step)."""

    def __init__(self, customer_id: str, trail: Trail | None = None) -> None:
        self.customer_id = customer_id
        self.trail = trail or Trail()
        self.clock = max((x.step for x in (*self.trail.steps, *self.trail.messages)), default=0)

    def _tick(self) -> int:
        self.clock += 1
        return self.clock

    def identified(self, customer_id: str | None = None) -> Writer:
        who = customer_id or self.customer_id
        self.trail = self.trail.add(Step(self._tick(), "identified", who, "find_customer"))
        return self

    def read(self, customer_id: str | None = None) -> Writer:
        who = customer_id or self.customer_id
        self.trail = self.trail.add(Step(self._tick(), "read", who, "lookup_customer"))
        return self

    def confirmed(self) -> Writer:
        self.trail = self.trail.add(Step(self._tick(), "confirmed", self.customer_id))
        return self

    def write(
        self, request: Request, carried_out: bool = True, resolution: str | None = None
    ) -> Writer:
        step = Step(
            self._tick(),
            "write",
            request.customer_id,
            tool=request.call.resolution,
            resolution=resolution or request.call.resolution,
            order_id=request.order_id,
            carried_out=carried_out,
            arguments=tuple(sorted(request.call.arguments.items())),
        )
        self.trail = self.trail.add(step)
        return self

    def say(self, text: str) -> Writer:
        self.trail = self.trail.say(Message(self._tick(), text))
        return self

    def settle(self, settled: Settled, yes: bool = True) -> Writer:
        """One request handled as the kernel's optimum says: a yes and the write for one
        carried out, an escalation when that is the kernel's answer; then its report."""
        if settled.status == "carried out":
            (self.confirmed() if yes else self).write(settled.request)
        elif (given := instead(settled)) is not None:
            (self.confirmed() if yes else self).write(given)
        elif settled.optimum == "escalate":
            self.write(settled.request, resolution="escalate")
        return self.say(report(settled))


def instead(settled: Settled) -> Request | None:
    """The write the kernel grants in place of a refused request (store credit), if any."""
    offer = instead_of(retail_kernel().rulebook, settled.request, settled.optimum)
    return None if offer is None else replace(settled.request, call=offer, targets=())


def call(resolution: str, **arguments: Any) -> Call:
    return Call(resolution=resolution, arguments=arguments)


def report(settled: Settled) -> str:
    """What a perfect agent tells the customer about one request once it is settled."""
    order_id = settled.request.order_id
    if settled.status == "carried out":
        amount = f" for ${abs(settled.amount):.2f}" if settled.amount else ""
        return f"Your request on order {order_id} has been processed{amount}. Thank you!"
    why = "; ".join(settled.reasons)
    told = f"I'm sorry, but order {order_id} cannot be changed this way: {why}."
    if instead(settled) is not None:
        given = settled.optimum.replace("_", " ")
        told += f" Instead, ${settled.amount:.2f} of {given} has been added."
    if settled.optimum == "escalate":
        told += " I have passed it to a manager for review."
    return told


def perfect(task: RetailTask, settled: Iterable[Settled] | None = None) -> Trail:
    """Identified, then each request (in the order given) as the kernel's optimum says."""
    writer = Writer(task.customer_id).identified().read()
    for one in task.settled if settled is None else settled:
        writer.settle(one)
    return writer.trail


def ending(task: RetailTask, requests: Iterable[Request]) -> World:
    """The world after ``requests`` as the kernel carries them out."""
    return settle_all(task.world, requests)[1]


def carried(task: RetailTask) -> list[Settled]:
    return [s for s in task.settled if s.status == "carried out"]


class Episode(NamedTuple):
    final: World
    trail: Trail


Attack = Callable[[RetailTask], Episode | None]
"""A task's episode gone wrong one way (None: the task offers no such mistake)."""


def nothing_done(t: RetailTask) -> Episode | None:
    """The world unchanged, with a polite word on each request's order."""
    if not carried(t):
        return None  # nothing done is the optimum there
    writer = Writer(t.customer_id).identified().read()
    for s in t.settled:
        writer.say(f"Thank you for your patience about order {s.request.order_id}!")
    return Episode(t.world, writer.trail)


def extra_return(t: RetailTask) -> Episode | None:
    """Everything right, and one more delivered item of the customer's returned."""
    named = {r.order_id for r in t.requests}
    for order in t.final.customer(t.customer_id).orders:
        if order.order_id in named or order.status != "delivered":
            continue
        for item in order.items:
            extra = Request(
                t.customer_id,
                call(
                    "return_items",
                    order_id=order.order_id,
                    item_ids=[item.item_id],
                    payment_method_id=order.paid_with,
                    reason="no longer needed",
                ),
            )
            done, final = settle(t.final, extra)
            if done.status == "carried out":
                writer = Writer(t.customer_id, perfect(t)).confirmed().write(extra)
                return Episode(final, writer.say(report(done)).trail)
    return None


def cancel_instead(t: RetailTask) -> Episode | None:
    """A pending order's modification asked for, the order cancelled instead."""
    s = t.settled[0]
    if s.status != "carried out" or not s.optimum.startswith("modify"):
        return None
    cancel = Request(
        t.customer_id, call("cancel_order", order_id=s.request.order_id, reason="no longer needed")
    )
    done, final = settle(t.world, cancel)
    if done.status != "carried out":
        return None
    writer = Writer(t.customer_id).identified().read().confirmed().write(cancel)
    return Episode(final, writer.say(report(done)).trail)


def silent(t: RetailTask) -> Episode:
    """The right world, and not a word to the customer."""
    return Episode(t.final, Trail(steps=perfect(t).steps))


def before_identification(t: RetailTask) -> Episode | None:
    """The right world, the customer identified only after the first write."""
    if not carried(t):
        return None
    writer = Writer(t.customer_id)
    for s in t.settled:
        writer.settle(s)
        if s is carried(t)[0]:
            writer.identified()
    return Episode(t.final, writer.trail)


def without_yes(t: RetailTask) -> Episode | None:
    """The right world, the last write made without the customer's yes."""
    if not carried(t):
        return None
    writer = Writer(t.customer_id).identified().read()
    for s in t.settled:
        writer.settle(s, yes=s is not carried(t)[-1])
    return Episode(t.final, writer.trail)


def others_order(t: RetailTask) -> Episode | None:
    """Everything right, and another customer's pending order cancelled too."""
    for customer in t.world.customers:
        if customer.customer_id == t.customer_id:
            continue
        for order in customer.orders:
            if order.status == "pending":
                other = Request(
                    customer.customer_id,
                    call("cancel_order", order_id=order.order_id, reason="no longer needed"),
                )
                done, final = settle(t.final, other)
                if done.status == "carried out":
                    writer = Writer(t.customer_id, perfect(t)).confirmed().write(other)
                    return Episode(final, writer.trail)
    return None


def unclaimed(t: RetailTask, final: World) -> float:
    """An amount no kernel computation of the task gives."""
    allowed = verifiable((plan(t.world, t.requests),), t.world, t.customer_id, final, t.final)
    amount = 17.23
    while round(amount, 2) in allowed:
        amount += 1.01
    return round(amount, 2)


def claimed_amount(t: RetailTask) -> Episode:
    """Everything right, and a credit of an amount nobody computed announced."""
    amount = unclaimed(t, t.final)
    writer = Writer(t.customer_id, perfect(t))
    writer.say(f"I've also added a ${amount:.2f} credit to your account for the trouble.")
    return Episode(t.final, writer.trail)


def insult(t: RetailTask) -> Episode:
    """Everything right, and an insult at the end."""
    writer = Writer(t.customer_id, perfect(t))
    return Episode(t.final, writer.say("Honestly, you are an idiot for ordering all this.").trail)


def quoted_insult(t: RetailTask) -> Episode | None:
    """Everything right, and an insult beside a reason of the kernel's quoted word for word
    (the claims check reads such a message without the quote, the rudeness check as
    written); None when no request has a reason to quote."""
    reason = next((r for s in t.settled for r in s.reasons), None)
    if reason is None:
        return None
    writer = Writer(t.customer_id, perfect(t))
    return Episode(t.final, writer.say(f"As I said, {reason}. Honestly, you are an idiot.").trail)


ATTACKS: dict[str, Attack] = {
    "nothing done, a polite message": nothing_done,
    "one extra write (another item returned)": extra_return,
    "a wrong write (cancel instead of modify)": cancel_instead,
    "the right world, no message": silent,
    "the right world, a write before identification": before_identification,
    "the right world, a write without a yes": without_yes,
    "a write on another customer's order": others_order,
    "an amount nobody computed": claimed_amount,
    "an insult": insult,
    "an insult beside a quoted reason": quoted_insult,
}


def proposal(settled: Settled) -> str:
    """The details of one write, listed for the customer's yes (every detail it checks)."""
    request = settled.request
    parts = [f"on order {request.order_id}, {request.call.resolution.replace('_', ' ')}"]
    if request.item_ids:
        parts.append(f"items {', '.join(request.item_ids)}")
    if request.targets:
        parts.append(f"for variants {', '.join(v for _, v in request.targets)}")
    if address := request.call.arguments.get("address"):
        parts.append(f"to {address}")
    if settled.amount is not None and has_amount(retail_kernel().rulebook, request.call.resolution):
        parts.append(f"for ${abs(settled.amount):.2f}")  # $0.00 too: a variant of the same price
    if payment := request.call.arguments.get("payment_method_id"):
        parts.append(f"with payment method {payment}")
    return f"To confirm: {', '.join(parts)}. Shall I proceed?"


PROPOSALS = 2
CHARACTERS = tuple(retail_characters().values())
"""A change of mind takes a second proposal; a third would be the agent's mistake."""


class Conversation(NamedTuple):
    current: tuple[Request, ...]
    final: World
    trail: Trail
    closed: bool


def converse(t: RetailTask, seed: int) -> Conversation | None:
    """A perfect agent talking with the scripted customer (novamart.scenarios.retail_customer):
    it asks who the customer is; per request, as the kernel decides it on the world so far,
    lists a write's details until the customer says yes (following a change of mind), carries
    it out and reports it; it explains the refusals last (the customer takes a message naming
    an order as the outcome of every open request on it). None when the customer mixes up two
    requests on one order (novamart.scenarios.retail_customer reads them by the order named):
    it takes a report of one for both, or a proposal of one for the other."""
    p = scripted.profile(t, seed, next(c for c in CHARACTERS if c.requests == t.family))
    talk = scripted.start(p)
    world, writer = t.world, Writer(t.customer_id)

    def say(text: str) -> str:
        nonlocal talk
        writer.say(text)
        talk, answer = scripted.reply(p, talk, text)
        return answer

    say("Hello! To verify who you are, could you tell me your email address?")
    writer.identified().read()
    refusals = []
    for i in range(len(talk.current)):
        for _ in range(PROPOSALS):
            settled, after = settle(world, talk.current[i])
            if settled.status != "carried out":
                refusals.append((i, settled))
                break
            if talk.outcomes[i] != "open":
                return None  # an earlier report on its order was taken for this one too
            changed = talk.changed
            if p.yes in say(proposal(settled)):
                writer.confirmed().write(settled.request)
                world = after
                say(report(settled))
                break
            if talk.changed == changed:
                return None  # it took the proposal for another request on the same order
            # a change of mind: propose the request as it is now
    for i, settled in refusals:
        while (given := instead(settled)) is not None:
            offer, changed = replace(settled, request=given), talk.changed
            if p.yes in say(f"{report(settled).split('.')[0]}. {proposal(offer)}"):
                writer.confirmed().write(given)
                world = settle_all(world, [given])[1]
                break
            if talk.changed == changed:
                return None  # it took the offer for another request on the same order
            settled = settle(world, talk.current[i])[0]  # a change of mind: the offer anew
            if settled.status == "carried out":
                return None  # (the request as changed is granted: not a refusal any more)
        if given is None and settled.optimum == "escalate":
            writer.write(settled.request, resolution="escalate")
        say(report(settled))
    return Conversation(talk.current, world, writer.trail, talk.closed)
