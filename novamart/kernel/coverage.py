"""Which parts of the rules the examples exercise, like ``opa test --coverage``.

An example suite that never sees a condition fail, never grants a resolution, or never
tries the day on either side of a window would let a wrong edit pass unnoticed. Three kinds
of item are counted, each located at its line in the rule file:

- every condition, seen passing and seen failing (two items);
- every grant, seen offered (the resolution is among the eligible ones);
- every numeric threshold, tried at n-1, n and n+1 (one step: 1 for whole numbers,
  0.01 for amounts of money);
- every branch of an expression test (``and``, ``or``, ``if ... then``): each alternative of
  an ``or`` seen holding, each part of an ``and`` seen failing, an ``if`` seen both ways;
  a quantifier (``all``/``any item where ...: ...``) seen holding and failing, and per
  member: one its ``where`` leaves out, one it selects holding the body, one failing it.
"""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict

from novamart.kernel import expressions
from novamart.kernel.conditions import ExprTest, FieldTest, ScopeTest
from novamart.kernel.examples import ExampleResult
from novamart.kernel.facts import Facts, FactSchema
from novamart.kernel.rulebook import Policy, Rulebook

ItemKind = Literal["condition_pass", "condition_fail", "grant", "boundary", "branch"]
_NUMBER_OPS = ("<", "<=", ">", ">=", "==", "!=")


class CoverageItem(BaseModel):
    """One thing the examples should exercise, and the examples that do."""

    model_config = ConfigDict(frozen=True)
    policy: str
    kind: ItemKind
    target: str
    """The condition or resolution this item is about."""
    description: str
    file: str
    line: int | None
    covered_by: list[str]

    @property
    def covered(self) -> bool:
        return bool(self.covered_by)


class PolicyCoverage(BaseModel):
    model_config = ConfigDict(frozen=True)
    policy: str
    covered: int
    total: int


class CoverageReport(BaseModel):
    """Every item, per-policy totals, and the overall share covered (0-100)."""

    model_config = ConfigDict(frozen=True)
    percent: float
    covered: int
    total: int
    policies: list[PolicyCoverage]
    items: list[CoverageItem]

    def uncovered(self) -> list[CoverageItem]:
        return [i for i in self.items if not i.covered]


def coverage(rulebook: Rulebook, results: list[ExampleResult]) -> CoverageReport:
    """The coverage of ``rulebook`` by the examples whose results are given."""
    items = [
        item
        for p in rulebook.policies.values()
        for item in _policy_items(p, results, rulebook.facts)
    ]
    policies = [
        PolicyCoverage(
            policy=name,
            covered=sum(i.covered for i in items if i.policy == name),
            total=sum(i.policy == name for i in items),
        )
        for name in rulebook.policies
    ]
    covered = sum(i.covered for i in items)
    return CoverageReport(
        percent=round(100 * covered / len(items), 1) if items else 100.0,
        covered=covered,
        total=len(items),
        policies=policies,
        items=items,
    )


def _policy_items(
    policy: Policy, results: list[ExampleResult], schema: FactSchema
) -> list[CoverageItem]:
    def item(kind: ItemKind, target: str, description: str, line: int | None, by: list[str]):
        return CoverageItem(
            policy=policy.name,
            kind=kind,
            target=target,
            description=description,
            file=policy.file,
            line=line,
            covered_by=by,
        )

    items = []
    for cond in policy.conditions:
        if isinstance(cond.test, ScopeTest):
            continue  # implicit: which decision the policy speaks in, not a rule to exercise
        for status, kind in (("pass", "condition_pass"), ("fail", "condition_fail")):
            by = [r.example.name for r in results if status in _statuses(r, policy.name, cond.name)]
            seen = "passing" if status == "pass" else "failing"
            items.append(item(kind, cond.name, f"{cond.name} seen {seen}", cond.line, by))
        if isinstance(cond.test, FieldTest):
            for value, label in boundaries(cond.test, schema):
                by = [
                    r.example.name
                    for r in results
                    if any(_same(f.value(cond.test.kind, cond.test.field), value) for f in r.seen)
                ]
                description = f"{cond.name} at {cond.test.ref} = {_show(value)} ({label})"
                items.append(item("boundary", cond.name, description, cond.line, by))
        if isinstance(cond.test, ExprTest):
            for node, wanted, label in branches(cond.test.expr):
                by = [
                    r.example.name
                    for r in results
                    if any(
                        expressions.holds(node, f) is wanted
                        for facts in r.seen
                        for f in _focused(facts)
                    )
                ]
                description = f"{cond.name}: {label}"
                items.append(item("branch", cond.name, description, cond.line, by))
    for grant in policy.grants:
        by = [
            r.example.name
            for r in results
            if any(
                g.policy == policy.name and g.resolution == grant.resolution
                for d in (r.decision, *r.item_decisions, *r.call_decisions)
                for g in d.eligible
            )
        ]
        description = f"grant of {grant.resolution} seen offered"
        items.append(item("grant", grant.resolution, description, grant.line, by))
    return items


