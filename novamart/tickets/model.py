"""Ticket scenarios: what the agent sees (``Ticket``) and the hidden truth it is graded on."""

from __future__ import annotations

from typing import Any, Literal, get_args

from pydantic import BaseModel, ConfigDict, Field

Family = Literal[
    "ticket_triage",
    "data_extraction",
    "kb_grounded_response",
    "escalation_safety",
    "account_recovery",
]
Category = Literal["billing", "technical", "returns", "shipping", "account"]
Priority = Literal["low", "medium", "high", "urgent"]
Difficulty = Literal["easy", "medium", "hard"]
FAMILIES: tuple[str, ...] = get_args(Family)
CATEGORIES: tuple[str, ...] = get_args(Category)
PRIORITIES: tuple[str, ...] = get_args(Priority)
DIFFICULTIES: tuple[str, ...] = get_args(Difficulty)


class _Model(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")


class Signals(_Model):
    """The must-escalate signals of a ticket: the facts a mandatory-escalation policy tests.

    They are the fields of the ``ticket`` fact kind the kernel needs for the
    mandatory-escalation policy (see ``novamart.tickets.escalation``).
    """

    battery_swelling: bool = False
    burning_smell: bool = False
    legal_threat: bool = False
    account_takeover: bool = False
    payment_fraud: bool = False

    def fired(self) -> list[str]:
        return [name for name, on in self.model_dump().items() if on]


class Concept(_Model):
    """Something a reply must convey, matched by any one of its phrases inside one sentence of
    the reply (see ``novamart.tickets.reply.conveys``). A phrase is words, each a choice of
    alternatives (``"never|not ask password|pin"``), all near one another in any order."""

    name: str
    phrases: tuple[str, ...]
    essential: bool = False
    """Without it the reply does not solve the customer's problem, whatever else it says."""


class Ticket(_Model):
    """What the agent is shown."""

    ticket_id: str
    customer_name: str
    subject: str
    text: str
    requested_fields: list[str] = []
    account_on_file: dict[str, str] = Field(
        default={}, description="the CRM record support staff see; not the customer's to read"
    )


class Truth(_Model):
    """The hidden answer key; each family uses the parts it grades."""

    category: Category | None = None
    priority: Priority | None = None
    kb_id: str | None = None
    reference_answer: str | None = None
    requires_escalation: bool | None = None
    signals: Signals | None = None
    fields: dict[str, str | None] = {}
    must_mention: list[Concept] = []
    secrets: dict[str, str] = {}
    situations: list[str] = []
    """What the ticket's case is made of (account_recovery: the situation and the requests in
    it), so the answer key can be rebuilt under another rules version."""
    related_kb: list[str] = []
    """Articles besides ``kb_id`` that a reply may draw on and cite."""


class Scenario(_Model):
    family: Family
    task_id: str
    difficulty: Difficulty
    seed: int | None = None
    ticket: Ticket
    truth: Truth


class ToolError(_Model):
    code: str
    message: str


class ToolResult(_Model):
    """A tool's answer: ``data`` on success, ``error`` (code + message) otherwise."""

    tool: str
    ok: bool
    data: dict[str, Any] = {}
    error: ToolError | None = None

    @classmethod
    def success(cls, tool: str, **data: Any) -> ToolResult:
        return cls(tool=tool, ok=True, data=data)

    @classmethod
    def failure(cls, tool: str, code: str, message: str) -> ToolResult:
        return cls(tool=tool, ok=False, error=ToolError(code=code, message=message))

    def as_dict(self) -> dict[str, Any]:
        """The wire shape every NovaMart tool answers with: ``{"ok": True, ...data}`` or
        ``{"ok": False, "error": {"code", "message"}}``."""
        if self.error is not None:
            return {"ok": False, "error": self.error.model_dump()}
        return {"ok": True, **self.data}


class Grade(_Model):
    """A running grade: ``score`` in [0, 1] plus the components it was built from, and for
    each component, in plain words, why it scored what it did."""

    score: float
    components: dict[str, float] = {}
    notes: list[str] = []
    why: dict[str, str] = {}
