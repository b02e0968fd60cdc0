"""Calls and plans: a customer's requests decided in order, with effects between them.

A call asks for one declared resolution with arguments. Its arguments are checked against the
declaration (``ArgumentError``: an id that is not the case's, an unknown choice, a missing
argument), become the ``request`` fact, and mark the members they name ``selected``; the
kernel decides on the facts with the request, and a granted call's effects (and its ``then:``
follow-ups) give the state the next request is decided on. A call not granted changes nothing:
it is *declined* when the policies grant a declining resolution instead (a correct refusal),
else refused with the kernel's reasons, or undetermined with the tools that would tell.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from typing import Any, Literal, Protocol

from pydantic import BaseModel, ConfigDict

from novamart.kernel import effects, events
from novamart.kernel.conditions import FieldTest
from novamart.kernel.decide import grant_amount
from novamart.kernel.decision import Decision, Grant
from novamart.kernel.declared import GRANTED, ArgumentError, ArgumentSpec, Call, Step
from novamart.kernel.effects import REQUEST_KIND, SELECTED, EffectError
from novamart.kernel.examples import Decider
from novamart.kernel.facts import MAX_TEXT, Facts
from novamart.kernel.money import same_amount
from novamart.kernel.rulebook import Example, Rulebook

Status = Literal["carried out", "declined", "refused", "undetermined"]


class Outcome(BaseModel):
    """What became of one call, and why."""

    model_config = ConfigDict(frozen=True, arbitrary_types_allowed=True)
    call: Call
    status: Status
    grant: Grant | None
    """Carried out: its grant; declined: the declining resolution's grant."""
    reasons: list[str]
    missing_tools: list[str]
    decision: Decision
    facts: Facts
    """What it was decided on: the state with the request."""


class Plan(BaseModel):
    """Every call's outcome, in order, and the world after them."""

    model_config = ConfigDict(frozen=True, arbitrary_types_allowed=True)
    outcomes: list[Outcome]
    state: Facts

    def labels(self) -> list[str]:
        """Per call: the resolution carried out or declined with, else refused/undetermined."""
        return [o.grant.resolution if o.grant else o.status for o in self.outcomes]


def request_facts(rulebook: Rulebook, facts: Facts, call: Call, number: int = 1) -> Facts:
    """``facts`` with ``call`` as the request (the request before it replaced) and the members
    it names selected; an ArgumentError when an argument does not fit."""
    declared = rulebook.declared.get(call.resolution)
    if declared is None:
        raise ArgumentError(f"unknown resolution {call.resolution!r}")
    raw: dict[str, Any] = {}
    request: dict[str, Any] = {"request_id": f"R{number}", "resolution": call.resolution}
    chosen: list[str] = []
    for name, spec in declared.arguments.items():
        value = call.arguments.get(name, spec.default)
        if value is None:
            raise ArgumentError(f"{call.resolution} needs the argument {name}")
        checked = _argument(name, spec, value, _ids_of(spec.of, facts, rulebook))
        if spec.type == "ids":
            chosen = checked
        else:
            request[name] = checked
    if declared.arguments:
        raw[REQUEST_KIND] = request
    selects = None if declared.selects is None else (declared.selects, SELECTED, chosen)
    return rulebook.facts.updated(facts, raw, selects)


def _argument(name: str, spec: ArgumentSpec, value: Any, ids: list[str]) -> Any:
    """The argument's value once checked (an id must be one of the case's ``ids``)."""
    if spec.type in ("id", "ids"):
        given = value if spec.type == "ids" else [value]
        if not isinstance(given, list) or not given:
            raise ArgumentError(f"{name} names at least one {spec.of}")
        for one in given:
            if not isinstance(one, str) or one not in ids:
                raise ArgumentError(
                    f"{name}: {one!r} is not a {spec.of} of this case "
                    f"({', '.join(ids) or f'no {spec.of} known yet'})"
                )
        if len(set(given)) != len(given):
            raise ArgumentError(f"{name} names a {spec.of} twice")
        return list(given) if spec.type == "ids" else value
    if spec.type == "money":
        if (
            isinstance(value, bool)
            or not isinstance(value, int | float)
            or not math.isfinite(value)
        ):
            raise ArgumentError(f"{name} is an amount of money, not {value!r}")
        if value < 0:
            raise ArgumentError(f"{name} cannot be negative")
        return float(value)
    if not isinstance(value, str):
        raise ArgumentError(f"{name} is text, not {value!r}")
    if spec.type == "choice" and value not in (spec.values or ()):
        raise ArgumentError(f"{name} is one of {', '.join(spec.values or ())}, not {value!r}")
    if len(value) > MAX_TEXT:
        raise ArgumentError(f"{name} holds at most {MAX_TEXT} characters")
    return value


