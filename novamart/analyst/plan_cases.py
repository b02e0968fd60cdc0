"""The cases a rule change's plans are measured on: each example's calls and requests on its
own facts, and on those facts and steps moved one thing at a time.

- one single fact's field: each other declared value of a choice field, a true/false field
  turned over (an event present or absent), money one cent either side and at zero (a gift
  card that just covers a difference, or not);
- a collection's size: from one member to MAX_MEMBERS (copies of the last one added, the
  last ones dropped), so a quantifier meets an order of one item and of five;
- quantifier boundaries: each field an ``all``/``any``/``count`` condition of either rule set
  reads, set on every member, on none, and on exactly one (for ``count(...) >= n``, on n-1, n
  and n+1), with the values the condition compares it with;
- events: each event between calls dropped (absent) or moved past the next call (out of
  order), and each ``before_each`` event of a request plan dropped.

Everything is read from the rulebooks (fields, values, the quantifiers' tests); a move that
the facts' declaration refuses is left out.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from typing import Any

from pydantic import ValidationError

from novamart.kernel import Facts, FactSchema, Rulebook
from novamart.kernel import expressions as ex
from novamart.kernel.conditions import ExprTest
from novamart.kernel.declared import Step
from novamart.kernel.effects import SELECTED
from novamart.kernel.rulebook import Example

CENT = 0.01
MAX_MEMBERS = 5
"""The largest collection a case is grown to (an order of up to five items)."""
COPY = "+"
"""Joins a copied member's id to its number: I2+1 (a character ids may hold)."""


@dataclass(frozen=True)
class PlanCase:
    variant: str | None
    """None for the example as written; else what was moved."""
    facts: Facts
    steps: tuple[Step, ...]
    before_each: tuple[str, ...]


def plan_cases(example: Example, rulebooks: list[Rulebook]) -> list[PlanCase]:
    """The example as written, then each move of its facts and of its events; the last
    rulebook's declaration checks the moved facts."""
    schema = rulebooks[-1].facts
    steps, before = tuple(example.steps), tuple(example.before_each)
    cases = [PlanCase(None, example.facts, steps, before)]
    moved = [*single_moves(example.facts, schema), *size_moves(example.facts, schema)]
    moved += quantifier_moves(example.facts, schema, rulebooks)
    cases += [PlanCase(label, facts, steps, before) for label, facts in moved]
    cases += [PlanCase(label, example.facts, s, before) for label, s in event_moves(steps)]
    for i, event in enumerate(before):
        fewer = before[:i] + before[i + 1 :]
        cases.append(PlanCase(f"no {event} before each call", example.facts, steps, fewer))
    return cases


def single_moves(facts: Facts, schema: FactSchema) -> list[tuple[str, Facts]]:
    """``facts`` moved one single fact's field at a time."""
    moved = []
    for kind, record in facts.present().items():
        spec = schema.kinds.get(kind)
        if spec is None or spec.many:
            continue
        for name, field in spec.fields.items():
            value = record.get(name)
            if value is None:
                continue
            if field.values is not None:
                options = [v for v in field.values if v != value]
            elif field.type == "bool":
                options = [not value]
            elif field.type == "money":
                options = [round(value - CENT, 2), round(value + CENT, 2), 0.0]
                options = [v for v in dict.fromkeys(options) if v >= 0 and v != value]
            else:
                continue
            for option in options:
                changed = _checked(schema, facts.with_kind(kind, {**record, name: option}))
                if changed is not None:
                    moved.append((f"{kind}.{name} = {_said(option)}", changed))
    return moved


def size_moves(facts: Facts, schema: FactSchema) -> list[tuple[str, Facts]]:
    """Each collection at every size from one member to MAX_MEMBERS."""
    moved = []
    for kind, members in facts.collections().items():
        key = schema.kinds[kind].id_field
        rows = [dict(m) for m in members]
        for size in range(1, MAX_MEMBERS + 1):
            if size == len(rows):
                continue
            grown = rows[:size] + [
                {**rows[-1], key: f"{rows[-1][key]}{COPY}{n}"}
                for n in range(1, size - len(rows) + 1)
            ]
            changed = _with_members(schema, facts, kind, grown)
            if changed is not None:
                moved.append((f"{size} {kind}{'s' if size > 1 else ''}", changed))
    return moved


