"""The condition language analysts write: a comparison, or an expression over fields.

    order.days_since_purchase <= 30
    order.opened == false
    customer.tier in [silver, gold]
    payment.balance >= item.new_price - item.price       (an expression: expressions.py)
    no other policy applies          (the fallback test: nothing else grants anything)

Parsing checks every name and type against the fact vocabulary, so a typo or a
number compared with a string is caught when the rules load, never at decision time.
One field compared with one literal is a ``FieldTest``, as it always was; anything richer
(a field compared with a field, arithmetic, and/or/not, if/then) is an ``ExprTest``.
"""

from __future__ import annotations

import contextlib
import re
from dataclasses import dataclass, field
from decimal import Decimal
from typing import Any

from novamart.kernel import expressions
from novamart.kernel.expressions import Compare, Const, Expr, ExpressionError, Quantified, Ref
from novamart.kernel.facts import FactSchema, FieldSpec

FALLBACK_TEST = "no other policy applies"
LIMIT = "limit"  # the placeholder a reason uses for the value its test compares with
FAILED = "failed"  # the placeholder a reason uses for the part of its test that failed

_TEST = re.compile(
    r"^(?P<kind>[a-z_]+)\.(?P<field>[a-z_]+)\s*(?P<op>==|!=|<=|>=|<|>|not in|in)\s+(?P<value>.+)$"
)
_NUMBER = re.compile(r"^-?\d+(\.\d+)?$")
_ORDERING = {"<", "<=", ">", ">="}
_NEGATION = {"==": "!=", "!=": "==", "<": ">=", "<=": ">", ">": "<=", ">=": "<", "in": "not in"}
_NEGATION |= {v: k for k, v in _NEGATION.items() if v not in _NEGATION}


class ConditionSyntaxError(ValueError):
    """A condition test that cannot be understood; the message says what is wrong."""


@dataclass(frozen=True)
class FieldTest:
    """``kind.field op value``: a comparison of one fact field with a literal."""

    kind: str
    field: str
    op: str
    value: Any

    @property
    def ref(self) -> str:
        return f"{self.kind}.{self.field}"

    def negated(self) -> FieldTest:
        return FieldTest(self.kind, self.field, _NEGATION[self.op], self.value)

    def holds(self, observed: Any) -> bool:
        """Evaluate the test in Python (used by the reference evaluator in tests)."""
        if self.op in ("in", "not in"):
            return (observed in self.value) == (self.op == "in")
        return expressions.COMPARISONS[self.op](observed, self.value)  # only the one asked


@dataclass(frozen=True)
class ExprTest:
    """A test over an expression: fields compared with fields, arithmetic, and/or/not,
    if/then. The kernel evaluates it in Python (expressions.holds) and asserts its outcome."""

    expr: Expr
    _hash: int = field(init=False, repr=False, compare=False)
    _limit: int | float | None = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "_hash", hash(self.expr))
        found = _plain_numbers(self.expr)  # a reason's {limit} asks for it every render
        object.__setattr__(self, "_limit", found[0].value if len(found) == 1 else None)

    def __hash__(self) -> int:  # decisions key their caches by test: hash the tree once
        return self._hash

    def __reduce__(self) -> tuple:  # another process hashes text its own way: hash anew
        return (ExprTest, (self.expr,))

    @property
    def refs(self) -> tuple[str, ...]:
        """The ``kind.field`` references it reads, each once, in the order written."""
        return tuple(dict.fromkeys(r.ref for r in expressions.refs(self.expr)))

    @property
    def kinds(self) -> tuple[str, ...]:
        """The fact kinds it reads, fields or whole collections, in the order written."""
        quantified = [n.kind for n in expressions.walk(self.expr) if isinstance(n, Quantified)]
        return tuple(dict.fromkeys([*quantified, *(r.partition(".")[0] for r in self.refs)]))

    def waiting_on(self, facts: Any) -> tuple[str, str]:
        """The kind, and the field or collection, of the first value it still waits for."""
        for node in expressions.walk(self.expr):
            if isinstance(node, Quantified) and facts.collection(node.kind) is None:
                return node.kind, f"the {node.kind} facts"
            if isinstance(node, Ref) and facts.value(node.kind, node.field) is None:
                return node.kind, node.ref
        return self.kinds[0], self.refs[0] if self.refs else self.kinds[0]

    def holds(self, lookup: expressions.Lookup) -> bool | None:
        return expressions.holds(self.expr, lookup)

    def failure(self, lookup: expressions.Lookup) -> str:
        return expressions.failure(self.expr, lookup)

    def numbers(self) -> list[float]:
        """The numbers written in it (a percentage as written: 10% is 10)."""
        return [float(n) for n in _constants(self.expr)]

    @property
    def limit(self) -> int | float | None:
        """The one number it compares with, when exactly one plain number is written in it
        (``all item where item.selected: item.days <= 30`` has 30): what ``{limit}`` says and
        a policy variant may move; None when it has none or several."""
        return self._limit

    def with_limit(self, value: int | float) -> ExprTest:
        """The same test comparing with ``value`` instead of its ``limit``."""
        (old,) = _plain_numbers(self.expr)
        return ExprTest(expressions.replaced(self.expr, old, Const(value, str(value))))