def _ids_of(kind: str | None, facts: Facts, rulebook: Rulebook) -> list[str]:
    """The identifiers of the ``kind`` facts known (none for an argument naming no kind)."""
    if kind is None:
        return []
    key = rulebook.facts.kinds[kind].id_field
    members = facts.collection(kind)
    record = facts.record(kind)
    found = members if members is not None else (record,) if record is not None else ()
    return [str(m[key]) for m in found]


def decide_call(rules: Decider, state: Facts, call: Call, number: int = 1) -> tuple[Outcome, Facts]:
    """One call decided on ``state``: its outcome, and the state after it (changed only when
    it was carried out)."""
    facts = request_facts(rules.rulebook, state, call, number)
    return _outcome(rules.rulebook, state, facts, call, rules.decide(facts))


def settle_call(
    rules: Granting, state: Facts, call: Call, number: int = 1
) -> tuple[Outcome, Facts]:
    """``decide_call``, its outcome's decision holding the verdicts of the policies that can
    grant the call only (``CompiledRulebook.decide_about``): the same status, grant, reasons
    and missing tools, for a caller that keeps those and not the decision."""
    facts = request_facts(rules.rulebook, state, call, number)
    return _outcome(rules.rulebook, state, facts, call, rules.decide_about(facts, call.resolution))


def _outcome(
    rulebook: Rulebook, state: Facts, facts: Facts, call: Call, decision: Decision
) -> tuple[Outcome, Facts]:
    """The call's outcome from its ``decision`` on ``facts`` (``state`` with the request)."""
    grant = decision.grant_for(call.resolution)
    if grant is not None:
        chain = _chain(rulebook, call.resolution)
        worth = _with_granted(rulebook, facts, chain, lambda: grant.amount)
        after = effects.apply(rulebook.facts, worth, chain)
        done = Outcome(
            call=call,
            status="carried out",
            grant=grant,
            reasons=[],
            missing_tools=[],
            decision=decision,
            facts=facts,
        )
        return done, after
    declining = next(
        (g for g in decision.eligible if rulebook.declared[g.resolution].declines), None
    )
    missing = decision.missing_tools(call.resolution)
    status: Status = "declined" if declining else "undetermined" if missing else "refused"
    outcome = Outcome(
        call=call,
        status=status,
        grant=declining,
        reasons=decision.blocking_reasons(call.resolution),
        missing_tools=missing,
        decision=decision,
        facts=facts,
    )
    return outcome, state


class Granting(Decider, Protocol):
    """A decider that also tells the resolutions granted alone (``CompiledRulebook.granted``)
    and explains one resolution's policies alone (``CompiledRulebook.decide_about``)."""

    def granted(self, facts: Facts) -> frozenset[str]: ...

    def decide_about(self, facts: Facts, resolution: str) -> Decision: ...


TOLD_BY_GRANTS: tuple[Status, ...] = ("carried out", "declined")
"""The statuses ``granted_status`` tells from the grants alone (None: one of the others)."""


def granted_status(rules: Granting, state: Facts, call: Call, number: int = 1) -> Status | None:
    """``decide_call(rules, state, call)``'s status when the grants alone tell it (carried
    out: the resolution is granted; declined: a declining one is), without the decision's
    verdicts and reasons; None when neither (refused or undetermined: ``decide_call`` tells
    which, and why). For a caller that tries many calls and keeps one."""
    resolutions = rules.granted(request_facts(rules.rulebook, state, call, number))
    if call.resolution in resolutions:
        return "carried out"
    declared = rules.rulebook.declared
    return "declined" if any(declared[r].declines for r in resolutions) else None


def cannot_grant(rulebook: Rulebook, case: Facts, resolution: str) -> bool:
    """Whether no policy can grant ``resolution`` on ``case`` (a request's case, before the
    request is put in), told from one-field conditions alone: every policy granting it has
    all its conditions to pass and one comparing a single fact's field with a literal that
    fails on the case (an exchange of a pending order: ``order.status == delivered``). A
    proof, never a guess: anything it cannot read (a request's field, a collection, an
    expression, a policy that applies on any condition) proves nothing. For a caller that
    tries many calls for a granted one, and can skip the ones proven not to be."""
    schema = rulebook.facts
    for policy in rulebook.policies.values():
        if all(g.resolution != resolution for g in policy.grants):
            continue
        if policy.any_condition:
            return False
        fails = (
            (value := case.value(t.kind, t.field)) is not None and not t.holds(value)
            for c in policy.conditions
            if isinstance(t := c.test, FieldTest)
            and t.kind != REQUEST_KIND
            and not schema.kinds[t.kind].many
        )
        if not any(fails):
            return False
    return True


def carried_out(rulebook: Rulebook, state: Facts, call: Call, number: int = 1) -> Facts:
    """The world after ``call`` is carried out on ``state`` whatever the policies say (a
    closed-book tool does as asked; a guided one once the gate granted it on what the agent
    knows); an ArgumentError or EffectError says what does not fit."""
    facts = request_facts(rulebook, state, call, number)
    chain = _chain(rulebook, call.resolution)
    worth = _with_granted(rulebook, facts, chain, lambda: rule_amount(rulebook, facts, call))
    return effects.apply(rulebook.facts, worth, chain)


