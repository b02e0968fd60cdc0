"""The cases a rule change is measured on: every task the rules decide, a few hundred seeds
each, and each case moved onto the boundaries of the thresholds either rule set tests.

Generated cases show what the environment's agents will meet. They sit where each task's
character puts them (an easy refund is unopened and inside 30 days), so a change of a
threshold can fall where no generated case lies; the boundary variants put every case at
n-1, n and n+1 of every numeric threshold of the old and of the new rules, so a moved window
is always seen.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from novamart.analyst.cases import build_case, policy_tasks
from novamart.kernel import Facts, Rulebook
from novamart.kernel.conditions import FieldTest
from novamart.kernel.coverage import boundaries

DEFAULT_SEEDS = 300


@dataclass(frozen=True)
class ScenarioCase:
    task: str
    seed: int
    variant: str | None
    """None for the generated case; else what was moved ('order.days_since_purchase = 44')."""
    facts: Facts


@dataclass(frozen=True)
class Threshold:
    kind: str
    field: str
    value: float

    @property
    def ref(self) -> str:
        return f"{self.kind}.{self.field}"


def thresholds(rulebooks: Iterable[Rulebook]) -> list[Threshold]:
    """n-1, n and n+1 of every numeric threshold the rule sets test, each value once."""
    found: dict[tuple[str, str, float], None] = {}
    for rulebook in rulebooks:
        for policy in rulebook.policies.values():
            for cond in policy.conditions:
                if isinstance(cond.test, FieldTest):
                    for value, _ in boundaries(cond.test, rulebook.facts):
                        found[(cond.test.kind, cond.test.field, value)] = None
    return [Threshold(*key) for key in found]


def scenario_set(
    rulebooks: list[Rulebook], tasks: list[str] | None = None, seeds: int = DEFAULT_SEEDS
) -> list[ScenarioCase]:
    """Seeds 0..seeds-1 of each task (default: every task the rules decide), each followed
    by its boundary variants."""
    moves = thresholds(rulebooks)
    schema = rulebooks[-1].facts
    cases = []
    for task in tasks or policy_tasks():
        for seed in range(seeds):
            facts = build_case(task, seed).facts
            cases.append(ScenarioCase(task, seed, None, facts))
            for move in moves:
                record = facts.record(move.kind)
                spec = schema.field(move.kind, move.field)
                if record is None or spec is None or not _in_range(move.value, spec.range):
                    continue
                if record.get(move.field) == move.value:
                    continue  # the generated case already lies there
                value = int(move.value) if spec.type == "integer" else move.value
                moved = facts.with_kind(move.kind, {**record, move.field: value})
                cases.append(ScenarioCase(task, seed, f"{move.ref} = {value}", moved))
    return cases


def _in_range(value: float, bounds: tuple[float, float] | None) -> bool:
    return bounds is None or bounds[0] <= value <= bounds[1]