def _constants(node: Expr) -> list[float]:
    if isinstance(node, Const):
        scale = 100 if node.text.endswith("%") else 1
        return [float(v) * scale for v in _flat(node.value) if expressions.is_number(v)]
    return [n for child in expressions.children(node) for n in _constants(child)]


def _plain_numbers(node: Expr) -> list[Const]:
    """The number constants written in ``node`` (not percentages, lists or flags)."""
    return [
        n
        for n in expressions.walk(node)
        if isinstance(n, Const) and expressions.is_number(n.value) and not n.text.endswith("%")
    ]


@dataclass(frozen=True)
class ScopeTest:
    """Whether a decision is the one a policy speaks in: per member of collection ``kind``
    (``for_each: item``), or, with ``kind`` None, for the whole case. Added by the loader to
    every policy of a rulebook that decides some policy per item; the kernel evaluates it."""

    kind: str | None

    def holds(self, facts: Any) -> bool | None:
        """A case policy: whether nothing is in focus. A per-item policy: True with its kind
        in focus, else unknown (the case's decision leaves it to the items' decisions)."""
        focus = facts.in_focus()
        if self.kind is None:
            return not focus
        return True if self.kind in focus else None

    def reason(self, collections: tuple[str, ...]) -> str:
        if self.kind is not None:
            return f"decided per {self.kind}: see the decision of each {self.kind}"
        return f"this policy decides the whole case, not one {' or '.join(collections)}"


SCOPE = "scope"
"""The name of the implicit condition a ScopeTest is."""


@dataclass(frozen=True)
class FallbackTest:
    """Passes only when every other policy has been decided and none grants anything."""


Test = FieldTest | ExprTest | ScopeTest | FallbackTest


def parse_test(text: str, schema: FactSchema) -> Test:
    text = " ".join(str(text).split())
    if text == FALLBACK_TEST:
        return FallbackTest()
    try:
        node = expressions.parse(text, schema)
    except ExpressionError as e:
        if _TEST.match(text):  # a plain comparison written as it always could be
            with contextlib.suppress(ConditionSyntaxError):
                return _field_test(text, schema)
        raise ConditionSyntaxError(
            f"cannot read test {text!r}: {e}; write a comparison like 'kind.field OP value' "
            f"(OP one of == != < <= > >= in, 'not in'), compare fields with fields or "
            f"arithmetic, join conditions with and, or, not, 'if ... then ...', "
            f"or write '{FALLBACK_TEST}'"
        ) from None
    if _plain_comparison(node):
        assert isinstance(node, Compare) and isinstance(node.left, Ref)
        assert isinstance(node.right, Const)
        return _checked_field_test(
            node.left.kind, node.left.field, node.op, node.right.value, schema
        )
    try:
        kind = expressions.check(node, schema)
    except ExpressionError as e:
        raise ConditionSyntaxError(str(e)) from None
    if kind != expressions.BOOL:
        raise ConditionSyntaxError(
            f"a test must be true or false, but {text!r} is {expressions.a_type(kind)}"
            "; compare it with something (==, <=, ...)"
        )
    return ExprTest(node)


