"""The impact of a rule change: every case of the scenario set decided under the old and
the new rules, the decisions that change counted per task and per policy, and a few of them
explained before and after.

Which policies apply, and so the best resolution, depends only on the fact fields some
condition tests; amounts also read the fields their grant names (a price). So each case is
decided on its tested fields alone (identifiers and the rest set aside) and the amount of
its best resolution is worked out on its own facts: the ~12,000 cases of the default set
come down to under a thousand distinct decisions per rule set. The cases shown are decided
again on all their facts, for their explanation.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from pathlib import Path

from pydantic import BaseModel, ConfigDict, SerializerFunctionWrapHandler, model_serializer

from novamart.analyst.amounts import grant_pays
from novamart.analyst.drawn_plans import drawn_cases
from novamart.analyst.plan_impact import PlanImpact, plan_impact
from novamart.analyst.rule_changes import changed_articles, rule_changes
from novamart.analyst.scenario_set import DEFAULT_SEEDS, ScenarioCase, scenario_set
from novamart.kernel import CompiledRulebook, Decision, Facts, Rulebook
from novamart.kernel.decide import grant_amount
from novamart.kernel.trace import ConditionTrace, explain

DEFAULT_SHOWN = 3


class _Frozen(BaseModel):
    model_config = ConfigDict(frozen=True)


class Outcome(_Frozen):
    resolution: str | None
    amount: float | None
    policy: str | None
    pays: bool = True
    """Whether the resolution carries an amount (an exchange or an escalation does not)."""


class ConditionChange(_Frozen):
    policy: str
    condition: str
    before: str
    after: str


class ChangedCase(_Frozen):
    """One case that the new rules decide differently, explained before and after."""

    task: str
    seed: int
    variant: str | None
    before: Outcome
    after: Outcome
    verdicts: dict[str, tuple[str, str]]
    """Policy -> (verdict before, verdict after), for the policies whose verdict changed."""
    conditions: list[ConditionChange]


class TaskImpact(_Frozen):
    task: str
    cases: int
    changed_optimum: int
    changed_amount: int
    generated: int
    generated_changed: int
    """Of the cases as generated (no boundary variant), how many changed optimum or amount."""


class PolicyImpact(_Frozen):
    policy: str
    verdicts_changed: int
    transitions: dict[str, int]
    """'blocked -> eligible': how many cases."""
    optimum_gained: int
    """Cases whose optimum the policy grants after the change and not before."""
    optimum_lost: int
    per_task: dict[str, int]
    """Verdict changes per task."""


class DiffReport(_Frozen):
    old_version: str
    new_version: str
    rule_changes: list[str]
    articles_changed: list[str]
    cases: int
    distinct_fact_sets: int
    changed_optimum: int
    changed_amount: int
    changed_verdicts: int
    tasks: list[TaskImpact]
    policies: list[PolicyImpact]
    shown: list[ChangedCase]
    plans: PlanImpact | None = None
    """For rules whose examples make calls: the plans that change (analyst.plan_impact)."""

    @model_serializer(mode="wrap")
    def _plans_only_when_measured(self, handler: SerializerFunctionWrapHandler) -> dict:
        """Rules whose examples make no calls report as they did before plans were measured."""
        data = handler(self)
        if self.plans is None:
            data.pop("plans", None)
        return data

    @property
    def changed(self) -> bool:
        """Whether anything a case or a customer sees is different."""
        decided = bool(self.changed_optimum or self.changed_amount or self.changed_verdicts)
        planned = self.plans is not None and bool(self.plans.changed)
        return decided or planned or bool(self.articles_changed)


@dataclass
class _Evaluated:
    case: ScenarioCase
    before: Decision
    after: Decision
    """Decided on the case's tested fields: verdicts and best resolution, not amounts."""
    before_amount: float | None
    after_amount: float | None

    @property
    def optimum_changed(self) -> bool:
        return _resolution(self.before) != _resolution(self.after)

    @property
    def amount_changed(self) -> bool:
        return not self.optimum_changed and self.before_amount != self.after_amount

    @property
    def verdicts(self) -> dict[str, tuple[str, str]]:
        names = [
            *self.before.policies,
            *(p for p in self.after.policies if p not in self.before.policies),
        ]
        return {
            name: (_status(self.before, name), _status(self.after, name))
            for name in names
            if _status(self.before, name) != _status(self.after, name)
        }