def rule_amount(rulebook: Rulebook, facts: Facts, call: Call) -> float | None:
    """What a grant of ``call`` would be worth on ``facts`` (the amount of the first policy
    granting its resolution), whether or not the policies grant it; None when none does or
    it cannot be computed."""
    rule = next(
        (
            g.amount
            for p in rulebook.policies.values()
            for g in p.grants
            if g.resolution == call.resolution
        ),
        None,
    )
    return None if rule is None else grant_amount(rule, facts)


_Chain = list[tuple[str, tuple[effects.Effect, ...]]]
_GRANTED_REF = f"{REQUEST_KIND}.{GRANTED}"


def _with_granted(
    rulebook: Rulebook, facts: Facts, chain: _Chain, amount: Callable[[], float | None]
) -> Facts:
    """``facts`` with the request's ``granted`` amount, when an effect of ``chain`` reads it
    (only then: the other calls skip a validation)."""
    if not any(_GRANTED_REF in e.reads() for _, done in chain for e in done):
        return facts
    raw = facts.as_dict()
    raw[REQUEST_KIND] = {**raw[REQUEST_KIND], GRANTED: amount()}
    return rulebook.facts.validate(raw)


def _chain(rulebook: Rulebook, resolution: str) -> _Chain:
    """The resolution and its follow-ups, in order (acyclic: checked at load)."""
    chain = []
    name: str | None = resolution
    while name is not None:
        declared = rulebook.declared[name]
        chain.append((name, declared.effects))
        name = declared.then
    return chain


def decide_plan(rules: Decider, facts: Facts, steps: Sequence[Step]) -> Plan:
    """The calls of ``steps`` decided in order, each on the state the ones before left, with
    the events arriving where they stand among them."""
    schema = rules.rulebook.facts
    state = schema.check(facts)
    outcomes = []
    for step in steps:
        if isinstance(step, str):
            state = events.arrive(schema, state, step)
            continue
        outcome, state = decide_call(rules, state, step, len(outcomes) + 1)
        outcomes.append(outcome)
    return Plan(outcomes=outcomes, state=state)


def plan_mismatches(rules: Decider, example: Example) -> tuple[Facts, list[str], list[Outcome]]:
    """An example's steps decided, and what differs from its ``plan``, ``amounts``,
    ``because`` and ``after``; with the facts its other expectations speak of (the first
    call's, or the state after its events when it makes none) and each call's outcome."""
    try:
        plan = decide_plan(rules, example.facts, example.steps)
    except (ArgumentError, EffectError, ValueError) as e:
        return example.facts, [f"steps: {e}"], []
    facts = plan.outcomes[0].facts if plan.outcomes else plan.state
    expect = example.expect
    found: list[str] = []
    if "plan" in expect and plan.labels() != list(expect["plan"]):
        found.append(f"plan: expected {expect['plan']}, got {plan.labels()}")
    amounts = [o.grant.amount if o.grant else None for o in plan.outcomes]
    wanted = list(expect.get("amounts", amounts))
    if not same_amounts(wanted, amounts):
        found.append(f"amounts: expected {wanted}, got {amounts}")
    for i, (text, outcome) in enumerate(
        zip(expect.get("because", ()), plan.outcomes, strict=False)
    ):
        said = "; ".join(outcome.reasons)
        if text is not None and str(text) not in said:
            found.append(f"because: call {i + 1} expected {text!r}, got {said or 'no reason'!r}")
    found += state_mismatches(rules.rulebook, plan.state, expect.get("after", {}))
    return facts, found, plan.outcomes


def same_amounts(wanted: Sequence[float | None], got: Sequence[float | None]) -> bool:
    """The same amounts, call by call, to the cent (None: no amount)."""
    return len(wanted) == len(got) and all(map(_same, wanted, got))


def _same(a: float | None, b: float | None) -> bool:
    return (a is None and b is None) or (a is not None and b is not None and same_amount(a, b))


def state_mismatches(rulebook: Rulebook, state: Facts, after: dict[str, Any]) -> list[str]:
    """Where ``state`` differs from what ``after`` expects: ``{kind: {field: value}}``, or
    for a collection ``{kind: {<id>: {field: value}}}``."""
    found = []
    for kind, expected in after.items():
        spec = rulebook.facts.kinds.get(kind)
        if spec is None:
            found.append(f"after: unknown fact kind {kind!r}")
            continue
        if spec.many:
            members = {str(m[spec.id_field]): m for m in state.collection(kind) or ()}
            records = {f"{kind} {k}": (members.get(str(k)), v) for k, v in expected.items()}
        else:
            records = {kind: (state.record(kind), expected)}
        for name, (record, fields) in records.items():
            for field, value in fields.items():
                actual = None if record is None else record.get(field)
                if actual != value:
                    found.append(f"after: {name}.{field} expected {value!r}, got {actual!r}")
    return found
