"""Compile a Rulebook into a durable_rules ruleset (pure JSON data).

The engine derives, for every condition, a ``condition`` fact with status pass or fail
(a condition with neither is unknown: its fact was never revealed); for every policy
whose conditions all pass, a ``grant`` fact. Negation only runs in later phases, after
every ordinary fact has been asserted, because durable_rules does not retract an
activation of ``none`` when a matching fact arrives later (hazard 3):

- phase ``conclude``: a policy that neither passed nor failed is ``open`` (undetermined);
- phase ``fallback``: the fallback policy's test passes when nothing is granted or open.

Each rule's ``run`` names the fact its consequence asserts (``assert:{json}``), so the
ruleset stays plain data and the host binds names to tiny closures.

A condition the engine cannot test on the fact itself (an expression, or a kind tested more
often than its alpha stack holds: novamart.kernel.limits) has no rules here: the kernel
evaluates it, and asserts the outcomes of a policy's such conditions as one ``outcome`` fact
(``outcome_fact``: a field per condition, pass or fail, absent while unknown) beside the
facts. The grant and open rules join it with the condition facts: one fact per policy rather
than one per condition, as the engine's cost grows with the facts it is given.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable
from typing import Any

from novamart.kernel.conditions import FallbackTest, FieldTest
from novamart.kernel.limits import in_engine, python_kinds
from novamart.kernel.rulebook import Condition, Policy, Rulebook

PHASES = ("conclude", "fallback")
CLOSE_PHASE = "close"
DERIVED_KINDS = ("condition", "grant", "open", "phase")
OUTCOME_KIND = "outcome"
ASSERT_PREFIX = "assert:"
SINK_ACTION = "sink"


def ruleset_name(rulebook: Rulebook) -> str:
    """Content-addressed, so a new version registers beside the old one (hazard 8)."""
    return f"novamart_policies_{rulebook.version}"


def compile_rulebook(
    rulebook: Rulebook, guard: Callable[[FieldTest], list[dict[str, Any]]] | None = None
) -> dict[str, dict[str, Any]]:
    """The ruleset; ``guard`` writes each field test's pattern (by default the test itself,
    guarded by its field's existence)."""
    guard = guard or _guard
    rules: dict[str, dict[str, Any]] = {}
    fallback = next((p for p in rulebook.policies.values() if p.is_fallback), None)
    tests = engine_tests(rulebook)
    for i, field_test in enumerate(tests):
        for status, test in (("pass", field_test), ("fail", field_test.negated())):
            rules[f"test:{i}:{status}"] = {
                "all": [{"m": {"$and": [{"kind": test.kind}, *guard(test)]}}],
                "run": _assert(test_fact(i, status)),
            }
    number = {test: i for i, test in enumerate(tests)}
    for policy in rulebook.policies.values():
        engine = {
            c.name: number[c.test]
            for c in engine_conditions(rulebook, policy)
            if isinstance(c.test, FieldTest)
        }
        kernel = {c.name for c in policy.conditions} - {
            c.name for c in engine_conditions(rulebook, policy)
        }
        kernel -= {c.name for c in policy.conditions if isinstance(c.test, FallbackTest)}
        rules |= _grant_rules(policy, kernel, engine)
        if not policy.is_fallback:
            rules |= _open_rules(policy, kernel, engine)
    if fallback is not None:
        cond = next(c for c in fallback.conditions if isinstance(c.test, FallbackTest))
        rules[f"{fallback.name}.{cond.name}:pass"] = {
            "all": [
                {"q": _phase_pattern("fallback")},
                {"g$not": {"kind": "grant"}},
                {"o$not": {"kind": "open"}},
            ],
            "run": _assert(condition_fact(fallback.name, cond.name, "pass")),
        }
    # durable_rules sets up a session's action context only when an action runs, and
    # delete_state frees that context regardless: every session must run one action
    # before it is deleted, or the delete crashes the process. The close phase is it.
    rules["close"] = {"all": [{"m": _phase_pattern(CLOSE_PHASE)}], "run": SINK_ACTION}
    # Every fact kind needs a rule that stores it, or the engine drops it (hazard 4).
    # A join with a kind that never exists stores the fact and never fires.
    outcomes = (OUTCOME_KIND,) if kernel_conditions(rulebook) else ()
    for kind in (*rulebook.facts.kinds, *DERIVED_KINDS, *outcomes):
        rules[f"store:{kind}"] = {
            "all": [{"m": {"kind": kind}}, {"never": {"kind": "__never__"}}],
            "run": SINK_ACTION,
        }
    return rules


def engine_tests(rulebook: Rulebook) -> dict[FieldTest, list[tuple[str, str]]]:
    """Each distinct field test the engine makes, in the order first written, and the
    (policy, condition) pairs that read it: a test many policies write (``order.status ==
    delivered``) is tested, and its outcome asserted, once a run."""
    tests: dict[FieldTest, list[tuple[str, str]]] = {}
    for policy in rulebook.policies.values():
        for cond in engine_conditions(rulebook, policy):
            if isinstance(cond.test, FieldTest):
                tests.setdefault(cond.test, []).append((policy.name, cond.name))
    return tests


