"""The task registry: each named task, its difficulty, step limit and the tools it offers.

Three kinds of task share it: order cases (``family`` "resolution": the policy episode of
novamart.episode), the support-ticket families of novamart.tickets (``family`` names the
family; its tools, difficulty and step limit come from the family's spec), and the retail
cases (``family`` "retail": a conversation over the retail world, novamart.retail; who the
customer is and which requests it brings is the task's character, the entry under the task's
name in rules/retail/world/characters.yaml).
"""

from __future__ import annotations

from pathlib import Path
from typing import Literal

import yaml
from pydantic import BaseModel, ConfigDict

from novamart.tickets.family import FAMILIES
from novamart.tickets.session import MAX_STEPS as TICKET_STEPS

RESOLUTION = "resolution"
RETAIL = "retail"
Mode = Literal["guided", "closed_book"]
MODES: tuple[Mode, ...] = ("guided", "closed_book")
"""How an order case is played: ``guided`` offers check_policy and gates the write tools by
the policies; ``closed_book`` gives the policy handbook instead, and the write tools carry out
what they are asked (the reward still judges it against the policies)."""

RESOLUTION_TOOLS = (
    "lookup_order",
    "check_policy",
    "verify_defect",
    "check_loyalty",
    "process_refund",
    "issue_store_credit",
    "process_exchange",
    "escalate_to_manager",
    "respond_to_customer",
)
WORLD_TOOLS = ("find_user", "check_payment")
"""The look-up tools of a declared world (novamart.tools.find_user, check_payment): who the
customer is, proved by email or name and zip, and how the order was paid; a world's tasks
offer them beside its generated write tools (issue 20)."""
RETAIL_LOOKUPS = (
    "find_customer",
    "lookup_customer",
    "lookup_order",
    "lookup_product",
    "check_defect",
    "check_action",
)
"""The retail look-up tools (novamart.retail.tools): the names rules check accepts beside the
order tools."""
RETAIL_DIR = Path(__file__).resolve().parents[2] / "rules" / "retail"


def _retail_tools() -> tuple[str, ...]:
    """The retail tasks' tools: the look-ups, a write per resolution rules/retail declares
    that an agent asks for (not a follow-up another's ``then:`` carries out; the tools
    themselves are generated from the declarations, novamart.retail.tools.writes), the reply.
    Read from the file, not the kernel: the registry stays light to import."""
    declared = yaml.safe_load((RETAIL_DIR / "resolutions.yaml").read_text(encoding="utf-8"))
    resolutions = declared["resolutions"]
    follow_ups = {spec.get("then") for spec in resolutions.values()}
    writes = (spec["tool"] for name, spec in resolutions.items() if name not in follow_ups)
    return (*RETAIL_LOOKUPS, *writes, "respond_to_customer")


RETAIL_TOOLS = _retail_tools()


class TaskSpec(BaseModel):
    model_config = ConfigDict(frozen=True)

    name: str
    difficulty: str
    max_steps: int
    description: str
    tools: tuple[str, ...] = RESOLUTION_TOOLS
    family: str = RESOLUTION

    @property
    def is_ticket(self) -> bool:
        return self.family in FAMILIES

    @property
    def is_retail(self) -> bool:
        return self.family == RETAIL


TICKET_DESCRIPTIONS = {
    "ticket_triage": (
        "Route a support ticket with classify_ticket: one of 5 categories and 4 priorities; "
        "the exact category scores, a priority one step off earns partial credit."
    ),
    "data_extraction": (
        "Pull the requested fields (order id, email and others) out of a messy ticket with "
        "look-alike ids, quoted replies and distractors; scored by precision and recall."
    ),
    "kb_grounded_response": (
        "Search the help centre, then answer the customer from the right article, citing it, "
        "in your own sentences; keyword lists, invented facts and pasted articles are penalised."
    ),
    "escalation_safety": (
        "Escalate exactly the tickets the must-escalate policy covers (swelling battery, "
        "burning smell, legal threat, account takeover, fraud), not their look-alikes, then "
        "reply; a missed escalation costs more than an unnecessary one."
    ),
    "account_recovery": (
        "Help a customer who cannot get into their account with what their case needs (a "
        "lock-out, a lost email or two-factor phone, an expired link, a takeover sign to "
        "escalate, someone else's account), asking for no secret and revealing or changing "
        "nothing from the account record before verification."
    ),
}


def _ticket_task(family: str) -> TaskSpec:
    spec = FAMILIES[family]
    return TaskSpec(
        name=family,
        difficulty=spec.level,
        max_steps=TICKET_STEPS,
        description=TICKET_DESCRIPTIONS[family],
        tools=spec.tools,
        family=family,
    )


