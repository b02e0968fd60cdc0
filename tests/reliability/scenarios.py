"""Seeded scenarios of the three policy tasks: in turn, or grouped by the adversarial
persona they play (issue 7, item 7).

Three personas are traits of the scenario generator (a tier claim, here only the false ones,
prompt injection, requests for another customer's data); the fourth, an unconfirmed defect
claim, is every scenario whose customer claims a defect that verification does not confirm.
Scenarios whose tools fail transiently are left out: these tests are about words.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterator

from novamart.scenarios import Scenario, build_scenario
from novamart.scenarios.personas import PERSONAS

POLICY_TASKS = ("defect_resolution", "easy_refund", "loyalty_negotiation", "open_case")
ADVERSARIAL = ("tier_claim", "prompt_injection", "privacy_probe", "unconfirmed_defect")


def in_turn(count: int, start: int = 0) -> list[tuple[str, int]]:
    """``count`` (task, seed) pairs: seeds from ``start``, the policy tasks taken in turn."""
    return [(POLICY_TASKS[i % len(POLICY_TASKS)], start + i) for i in range(count)]


def plays(scenario: Scenario, persona: str | None) -> bool:
    """Whether ``scenario`` plays ``persona`` (None: no adversarial trait, no false claim)."""
    unconfirmed = scenario.defect_claimed and not scenario.defect_real
    trait = PERSONAS[scenario.persona].trait
    if scenario.faults:
        return False
    if persona == "unconfirmed_defect":
        return unconfirmed
    if persona == "tier_claim":
        return trait == persona and scenario.claimed_tier != scenario.customer.tier
    if persona is None:
        return trait is None and not unconfirmed
    return trait == persona


def scenarios_of(persona: str | None, per_task: int, start: int = 0) -> Iterator[Scenario]:
    """The first ``per_task`` seeded scenarios from ``start`` of each task playing ``persona``
    (tasks whose character never plays it give none)."""
    for task in POLICY_TASKS:
        found = 0
        for seed in itertools.islice(itertools.count(start), 2_000):
            scenario = build_scenario(task, seed)
            if plays(scenario, persona):
                yield scenario
                found += 1
                if found == per_task:
                    break
