"""Plans a rule change moves: the calls and requests of every example of the old and the new
rules, on the example's facts and on cases generated from them, decided under both.

A rule set of declared resolutions (the retail world) is measured on plans, not single
decisions: which calls are carried out, in which order, with what amounts. Each example's
``steps:`` are decided in the order written and its ``requests:`` searched for the best plan;
the generated cases move one fact at a time: every declared status of a single fact (an
order pending, delivered, cancelled...) and every amount of money one cent either side and
at zero (a gift card that just covers a difference, or not).
"""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict, ValidationError

from novamart.kernel import CompiledRulebook, Facts, Rulebook
from novamart.kernel.declared import ArgumentError
from novamart.kernel.effects import EffectError
from novamart.kernel.plans import best_plan
from novamart.kernel.requests import decide_plan
from novamart.kernel.rulebook import Example

CENT = 0.01


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
        for variant, facts in [(None, example.facts), *variants(example.facts, new.rulebook)]:
            cases += 1
            before, _ = _decided(old, example, facts)
            after, reasons = _decided(new, example, facts)
            if before != after:
                changed.append(
                    PlanChange(
                        example=example.name,
                        file=example.file,
                        line=example.line,
                        variant=variant,
                        how="best plan" if example.requests else "in order",
                        before=before,
                        after=after,
                        reasons=reasons,
                    )
                )
    return PlanImpact(cases=cases, changed=changed)


def variants(facts: Facts, rulebook: Rulebook) -> list[tuple[str, Facts]]:
    """``facts`` moved one single fact's field at a time: each other declared value of a
    choice field, and each amount of money one cent either side and at zero."""
    moved = []
    for kind, record in facts.present().items():
        spec = rulebook.facts.kinds.get(kind)
        if spec is None or spec.many:
            continue
        for name, field in spec.fields.items():
            value = record.get(name)
            if value is None:
                continue
            if field.values is not None:
                options = [v for v in field.values if v != value]
            elif field.type == "money":
                options = [round(value - CENT, 2), round(value + CENT, 2), 0.0]
                options = [v for v in dict.fromkeys(options) if v >= 0 and v != value]
            else:
                continue
            for option in options:
                try:
                    changed = rulebook.facts.check(facts.with_kind(kind, {**record, name: option}))
                except ValidationError:
                    continue  # a value the field's range refuses
                moved.append((f"{kind}.{name} = {option}", changed))
    return moved


def _decided(rules: CompiledRulebook, example: Example, facts: Facts) -> tuple[str, list[str]]:
    """The plan as one line (each call's outcome and amount, the best plan's order), and why
    the calls not carried out were not."""
    try:
        if example.requests:
            best = best_plan(rules, facts, example.requests, example.before_each)
            outcomes, order = best.per_request(), [i + 1 for i in best.order]
        else:
            plan = decide_plan(rules, facts, example.steps)
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