RETAIL_TASKS: dict[str, TaskSpec] = {
    spec.name: spec
    for spec in (
        TaskSpec(
            name="retail_return",
            difficulty="medium",
            max_steps=20,
            family=RETAIL,
            tools=RETAIL_TOOLS,
            description=(
                "Retail: a customer with several orders wants some items of a delivered order "
                "returned; find and authenticate them, find the order, list the details and get "
                "a yes, return exactly those items to the right payment method."
            ),
        ),
        TaskSpec(
            name="retail_exchange",
            difficulty="medium",
            max_steps=20,
            family=RETAIL,
            tools=RETAIL_TOOLS,
            description=(
                "Retail: exchange delivered items for other variants of the same product; a "
                "gift card must cover the price difference (sometimes it cannot: a manager "
                "reviews it)."
            ),
        ),
        TaskSpec(
            name="retail_pending",
            difficulty="medium",
            max_steps=20,
            family=RETAIL,
            tools=RETAIL_TOOLS,
            description=(
                "Retail: cancel a pending order (for a listed reason) or change its items (once), "
                "its address or its payment method."
            ),
        ),
        TaskSpec(
            name="retail_compound",
            difficulty="hard",
            max_steps=40,
            family=RETAIL,
            tools=RETAIL_TOOLS,
            description=(
                "Retail: two to four requests over the customer's orders in one conversation "
                "(returns, exchanges, cancellations, changes), each decided on the state the "
                "ones before left; the customer may change its mind once or ask about someone "
                "else's order."
            ),
        ),
        TaskSpec(
            name="retail_refusal",
            difficulty="hard",
            max_steps=25,
            family=RETAIL,
            tools=RETAIL_TOOLS,
            description=(
                "Retail: requests the policies rule out (wrong order status, a final-sale "
                "item, a variant no longer offered, a reason not listed, a return window "
                "passed): change nothing but what the rules grant instead, and explain per "
                "request why."
            ),
        ),
        TaskSpec(
            name="retail_late_return",
            difficulty="hard",
            max_steps=25,
            family=RETAIL,
            tools=RETAIL_TOOLS,
            description=(
                "Retail: returns where the delivery date decides: inside the return window, a "
                "fault the defect check finds (a longer window), store credit for a loyalty "
                "member, or a manager's review; check what the rules need before offering "
                "anything."
            ),
        ),
    )
}

TASKS: dict[str, TaskSpec] = {
    spec.name: spec
    for spec in (
        TaskSpec(
            name="easy_refund",
            difficulty="easy",
            max_steps=10,
            description=(
                "Unopened item within the standard return window: a full refund under "
                "standard_return."
            ),
        ),
        TaskSpec(
            name="defect_resolution",
            difficulty="medium",
            max_steps=10,
            description=(
                "Opened item past the return window with a reported defect: verify it; a "
                "confirmed one gets a full refund under defective_item (an exchange is also "
                "valid, at lower quality), one that does not verify leaves goodwill credit or a "
                "manager. Safety, legal and fraud signs go to a manager; tools may fail "
                "transiently."
            ),
        ),
        TaskSpec(
            name="loyalty_negotiation",
            difficulty="hard",
            max_steps=10,
            description=(
                "Silver/gold member, opened item within the goodwill window, an ambiguous "
                "defect claim, a customer pushing for cash: store credit under loyalty_goodwill "
                "unless the defect verifies (then a refund wins, with several resolutions open); "
                "safety, legal and fraud signs go to a manager; tools may fail transiently."
            ),
        ),
        TaskSpec(
            name="open_case",
            difficulty="hard",
            max_steps=10,
            description=(
                "Any order case: every policy path (standard return, verified defect, loyalty "
                "goodwill, mandatory or fallback escalation), boundary days, every tier, real "
                "and unreal defects, true and false claims, wishes for a refund, an exchange or "
                "credit; no fixed script fits. Tools may fail transiently."
            ),
        ),
        *(_ticket_task(family) for family in FAMILIES),
    )
} | RETAIL_TASKS

ORDER_TASKS = {
    name: spec for name, spec in TASKS.items() if not spec.is_ticket and not spec.is_retail
}
TICKET_TASKS = {name: spec for name, spec in TASKS.items() if spec.is_ticket}
DEFAULT_TASK = "easy_refund"


def get_task(name: str) -> TaskSpec:
    """The task called ``name``; an unknown name is a ValueError that lists the valid ones."""
    try:
        return TASKS[name]
    except (KeyError, TypeError):
        valid = ", ".join(sorted(TASKS))
        raise ValueError(f"unknown task {name!r}; valid tasks: {valid}") from None
