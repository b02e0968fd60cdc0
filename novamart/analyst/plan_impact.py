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

from collections.abc import Sequence

from pydantic import BaseModel, ConfigDict

from novamart.analyst.drawn_plans import DrawnCase
from novamart.analyst.plan_cases import plan_cases
from novamart.kernel import CompiledRulebook, Facts
from novamart.kernel.declared import ArgumentError, Request, Step
from novamart.kernel.effects import EffectError
from novamart.kernel.plans import best_plan
from novamart.kernel.requests import decide_plan


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
    drawn: int = 0
    """Of the cases, those drawn from the rules folder's world (novamart.analyst.drawn_plans)."""
    note: str = ""
    """Why no plans could be drawn from a world the folder holds ('' otherwise)."""


def plan_impact(
    old: CompiledRulebook,
    new: CompiledRulebook,
    drawn: tuple[list[DrawnCase], str] = ([], ""),
) -> PlanImpact:
    """Every plan case decided under both rule sets, and the ones that differ; ``drawn``:
    the cases drawn from the new rules' world, and why none could be."""
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
            requests = example.requests
            before, _ = _decided(old, case.facts, case.steps, requests, case.before_each)
            after, reasons = _decided(new, case.facts, case.steps, requests, case.before_each)
            if before != after:
                changed.append(
                    PlanChange(
                        example=example.name,
                        file=example.file,
                        line=example.line,
                        variant=case.variant,
                        how="best plan" if requests else "in order",
                        before=before,
                        after=after,
                        reasons=reasons,
                    )
                )
    drawn_cases, note = drawn
    for case in drawn_cases:
        before, _ = _decided(old, case.facts, case.steps)
        after, reasons = _decided(new, case.facts, case.steps)
        if before != after:
            changed.append(
                PlanChange(
                    example=case.label,
                    file="",
                    line=None,
                    variant=case.variant,
                    how="in order",
                    before=before,
                    after=after,
                    reasons=reasons,
                )
            )
    total = cases + len(drawn_cases)
    return PlanImpact(cases=total, changed=changed, drawn=len(drawn_cases), note=note)


def _decided(
    rules: CompiledRulebook,
    facts: Facts,
    steps: Sequence[Step],
    requests: Sequence[Request] = (),
    before_each: Sequence[str] = (),
) -> tuple[str, list[str]]:
    """The plan as one line (each call's outcome and amount, the best plan's order), and why
    the calls not carried out were not: the requests' best plan, else the steps in order."""
    try:
        if requests:
            best = best_plan(rules, facts, requests, before_each)
            outcomes, order = best.per_request(), [i + 1 for i in best.order]
        else:
            plan = decide_plan(rules, facts, steps)
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
