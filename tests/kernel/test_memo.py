"""The engine-run memo: cases alike in every field test's outcome share one run of the engine,
and get the decision a cold run would give them; a case on the other side of a threshold gets
its own run."""

from __future__ import annotations

from novamart.kernel import CompiledRulebook, Facts
from novamart.kernel.conditions import FieldTest
from novamart.kernel.decide import default_kernel
from novamart.scenarios import build_scenario

DAYS = ("order", "days_since_purchase")


def smallest_window(rules: CompiledRulebook) -> int:
    """The tightest threshold on the order's age that any condition tests (rules/)."""
    return min(
        int(c.test.value)
        for p in rules.rulebook.policies.values()
        for c in p.conditions
        if isinstance(c.test, FieldTest) and (c.test.kind, c.test.field) == DAYS
    )


def aged(facts: Facts, days: int) -> Facts:
    order = facts.record("order")
    assert order is not None
    return facts.with_kind("order", {**order, DAYS[1]: days})


def fresh() -> CompiledRulebook:
    """The repository's rules compiled anew: an empty memo."""
    return CompiledRulebook(default_kernel().rulebook)


def test_cases_alike_in_every_outcome_share_one_engine_run():
    rules = fresh()
    window = smallest_window(rules)
    facts = build_scenario("open_case", None, rules.rulebook).facts()
    first, second = aged(facts, 1), aged(facts, 2)
    assert window > 2
    rules.decide(first)
    shared = rules.decide(second)
    assert rules._derive.cache_info().misses == 1
    assert shared == fresh().decide(second)  # what a cold engine run decides for it


def test_a_case_across_a_threshold_runs_the_engine_again():
    rules = fresh()
    window = smallest_window(rules)
    facts = build_scenario("open_case", None, rules.rulebook).facts()
    inside, outside = aged(facts, window), aged(facts, window + 1)
    decided = [rules.decide(inside), rules.decide(outside)]
    assert rules._derive.cache_info().misses == 2
    assert decided[0] != decided[1]
    assert decided == [fresh().decide(inside), fresh().decide(outside)]
