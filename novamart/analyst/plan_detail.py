"""What ``explain`` adds to each call of a plan: the verdict on each member a quantified
condition speaks of (item I1 may come back, item I3 was sold as final), the events the call
requires and whether they had happened, what carrying it out changed in the world, and the
request's other calls.

A decision says a quantified condition failed and names the members that failed it; an
analyst asking "why this item and not that one?" needs every member's verdict, passing ones
too, "what did this step do?" needs the state before and after it side by side, and "why
an exchange and not a return?" needs the request's other calls decided on the same state.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Literal, Self

from pydantic import BaseModel, ConfigDict

from novamart.kernel import Facts, FactSchema, Rulebook
from novamart.kernel import expressions as ex
from novamart.kernel.conditions import ExprTest
from novamart.kernel.declared import EVENT_KIND, ArgumentError, Request
from novamart.kernel.effects import SELECTED, EffectError
from novamart.kernel.examples import Decider
from novamart.kernel.requests import Outcome, decide_call

MemberStatus = Literal["pass", "fail", "unknown"]


class _Frozen(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")


class MemberCheck(_Frozen):
    """One member of a collection under one quantified condition of one policy."""

    kind: str
    member: str
    policy: str
    condition: str
    quantifier: Literal["all", "any"]
    """all: every member spoken of must hold the test; any: one holding it is enough."""
    test: str
    """The quantifier's body, as written."""
    status: MemberStatus
    """Whether this member holds the test (pass), does not (fail), or cannot be told yet."""
    reason: str | None
    """What failed, for a failing member."""


class Change(_Frozen):
    """One field a carried-out call changed: ``order #W1 status: delivered -> cancelled``."""

    fact: str
    field: str
    before: Any
    after: Any

    def __str__(self) -> str:
        return f"{self.fact} {self.field}: {_shown(self.before)} -> {_shown(self.after)}"


class CallOutcome(_Frozen):
    """What became of one call: carried out, declined (with the declining resolution),
    refused or undetermined, its amount, and why it was not carried out."""

    resolution: str
    arguments: dict[str, Any]
    status: str
    granted: str | None
    """The resolution carried out, or declined with (None when refused or undetermined)."""
    amount: float | None
    reasons: list[str]

    @classmethod
    def of(cls, outcome: Outcome, **more: Any) -> Self:
        return cls(
            resolution=outcome.call.resolution,
            arguments=outcome.call.arguments,
            status=outcome.status,
            granted=outcome.grant.resolution if outcome.grant else None,
            amount=outcome.grant.amount if outcome.grant else None,
            reasons=outcome.reasons,
            **more,
        )


class Alternative(CallOutcome):
    """Another call the request could have become, decided on the same state: why the plan
    did not take it (refused, or worth less)."""


def alternatives(rules: Decider, request: Request, outcome: Outcome) -> list[Alternative]:
    """Every other call of ``request`` (another resolution of its family, another choice),
    decided on the state ``outcome`` was decided on; a call that does not fit the case is
    left out."""
    found = []
    for call in request.calls(rules.rulebook.declared):
        if call == outcome.call:
            continue
        try:
            other, _ = decide_call(rules, outcome.facts, call)
        except (ArgumentError, EffectError):
            continue
        found.append(Alternative.of(other))
    return found


def _shown(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    return "(none)" if value is None else str(value)


def member_checks(rulebook: Rulebook, outcome: Outcome) -> list[MemberCheck]:
    """Each member's verdict under every all/any condition of the policies that could grant
    the call's resolution or granted the outcome (a decline), on the facts it was decided on."""
    wanted = {outcome.call.resolution, *([outcome.grant.resolution] if outcome.grant else [])}
    checks = []
    for policy in rulebook.policies.values():
        if not wanted & {g.resolution for g in policy.grants}:
            continue
        for cond in policy.conditions:
            if not isinstance(cond.test, ExprTest):
                continue
            for node in ex.walk(cond.test.expr):
                if isinstance(node, ex.Quantified) and node.op in ("all", "any"):
                    checks += _members(outcome.facts, policy.name, cond.name, node)
    return checks


def _members(facts: Facts, policy: str, condition: str, node: ex.Quantified) -> list[MemberCheck]:
    assert node.body is not None
    checks = []
    for member in facts.collection(node.kind) or ():
        bound = ex.Bound(facts, node.kind, member)
        if node.where is not None and ex.holds(node.where, bound) is not True:
            continue  # a member the condition does not speak of
        held = ex.holds(node.body, bound)
        status: MemberStatus = "unknown" if held is None else "pass" if held else "fail"
        checks.append(
            MemberCheck(
                kind=node.kind,
                member=str(member.get(node.key)),
                policy=policy,
                condition=condition,
                quantifier="all" if node.op == "all" else "any",
                test=str(node.body),
                status=status,
                reason=ex.failure(node.body, bound) if status == "fail" else None,
            )
        )
    return checks


def required_events(rulebook: Rulebook, outcome: Outcome) -> dict[str, bool]:
    """The events the call's resolution requires, and whether each had happened."""
    declared = rulebook.declared.get(outcome.call.resolution)
    record = outcome.facts.record(EVENT_KIND) or {}
    return {e: record.get(e) is True for e in (declared.requires if declared else ())}


World = Callable[[Facts, FactSchema], dict[str, Any]]
"""Facts projected by kind and member (novamart.analyst.explain.world)."""


def changes(rules: Decider, outcome: Outcome, world: World) -> list[Change]:
    """What carrying the call out changed (nothing for a call not carried out): every field
    of the world and of the events, before and after it."""
    if outcome.status != "carried out":
        return []
    _, after = decide_call(rules, outcome.facts, outcome.call)
    schema = rules.rulebook.facts
    old, new = world(outcome.facts, schema), world(after, schema)
    old[EVENT_KIND] = dict(outcome.facts.record(EVENT_KIND) or {})
    new[EVENT_KIND] = dict(after.record(EVENT_KIND) or {})
    found = []
    for kind, value in new.items():
        before = old.get(kind, {})
        collection = schema.kinds[kind].many
        members = value.items() if collection else [(None, value)]
        for ident, fields in members:
            was = before.get(ident, {}) if collection else before
            label = f"{kind} {ident}" if collection else _label(kind, fields, schema)
            found += [
                Change(fact=label, field=name, before=was.get(name), after=now)
                for name, now in fields.items()
                if was.get(name) != now and name != SELECTED  # the call's naming, no effect
            ]
    return found


def _label(kind: str, fields: dict[str, Any], schema: FactSchema) -> str:
    ident = fields.get(schema.kinds[kind].id_field)
    return f"{kind} {ident}" if ident is not None else kind
