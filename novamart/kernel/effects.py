"""What carrying out a resolution does to the world: effects, written as assignments.

    order.status = 'return requested'
    item.status = 'return requested' where item.selected
    payment.balance = payment.balance + sum(item.price where item.selected)
        where payment.method == gift_card

An effect assigns one field an expression of the policy language, optionally only where a
condition holds; on a collection (``item``) it assigns each member the condition selects, and
``item.x`` in it is that member's. ``apply`` is pure: it returns a new, checked ``Facts`` and
leaves the old one (and the decisions memoised on it) as it was. Effects are checked when the
rules load (``parse_effect``, ``order_problems``), so carrying one out fails only on facts that
are not known (``EffectError``: nothing is carried out on what cannot be read).
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from decimal import Decimal
from typing import Any

from pydantic import ValidationError

from novamart.kernel import expressions
from novamart.kernel.expressions import BOOL, NUMBER, TEXT, Bound, Const, Expr, ExpressionError, Ref
from novamart.kernel.facts import Facts, FactSchema, FieldSpec
from novamart.kernel.money import cents

REQUEST_KIND = "request"
"""The fact a call's arguments become (declared by the loader, never assigned)."""
SELECTED = "selected"
"""The derived field marking the members a request names (``selects:``)."""
_ASSIGNMENT = re.compile(r"^\s*([a-z][a-z0-9_]*)\.([a-z][a-z0-9_]*)\s*=(?!=)\s*(.+)$", re.DOTALL)


class EffectError(ValueError):
    """An effect that cannot be carried out on these facts (a value it needs is unknown, or
    the result leaves the field's declared values); the message says which."""


@dataclass(frozen=True)
class Effect:
    """``kind.field = value [where condition]``, as read and checked at load."""

    kind: str
    field: str
    value: Expr
    where: Expr | None
    text: str

    @property
    def target(self) -> str:
        return f"{self.kind}.{self.field}"

    @property
    def added(self) -> int:
        """+1 for ``k.f = k.f + x`` (x is added to what the field holds: a balance paid into),
        -1 for ``k.f = k.f - x`` (taken from it), else 0."""
        value = self.value
        if not isinstance(value, expressions.Arith) or value.op not in "+-":
            return 0
        left = value.left
        if not isinstance(left, Ref) or (left.kind, left.field) != (self.kind, self.field):
            return 0
        return 1 if value.op == "+" else -1

    def reads(self) -> set[str]:
        """Every ``kind.field`` its value and condition read."""
        parts = [self.value, *([self.where] if self.where is not None else [])]
        return {r.ref for part in parts for r in expressions.refs(part)}


def parse_effect(text: str, schema: FactSchema) -> Effect:
    """Read and check one effect; an ExpressionError says what is wrong."""
    text = " ".join(str(text).split())
    match = _ASSIGNMENT.match(text)
    if match is None:
        raise ExpressionError(
            f"cannot read effect {text!r}: write 'kind.field = value', optionally followed by "
            "'where condition'"
        )
    kind, field, rest = match.groups()
    spec = _assignable(kind, field, schema)
    value, where = expressions.parse_guarded(rest, schema)
    wanted = _TYPES[spec.python_type]
    if (found := expressions.check(value, schema)) != wanted:
        raise ExpressionError(
            f"{kind}.{field} is {expressions.a_type(wanted)} but is assigned "
            f"{expressions.a_type(found)} '{value}'"
        )
    _check_values(kind, field, spec, value, schema)
    if where is not None and expressions.check(where, schema) != BOOL:
        raise ExpressionError(f"'where' takes a condition, but '{where}' is not true/false")
    if schema.kinds[kind].many and where is None:
        raise ExpressionError(
            f"{kind} is a collection: say which members the effect assigns with "
            f"'where' (where {kind}.{SELECTED}, or 'where true' for every one)"
        )
    for part in (value, where):
        for ref in expressions.free_refs(part) if part is not None else ():
            if schema.kinds[ref.kind].many and ref.kind != kind:
                raise ExpressionError(
                    f"'{ref}' reads one member of the collection {ref.kind} while assigning "
                    f"{kind}.{field}: say which with sum(...), all/any or count(...)"
                )
    return Effect(kind, field, value, where, text)


def _assignable(kind: str, field: str, schema: FactSchema) -> FieldSpec:
    if kind not in schema.kinds:
        raise ExpressionError(f"unknown fact kind {kind!r} (known: {', '.join(schema.kinds)})")
    spec = schema.field(kind, field)
    if spec is None:
        known = ", ".join(f"{kind}.{f}" for f in schema.kinds[kind].fields)
        raise ExpressionError(f"unknown fact field '{kind}.{field}' (known: {known})")
    if kind == REQUEST_KIND:
        raise ExpressionError("the request holds a call's arguments; an effect cannot assign it")
    if spec.type == "id":
        raise ExpressionError(
            f"{kind}.{field} is an id: effects change what a fact says, never which fact it is"
        )
    if field == SELECTED and schema.kinds[kind].many:
        raise ExpressionError(f"{kind}.{SELECTED} is derived from the request; it is not assigned")
    return spec