def diff_rules(
    old: CompiledRulebook,
    new: CompiledRulebook,
    tasks: list[str] | None = None,
    seeds: int = DEFAULT_SEEDS,
    shown: int = DEFAULT_SHOWN,
    world_dir: Path | None = None,
) -> DiffReport:
    """Decide the scenario set under both rule sets and report what changes; ``world_dir``:
    the new rules' folder, whose world (if it holds one) plans are also drawn from."""
    cases = scenario_set([old.rulebook, new.rulebook], tasks, seeds)
    drawn = (
        drawn_cases(world_dir, [old.rulebook, new.rulebook], seeds)
        if world_dir is not None
        else ([], "")
    )
    tested = {
        f"{kind}.{field}"
        for rules in (old.rulebook, new.rulebook)
        for kind, fields in rules.tested_fields().items()
        for field in fields
    }
    same = old.rulebook.version == new.rulebook.version  # the same files: decide once
    memo: dict[Facts, tuple[Decision, Decision]] = {}
    evaluated = []
    for case in cases:
        key = _project(case.facts, tested, old.rulebook, new.rulebook)
        if key not in memo:
            before = old.decide(key)
            memo[key] = (before, before if same else new.decide(key))
        before, after = memo[key]
        amounts = (
            _amount(before, old.rulebook, case.facts),
            _amount(after, new.rulebook, case.facts),
        )
        evaluated.append(_Evaluated(case, before, after, *amounts))
    changed = [e for e in evaluated if e.optimum_changed or e.amount_changed or e.verdicts]
    return DiffReport(
        old_version=old.rulebook.version,
        new_version=new.rulebook.version,
        rule_changes=rule_changes(old.rulebook, new.rulebook),
        articles_changed=changed_articles(old.rulebook, new.rulebook),
        cases=len(evaluated),
        distinct_fact_sets=len(memo),
        changed_optimum=sum(e.optimum_changed for e in evaluated),
        changed_amount=sum(e.amount_changed for e in evaluated),
        changed_verdicts=sum(bool(e.verdicts) for e in evaluated),
        tasks=_task_impacts(evaluated),
        policies=_policy_impacts(changed, old.rulebook, new.rulebook),
        shown=[_explain(e, old, new) for e in _pick(changed, shown)],
        plans=plans if (plans := plan_impact(old, new, drawn)).cases or plans.note else None,
    )


def _project(facts: Facts, relevant: set[str], *rulebooks: Rulebook) -> Facts:
    """``facts`` with only what the verdicts can depend on: tested fields keep their values,
    identifiers become one placeholder, other fields are dropped (kinds stay present; a kind
    that a rulebook does not declare is left out, as no policy of it can read it)."""
    kinds = {}
    for kind, record in facts.present().items():
        if not all(kind in r.facts.kinds for r in rulebooks):
            continue
        ids = {
            spec.kinds[kind].id_field for spec in (r.facts for r in rulebooks) if kind in spec.kinds
        }
        kinds[kind] = {
            field: value if f"{kind}.{field}" in relevant else "case"
            for field, value in record.items()
            if f"{kind}.{field}" in relevant or field in ids
        }
    return Facts(**kinds)


def _resolution(decision: Decision) -> str | None:
    return decision.optimal.resolution if decision.optimal else None


def _amount(decision: Decision, rulebook: Rulebook, facts: Facts) -> float | None:
    """The amount of the best resolution on the case's own facts."""
    best = decision.optimal
    if best is None:
        return None
    grant = next(
        g for g in rulebook.policies[best.policy].grants if g.resolution == best.resolution
    )
    return grant_amount(grant.amount, facts)


def _status(decision: Decision, policy: str) -> str:
    verdict = decision.policies.get(policy)
    return "absent" if verdict is None else verdict.status


def _outcome(decision: Decision, rulebook: Rulebook | None = None) -> Outcome:
    best = decision.optimal
    if best is None:
        return Outcome(resolution=None, amount=None, policy=None)
    pays = rulebook is None or grant_pays(rulebook, best.policy, best.resolution)
    amount = best.amount if pays else None
    return Outcome(resolution=best.resolution, amount=amount, policy=best.policy, pays=pays)


