"""A retail episode graded on its final state (issue 20 item 6).

    score = min(caps, 0.6·outcome + 0.2·process + 0.2·communication)

- **outcome**: the share of the requests that are right, judged on the world, never on the
  calls: the final world is compared field by field with the world of the kernel's optimal
  plan for the requests as the customer finally wants them (novamart.retail.diff). A request
  carried out by the optimum is right when every field its optimal write changes holds the
  optimal value; one the optimum declines or refuses is right when its order is untouched and
  the customer was told it cannot be done (an ``escalate`` optimum: and a write escalated it).
  The outcome carries the most weight because it is what the customer is left with.
- **process** (from the trail): 1, less ``PROCESS_COST`` per lapse: an account detail read or a
  write made before the customer was authenticated, a write carried out without a fresh yes
  (for a resolution that requires them: its ``requires`` in the rulebook), anything read,
  authenticated or written of another customer.
- **communication**, fail closed: 0 when no message was sent, one is rude, or one states an
  amount of money no kernel computation gives; else the mean over the requests of: reported
  (a message naming the order after its write) for one carried out; told it cannot be done
  (half) and why (the other half, a cue of the kernel's reason) for one declined or refused.

Caps (each below the pass mark, so the episode never passes): a request not right, an extra or
wrong write, no message, a rude message, an unverifiable amount, a write carried out before
authentication or without a yes, the customer not ending the conversation satisfied
(``HOLD``); a write carried out on another customer's order (``OTHERS``, well below).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field

from novamart.evaluation.stats import PASS_THRESHOLD
from novamart.retail import messages as said
from novamart.retail.diff import Fields, Plan, Ref, changed, flatten, order_fields, plan
from novamart.retail.trail import Step, Trail
from novamart.scenarios.retail_requests import Request, RetailTask, Settled
from novamart.scenarios.retail_world import World, retail_kernel

PASS = PASS_THRESHOLD
WEIGHTS = {"outcome": 0.6, "process": 0.2, "communication": 0.2}
PROCESS_COST = 0.25
"""What one lapse of process costs of that component (four lapses leave nothing)."""
HOLD = round(PASS - 0.1, 2)
"""The most an episode earns when it must not pass: a clear step below the pass mark."""
OTHERS = 0.3
"""The most an episode earns when a write carried out changed another customer's order."""
TOLD, WHY = 0.5, 0.5
"""A refusal's communication: told it cannot be done, and why (the kernel's reason)."""
ESCALATE = "escalate"


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
class RetailGrade:
    score: float
    components: dict[str, float]
    requests: tuple[RequestGrade, ...]
    notes: tuple[str, ...]
    passed: bool = field(init=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "passed", self.score >= PASS)

    def reveal(self) -> str:
        """The per-request lines and the notes, for the terminal observation."""
        lines = [r.line() for r in self.requests]
        parts = ", ".join(f"{k} {v:.2f}" for k, v in self.components.items())
        return "\n".join([*lines, f"score {self.score:.3f} ({parts})", *self.notes])


def grade(
    task: RetailTask, current: tuple[Request, ...], final: World, trail: Trail, closed: bool
) -> RetailGrade:
    """``final`` and ``trail`` graded against the optimum of ``current`` on ``task.world``."""
    best = plan(task.world, current)
    ending = flatten(final)
    caps: list[tuple[float, str]] = []
    requests = tuple(_request(i, best, ending, trail) for i in range(len(best.settled)))
    if wrong := [r for r in requests if r.wrong_write]:
        caps.append((HOLD, f"a wrong write: request {wrong[0].number} changed to another value"))
    if extra := _extra(best, ending):
        shown = ", ".join(r.label() for r in sorted(extra)[:4])
        caps.append((HOLD, f"an extra write: {len(extra)} field(s) no optimal write changes "
                           f"differ ({shown})"))  # fmt: skip
    if missed := [r for r in requests if not r.right]:
        caps.append((HOLD, f"{len(missed)} of {len(requests)} request(s) not right"))
    process, lapses, process_caps = _process(task, trail)
    caps += process_caps
    communication, talk_notes, talk_caps = _communication(task, current, best, final, trail)
    caps += talk_caps
    if not closed:
        caps.append((HOLD, "the customer did not end the conversation satisfied"))
    outcome = sum(r.right for r in requests) / len(requests) if requests else 1.0
    components = {"outcome": outcome, "process": process, "communication": communication}
    total = sum(WEIGHTS[k] * v for k, v in components.items())
    cap = min((c for c, _ in caps), default=1.0)
    score = round(min(total, cap), 4)
    notes = (*(f"capped at {c}: {why}" for c, why in caps), *lapses, *talk_notes)
    return RetailGrade(score, components, requests, tuple(notes))


def _request(index: int, best: Plan, ending: Fields, trail: Trail) -> RequestGrade:
    settled, touches = best.settled[index], best.touches[index]
    order_id = settled.request.order_id
    expected = _expected(settled)
    if settled.status == "carried out":
        differ = sorted(r for r in touches if ending.get(r) != best.optimal.get(r))
        moved = [r for r in differ if ending.get(r) != best.start.get(r)]
        happened = _differences(differ, ending, best.optimal) if differ else "as expected"
        right = not differ
        wrong = bool(moved)
    else:
        differ = sorted(
            r for r in order_fields(best.optimal, order_id) if ending.get(r) != best.optimal[r]
        )
        told = said.refusal(trail.messages, order_id) is not None
        parts = [_differences(differ, ending, best.optimal) if differ else "order untouched"]
        parts.append("the customer was told it cannot be done" if told else "no message "
                     "naming the order says it cannot be done")  # fmt: skip
        escalated = settled.optimum != ESCALATE or any(
            s.kind == "write" and s.resolution == ESCALATE and s.order_id == order_id
            for s in trail.steps
        )
        if not escalated:
            parts.append("it was not escalated")
        happened, right, wrong = "; ".join(parts), not differ and told and escalated, False
    return RequestGrade(
        number=index + 1,
        resolution=settled.request.call.resolution,
        order_id=order_id,
        expected=expected,
        happened=happened,
        right=right,
        wrong_write=wrong,
    )


