"""The needed-tools search skips only fact subsets that cannot certify the optimum (no policy
could grant it on them, or a policy would stay undetermined): its answer is the exhaustive
search's on every case, under the rules as written and their variants."""

from __future__ import annotations

import itertools

import pytest

from novamart.episode import _certifies, needed_tools
from novamart.kernel import CompiledRulebook, Decision, Facts, default_kernel
from novamart.scenarios import build_scenario
from novamart.scenarios.tasks import ORDER_TASKS


def exhaustive(rules: CompiledRulebook, facts: Facts, truth: Decision) -> tuple:
    """Every subset of every size, smallest first: what the search must equal."""
    schema = rules.rulebook.facts
    kinds = schema.investigated()
    present = facts.present()
    given = {k: v for k, v in present.items() if k not in kinds}
    for size in range(len(kinds) + 1):
        found = [
            frozenset(str(schema.source_tool(k)) for k in subset)
            for subset in itertools.combinations(kinds, size)
            if _certifies(
                rules, rules.decide(Facts(**given, **{k: present[k] for k in subset})), truth
            )
        ]
        if found:
            return tuple(found)
    return (frozenset(str(schema.source_tool(k)) for k in kinds),)


@pytest.mark.parametrize("variant", [None, 4])
@pytest.mark.parametrize("task", sorted(ORDER_TASKS))
def test_the_pruned_search_finds_what_the_exhaustive_one_does(
    task: str, variant: int | None
) -> None:
    kernel = default_kernel()
    rules = kernel.snapshot() if variant is None else kernel.variant(variant)
    for seed in range(120):
        facts = rules.rulebook.facts.check(build_scenario(task, seed, rules.rulebook).facts())
        truth = rules.decide(facts)
        assert needed_tools(rules, facts, truth) == exhaustive(rules, facts, truth), seed
