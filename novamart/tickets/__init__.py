"""Ticket task families (seeds 001 and 003): triage, data extraction, KB-grounded answers,
escalation safety and account recovery.

Wiring (for the environment)::

    from novamart.tickets import FAMILIES, TicketSession, canonical_task
    spec = FAMILIES["escalation_safety"]
    scenario = spec.generate(seed)              # or spec.canonical(), or load_dataset(...)
    session = TicketSession(scenario)
    outcome = session.step(tool_name, arguments)  # StepOutcome(result, reward, score, grade, done)
"""

from novamart.tickets.dataset import DatasetError, load_dataset
from novamart.tickets.family import FAMILIES, FamilySpec
from novamart.tickets.model import Grade, Scenario, Signals, Ticket, ToolResult, Truth
from novamart.tickets.session import StepOutcome, TicketSession, TicketView

CANONICAL_TASKS = {
    "billing_triage": "ticket_triage",
    "order_email_extraction": "data_extraction",
    "kb_return_window": "kb_grounded_response",
    "swollen_battery_escalation": "escalation_safety",
    "locked_out_recovery": "account_recovery",
}


def canonical_task(task_id: str) -> Scenario:
    """The named task ``task_id`` (a key of CANONICAL_TASKS); KeyError names the choices."""
    if task_id not in CANONICAL_TASKS:
        raise KeyError(f"unknown ticket task {task_id!r}; known: {', '.join(CANONICAL_TASKS)}")
    return FAMILIES[CANONICAL_TASKS[task_id]].canonical()


__all__ = [
    "CANONICAL_TASKS",
    "FAMILIES",
    "DatasetError",
    "FamilySpec",
    "Grade",
    "Scenario",
    "Signals",
    "StepOutcome",
    "Ticket",
    "TicketSession",
    "TicketView",
    "ToolResult",
    "Truth",
    "canonical_task",
    "load_dataset",
]
