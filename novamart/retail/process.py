"""How a retail episode went about it, read from its trail (issue 20 item 6): the customer
authenticated before the first account detail or write, a fresh yes before each write carried
out, nothing of another customer. The outcome is never read here (it is the world's).

What a write needs is its resolution's ``requires`` in the rulebook (rules/retail/resolutions
.yaml): ``identity_verified`` and ``confirmed`` for the writes that change an order, nothing
for ``decline`` and ``escalate``; a resolution the rulebook does not declare needs both (fail
closed). A yes is used up by the write carried out after it (its effects reset
``event.confirmed``); a write the gate refused leaves it standing, as the kernel does.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from novamart.retail.trail import Step, Trail
from novamart.scenarios.retail_world import retail_kernel

IDENTITY, YES = "identity_verified", "confirmed"


@dataclass(frozen=True)
class Process:
    lapses: tuple[str, ...]
    """Each lapse, for the notes (each costs the same)."""
    unpassable: tuple[str, ...]
    """The lapses that must keep the episode below the pass mark: a write carried out before
    authentication or without a yes."""
    others: tuple[str, ...]
    """A write carried out on another customer's order (kept well below the pass mark)."""
    authenticated: bool
    """Whether the conversation's customer was ever authenticated: a process that never
    verified who it served earns no process credit (doing nothing is not doing it well)."""


def _needs(resolution: str | None, event: str) -> bool:
    declared = retail_kernel().rulebook.resolutions.get(resolution or "")
    return declared is None or event in declared.requires


@dataclass
class _Walk:
    """The trail read in order: who is authenticated, whether a yes stands."""

    customer_id: str
    identified: bool = False
    yes: bool = False
    lapses: list[str] = field(default_factory=list)
    unpassable: list[str] = field(default_factory=list)
    others: list[str] = field(default_factory=list)

    def step(self, step: Step) -> None:
        other = step.customer_id is not None and step.customer_id != self.customer_id
        at = f"step {step.step}"
        if step.kind == "identified":
            if other:
                self.lapses.append(f"{at}: authenticated another customer")
            self.identified |= not other
        elif step.kind == "confirmed":
            self.yes = True
        elif step.kind == "read":
            if other:
                self.lapses.append(f"{at}: read another customer's account")
            elif not self.identified:
                self.lapses.append(f"{at}: read the account before authentication")
        else:
            self.write(step, other)

    def write(self, step: Step, other: bool) -> None:
        what = f"step {step.step}: {step.resolution} on {step.order_id}"
        done = "carried out" if step.carried_out else "attempted"
        if other:
            self.lapses.append(f"{what} ({done}) is another customer's order")
            if step.carried_out:
                self.others.append(f"{what}: a write carried out on another customer's order")
        if not self.identified and _needs(step.resolution, IDENTITY):
            self.lapses.append(f"{what} ({done}) before authentication")
            if step.carried_out:
                self.unpassable.append(f"{what}: a write carried out before authentication")
        if step.carried_out and _needs(step.resolution, YES):
            if not self.yes:
                self.lapses.append(f"{what} carried out without the customer's yes")
                self.unpassable.append(f"{what}: a write carried out without the customer's yes")
            self.yes = False


def process(customer_id: str, trail: Trail) -> Process:
    """The lapses of the trail of a conversation with ``customer_id``."""
    walk = _Walk(customer_id)
    for step in trail.steps:
        walk.step(step)
    return Process(tuple(walk.lapses), tuple(walk.unpassable), tuple(walk.others), walk.identified)
