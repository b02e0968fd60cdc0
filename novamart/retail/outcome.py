"""What a retail episode left the customer with, request by request, judged on the world
(issue 20 item 6): the final world against the world of the kernel's optimal plan
(novamart.retail.diff), never the calls that got there.

- A request the optimum carries out is right when every field its optimal write changes
  holds the optimal value. When one holds a value neither the optimum nor the start had, the
  write was a wrong one (cancelled instead of modified, another variant, another route).
- A request the optimum declines or refuses is right when its order is untouched (no field
  of it that no optimal write changes differs), the customer was told it cannot be done, and,
  when the kernel's answer is ``escalate``, a write escalated it; when its answer is another
  write (store credit instead of a late return), every field that write changes holds the
  optimal value.
- A field that differs and no optimal write changes is an extra write, of another
  customer's when it is theirs; an escalation made where the kernel's answer is not one is a
  wrong write too.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from novamart.retail import messages as said
from novamart.retail.diff import (
    Fields,
    Plan,
    Ref,
    WorldFields,
    changed_worlds,
    flatten,
    order_fields,
)
from novamart.retail.trail import Trail
from novamart.scenarios.kept import Memo, kept_for
from novamart.scenarios.retail_requests import Settled
from novamart.scenarios.retail_world import World

ESCALATE = "escalate"
CARRIED_OUT = "carried out"
TOLD = "the customer was told it cannot be done"
NOT_TOLD = "no message naming the order says it cannot be done"


@dataclass(frozen=True)
class RequestGrade:
    """One request in the terminal reveal: what the kernel expected, what happened, why."""

    number: int
    resolution: str
    order_id: str
    expected: str
    happened: str
    right: bool
    wrong_write: bool = False
    """A field its optimal write changes holds a value neither the optimum nor the start had."""

    def line(self) -> str:
        mark = "right" if self.right else "not right"
        return (
            f"request {self.number} ({self.resolution} on {self.order_id}): expected "
            f"{self.expected}; happened: {self.happened} [{mark}]"
        )


@dataclass(frozen=True)
class Outcome:
    requests: tuple[RequestGrade, ...]
    extra: frozenset[Ref]
    """The fields that differ from the optimum and no optimal write changes."""
    escalations: tuple[str, ...]
    """The orders escalated where the kernel's answer is not an escalation."""
    customer_id: str

    @property
    def score(self) -> float:
        """The share of the requests that are right."""
        return sum(r.right for r in self.requests) / len(self.requests) if self.requests else 1.0

    @property
    def others(self) -> frozenset[Ref]:
        """The extra fields that are another customer's."""
        return frozenset(r for r in self.extra if r.customer_id != self.customer_id)


_judged = Memo()
_graded = Memo()
_extra = Memo()


def outcome(best: Plan, final: World, trail: Trail, customer_id: str) -> Outcome:
    """The requests of ``best`` judged on ``final`` (and, for refusals, on what was said).
    It reads the trail's writes and messages only: kept while they, the plan and the world
    are the same objects (a look-up step changes none of them); a request's grade and the
    extra fields are kept apart from the messages (a message changes whether a refusal was
    told, nothing of the world)."""
    writes = tuple(s for s in trail.steps if s.kind == "write")
    owners = (final, best, trail.messages, *writes)  # held by the final world
    return kept_for(
        _judged,
        owners,
        (len(writes), customer_id),
        lambda: _outcome(best, final, trail, customer_id),
    )


def _outcome(best: Plan, final: World, trail: Trail, customer_id: str) -> Outcome:
    ending = flatten(final)
    escalated = frozenset(
        s.order_id
        for s in trail.steps
        if s.kind == "write" and s.resolution == ESCALATE and s.carried_out
    )
    wanted = {s.request.order_id for s in best.settled if s.optimum == ESCALATE}
    requests = []
    for index, settled in enumerate(best.settled):
        order_id = settled.request.order_id
        told = settled.status != CARRIED_OUT and said.refusal(trail.messages, order_id) is not None
        requests.append(
            kept_for(
                _graded,
                (final, best),
                (index, told, escalated),
                lambda i=index, t=told: _request(i, best, ending, t, escalated),
            )
        )
    extra = kept_for(_extra, (final, best), (), lambda: changed_worlds(best.world, final))
    return Outcome(
        requests=tuple(requests),
        extra=extra - best.touched,
        escalations=tuple(sorted(o for o in escalated - wanted if o is not None)),
        customer_id=customer_id,
    )


def _request(
    index: int, best: Plan, ending: WorldFields, told: bool, escalated: frozenset[str | None]
) -> RequestGrade:
    settled = best.settled[index]
    order_id = settled.request.order_id
    # the fields a request changes and its order's are its customer's: read from theirs alone
    whose = settled.request.customer_id
    now, optimal = ending.customer(whose), best.optimal.customer(whose)
    wrong = False
    if settled.status == CARRIED_OUT:
        differ = sorted(r for r in best.touches[index] if now.get(r) != optimal.get(r))
        start = best.start.customer(whose)
        wrong = any(now.get(r) != start.get(r) for r in differ)
        how = "changed otherwise" if wrong else "not carried out"
        happened = f"{how}: {_differences(differ, now, optimal)}" if differ else "as expected"
        right = not differ
    else:
        differ = sorted(
            r
            for r in order_fields(best.optimal, order_id) - best.touched
            if now.get(r) != optimal.get(r)
        )
        given = sorted(r for r in best.touches[index] if ending.get(r) != best.optimal.get(r))
        parts = [
            f"changed: {_differences(differ, now, optimal)}" if differ else "untouched",
            TOLD if told else NOT_TOLD,
        ]
        if given:  # the write the kernel grants instead (store credit) was not made as granted
            parts.append(f"not given instead: {_differences(given, ending, best.optimal)}")
        escalation = settled.optimum != ESCALATE or order_id in escalated
        if not escalation:
            parts.append("it was not escalated")
        happened = "; ".join(parts)
        right = not differ and not given and told and escalation
    return RequestGrade(
        number=index + 1,
        resolution=settled.request.call.resolution,
        order_id=order_id,
        expected=expected(settled),
        happened=happened,
        right=right,
        wrong_write=wrong,
    )


def expected(settled: Settled) -> str:
    """The kernel's optimum for one request, in words: what is done, to what, for how much."""
    request = settled.request
    if settled.status != CARRIED_OUT:
        why = "; ".join(settled.reasons) or "no reason given"
        instead = f", {settled.optimum} instead" if settled.optimum != "decline" else ""
        return f"{settled.status}{instead} ({why})"
    details = []
    if request.item_ids:
        details.append(f"items {', '.join(request.item_ids)}")
    if settled.amount:
        payment = request.call.arguments.get("payment_method_id", "the method that paid")
        details.append(f"{abs(settled.amount):.2f} via {payment}")
    if address := request.call.arguments.get("address"):
        details.append(f"to {address}")
    return CARRIED_OUT + (f" ({'; '.join(details)})" if details else "")


def _differences(refs: Iterable[Ref], ending: Fields, optimal: Fields) -> str:
    return ", ".join(f"{r.label()} {ending.get(r)} (expected {optimal.get(r)})" for r in refs)