def engine_conditions(rulebook: Rulebook, policy: Policy) -> list[Condition]:
    """The conditions of ``policy`` that the engine tests on the facts themselves."""
    python = python_kinds(rulebook.policies)
    return [c for c in policy.conditions if in_engine(c, python)]


def kernel_conditions(rulebook: Rulebook) -> list[tuple[str, Condition]]:
    """(policy, condition) for every condition the kernel evaluates and asserts the outcome
    of: expressions, and the plain tests of kinds too wide for the engine."""
    python = python_kinds(rulebook.policies)
    return [
        (p.name, c)
        for p in rulebook.policies.values()
        for c in p.conditions
        if not in_engine(c, python) and not isinstance(c.test, FallbackTest)
    ]


def engine_fields(rulebook: Rulebook) -> dict[str, tuple[str, ...]]:
    """Kind -> the fields the engine's own tests read (what a run is given of each fact)."""
    fields: dict[str, dict[str, None]] = {}
    for policy in rulebook.policies.values():
        for cond in engine_conditions(rulebook, policy):
            if isinstance(cond.test, FieldTest):
                fields.setdefault(cond.test.kind, {})[cond.test.field] = None
    return {kind: tuple(f) for kind, f in fields.items()}


def ruleset_shape(rulebook: Rulebook) -> str:
    """A digest of the ruleset with its field tests left out. Only a condition's own rules
    read a fact's fields; every other rule reads the condition facts they derive. So two
    rulebooks of one shape (a policy variant and its rules, an edit that moves a threshold)
    derive the same facts from the same test outcomes, and may share their engine runs (the
    conditions each shared test stands for are part of the shape)."""
    blank = compile_rulebook(rulebook, guard=lambda test: [])
    readers = list(engine_tests(rulebook).values())  # whose statuses a test fact tells
    return hashlib.sha256(json.dumps([blank, readers]).encode()).hexdigest()


def condition_fact(policy: str, condition: str, status: str) -> dict[str, str]:
    return {
        "kind": "condition",
        "policy": policy,
        "name": condition,
        "status": status,
        "id": f"condition:{policy}.{condition}",
    }


def test_fact(number: int, status: str) -> dict[str, str]:
    """The outcome of engine test ``number`` (engine_tests), shared by the policies reading it."""
    return {"kind": "condition", "test": f"t{number}", "status": status, "id": f"test:{number}"}


def _grant_rules(
    policy: Policy, kernel: set[str], engine: dict[str, int]
) -> dict[str, dict[str, Any]]:
    """'all': one rule joining every pass (the kernel's in one outcome fact). 'any': one rule
    per condition, each asserting its own grant fact (a second assert of one fact would be an
    error). ``engine``: the engine test each of the policy's field tests is."""
    if not policy.any_condition:
        passes = {
            repr(pattern): pattern
            for cond in policy.conditions
            if cond.name not in kernel
            for pattern in [_pass_pattern(policy.name, cond.name, engine)]
        }
        patterns = [{f"c{i}": pattern} for i, pattern in enumerate(passes.values())]
        if kernel:
            evaluated = [c.name for c in policy.conditions if c.name in kernel]
            patterns.append({"k": _outcome_pattern(policy.name, {n: "pass" for n in evaluated})})
        return {f"{policy.name}:grant": {"all": patterns, "run": _assert(_grant(policy.name))}}
    return {
        f"{policy.name}:grant:{cond.name}": {
            "all": [
                {
                    "c": _outcome_pattern(policy.name, {cond.name: "pass"})
                    if cond.name in kernel
                    else _pass_pattern(policy.name, cond.name, engine)
                }
            ],
            "run": _assert(_grant(policy.name, cond.name)),
        }
        for cond in policy.conditions
    }


def _pass_pattern(policy: str, condition: str, engine: dict[str, int]) -> dict[str, Any]:
    """A pattern matching once the condition passed: its engine test's, or its own fact."""
    if condition in engine:
        return _test_pattern(engine[condition], "pass")
    return _condition_pattern(policy, condition, "pass")


def _test_pattern(number: int, status: str | None = None) -> dict[str, Any]:
    told = [{"status": status}] if status is not None else []
    return {"$and": [{"kind": "condition"}, {"test": f"t{number}"}, *told]}


