"""The cases an analyst asks about: a task and a seed, as the facts the policies decide on.

Order tasks take their facts from the scenario generator; a ticket family whose truth the
rules decide (its ``settle``) takes them from what the ticket shows. Tasks come from the
task registry, so a new one flows into explanations, diffs and the workbench by itself.
"""

from __future__ import annotations

from dataclasses import dataclass

from novamart.episode import OPENING
from novamart.kernel import Facts, Rulebook
from novamart.scenarios import build_scenario
from novamart.scenarios.tasks import ORDER_TASKS, TASKS
from novamart.tickets.family import FAMILIES


@dataclass(frozen=True)
class Case:
    """One generated case: what the customer wrote and every fact of it."""

    task: str
    seed: int | None
    facts: Facts
    opening: str


def policy_tasks() -> list[str]:
    """The tasks whose ground truth the rules decide, in registry order."""
    return [
        name
        for name, spec in TASKS.items()
        if name in ORDER_TASKS or (spec.is_ticket and FAMILIES[spec.family].settle is not None)
    ]


def build_case(task: str, seed: int | None = None) -> Case:
    """The case of ``task`` (its canonical one without a seed); a task the rules do not
    decide is a ValueError naming those that they do."""
    if task not in TASKS or task not in policy_tasks():
        raise ValueError(
            f"no policy case for task {task!r}; tasks the rules decide: {', '.join(policy_tasks())}"
        )
    if task in ORDER_TASKS:
        scenario = build_scenario(task, seed)
        return Case(task=task, seed=seed, facts=scenario.facts(), opening=scenario.opening)
    family = FAMILIES[TASKS[task].family]
    ticket = family.canonical() if seed is None else family.generate(seed)
    signals = ticket.truth.signals
    fact = {"ticket_id": ticket.ticket.ticket_id, **(signals.model_dump() if signals else {})}
    return Case(task=task, seed=seed, facts=Facts(ticket=fact), opening=ticket.ticket.text)


def sources(rulebook: Rulebook) -> dict[str, str]:
    """Per fact kind, what reveals it in an episode: a tool, or the opening message."""
    return {kind: spec.revealed_by or OPENING for kind, spec in rulebook.facts.kinds.items()}
