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
import weakref
from collections.abc import Callable, Iterable, Sequence
from typing import Any, Literal, Protocol

from pydantic import BaseModel, ConfigDict

from novamart.kernel import effects, events
from novamart.kernel.decide import grant_amount
from novamart.kernel.decision import Decision, Grant
from novamart.kernel.declared import GRANTED, ArgumentError, ArgumentSpec, Call, Declaration, Step
from novamart.kernel.effects import REQUEST_KIND, SELECTED, EffectError
from novamart.kernel.examples import Decider
from novamart.kernel.facts import MAX_TEXT, FactRecord, Facts
from novamart.kernel.money import same_amount
from novamart.kernel.outcomes import holds
from novamart.kernel.recent import RecentlyUsed
from novamart.kernel.rulebook import Example, Policy, Rulebook

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
    declared, raw, chosen = _request(rulebook, facts, call, number)
    selects = None if declared.selects is None else (declared.selects, SELECTED, chosen)
    return rulebook.facts.updated(facts, raw, selects)


def _request(
    rulebook: Rulebook, facts: Facts, call: Call, number: int, selection: bool = True
) -> tuple[Declaration, dict[str, Any], list[str]]:
    """The call's declaration, its request as a kind to put in (none for a call without
    arguments) and the ids it selects, each argument checked against ``facts``; without
    ``selection``, the ids of the kind the call selects are checked for their shape alone
    (a list of distinct ids), not against the members ``facts`` hold."""
    declared = rulebook.declared.get(call.resolution)
    if declared is None:
        raise ArgumentError(f"unknown resolution {call.resolution!r}")
    request: dict[str, Any] = {"request_id": f"R{number}", "resolution": call.resolution}
    chosen: list[str] = []
    for name, spec in declared.arguments.items():
        value = call.arguments.get(name, spec.default)
        if value is None:
            raise ArgumentError(f"{call.resolution} needs the argument {name}")
        unread = not selection and spec.type == "ids" and spec.of == declared.selects
        ids = value if unread and isinstance(value, list) else _ids_of(spec.of, facts, rulebook)
        checked = _argument(name, spec, value, ids)
        if spec.type == "ids":
            chosen = checked
        else:
            request[name] = checked
    return declared, {REQUEST_KIND: request} if declared.arguments else {}, chosen


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


SETTLED_KEPT = 1_024
_settled: RecentlyUsed[tuple, tuple[weakref.ref, tuple[Outcome, Facts]]] = RecentlyUsed(
    SETTLED_KEPT
)
"""``settle_call``'s results by decider (its id, and a weak reference to tell it from a later
one at that address: a forgotten version's engine is still freed), state and call: a task's
draw settles the calls the oracle and the agents then write on equal states (their effects
were most of a write's cost)."""


def settle_call(
    rules: Granting, state: Facts, call: Call, number: int = 1
) -> tuple[Outcome, Facts]:
    """``decide_call``, its outcome's decision holding the verdicts of the policies that can
    grant the call only (``CompiledRulebook.decide_about``): the same status, grant, reasons
    and missing tools, for a caller that keeps those and not the decision. Kept for the last
    calls settled on checked facts (the outcome is immutable and a function of these alone).
    """
    if not state.checked_by(rules.rulebook.facts):  # equal facts may differ in type
        return _settle_call(rules, state, call, number)
    try:
        key = (id(rules), state, call.resolution, _frozen(call.arguments), number)
        hash(key)
        made = weakref.ref(rules)
    except TypeError:  # an argument no tool's call carries (a mapping), or no weak reference
        return _settle_call(rules, state, call, number)
    held = _settled.get(key, lambda: (made, _settle_call(rules, state, call, number)))
    return held[1] if held[0]() is rules else _settle_call(rules, state, call, number)


def _frozen(arguments: dict[str, Any]) -> tuple[tuple[Any, ...], ...]:
    """A call's arguments as a key: a list as a tuple, each value with its type (a call
    naming 1 is not one naming 1.0 or True: its arguments are checked strictly)."""
    return tuple(
        (name, tuple(value), tuple(map(type, value)))
        if isinstance(value, list)
        else (name, value, type(value))
        for name, value in sorted(arguments.items())
    )


def _settle_call(rules: Granting, state: Facts, call: Call, number: int) -> tuple[Outcome, Facts]:
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

    def granters(self, resolution: str) -> tuple[Policy, ...]: ...

    def ranked(self, facts: Facts) -> tuple[str, ...]: ...


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


def best_answer(rules: Granting, state: Facts, call: Call, number: int = 1) -> str | None:
    """The resolution ``settle_call(rules, state, call)`` carries the call out with or
    declines it with, else its decision's best grant, told from the grants alone (their
    ranking, no verdicts or reasons); None when no policy grants anything (then the outcome
    has no grant, and is refused or undetermined: ``settle_call`` tells which)."""
    ranked = rules.ranked(request_facts(rules.rulebook, state, call, number))
    if call.resolution in ranked:
        return call.resolution
    declared = rules.rulebook.declared
    return next((r for r in ranked if declared[r].declines), ranked[0] if ranked else None)


