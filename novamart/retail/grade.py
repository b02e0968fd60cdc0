"""A retail episode graded on its final state (issue 20 item 6).

    score = min(caps, 0.6·outcome + 0.2·process + 0.2·communication)

- **outcome** (novamart.retail.outcome): the share of the requests that are right, judged on
  the world against the kernel's optimal plan for the requests as the customer finally wants
  them. It weighs most because it is what the customer is left with.
- **process** (novamart.retail.process): 1, less ``PROCESS_COST`` per lapse (an account read
  or a write before authentication, a write carried out without a fresh yes, anything read,
  authenticated or written of another customer).
- **communication** (novamart.retail.messages), fail closed: 0 when no message was sent, one
  is rude or one states an amount no kernel computation gives; else each request reported,
  or its refusal told and explained.

Process and communication weigh alike: each is how the customer was dealt with, and neither
can make up for a wrong world. Caps keep below the pass mark what must never pass, whatever the
weighted sum: a request not right, an extra or wrong write, an unwanted escalation, no message,
a rude message, an unverifiable amount, a write carried out before authentication or without
a yes, the customer not ending the conversation satisfied (``HOLD``); a write carried out on
another customer's order, seen in the world or in the trail (``OTHERS``, well below).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from novamart.evaluation.stats import PASS_THRESHOLD
from novamart.retail.diff import plan
from novamart.retail.messages import communication
from novamart.retail.outcome import Outcome, RequestGrade, outcome
from novamart.retail.process import process
from novamart.retail.trail import Trail
from novamart.scenarios.retail_requests import Request, RetailTask
from novamart.scenarios.retail_world import World

PASS = PASS_THRESHOLD
WEIGHTS = {"outcome": 0.6, "process": 0.2, "communication": 0.2}
PROCESS_COST = 0.25
"""What one lapse of process costs of that component (four lapses leave nothing)."""
HOLD = round(PASS - 0.1, 2)
"""The most an episode earns when it must not pass: a clear step below the pass mark."""
OTHERS = 0.3
"""The most an episode earns when a write carried out changed another customer's order."""


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
        """The per-request lines, the score and the notes, for the terminal observation."""
        parts = ", ".join(f"{k} {v:.2f}" for k, v in self.components.items())
        lines = [r.line() for r in self.requests]
        return "\n".join([*lines, f"score {self.score:.3f} ({parts})", *self.notes])


def grade(
    task: RetailTask, current: tuple[Request, ...], final: World, trail: Trail, closed: bool
) -> RetailGrade:
    """``final`` and ``trail`` graded against the optimum of ``current`` (the requests as the
    customer finally wants them) on ``task.world``; ``closed``: the customer ended the
    conversation satisfied."""
    best = plan(task.world, current, task.rules)
    asked = best if tuple(current) == task.requests else plan(task.world, task.requests, task.rules)
    done = outcome(best, final, trail, task.customer_id)
    how = process(task.customer_id, trail)
    ends = (final, task.final)
    told = communication(best, (best, asked), task.world, task.customer_id, trail, *ends)
    caps = [
        *((HOLD, why) for why in _unpassable(done)),
        *((HOLD, why) for why in how.unpassable),
        *((HOLD, why) for why in told.unpassable),
        *((OTHERS, why) for why in how.others),
    ]
    if done.others:
        shown = ", ".join(r.label() for r in sorted(done.others)[:2])
        caps.append((OTHERS, f"another customer's account changed ({shown})"))
    if not closed:
        caps.append((HOLD, "the customer did not end the conversation satisfied"))
    components = {
        "outcome": done.score,
        "process": max(0.0, 1.0 - PROCESS_COST * len(how.lapses)) if how.authenticated else 0.0,
        "communication": told.score,
    }
    total = sum(WEIGHTS[k] * v for k, v in components.items())
    score = round(min(total, *(c for c, _ in caps)) if caps else total, 4)
    unverified = () if how.authenticated else ("process 0: the customer was never authenticated",)
    notes = (*(f"capped at {c}: {why}" for c, why in caps), *unverified, *how.lapses, *told.notes)
    return RetailGrade(score, components, done.requests, notes)


def _unpassable(done: Outcome) -> list[str]:
    """Why the world must keep the episode below the pass mark."""
    found = []
    if missed := [r.number for r in done.requests if not r.right]:
        found.append(f"{len(missed)} of {len(done.requests)} request(s) not right ({missed})")
    if wrong := [r.number for r in done.requests if r.wrong_write]:
        found.append(f"a wrong write: request(s) {wrong} changed to another value")
    if done.extra:
        shown = ", ".join(r.label() for r in sorted(done.extra)[:4])
        found.append(f"an extra write: {len(done.extra)} field(s) no optimal write changes "
                     f"differ ({shown})")  # fmt: skip
    if done.escalations:
        found.append(f"an escalation the kernel does not want ({', '.join(done.escalations)})")
    return found
