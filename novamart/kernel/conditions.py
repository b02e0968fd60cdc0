"""The condition language analysts write: one plain comparison per condition.

    order.days_since_purchase <= 30
    order.opened == false
    customer.tier in [silver, gold]
    no other policy applies          (the fallback test: nothing else grants anything)

Parsing checks every name and type against the fact vocabulary, so a typo or a
number compared with a string is caught when the rules load, never at decision time.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from novamart.kernel.facts import FactSchema, FieldSpec

FALLBACK_TEST = "no other policy applies"
LIMIT = "limit"  # the placeholder a reason uses for the value its test compares with

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
        return {
            "==": observed == self.value,
            "!=": observed != self.value,
            "<": observed < self.value,
            "<=": observed <= self.value,
            ">": observed > self.value,
            ">=": observed >= self.value,
        }[self.op]


@dataclass(frozen=True)
class FallbackTest:
    """Passes only when every other policy has been decided and none grants anything."""


def parse_test(text: str, schema: FactSchema) -> FieldTest | FallbackTest:
    text = " ".join(str(text).split())
    if text == FALLBACK_TEST:
        return FallbackTest()
    match = _TEST.match(text)
    if not match:
        raise ConditionSyntaxError(
            f"cannot read test {text!r}; write it as 'kind.field OP value' with OP one of "
            f"== != < <= > >= in, 'not in', or write '{FALLBACK_TEST}'"
        )
    kind, field, op = match["kind"], match["field"], match["op"]
    if kind not in schema.kinds:
        known = ", ".join(schema.kinds)
        raise ConditionSyntaxError(f"unknown fact kind {kind!r} (known: {known})")
    spec = schema.field(kind, field)
    if spec is None:
        known = ", ".join(f"{kind}.{f}" for f in schema.kinds[kind].fields)
        raise ConditionSyntaxError(f"unknown fact field '{kind}.{field}' (known: {known})")
    value = _parse_value(match["value"], list_wanted=op in ("in", "not in"))
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
