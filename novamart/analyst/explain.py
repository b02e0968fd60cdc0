"""Explain a case or a set of facts: the decision, every condition traced, and "why not".

This is the ``explain --json`` contract, shared by the CLI and ``POST /policy/explain``:
the kernel's traced Explanation plus, for a generated case, which case it is. For the
customer's requests (``explain --requests``), the best plan explained per request, with the
state and events each was decided on, each member's verdict, the events its call requires
and what it changed (novamart.analyst.plan_detail); an example's steps (``explain --example``)
are explained the same way, in the order written.
"""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, ConfigDict

from novamart.analyst.cases import build_case, sources
from novamart.analyst.plan_detail import (
    Alternative,
    CallOutcome,
    Change,
    MemberCheck,
    alternatives,
    changes,
    member_checks,
    required_events,
)
from novamart.kernel import Facts, FactSchema
from novamart.kernel.declared import EVENT_KIND, Request, Step
from novamart.kernel.effects import REQUEST_KIND
from novamart.kernel.examples import Decider
from novamart.kernel.items import decide_each
from novamart.kernel.plans import best_plan
from novamart.kernel.requests import Outcome, decide_plan
from novamart.kernel.rulebook import Example
from novamart.kernel.trace import Explanation, explain


class CaseInfo(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")
    task: str
    seed: int | None
    opening: str
    """What the customer wrote (an order case's opening, a ticket's text)."""


class CaseExplanation(Explanation):
    case: CaseInfo | None = None


def explain_facts(
    rules: Decider, facts: Facts, resolution: str | None = None, case: CaseInfo | None = None
) -> CaseExplanation:
    """The traced decision on ``facts``; an unknown ``resolution`` is a ValueError."""
    rulebook = rules.rulebook
    traced = explain(rulebook, facts, rules.decide(facts), sources(rulebook), resolution)
    return CaseExplanation(**dict(traced), case=case)


def explain_case(
    rules: Decider, task: str, seed: int | None, resolution: str | None = None
) -> CaseExplanation:
    """The traced decision on every fact of a generated case (its ground truth)."""
    case = build_case(task, seed)
    info = CaseInfo(task=task, seed=seed, opening=case.opening)
    return explain_facts(rules, case.facts, resolution, info)


def explain_each(
    rules: Decider, facts: Facts, kind: str, resolution: str | None = None
) -> dict[str, CaseExplanation]:
    """The traced decision of each member of collection ``kind`` (by its id), each in focus
    in turn; a ValueError when ``kind`` is not a collection or ``resolution`` unknown."""
    checked = rules.rulebook.facts.check(facts)
    ids = [i.item for i in decide_each(rules, checked, kind).items]
    return {
        item: explain_facts(rules, checked.focus(kind, i), resolution) for i, item in enumerate(ids)
    }


class RequestExplanation(CallOutcome):
    """One request as the best plan decides it: the call, its outcome, the state and
    events it was decided on, and the traced decision (why or why not its resolution)."""

    request: int
    """1-based, in the customer's order."""
    step: int
    """1-based, in the plan's order."""
    events: dict[str, Any]
    requires: dict[str, bool]
    """The events the call's resolution requires, and whether each had happened."""
    state: dict[str, Any]
    members: list[MemberCheck]
    """Each member's verdict under the quantified conditions of the policies concerned."""
    changed: list[Change]
    """What carrying the call out changed (empty when it was not carried out)."""
    alternatives: list[Alternative]
    """The request's other calls on the same state (a best plan's requests only)."""
    explanation: CaseExplanation


class PlanExplanation(BaseModel):
    """The best plan for the customer's requests (or an example's steps in the order
    written), step by step, and the world after it."""

    model_config = ConfigDict(frozen=True, extra="forbid")
    how: str = "best plan"
    """'best plan' (requests searched) or 'in order' (steps decided as written)."""
    steps: list[RequestExplanation]
    after: dict[str, Any]
    rules_version: str


def explain_requests(
    rules: Decider, facts: Facts, requests: list[Request], before_each: list[str]
) -> PlanExplanation:
    """The plan optimum for ``requests`` explained per request; an ArgumentError (a
    ValueError) when a request fits none of its calls."""
    best = best_plan(rules, facts, requests, before_each)
    return _explained(rules, best.order, best.plan.outcomes, best.plan.state, "best plan", requests)


def explain_steps(rules: Decider, facts: Facts, steps: list[Step]) -> PlanExplanation:
    """Calls and events decided in the order written, each call explained; a ValueError
    (an ArgumentError, an EffectError) when a call does not fit the case."""
    plan = decide_plan(rules, facts, steps)
    order = list(range(len(plan.outcomes)))
    return _explained(rules, order, plan.outcomes, plan.state, "in order")


def find_example(rules: Decider, name: str) -> Example:
    """The example called ``name``, or the only one whose name holds it; a ValueError
    naming the candidates otherwise."""
    examples = rules.rulebook.examples
    exact = [e for e in examples if e.name == name]
    found = exact or [e for e in examples if name.lower() in e.name.lower()]
    if len(found) == 1:
        return found[0]
    if not found:
        raise ValueError(f"no example is called {name!r} ({len(examples)} examples)")
    names = "; ".join(e.name for e in found[:5])
    raise ValueError(f"{len(found)} examples match {name!r}: {names}")


def explain_example(rules: Decider, example: Example) -> PlanExplanation:
    """An example of the rulebook explained: its requests' best plan, else its steps (a
    single ``request:`` is one step); a ValueError for an example that makes no call."""
    if example.requests:
        return explain_requests(
            rules, example.facts, list(example.requests), list(example.before_each)
        )
    if not example.steps:
        raise ValueError(f"example {example.name!r} makes no call: explain it with --facts")
    return explain_steps(rules, example.facts, list(example.steps))


def _explained(
    rules: Decider,
    order: list[int],
    outcomes: list[Outcome],
    after: Facts,
    how: str,
    requests: list[Request] | None = None,
) -> PlanExplanation:
    rulebook = rules.rulebook
    steps = []
    for step, (request, outcome) in enumerate(zip(order, outcomes, strict=True)):
        call = outcome.call
        traced = explain_facts(rules, outcome.facts, call.resolution)
        events = outcome.facts.record(EVENT_KIND)
        steps.append(
            RequestExplanation.of(
                outcome,
                request=request + 1,
                step=step + 1,
                events=dict(events or {}),
                requires=required_events(rulebook, outcome),
                state=world(outcome.facts, rulebook.facts),
                members=member_checks(rulebook, outcome),
                changed=changes(rules, outcome, world),
                alternatives=alternatives(rules, requests[request], outcome) if requests else [],
                explanation=traced,
            )
        )
    return PlanExplanation(
        how=how, steps=steps, after=world(after, rulebook.facts), rules_version=rulebook.version
    )


def world(facts: Facts, schema: FactSchema) -> dict[str, Any]:
    """What a plan changes and decides on: each fact's fields by kind, a collection's by
    member id; the request and the events are shown apart."""
    shown: dict[str, Any] = {}
    for kind, spec in schema.kinds.items():
        if kind in (REQUEST_KIND, EVENT_KIND):
            continue
        members = facts.collection(kind)
        if members is not None:
            shown[kind] = {str(m[spec.id_field]): dict(m) for m in members}
        elif (record := facts.record(kind)) is not None:
            shown[kind] = dict(record)
    return shown