EVERY_STATUS: frozenset[Status | None] = frozenset({*TOLD_BY_GRANTS, None})
"""What ``granted_status`` may tell of a call when nothing is proven."""


class CallProof:
    """What a call's case proves of its decision before the case is whole: a case read
    without its items (the members it holds, the call's selection not applied), with the
    call's request in place. A proof, never a guess: the kernel's tests read what is not
    known as unknown (Kleene's three values), so a test that holds or fails on part of a case
    does so on all of it; a member the call selects, an overriding policy, a fallback or a
    per-member policy proves nothing. For a caller that tries many calls and keeps one (a
    task's draw): an exchange of a pending order is declined, whatever its items.

    ``case``: checked facts; an ArgumentError when an argument does not fit them (the ids the
    call selects are checked for their shape alone)."""

    def __init__(
        self, rules: Granting, case: Facts, call: Call, number: int = 1, asked: bool = True
    ) -> None:
        rulebook = rules.rulebook
        if asked:
            declared, raw, _ = _request(rulebook, case, call, number, selection=False)
            record = raw.get(REQUEST_KIND)
        elif (declared := rulebook.declared.get(call.resolution)) is None:
            raise ArgumentError(f"unknown resolution {call.resolution!r}")
        else:
            record = None
        self.unread = frozenset({declared.selects, *(() if asked else (REQUEST_KIND,))})
        """The kinds read as unknown: the collection the call selects, and unasked, the
        request."""
        self.request = (
            None if record is None else rulebook.facts.checked_record(REQUEST_KIND, record)
        )
        self.rules, self.rulebook, self.call = rules, rulebook, call
        self.case = case.unfocused()  # as request_facts decides it: no member in focus
        self._told: dict[str, bool | None] = {}

    @classmethod
    def unasked(cls, rules: Granting, case: Facts, resolution: str) -> CallProof:
        """What ``case`` proves of every call of ``resolution``, whatever its arguments: the
        request read as unknown, with the collection it selects. Weaker than a call's proof,
        never contrary to it (more known turns an unknown test into a pass or a failure, never
        one into the other), so what it rules out a call's proof rules out too: for a caller
        that skips drawing the arguments of a call that cannot be granted."""
        return cls(rules, case, Call(resolution=resolution, arguments={}), asked=False)

    @classmethod
    def of_resolution(cls, rules: Granting, resolution: str) -> CallProof:
        """What a call of ``resolution`` proves on a case of which nothing else is known (its
        request's resolution alone): a policy it rules out grants on no such call, whatever
        the case and the arguments (a rule-load check of which writes a request may get in
        its place)."""
        proof = cls(rules, Facts(), Call(resolution=resolution, arguments={}), asked=False)
        proof.request = FactRecord({"resolution": resolution})
        return proof

    def statuses(self) -> frozenset[Status | None]:
        """What ``granted_status`` can tell of the call on the whole case: one status when
        that is proven, else the few left."""
        policies = self.rulebook.policies.values()
        if any(p.overrides and self.grants(p) is not False for p in policies):
            return EVERY_STATUS  # it may set the others aside
        carried = self.some_grant((self.call.resolution,))
        if carried:
            return frozenset({"carried out"})
        declared = self.rulebook.declared
        declines = self.some_grant(r for r in declared if declared[r].declines)
        told: set[Status | None] = {"carried out"} if carried is None else set()
        if declines is not False:
            told.add("declined")
        if declines is not True:
            told.add(None)
        return frozenset(told)

    def may_grant(self, resolution: str) -> bool:
        """False when it is proven that no policy grants ``resolution``: then it is never
        what the call is decided as, carried out or its best answer."""
        return self.some_grant((resolution,)) is not False

    def some_grant(self, resolutions: Iterable[str]) -> bool | None:
        """Whether some policy granting one of ``resolutions`` grants (None: not proven)."""
        unknown = False
        for policy in (p for r in resolutions for p in self.rules.granters(r)):
            told = self.grants(policy)  # once per policy, however many it grants
            if told:
                return True
            unknown |= told is None
        return None if unknown else False

    def grants(self, policy: Policy) -> bool | None:
        """Whether ``policy`` grants (None: the facts not read decide)."""
        if policy.name not in self._told:
            self._told[policy.name] = self._grants(policy)
        return self._told[policy.name]

    def _grants(self, policy: Policy) -> bool | None:
        if policy.for_each is not None or policy.is_fallback:
            return None
        decisive = policy.any_condition  # any: a pass decides; all: a failure does
        unknown = False
        for condition in policy.conditions:
            told = holds(condition.test, self)
            if told is decisive:
                return decisive
            unknown |= told is None
        return None if unknown else not decisive

    # what the kernel's tests read (novamart.kernel.expressions.Env)

    def value(self, kind: str, field: str) -> Any:
        if kind == REQUEST_KIND and self.request is not None:
            return self.request.get(field)
        return None if kind in self.unread else self.case.value(kind, field)

    def collection(self, kind: str) -> tuple[FactRecord, ...] | None:
        return None if kind in self.unread else self.case.collection(kind)

    def in_focus(self) -> tuple[str, ...]:
        return self.case.in_focus()


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
