"""Plans drawn from the world a rulebook declares, for ``rules diff``: the requests of the
world's task families (novamart.scenarios.retail_requests), each on its order of 1-5 items
drawn from facts.yaml and world/world.yaml, with the events its call requires arriving in
order, or one of them absent.

The examples show what an analyst thought of; drawn cases show what the environment's agents
will meet (orders of five items, gift cards that nearly cover a difference, final-sale items
where the draw put them). Only a rules folder holding a world (world/world.yaml) draws any.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from novamart.kernel import Facts, Rulebook
from novamart.kernel import events as conversation
from novamart.kernel.declared import EVENT_KIND, Step
from novamart.scenarios.plan import ScenarioError
from novamart.scenarios.retail_requests import build_task, case_facts
from novamart.scenarios.retail_world import WORLD_FILE, RetailRules, world_spec

DRAWN_SEEDS = 10
"""Seeds per family at most (each seed's task holds 1-4 requests; more is seconds of CPU)."""


@dataclass(frozen=True)
class DrawnCase:
    label: str
    """Which family, seed and request it is, on which order."""
    variant: str | None
    """None with every required event in order; else which one is absent or late."""
    facts: Facts
    steps: tuple[Step, ...]


def drawn_cases(
    rules_dir: Path, rulebooks: list[Rulebook], seeds: int
) -> tuple[list[DrawnCase], str]:
    """The drawn cases of ``rules_dir``'s world (the last rulebook's), and why none could be
    drawn ('' when they were, or when the folder holds no world). The events in order are
    those any of ``rulebooks`` requires, so each rule set meets the case it waits for."""
    if not (rules_dir / WORLD_FILE).is_file():
        return [], ""
    try:
        rules = RetailRules(rules_dir.resolve())
        families = list(world_spec(rules)["requests"]["families"])
        tasks = [
            build_task(family, seed, rules)
            for family in families
            for seed in range(min(seeds, DRAWN_SEEDS))
        ]
    except (ScenarioError, ValueError, KeyError) as e:
        return [], f"no plans drawn from {rules_dir / WORLD_FILE}: {e}"
    cases = []
    schema = rulebooks[-1].facts
    for task in tasks:
        for number, settled in enumerate(task.settled, 1):
            request = settled.request
            raw = case_facts(task.world, request)
            raw.pop(EVENT_KIND)
            facts = conversation.begun(schema, schema.validate(raw))
            items = len(facts.collection("item") or ())
            label = (
                f"drawn {task.family} seed {task.seed} request {number}: "
                f"{request.call.resolution} of order {request.order_id} ({items} items)"
            )
            required = tuple(
                dict.fromkeys(
                    event
                    for rulebook in rulebooks
                    if (declared := rulebook.declared.get(request.call.resolution))
                    for event in declared.requires
                )
            )
            for variant, steps in event_orders(required, request.call):
                cases.append(DrawnCase(label, variant, facts, steps))
    return cases, ""


def event_orders(
    required: tuple[str, ...], call: Step
) -> list[tuple[str | None, tuple[Step, ...]]]:
    """The required events in order before the call, then each of them absent (one arriving
    after a single call decides it as absent does: examples move events between calls)."""
    orders: list[tuple[str | None, tuple[Step, ...]]] = [(None, (*required, call))]
    for event in required:
        rest = tuple(e for e in required if e != event)
        orders.append((f"without event {event}", (*rest, call)))
    return orders
