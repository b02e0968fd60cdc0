"""Plans a rule change moves: the calls and requests of every example of the old and the new
rules, on the example's facts and on cases generated from them, decided under both.

A rule set of declared resolutions (the retail world) is measured on plans, not single
decisions: which calls are carried out, in which order, with what amounts. Each example's
``steps:`` are decided in the order written and its ``requests:`` searched for the best plan;
the generated cases (novamart.analyst.plan_cases) move one thing at a time: a single fact's
status, flag or amount, a collection's size (1 to 5 members), the members a quantifier
speaks of (all, none, exactly n), and the events (absent, out of order).
"""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict

from novamart.analyst.plan_cases import PlanCase, plan_cases
from novamart.kernel import CompiledRulebook
from novamart.kernel.declared import ArgumentError
from novamart.kernel.effects import EffectError
from novamart.kernel.plans import best_plan
from novamart.kernel.requests import decide_plan
from novamart.kernel.rulebook import Example


class PlanChange(BaseModel):
    """One case whose plan the new rules decide differently."""

    model_config = ConfigDict(frozen=True)
    example: str
    file: str
    line: int | None
    variant: str | None
    """None for the example's own facts; else what was moved ('payment.balance = 4.99')."""
    how: str
    """'best plan' (its requests searched) or 'in order' (its steps as written)."""
    before: str
    after: str
    reasons: list[str]
    """Under the new rules, why each call not carried out was not."""


class PlanImpact(BaseModel):
    model_config = ConfigDict(frozen=True)
    cases: int
    changed: list[PlanChange]


def plan_impact(old: CompiledRulebook, new: CompiledRulebook) -> PlanImpact:
    """Every plan case decided under both rule sets, and the ones that differ."""
    examples = {e.name: e for e in old.rulebook.examples if e.steps or e.requests}
    examples |= {
        e.name: e
        for e in new.rulebook.examples
        if (e.steps or e.requests) and e.name not in examples
    }
    cases, changed = 0, []
    for example in examples.values():
        for case in plan_cases(example, [old.rulebook, new.rulebook]):
            cases += 1
            before, _ = _decided(old, example, case)
            after, reasons = _decided(new, example, case)
            if before != after:
                changed.append(
                    PlanChange(
                        example=example.name,
                        file=example.file,
                        line=example.line,
                        variant=case.variant,
                        how="best plan" if example.requests else "in order",
                        before=before,
                        after=after,
                        reasons=reasons,
                    )
                )
    return PlanImpact(cases=cases, changed=changed)


def _decided(rules: CompiledRulebook, example: Example, case: PlanCase) -> tuple[str, list[str]]:
    """The plan as one line (each call's outcome and amount, the best plan's order), and why
    the calls not carried out were not."""
    try:
        if example.requests:
            best = best_plan(rules, case.facts, example.requests, case.before_each)
            outcomes, order = best.per_request(), [i + 1 for i in best.order]
        else:
            plan = decide_plan(rules, case.facts, case.steps)
            outcomes, order = plan.outcomes, []
    except (ArgumentError, EffectError, ValueError) as e:
        return f"cannot be decided: {e}", []
    calls = [
        f"{o.grant.resolution if o.grant else o.status}"
        + (f" {o.grant.amount:g}" if o.grant and o.grant.amount is not None else "")
        for o in outcomes
    ]
    text = ", ".join(calls) + (f" (in the order {order})" if order else "")
    reasons = ["; ".join(o.reasons) for o in outcomes if o.status != "carried out" and o.reasons]
    return text, reasons