def _plain_comparison(node: Expr) -> bool:
    """One field compared with one literal (not a percentage): the engine tests it itself."""
    return (
        isinstance(node, Compare)
        and isinstance(node.left, Ref)
        and isinstance(node.right, Const)
        and not node.right.text.endswith("%")
        and not any(isinstance(v, Decimal) for v in _flat(node.right.value))
    )


def _flat(value: Any) -> tuple:
    return value if isinstance(value, tuple) else (value,)


def _field_test(text: str, schema: FactSchema) -> FieldTest:
    """A plain comparison the expression reader refused, read the way it always was."""
    match = _TEST.match(text)
    assert match is not None
    value = _parse_value(match["value"], list_wanted=match["op"] in ("in", "not in"))
    return _checked_field_test(match["kind"], match["field"], match["op"], value, schema)


def _checked_field_test(
    kind: str, field: str, op: str, value: Any, schema: FactSchema
) -> FieldTest:
    if kind not in schema.kinds:
        raise ConditionSyntaxError(f"unknown fact kind {kind!r} (known: {', '.join(schema.kinds)})")
    spec = schema.field(kind, field)
    if spec is None:
        known = ", ".join(f"{kind}.{f}" for f in schema.kinds[kind].fields)
        raise ConditionSyntaxError(f"unknown fact field '{kind}.{field}' (known: {known})")
    _check_types(f"{kind}.{field}", spec, op, value)
    return FieldTest(kind, field, op, value)


def _parse_value(text: str, list_wanted: bool) -> Any:
    text = text.strip()
    if list_wanted:
        if not (text.startswith("[") and text.endswith("]")):
            raise ConditionSyntaxError(f"'in' needs a list like [silver, gold], got {text!r}")
        items = [item.strip() for item in text[1:-1].split(",") if item.strip()]
        if not items:
            raise ConditionSyntaxError("'in' needs at least one value in its list")
        return tuple(_parse_scalar(item) for item in items)
    return _parse_scalar(text)


def _parse_scalar(text: str) -> Any:
    if text in ("true", "false"):
        return text == "true"
    if _NUMBER.match(text):
        return float(text) if "." in text else int(text)
    if len(text) >= 2 and text[0] == text[-1] and text[0] in "'\"":
        return text[1:-1]
    if re.fullmatch(r"[A-Za-z0-9_.:-]+", text):
        return text
    raise ConditionSyntaxError(f"cannot read value {text!r}")


def _check_types(ref: str, spec: FieldSpec, op: str, value: Any) -> None:
    expected = spec.python_type
    values = value if isinstance(value, tuple) else (value,)
    for v in values:
        if not _same_type(expected, v):
            raise ConditionSyntaxError(
                f"{ref} is a {_TYPE_NAMES[expected]} but is compared with "
                f"{_TYPE_NAMES[type(v)]} {v!r}"
            )
    if op in _ORDERING and expected not in (int, float):
        raise ConditionSyntaxError(f"{ref} is a {_TYPE_NAMES[expected]}; '{op}' needs a number")
    if expected is bool and op not in ("==", "!="):
        raise ConditionSyntaxError(f"{ref} is true/false; use == or !=")
    allowed = spec.values
    if allowed is not None:
        unknown = [v for v in values if v not in allowed]
        if unknown:
            raise ConditionSyntaxError(
                f"{ref} is never {', '.join(map(repr, unknown))} (its values: {', '.join(allowed)})"
            )


_TYPE_NAMES = {int: "number", float: "number", str: "text", bool: "true/false"}


def _same_type(expected: type, value: Any) -> bool:
    if expected in (int, float):
        return isinstance(value, int | float) and not isinstance(value, bool)
    return type(value) is expected