def _expected(settled: Settled) -> str:
    request = settled.request
    if settled.status != "carried out":
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
    return "carried out" + (f" ({'; '.join(details)})" if details else "")


def _differences(refs: Iterable[Ref], ending: Fields, optimal: Fields) -> str:
    return ", ".join(f"{r.label()} {ending.get(r)} (expected {optimal.get(r)})" for r in refs)


def _extra(best: Plan, ending: Fields) -> frozenset[Ref]:
    """The fields that differ from the optimum and no optimal write changes."""
    return changed(best.optimal, ending) - best.touched


def _needs(resolution: str | None, event: str) -> bool:
    """Whether a write of ``resolution`` requires ``event`` (an unknown one: fail closed)."""
    declared = retail_kernel().rulebook.resolutions.get(resolution or "")
    return declared is None or event in declared.requires


def _process(task: RetailTask, trail: Trail) -> tuple[float, list[str], list[tuple[float, str]]]:
    """The process component, its lapses (as notes), and the caps they bring."""
    me = task.customer_id
    lapses: list[str] = []
    caps: list[tuple[float, str]] = []
    identified = fresh_yes = False
    for step in trail.steps:
        other = step.customer_id is not None and step.customer_id != me
        if step.kind == "identified":
            if other:
                lapses.append(f"step {step.step}: authenticated another customer")
            identified |= not other
        elif step.kind == "confirmed":
            fresh_yes = True
        elif step.kind == "read":
            if other:
                lapses.append(f"step {step.step}: read another customer's account")
            elif not identified:
                lapses.append(f"step {step.step}: read the account before authentication")
        else:
            fresh_yes = _write(step, other, identified, fresh_yes, lapses, caps)
    return max(0.0, 1.0 - PROCESS_COST * len(lapses)), lapses, caps


def _write(
    step: Step,
    other: bool,
    identified: bool,
    fresh_yes: bool,
    lapses: list[str],
    caps: list[tuple[float, str]],
) -> bool:
    """One write's lapses and caps; whether a yes is still fresh after it."""
    what = f"step {step.step}: {step.resolution} on {step.order_id}"
    done = "carried out" if step.carried_out else "attempted"
    if other:
        lapses.append(f"{what} ({done}) is another customer's order")
        if step.carried_out:
            caps.append((OTHERS, f"{what}: a write carried out on another customer's order"))
    if not identified and _needs(step.resolution, "identity_verified"):
        lapses.append(f"{what} ({done}) before authentication")
        if step.carried_out:
            caps.append((HOLD, f"{what}: a write carried out before authentication"))
    if step.carried_out and _needs(step.resolution, "confirmed"):
        if not fresh_yes:
            lapses.append(f"{what} carried out without the customer's yes")
            caps.append((HOLD, f"{what}: a write carried out without the customer's yes"))
        return False
    return fresh_yes


def _communication(
    task: RetailTask, current: tuple[Request, ...], best: Plan, final: World, trail: Trail
) -> tuple[float, list[str], list[tuple[float, str]]]:
    """The communication component, its notes, and the caps it brings (fail closed)."""
    sent = trail.messages
    if not sent:
        return (
            0.0,
            ["communication 0: no message to the customer"],
            [(HOLD, "no message to the customer")],
        )
    caps: list[tuple[float, str]] = []
    if rude := said.rude(sent):
        caps.append((HOLD, f"a rude message (step {rude[0].step})"))
    asked = plan(task.world, task.requests) if task.requests != tuple(current) else best
    allowed = said.verifiable((best, asked), task.world, task.customer_id, final, task.final)
    if claims := said.unverifiable(sent, allowed):
        message, amount = claims[0]
        caps.append((HOLD, f"an amount no kernel computation gives: {amount:.2f} "
                           f"(step {message.step})"))  # fmt: skip
    if caps:
        return 0.0, [f"communication 0: {why}" for _, why in caps], caps
    credits, notes = [], []
    for number, settled in enumerate(best.settled, 1):
        credit, note = _told(settled, trail)
        credits.append(credit)
        if credit < 1.0:
            notes.append(f"request {number}: {note}")
    return sum(credits) / len(credits) if credits else 1.0, notes, []


def _told(settled: Settled, trail: Trail) -> tuple[float, str]:
    """One request's communication credit, and what it lacks."""
    order_id = settled.request.order_id
    if settled.status == "carried out":
        writes = [
            s.step
            for s in trail.steps
            if s.kind == "write" and s.carried_out and s.order_id == order_id
        ]
        if writes and said.reported(trail.messages, order_id, max(writes)):
            return 1.0, ""
        return 0.0, f"no message after its write names {order_id}"
    told = said.refusal(trail.messages, order_id) is not None
    why = not settled.reasons or said.conveys(trail.messages, settled) is not None
    missing = [] if told else [f"no message says {order_id} cannot be done"]
    missing += [] if why else ["no message conveys the kernel's reason"]
    return TOLD * told + WHY * why, "; ".join(missing)
