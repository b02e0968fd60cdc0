"""Synthetic retail episodes for the grader's tests: the trail and final world a perfect agent
leaves, built from the task and the real kernel (never from hand labels)."""

from __future__ import annotations

from collections.abc import Iterable

from novamart.scenarios.retail_requests import Request, RetailTask, Settled, settle_all
from novamart.scenarios.retail_world import World
from novamart.retail.trail import Message, Step, Trail


class Writer:
    """Builds a trail step by step (each call is one episode step)."""

    def __init__(self, customer_id: str) -> None:
        self.customer_id = customer_id
        self.trail = Trail()
        self.clock = 0

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


def report(settled: Settled) -> str:
    """What a perfect agent tells the customer about one request once it is settled."""
    order_id = settled.request.order_id
    if settled.status == "carried out":
        amount = f" for ${abs(settled.amount):.2f}" if settled.amount else ""
        return f"Your request on order {order_id} has been processed{amount}. Thank you!"
    why = "; ".join(settled.reasons)
    told = f"I'm sorry, but order {order_id} cannot be changed this way: {why}."
    if settled.optimum == "escalate":
        told += " I have passed it to a manager for review."
    return told


def perfect(task: RetailTask, settled: Iterable[Settled] | None = None) -> Trail:
    """Identified, then per request: for one carried out a yes, the write and its report; for
    one declined or refused its explanation (escalated when the kernel's answer is that)."""
    writer = Writer(task.customer_id).identified().read()
    for one in task.settled if settled is None else settled:
        if one.status == "carried out":
            writer.confirmed().write(one.request)
        elif one.optimum == "escalate":
            writer.write(one.request, resolution="escalate")
        writer.say(report(one))
    return writer.trail


def ending(task: RetailTask, requests: Iterable[Request]) -> World:
    """The world after ``requests`` as the kernel carries them out."""
    return settle_all(task.world, requests)[1]