def _open_rules(
    policy: Policy, kernel: set[str], engine: dict[str, int]
) -> dict[str, dict[str, Any]]:
    """Undetermined: not granted and not decided against. For 'all' that is no failed
    condition; for 'any' it is some condition still unknown."""
    not_granted = {"g$not": {"$and": [{"kind": "grant"}, {"policy": policy.name}]}}
    if not policy.any_condition:
        tests = [{"test": f"t{n}"} for n in sorted(set(engine.values()))]
        no_fail = {"f$not": {"$and": [{"kind": "condition"}, {"status": "fail"}, {"$or": tests}]}}
        fails = [{_outcome_field(n): "fail"} for n in sorted(kernel)]
        no_kernel_fail = {
            "x$not": {"$and": [{"kind": OUTCOME_KIND}, {"policy": policy.name}, {"$or": fails}]}
        }
        return {
            f"{policy.name}:open": {
                "all": [
                    {"q": _phase_pattern("conclude")},
                    *([no_fail] if tests else []),
                    *([no_kernel_fail] if kernel else []),
                    not_granted,
                ],
                "run": _assert(_open(policy.name)),
            }
        }
    return {
        f"{policy.name}:open:{cond.name}": {
            "all": [
                {"q": _phase_pattern("conclude")},
                {"u$not": _told_pattern(policy.name, cond.name, cond.name in kernel, engine)},
                not_granted,
            ],
            "run": _assert(_open(policy.name, cond.name)),
        }
        for cond in policy.conditions
    }


def _told_pattern(
    policy: str, condition: str, by_kernel: bool, engine: dict[str, int]
) -> dict[str, Any]:
    """A pattern matching once the condition's status (either) is known."""
    if by_kernel:
        told = {"$ex": {_outcome_field(condition): 1}}
        return {"$and": [{"kind": OUTCOME_KIND}, {"policy": policy}, told]}
    if condition in engine:
        return _test_pattern(engine[condition])
    return {"$and": [{"kind": "condition"}, {"policy": policy}, {"name": condition}]}


def outcome_fact(policy: str, statuses: dict[str, str]) -> dict[str, str]:
    """The outcomes of a policy's kernel-evaluated conditions, as one engine fact."""
    fields = {_outcome_field(name): status for name, status in statuses.items()}
    return {**fields, "kind": OUTCOME_KIND, "policy": policy, "id": f"{OUTCOME_KIND}:{policy}"}


def _outcome_field(condition: str) -> str:
    return f"c_{condition}"  # never kind, policy or id, whatever the condition is called


def _outcome_pattern(policy: str, statuses: dict[str, str]) -> dict[str, Any]:
    tests = [{_outcome_field(n): s} for n, s in statuses.items()]
    return {"$and": [{"kind": OUTCOME_KIND}, {"policy": policy}, *tests]}


def _grant(policy: str, condition: str | None = None) -> dict[str, str]:
    suffix = f":{condition}" if condition else ""
    return {"kind": "grant", "policy": policy, "id": f"grant:{policy}{suffix}"}


def _open(policy: str, condition: str | None = None) -> dict[str, str]:
    suffix = f":{condition}" if condition else ""
    return {"kind": "open", "policy": policy, "id": f"open:{policy}{suffix}"}


def derived_fact_ids(rulebook: Rulebook) -> list[str]:
    """Every id a session of this rulebook can hold (checked for hash collisions)."""
    ids = [*rulebook.facts.kinds, *(f"phase:{p}" for p in (*PHASES, CLOSE_PHASE))]
    ids += list(dict.fromkeys(f"{OUTCOME_KIND}:{p}" for p, _ in kernel_conditions(rulebook)))
    ids += [test_fact(i, "pass")["id"] for i in range(len(engine_tests(rulebook)))]
    for p in rulebook.policies.values():
        ids += [f"condition:{p.name}.{c.name}" for c in p.conditions]
        per = [c.name for c in p.conditions] if p.any_condition else [None]
        ids += [_grant(p.name, c)["id"] for c in per] + [_open(p.name, c)["id"] for c in per]
    return ids


def _guard(test: FieldTest) -> list[dict[str, Any]]:
    """The test, guarded by 'the field exists' so a missing field stays unknown."""
    return [{"$ex": {test.field: 1}}, _expression(test)]


def _expression(test: FieldTest) -> dict[str, Any]:
    f, v = test.field, test.value
    if test.op == "in":
        return {"$or": [{f: item} for item in v]}
    if test.op == "not in":
        return {"$and": [{"$neq": {f: item}} for item in v]}
    op = {"==": None, "!=": "$neq", "<": "$lt", "<=": "$lte", ">": "$gt", ">=": "$gte"}[test.op]
    return {f: v} if op is None else {op: {f: v}}


def _condition_pattern(policy: str, condition: str, status: str) -> dict[str, Any]:
    return {
        "$and": [{"kind": "condition"}, {"policy": policy}, {"name": condition}, {"status": status}]
    }


def _phase_pattern(phase: str) -> dict[str, Any]:
    return {"$and": [{"kind": "phase"}, {"name": phase}]}


def _assert(fact: dict[str, str]) -> str:
    return ASSERT_PREFIX + json.dumps(fact, sort_keys=True)
