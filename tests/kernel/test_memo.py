"""The engine-run memo: cases alike in every field test's outcome share one run of the engine
(also across a policy variant and its rules) and get the decision a cold run would give them;
a case on the other side of a threshold, or under rules of another shape, gets its own run."""

from __future__ import annotations

import shutil
from pathlib import Path

from novamart.kernel import CompiledRulebook, Facts, PolicyKernel, load_rulebook
from novamart.kernel.conditions import FieldTest
from novamart.kernel.decide import ENGINE_RUNS, default_kernel
from novamart.kernel.decision import Decision
from novamart.kernel.rulebook import DEFAULT_RULES_DIR, Rulebook
from novamart.scenarios import build_scenario

DAYS = ("order", "days_since_purchase")


def windows(rulebook: Rulebook) -> list[int]:
    """Every threshold on the order's age that a condition tests (rules/), smallest first."""
    return sorted(
        int(c.test.value)
        for p in rulebook.policies.values()
        for c in p.conditions
        if isinstance(c.test, FieldTest) and (c.test.kind, c.test.field) == DAYS
    )


def aged(facts: Facts, days: int) -> Facts:
    order = facts.record("order")
    assert order is not None
    return facts.with_kind("order", {**order, DAYS[1]: days})


def case(rules: CompiledRulebook) -> Facts:
    return build_scenario("open_case", None, rules.rulebook).facts()


def cold(rules: CompiledRulebook, facts: Facts) -> Decision:
    """What a cold engine run decides: the memo emptied, the rulebook compiled anew."""
    ENGINE_RUNS.clear()
    return CompiledRulebook(rules.rulebook).decide(facts)


def runs_for(rules: CompiledRulebook, *cases: Facts) -> tuple[int, list[Decision]]:
    """Engine runs made deciding ``cases`` in turn, from an empty memo."""
    ENGINE_RUNS.clear()
    before = ENGINE_RUNS.misses
    decided = [rules.decide(facts) for facts in cases]
    return ENGINE_RUNS.misses - before, decided


def runs_for_after(rules: CompiledRulebook, facts: Facts) -> tuple[int, Decision]:
    """Engine runs made deciding ``facts`` on a memo left as it is."""
    before = ENGINE_RUNS.misses
    decided = rules.decide(facts)
    return ENGINE_RUNS.misses - before, decided


def test_cases_alike_in_every_outcome_share_one_engine_run():
    rules = CompiledRulebook(default_kernel().rulebook)
    assert windows(rules.rulebook)[0] > 2
    first, second = aged(case(rules), 1), aged(case(rules), 2)
    runs, decided = runs_for(rules, first, second)
    assert runs == 1
    assert decided[1] == cold(rules, second)


def test_a_case_across_a_threshold_runs_the_engine_again():
    rules = CompiledRulebook(default_kernel().rulebook)
    window = windows(rules.rulebook)[0]
    inside, outside = aged(case(rules), window), aged(case(rules), window + 1)
    runs, decided = runs_for(rules, inside, outside)
    assert runs == 2
    assert decided[0] != decided[1]
    assert decided == [cold(rules, inside), cold(rules, outside)]


def test_a_variant_shares_the_runs_of_its_rules_and_decides_by_its_own_thresholds():
    kernel = PolicyKernel()
    base = kernel.snapshot()
    smallest = windows(base.rulebook)[0]
    variant = next(
        v for v in map(kernel.variant, range(100)) if windows(v.rulebook)[0] not in (smallest, 1, 2)
    )
    facts = aged(case(base), 2)  # inside every window of both
    ENGINE_RUNS.clear()
    base.decide(facts)
    runs, decided = runs_for_after(variant, facts)
    assert runs == 0
    assert decided == cold(variant, facts)
    # on a day between the two smallest windows, the variant and its rules disagree
    lo, hi = sorted((windows(base.rulebook)[0], windows(variant.rulebook)[0]))
    between = aged(case(base), hi)
    assert lo < hi
    assert variant.decide(between) == cold(variant, between)
    assert base.decide(between) == cold(base, between)
    assert variant.decide(between) != base.decide(between)


def test_rules_of_another_shape_do_not_share_runs(tmp_path: Path):
    edited = tmp_path / "rules"
    shutil.copytree(DEFAULT_RULES_DIR, edited, ignore=shutil.ignore_patterns("*.md"))
    path = edited / "standard_return.yaml"
    text = path.read_text()
    assert "item_unopened" in text
    path.write_text(text.replace("item_unopened", "box_unopened"))  # a condition renamed
    base = CompiledRulebook(default_kernel().rulebook)
    other = CompiledRulebook(load_rulebook(edited))
    facts = aged(case(base), 2)
    ENGINE_RUNS.clear()
    base.decide(facts)
    runs, decided = runs_for_after(other, facts)
    assert runs == 1
    assert "box_unopened" in {c.name for c in decided.policies["standard_return"].conditions}