_TYPES = {bool: BOOL, int: NUMBER, float: NUMBER, str: TEXT}


def _check_values(kind: str, field: str, spec: FieldSpec, value: Expr, schema: FactSchema) -> None:
    """A choice is assigned only its own values: a literal among them, or a choice field whose
    values all are."""
    if spec.values is None:
        return
    if isinstance(value, Const) and value.value not in spec.values:
        raise ExpressionError(
            f"{kind}.{field} is never {value.value!r} (its values: {', '.join(spec.values)})"
        )
    if isinstance(value, Ref):
        other = schema.field(value.kind, value.field)
        extra = [v for v in (other.values if other else None) or () if v not in spec.values]
        if other is not None and (other.values is None or extra):
            raise ExpressionError(
                f"{value} can hold {', '.join(map(repr, extra)) or 'any text'}, which "
                f"{kind}.{field} never is (its values: {', '.join(spec.values)})"
            )


def order_problems(effects: list[Effect]) -> list[tuple[int, str]]:
    """(index, why) for each effect whose outcome would depend on the order they are carried
    out in: one reading a field an effect before it assigned, or assigning a field again.
    Every effect reads the world as it was before the resolution."""
    problems = []
    assigned: dict[str, int] = {}
    for i, effect in enumerate(effects):
        if effect.target in assigned:
            problems.append(
                (
                    i,
                    f"{effect.target} is assigned twice (also by effect "
                    f"{assigned[effect.target] + 1})",
                )
            )
        read = sorted(r for r in effect.reads() if r in assigned)
        if read:
            problems.append(
                (
                    i,
                    f"it reads {', '.join(read)}, which effect {assigned[read[0]] + 1} "
                    "assigns: the outcome would depend on their order; compute from the "
                    "values before the resolution, or move the follow-up into a 'then:' "
                    "resolution",
                )
            )
        assigned.setdefault(effect.target, i)
    return problems


def apply(schema: FactSchema, facts: Facts, chain: list[tuple[str, tuple[Effect, ...]]]) -> Facts:
    """The world after carrying out each (resolution, effects) of ``chain`` in turn (a
    resolution, then its ``then:`` follow-ups): each resolution's effects read the facts as
    they were before it. The request and the selection are dropped from the result; an
    EffectError when a value is unknown or leaves its field's declaration."""
    current = facts
    for resolution, effects in chain:
        raw = _raw(current)
        for effect in effects:
            _assign(effect, current, raw, schema, resolution)
        current = Facts(**raw)
    raw = _raw(current)
    raw.pop(REQUEST_KIND, None)
    for members in (v for v in raw.values() if isinstance(v, list)):
        for member in members:
            member.pop(SELECTED, None)
    try:
        return schema.built(raw)  # validate's result, each record checked once
    except ValidationError as e:
        first = e.errors()[0]
        where = ".".join(str(p) for p in first["loc"])
        raise EffectError(f"the effects leave {where} invalid: {first['msg']}") from None


def _raw(facts: Facts) -> dict[str, Any]:
    return {
        k: [dict(m) for m in v] if isinstance(v, list) else dict(v)
        for k, v in facts.as_dict().items()
    }


def _assign(
    effect: Effect, facts: Facts, raw: dict[str, Any], schema: FactSchema, resolution: str
) -> None:
    spec = schema.field(effect.kind, effect.field)
    assert spec is not None  # checked at load
    unknown = f"{resolution} cannot be carried out: {effect.text!r} reads a fact not known yet"
    targets: list[tuple[Any, dict[str, Any]]]
    if schema.kinds[effect.kind].many:
        members = facts.collection(effect.kind)
        if members is None:
            raise EffectError(unknown)
        targets = [
            (Bound(facts, effect.kind, m), raw[effect.kind][i]) for i, m in enumerate(members)
        ]
    else:
        if facts.record(effect.kind) is None:
            raise EffectError(unknown)
        targets = [(facts, raw[effect.kind])]
    for env, record in targets:
        chosen = True if effect.where is None else expressions.holds(effect.where, env)
        if chosen is None:
            raise EffectError(unknown)
        if chosen:
            record[effect.field] = _converted(effect, spec, env, unknown)


def _converted(effect: Effect, spec: FieldSpec, env: Any, unknown: str) -> Any:
    if spec.type == "bool":
        value = expressions.holds(effect.value, env)
    else:
        try:
            value = expressions.value_of(effect.value, env)
        except ZeroDivisionError as e:
            raise EffectError(f"{effect.text!r}: {e}") from None
    if value is None:
        raise EffectError(unknown)
    if isinstance(value, Decimal):
        return _number(effect, spec, value)
    return value


def _number(effect: Effect, spec: FieldSpec, value: Decimal) -> int | float:
    convert: dict[str, Callable[[Decimal], int | float]] = {"money": cents, "number": float}
    if spec.type in convert:
        return convert[spec.type](value)
    if value != value.to_integral_value():
        raise EffectError(f"{effect.text!r} gives {effect.target} {value}, not a whole number")
    return int(value)