def branches(node: expressions.Expr) -> list[tuple[expressions.Expr, bool, str]]:
    """(sub-test, outcome it should be seen with, what that shows) for every branch."""
    out: list[tuple[expressions.Expr, bool, str]] = []
    if isinstance(node, expressions.Logic):
        wanted = node.op == "or"
        seen = "seen holding" if wanted else "seen failing"
        out += [(o, wanted, f"'{o}' {seen} ({node.op})") for o in node.operands]
    elif isinstance(node, expressions.Quantified) and node.op in ("all", "any"):
        out += [
            (node, True, f"'{node}' seen holding"),
            (node, False, f"'{node}' seen failing"),
            *_member_branches(node),
        ]
    elif isinstance(node, expressions.Implies):
        out += [
            (node.condition, False, f"'{node.condition}' seen false (nothing required)"),
            (node.condition, True, f"'{node.condition}' seen true (then '{node.then}')"),
        ]
    for child in expressions.children(node):
        out += branches(child)
    return out


def _member_branches(node: expressions.Quantified) -> list[tuple[expressions.Expr, bool, str]]:
    """Per member of the collection: one the ``where`` leaves out, one it selects that
    holds the body and one that fails it (each as 'some member ...', seen true)."""
    assert node.body is not None
    one = f"{'an' if node.kind[0] in 'aeiou' else 'a'} {node.kind}"
    selected = f"a selected {node.kind}" if node.where is not None else one
    out = [
        (_some(node, node.where, node.body), True, f"{selected} seen holding '{node.body}'"),
        (
            _some(node, node.where, expressions.Not(node.body)),
            True,
            f"{selected} seen failing '{node.body}'",
        ),
    ]
    if node.where is not None:
        left_out = _some(node, None, expressions.Not(node.where))
        out.append((left_out, True, f"{one} seen left out by 'where {node.where}'"))
    return out


def _some(
    node: expressions.Quantified, where: expressions.Expr | None, body: expressions.Expr
) -> expressions.Quantified:
    return expressions.Quantified(op="any", kind=node.kind, key=node.key, where=where, body=body)


def boundaries(test: FieldTest, schema: FactSchema) -> list[tuple[float, str]]:
    """n-1, n and n+1 around a numeric threshold; none for other tests."""
    value = test.value
    if test.op not in _NUMBER_OPS or isinstance(value, bool | str | tuple):
        return []
    spec = schema.field(test.kind, test.field)
    step = 1 if spec is not None and spec.type == "integer" else 0.01
    return [
        (round(value - step, 2), "n-1"),
        (value, "n"),
        (round(value + step, 2), "n+1"),
    ]


def _statuses(result: ExampleResult, policy: str, condition: str) -> set[str]:
    """The condition's status in the example's decision and in each of its per-item ones."""
    found = set()
    for decision in (result.decision, *result.item_decisions, *result.call_decisions):
        verdict = decision.policies.get(policy)
        if verdict is not None:
            found |= {c.status for c in verdict.conditions if c.name == condition}
    return found


def _focused(facts: Facts) -> list[Facts]:
    """``facts`` and, for each collection, each member in focus (as decided per item)."""
    return [facts] + [
        facts.focus(kind, i)
        for kind, members in facts.collections().items()
        for i in range(len(members))
    ]


def _same(observed: object, value: float) -> bool:
    if observed is None or isinstance(observed, bool) or not isinstance(observed, int | float):
        return False
    return abs(observed - value) < 1e-9


def _show(value: float) -> str:
    return f"{value:g}" if isinstance(value, int) or value == int(value) else f"{value:.2f}"
