"""A decision traced condition by condition, like ``opa eval --explain``.

A Decision says what passed and failed; an analyst asking "why?" or "why not a refund?"
also needs each condition's test as written, the value it was compared with and where that
value came from (the tool that revealed it). This module adds exactly that to a decision,
without changing what the kernel decides or memoises.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from pydantic import BaseModel, ConfigDict

from novamart.kernel import expressions
from novamart.kernel.conditions import FALLBACK_TEST, ExprTest, FieldTest, ScopeTest
from novamart.kernel.decision import (
    ConditionResult,
    ConditionStatus,
    Decision,
    Grant,
    PolicyStatus,
    PolicyVerdict,
)
from novamart.kernel.facts import Facts
from novamart.kernel.rulebook import Condition, Policy, Rulebook

OVERRIDE_TEST = "no overriding policy applies"


class _Frozen(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")


class ConditionTrace(_Frozen):
    """One condition: its verdict (as in the Decision), its test, the observed value and
    its source (None while the fact is unknown)."""

    name: str
    status: ConditionStatus
    reason: str | None
    needs_tool: str | None
    test: str
    fact: str | None
    observed: Any
    source: str | None
    line: int | None


class PolicyTrace(_Frozen):
    status: PolicyStatus
    clause: str
    file: str
    grants: list[str]
    conditions: list[ConditionTrace]


class PolicyWhy(_Frozen):
    """A policy that could grant the resolution asked about, and what stands in the way."""

    policy: str
    status: PolicyStatus
    failed: list[ConditionTrace]
    unknown: list[ConditionTrace]


class WhyNot(_Frozen):
    """The answer to 'why (not) this resolution?'."""

    resolution: str
    allowed: bool
    optimal: bool
    grant: Grant | None
    summary: str
    policies: list[PolicyWhy]


class Explanation(_Frozen):
    """The ``explain --json`` contract: the Decision's fields (optimal, eligible, policies
    with status, clause and conditions), each condition traced, and optionally the answer
    to 'why not this resolution'."""

    rules_version: str
    facts: dict[str, Any]
    optimal: Grant | None
    eligible: list[Grant]
    policies: dict[str, PolicyTrace]
    why_not: WhyNot | None = None


def explain(
    rulebook: Rulebook,
    facts: Facts,
    decision: Decision,
    sources: Mapping[str, str],
    resolution: str | None = None,
) -> Explanation:
    """Trace ``decision`` (made on ``facts``); ``sources`` names, per fact kind, the tool
    that revealed it. With ``resolution``, also say why it is (not) the outcome; an unknown
    resolution is a ValueError naming the catalogue."""
    facts = rulebook.facts.check(facts)  # as the engine saw them, defaults filled in
    policies = {
        name: _policy_trace(rulebook.policies[name], verdict, facts, sources)
        for name, verdict in decision.policies.items()
    }
    why = None if resolution is None else why_not(rulebook, decision, policies, resolution)
    return Explanation(
        rules_version=rulebook.version,
        facts=facts.as_dict(),
        optimal=decision.optimal,
        eligible=decision.eligible,
        policies=policies,
        why_not=why,
    )


def _policy_trace(
    policy: Policy, verdict: PolicyVerdict, facts: Facts, sources: Mapping[str, str]
) -> PolicyTrace:
    written = {c.name: c for c in policy.conditions}
    return PolicyTrace(
        status=verdict.status,
        clause=verdict.clause,
        file=policy.file,
        grants=verdict.grants,
        conditions=[
            _condition_trace(r, written.get(r.name), facts, sources) for r in verdict.conditions
        ],
    )


def _condition_trace(
    result: ConditionResult,
    written: Condition | None,
    facts: Facts,
    sources: Mapping[str, str],
) -> ConditionTrace:
    common = result.model_dump()
    if written is None:  # the policy was set aside by an overriding one
        return ConditionTrace(
            **common, test=OVERRIDE_TEST, fact=None, observed=None, source=None, line=None
        )
    if isinstance(written.test, ExprTest):
        seen = _expression_reads(written.test, facts)
        known = [r.split(".")[0].removeprefix("count(").rstrip(")") for r in seen]
        return ConditionTrace(
            **common,
            test=written.text,
            fact=", ".join(seen),
            observed=seen,
            source=", ".join(dict.fromkeys(s for k in known if (s := sources.get(k)))) or None,
            line=written.line,
        )
    if isinstance(written.test, ScopeTest):
        return ConditionTrace(
            **common, test=written.text, fact=None, observed=None, source=None, line=written.line
        )
    if not isinstance(written.test, FieldTest):
        return ConditionTrace(
            **common, test=FALLBACK_TEST, fact=None, observed=None, source=None, line=written.line
        )
    test = written.test
    observed = facts.value(test.kind, test.field)
    return ConditionTrace(
        **common,
        test=written.text,
        fact=test.ref,
        observed=observed,
        source=sources.get(test.kind) if observed is not None else None,
        line=written.line,
    )


def _expression_reads(test: ExprTest, facts: Facts) -> dict[str, Any]:
    """What an expression read: each field outside a quantifier with its value, and for
    each collection it quantifies over, how many facts it holds (None while unknown)."""
    seen: dict[str, Any] = {}

    def visit(node: expressions.Expr) -> None:
        if isinstance(node, expressions.Quantified):
            members = facts.collection(node.kind)
            seen[f"count({node.kind})"] = None if members is None else len(members)
            return  # the fields inside speak of each member in turn
        if isinstance(node, expressions.Ref):
            seen[node.ref] = facts.value(node.kind, node.field)
        for child in expressions.children(node):
            visit(child)

    visit(test.expr)
    return seen


def why_not(
    rulebook: Rulebook,
    decision: Decision,
    policies: dict[str, PolicyTrace],
    resolution: str,
) -> WhyNot:
    if resolution not in rulebook.resolutions:
        raise ValueError(
            f"unknown resolution {resolution!r}; resolutions: {', '.join(rulebook.resolutions)}"
        )
    grant = decision.grant_for(resolution)
    granting = [
        PolicyWhy(
            policy=name,
            status=trace.status,
            failed=[c for c in trace.conditions if c.status == "fail"],
            unknown=[c for c in trace.conditions if c.status == "unknown"],
        )
        for name, trace in policies.items()
        if resolution in trace.grants
    ]
    optimal = grant is not None and decision.optimal == grant
    return WhyNot(
        resolution=resolution,
        allowed=grant is not None,
        optimal=optimal,
        grant=grant,
        summary=_summary(resolution, grant, decision.optimal, granting),
        policies=granting,
    )


def _summary(
    resolution: str, grant: Grant | None, best: Grant | None, granting: list[PolicyWhy]
) -> str:
    if grant is not None:
        allowed = f"{resolution} is allowed under {grant.policy} ({_amount(grant)})"
        if best == grant:
            return f"{allowed} and is the best resolution"
        assert best is not None
        return (
            f"{allowed}, but {best.resolution} under {best.policy} is better "
            f"(quality {best.quality:.2f} against {grant.quality:.2f})"
        )
    if not granting:
        return f"no policy grants {resolution}"
    parts = [f"{p.policy} is {p.status}: {_obstacles(p)}" for p in granting]
    return f"{resolution} is not allowed: " + "; ".join(parts)


def _obstacles(why: PolicyWhy) -> str:
    if why.failed:
        return ", ".join(_failure(c) for c in why.failed)
    if why.unknown:
        return ", ".join(
            f"{c.name} is not known yet" + (f" (ask {c.needs_tool})" if c.needs_tool else "")
            for c in why.unknown
        )
    return "no condition holds"


def _failure(c: ConditionTrace) -> str:
    if c.fact is None or isinstance(c.observed, dict):
        return f"{c.name} ({c.reason})"
    source = f" from {c.source}" if c.source else ""
    return f"{c.name} needs {c.test}, observed {_plain(c.observed)}{source}"


def _amount(grant: Grant) -> str:
    return "amount unknown" if grant.amount is None else f"amount {grant.amount:.2f}"


def _plain(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)
