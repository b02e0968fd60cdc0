"""The task registry: each named task, its difficulty, step limit and the tools it offers.

A task declares its tools by name, so a new ticket family (issue 6) adds a TaskSpec with
its own tool list and a generator character without touching the environment.
"""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict

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


class TaskSpec(BaseModel):
    model_config = ConfigDict(frozen=True)

    name: str
    difficulty: str
    max_steps: int
    description: str
    tools: tuple[str, ...] = RESOLUTION_TOOLS
    family: str = "resolution"


TASKS: dict[str, TaskSpec] = {
    spec.name: spec
    for spec in (
        TaskSpec(
            name="easy_refund",
            difficulty="easy",
            max_steps=10,
            description=(
                "Unopened item within the 30-day window: a full refund under standard_return."
            ),
        ),
        TaskSpec(
            name="defect_resolution",
            difficulty="medium",
            max_steps=10,
            description=(
                "Opened item past 30 days with a real defect: verify it, then a full refund "
                "under defective_item (an exchange is also valid, at lower quality)."
            ),
        ),
        TaskSpec(
            name="loyalty_negotiation",
            difficulty="hard",
            max_steps=10,
            description=(
                "Silver/gold member, opened item within 60 days, a defect claim verification "
                "does not confirm, a customer pushing for cash: store credit under "
                "loyalty_goodwill is the best allowed; a refund is blocked."
            ),
        ),
    )
}

DEFAULT_TASK = "easy_refund"


def get_task(name: str) -> TaskSpec:
    """The task called ``name``; an unknown name is a ValueError that lists the valid ones."""
    try:
        return TASKS[name]
    except (KeyError, TypeError):
        valid = ", ".join(sorted(TASKS))
        raise ValueError(f"unknown task {name!r}; valid tasks: {valid}") from None