def quantifier_moves(
    facts: Facts, schema: FactSchema, rulebooks: Iterable[Rulebook]
) -> list[tuple[str, Facts]]:
    """Each field a quantifier reads set on every member, on none and on exactly some."""
    moved: list[tuple[str, Facts]] = []
    for kind, field, value, counts in _quantified_fields(rulebooks):
        members = facts.collection(kind)
        spec = schema.field(kind, field)
        if not members or spec is None:
            continue
        other = _other(spec.values, value)
        if other is None:
            continue
        ref = f"{kind}.{field} = {_said(value)}"
        shares = {"every": len(members), "no": 0, "exactly 1": 1}
        shares |= {f"exactly {n}": n for n in counts if 0 <= n <= len(members)}
        for label, n in shares.items():
            rows = [{**m, field: value if i < n else other} for i, m in enumerate(members)]
            changed = _with_members(schema, facts, kind, rows)
            if changed is not None and changed != facts:
                moved.append((f"{label} {ref}", changed))
    return list(dict(moved).items())


def _quantified_fields(
    rulebooks: Iterable[Rulebook],
) -> Iterator[tuple[str, str, Any, tuple[int, ...]]]:
    """(kind, field, the value a condition compares it with, the count thresholds) for each
    field read inside a quantifier of a condition, each once."""
    seen: set[tuple[str, str, Any]] = set()
    for rulebook in rulebooks:
        for policy in rulebook.policies.values():
            for cond in policy.conditions:
                if not isinstance(cond.test, ExprTest):
                    continue
                counts = _count_thresholds(cond.test.expr)
                for node in ex.walk(cond.test.expr):
                    if not isinstance(node, ex.Quantified):
                        continue
                    for part in (node.where, node.body):
                        for kind, field, value in _read(part, node.kind, rulebook.facts):
                            if (kind, field, value) not in seen:
                                seen.add((kind, field, value))
                                yield kind, field, value, counts.get(node, ())


def _read(part: ex.Expr | None, kind: str, schema: FactSchema) -> Iterator[tuple[str, str, Any]]:
    """The member fields ``part`` reads that a case can set: true/false ones (as True) and
    choice ones (each value they are compared with, else their first declared value)."""
    if part is None:
        return
    compared: dict[str, list[Any]] = {}
    for node in ex.walk(part):
        if (
            isinstance(node, ex.Compare)
            and isinstance(node.left, ex.Ref)
            and isinstance(node.right, ex.Const)
        ):
            values = node.right.value
            listed = values if isinstance(values, tuple) else (values,)
            compared.setdefault(node.left.field, []).extend(listed)
    for ref in ex.refs(part):
        if ref.kind != kind or ref.field == SELECTED:
            continue
        spec = schema.field(kind, ref.field)
        if spec is None:
            continue
        if spec.type == "bool":
            yield kind, ref.field, True
        elif spec.values is not None:
            for value in compared.get(ref.field) or [spec.values[0]]:
                yield kind, ref.field, value


def _count_thresholds(tree: ex.Expr) -> dict[ex.Quantified, tuple[int, ...]]:
    """n-1, n and n+1 of each ``count(...) op n`` in ``tree``."""
    found: dict[ex.Quantified, tuple[int, ...]] = {}
    for node in ex.walk(tree):
        if not isinstance(node, ex.Compare):
            continue
        counted, limit = node.left, node.right
        if (
            isinstance(counted, ex.Quantified)
            and counted.op == "count"
            and isinstance(limit, ex.Const)
            and ex.is_number(limit.value)
        ):
            n = int(limit.value)
            found[counted] = (n - 1, n, n + 1)
    return found


def _other(values: tuple[Any, ...] | None, value: Any) -> Any:
    """The value that does not hold: False for True, else the first other declared value."""
    if value is True:
        return False
    return next((v for v in values or () if v != value), None)


def event_moves(steps: tuple[Step, ...]) -> list[tuple[str, tuple[Step, ...]]]:
    """Each event between calls dropped, and moved past the call after it."""
    moved = []
    for i, step in enumerate(steps):
        if not isinstance(step, str):
            continue
        rest = steps[:i] + steps[i + 1 :]
        moved.append((f"without event {step} (step {i + 1})", rest))
        after = next((j for j in range(i, len(rest)) if not isinstance(rest[j], str)), None)
        if after is not None:
            later = (*rest[: after + 1], step, *rest[after + 1 :])
            moved.append((f"event {step} (step {i + 1}) after the next call", later))
    return moved


def _said(value: Any) -> str:
    """A value as the rule files write it (true, not True)."""
    return str(value).lower() if isinstance(value, bool) else str(value)


def _with_members(
    schema: FactSchema, facts: Facts, kind: str, rows: list[dict[str, Any]]
) -> Facts | None:
    raw = facts.as_dict()
    raw[kind] = rows
    try:
        return schema.validate(raw)
    except ValidationError:
        return None


def _checked(schema: FactSchema, facts: Facts) -> Facts | None:
    try:
        return schema.check(facts)
    except ValidationError:
        return None  # a value the field's range refuses