def _task_impacts(evaluated: list[_Evaluated]) -> list[TaskImpact]:
    tasks = list(dict.fromkeys(e.case.task for e in evaluated))
    impacts = []
    for task in tasks:
        mine = [e for e in evaluated if e.case.task == task]
        generated = [e for e in mine if e.case.variant is None]
        impacts.append(
            TaskImpact(
                task=task,
                cases=len(mine),
                changed_optimum=sum(e.optimum_changed for e in mine),
                changed_amount=sum(e.amount_changed for e in mine),
                generated=len(generated),
                generated_changed=sum(e.optimum_changed or e.amount_changed for e in generated),
            )
        )
    return impacts


def _policy_impacts(changed: list[_Evaluated], old: Rulebook, new: Rulebook) -> list[PolicyImpact]:
    names = [*old.policies, *(p for p in new.policies if p not in old.policies)]
    impacts = []
    for name in names:
        transitions: Counter[str] = Counter()
        per_task: Counter[str] = Counter()
        gained = lost = 0
        for e in changed:
            if name in e.verdicts:
                before, after = e.verdicts[name]
                transitions[f"{before} -> {after}"] += 1
                per_task[e.case.task] += 1
            if e.optimum_changed or e.amount_changed:
                was, now = _outcome(e.before).policy, _outcome(e.after).policy
                gained += now == name and was != name
                lost += was == name and now != name
        if transitions or gained or lost:
            impacts.append(
                PolicyImpact(
                    policy=name,
                    verdicts_changed=sum(transitions.values()),
                    transitions=dict(transitions),
                    optimum_gained=gained,
                    optimum_lost=lost,
                    per_task=dict(per_task),
                )
            )
    return impacts


def _pick(changed: list[_Evaluated], count: int) -> list[_Evaluated]:
    """A few changed cases, as varied as can be: those whose optimum changed first, then
    those whose amount did, then verdict changes alone; one per task and change of optimum
    first, then other seeds; generated cases before boundary variants."""
    ordered = sorted(
        changed,
        key=lambda e: (not e.optimum_changed, not e.amount_changed, e.case.variant is not None),
    )
    picked: list[_Evaluated] = []
    for facet in (
        lambda e: (e.case.task, _resolution(e.before), _resolution(e.after)),
        lambda e: (e.case.task, e.case.seed),
        id,
    ):
        seen = {facet(e) for e in picked}
        for e in ordered:
            if len(picked) < count and facet(e) not in seen and e not in picked:
                seen.add(facet(e))
                picked.append(e)
    return picked


def _explain(e: _Evaluated, old: CompiledRulebook, new: CompiledRulebook) -> ChangedCase:
    """The case decided again on all its facts, its changed conditions traced both ways."""
    facts = e.case.facts
    before, after = old.decide(facts), new.decide(facts)
    traced_before = explain(old.rulebook, facts, before, {})
    traced_after = explain(new.rulebook, facts, after, {})
    changes = []
    for name in e.verdicts:
        was = (
            {c.name: c for c in traced_before.policies[name].conditions}
            if name in traced_before.policies
            else {}
        )
        now = (
            {c.name: c for c in traced_after.policies[name].conditions}
            if name in traced_after.policies
            else {}
        )
        for cond in dict.fromkeys([*was, *now]):
            a, b = was.get(cond), now.get(cond)
            if a is None or b is None or (a.status, a.test) != (b.status, b.test):
                changes.append(
                    ConditionChange(policy=name, condition=cond, before=_said(a), after=_said(b))
                )
    return ChangedCase(
        task=e.case.task,
        seed=e.case.seed,
        variant=e.case.variant,
        before=_outcome(before, old.rulebook),
        after=_outcome(after, new.rulebook),
        verdicts=e.verdicts,
        conditions=changes,
    )


def _said(c: ConditionTrace | None) -> str:
    if c is None:
        return "(no such condition)"
    observed = "" if c.fact is None else f", observed {c.observed}"
    return f"{c.status}: {c.test}{observed}"
