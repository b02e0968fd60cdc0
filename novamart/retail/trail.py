"""What a retail episode leaves for its grader besides the final world: the steps that touched
an account, in order, and the agent's messages to the customer.

The session (novamart.retail.session) writes it; the grader (novamart.retail.grade) reads it
with the task and the final world. The outcome is graded on the world, never on this record;
the record is for the process (identified before the first account detail or write, a fresh
yes before each write, nothing of another customer) and for the messages.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Literal

StepKind = Literal["identified", "confirmed", "read", "write"]


@dataclass(frozen=True, slots=True)
class Step:
    step: int
    """The episode step (one tool call) it happened at."""
    kind: StepKind
    customer_id: str | None
    """Whose account: the customer identified, or the owner of what was read or written
    (None when the call named nothing that exists)."""
    tool: str = ""
    resolution: str | None = None
    """A write's declared resolution (rules/retail/resolutions.yaml)."""
    order_id: str | None = None
    carried_out: bool = False
    """A write whose effects were applied to the world."""
    arguments: tuple[tuple[str, Any], ...] = ()
    """A write's arguments, sorted by name."""
    amount: float | None = None
    """A write carried out: the amount the kernel granted it (None when it grants none)."""


@dataclass(frozen=True, slots=True)
class Message:
    step: int
    text: str


@dataclass(frozen=True, slots=True)
class Trail:
    steps: tuple[Step, ...] = ()
    messages: tuple[Message, ...] = ()

    def add(self, step: Step) -> Trail:
        return Trail((*self.steps, step), self.messages)

    def say(self, message: Message) -> Trail:
        return Trail(self.steps, (*self.messages, message))
