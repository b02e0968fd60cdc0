"""Expressions in conditions and amounts: relations, arithmetic and boolean composition.

    payment.balance >= item.new_price - item.price
    ticket.ticket_id == order.order_id
    order.status in [delivered, 'pending (item modified)'] and not order.opened
    if payment.method == gift_card then payment.balance >= order.price * 10%
    (order.price - order.discount) * 50%                     (an amount)
    all item where item.requested: item.status == delivered  (over a collection)
    any item: item.opened        count(item where item.opened) >= 2
    sum(item.price where item.requested)                     (an amount)

A test written as one field compared with one literal stays a ``FieldTest`` (the engine tests
it on the fact itself); anything else parses to the tree below, type-checked against the fact
vocabulary when the rules load: every ``kind.field`` must be declared, arithmetic and ordering
need numbers, text is compared with text, a choice only with its own values. The kernel
evaluates such a test in Python on each fact set (numbers in decimal, so money adds up to the
cent) and hands the engine its outcome as a condition fact; the engine still decides which
policies apply. Logic is three-valued: a test that reads an unknown field is unknown (its tool
has not been called) unless the known part already decides it (``false and ...`` fails).
"""

from __future__ import annotations

import functools
import operator
import re
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, field, replace
from decimal import Decimal, DivisionByZero, InvalidOperation
from typing import Any, Protocol, Union

from novamart.kernel.facts import FactSchema

Value = Any


class Env(Protocol):
    """What an expression reads: fields, and the facts of a collection (Facts is one)."""

    def value(self, kind: str, field: str) -> Value: ...

    def collection(self, kind: str) -> tuple[Mapping[str, Value], ...] | None: ...


Lookup = Env

NUMBER, TEXT, BOOL = "number", "text", "true/false"


class ExpressionError(ValueError):
    """An expression that cannot be read or does not type-check; the message says why."""


# ---- the tree ----------------------------------------------------------------------------


class _Node:
    """A node of the tree; it keeps the closures it is evaluated by (``_code``) beside its
    fields, and leaves them out when pickled (another process compiles them anew)."""

    def __getstate__(self) -> dict[str, Any]:
        return {k: v for k, v in self.__dict__.items() if k not in (VALUE, TRUTH)}


@dataclass(frozen=True)
class Ref(_Node):
    kind: str
    field: str

    @property
    def ref(self) -> str:
        return f"{self.kind}.{self.field}"

    def __str__(self) -> str:
        return self.ref


@dataclass(frozen=True)
class Const(_Node):
    value: Value  # int, float, Decimal (a percentage), str, bool, or a tuple (a list)
    text: str
    evaluated: Value = field(init=False, compare=False, repr=False)
    """The value as evaluation reads it (numbers as decimals), worked out once."""

    def __post_init__(self) -> None:
        if isinstance(self.value, tuple):
            evaluated: Value = tuple(_decimal(v) for v in self.value)
        else:
            evaluated = _decimal(self.value)
        object.__setattr__(self, "evaluated", evaluated)

    def __str__(self) -> str:
        return self.text


@dataclass(frozen=True)
class Arith(_Node):
    op: str  # + - * /
    left: Expr
    right: Expr

    def __str__(self) -> str:
        return f"{_wrap(self.left, self.op)} {self.op} {_wrap(self.right, self.op, True)}"


@dataclass(frozen=True)
class Neg(_Node):
    operand: Expr

    def __str__(self) -> str:
        return f"-{_wrap(self.operand, '*')}"


@dataclass(frozen=True)
class Compare(_Node):
    op: str  # == != < <= > >= in, not in
    left: Expr
    right: Expr

    def __str__(self) -> str:
        return f"{self.left} {self.op} {self.right}"


@dataclass(frozen=True)
class Logic(_Node):
    op: str  # and, or
    operands: tuple[Expr, ...]

    def __str__(self) -> str:
        return f" {self.op} ".join(_wrap(o, self.op) for o in self.operands)


@dataclass(frozen=True)
class Not(_Node):
    operand: Expr

    def __str__(self) -> str:
        return f"not {_wrap(self.operand, 'not')}"


@dataclass(frozen=True)
class Implies(_Node):
    condition: Expr
    then: Expr

    def __str__(self) -> str:
        return f"if {self.condition} then {self.then}"


@dataclass(frozen=True)
class Quantified(_Node):
    """``all``/``any`` member of a collection holds ``body``; ``count`` of the members, or
    ``sum`` of ``body`` over them; ``where`` selects the members first."""

    op: str  # all, any, count, sum
    kind: str
    key: str  # the collection's identifier field, to name a member that failed
    where: Expr | None
    body: Expr | None  # all/any: a condition; sum: the summed value; count: None

    def __str__(self) -> str:
        where = f" where {self.where}" if self.where is not None else ""
        if self.op == "count":
            return f"count({self.kind}{where})"
        if self.op == "sum":
            return f"sum({self.body}{where})"
        return f"{self.op} {self.kind}{where}: {self.body}"


Expr = Union[Ref, Const, Arith, Neg, Compare, Logic, Not, Implies, Quantified]  # noqa: UP007
_BINDING = {"or": 1, "and": 2, "not": 3, "+": 5, "-": 5, "*": 6, "/": 6}


def _wrap(node: Expr, outer: str, right: bool = False) -> str:
    """``node`` as text, in parentheses where the operator around it binds tighter."""
    inner = {
        Arith: lambda n: n.op,
        Logic: lambda n: n.op,
        Implies: lambda n: "if",
        Quantified: lambda n: "if" if n.op in ("all", "any") else None,
    }
    op = inner.get(type(node), lambda n: None)(node)
    if op is None:
        return str(node)
    tighter = _BINDING.get(op, 0) < _BINDING.get(outer, 0)
    same_right = right and op == outer and op in "-/"
    return f"({node})" if tighter or same_right or op == "if" else str(node)


def children(node: Expr) -> tuple[Expr, ...]:
    """The sub-expressions of ``node``, left to right."""
    if isinstance(node, Arith | Compare):
        return (node.left, node.right)
    if isinstance(node, Neg | Not):
        return (node.operand,)
    if isinstance(node, Logic):
        return node.operands
    if isinstance(node, Implies):
        return (node.condition, node.then)
    if isinstance(node, Quantified):
        return tuple(n for n in (node.where, node.body) if n is not None)
    return ()


def replaced(node: Expr, old: Expr, new: Expr) -> Expr:
    """``node`` with the sub-expression ``old`` (that very node) replaced by ``new``."""
    if node is old:
        return new
    if isinstance(node, Arith | Compare):
        return replace(
            node, left=replaced(node.left, old, new), right=replaced(node.right, old, new)
        )
    if isinstance(node, Neg | Not):
        return replace(node, operand=replaced(node.operand, old, new))
    if isinstance(node, Logic):
        return replace(node, operands=tuple(replaced(o, old, new) for o in node.operands))
    if isinstance(node, Implies):
        return replace(
            node, condition=replaced(node.condition, old, new), then=replaced(node.then, old, new)
        )
    if isinstance(node, Quantified):
        where = None if node.where is None else replaced(node.where, old, new)
        body = None if node.body is None else replaced(node.body, old, new)
        return replace(node, where=where, body=body)
    return node


def walk(node: Expr) -> Iterator[Expr]:
    """``node`` and every node under it, depth first, left to right."""
    yield node
    for child in children(node):
        yield from walk(child)


def refs(node: Expr) -> Iterator[Ref]:
    """Every field reference in ``node``, left to right."""
    if isinstance(node, Ref):
        yield node
    for child in children(node):
        yield from refs(child)


# ---- reading -------------------------------------------------------------------------------

_TOKEN = re.compile(
    r"""\s*(?:
      (?P<number>\d+(?:\.\d+)?%?)(?![\w#])
    | (?P<quoted>'[^']*'|"[^"]*")
    | (?P<op>==|!=|<=|>=|<|>|\+|-|\*|/|\(|\)|\[|\]|,|:)
    | (?P<word>[A-Za-z0-9_#](?:[A-Za-z0-9_.:#-]*[A-Za-z0-9_.#-])?)
    )""",
    re.VERBOSE,
)
_REF = re.compile(r"^([a-z][a-z0-9_]*)\.([a-z][a-z0-9_]*)")
_KEYWORDS = frozenset({"and", "or", "not", "in", "if", "then", "all", "any", "where"})
_FUNCTIONS = ("count", "sum")


@dataclass(frozen=True)
class _Token:
    kind: str  # number, quoted, op, word, ref, keyword, end
    text: str


def _tokens(text: str, kinds: frozenset[str]) -> list[_Token]:
    out: list[_Token] = []
    pos = 0
    while pos < len(text):
        if text[pos:].strip() == "":
            break
        match = _TOKEN.match(text, pos)
        if match is None:
            rest = text[pos:].strip()
            raise ExpressionError(f"cannot read {rest[:30]!r}")
        kind = match.lastgroup
        assert kind is not None
        word = match.group(kind)
        end = match.end()
        if kind == "word":
            ref = _REF.match(word)
            if ref is not None and ref.group(1) in kinds:
                # kind.field is a reference; what follows it ('-', '.') is read again
                word, end = ref.group(0), match.start(kind) + ref.end()
                kind = "ref"
            elif word in _KEYWORDS:
                kind = "keyword"
            elif ref is not None and ref.group(0) == word:
                raise ExpressionError(
                    f"unknown fact kind {ref.group(1)!r} in {word!r} (known: "
                    f"{', '.join(sorted(kinds))}); quote a text value that has a dot: '{word}'"
                )
        out.append(_Token(kind, word))
        pos = end
    out.append(_Token("end", ""))
    return out


class _Parser:
    """Recursive descent, loosest first: if/then, or, and, not, comparison, + -, * /, unary."""

    def __init__(self, text: str, schema: FactSchema):
        self.schema = schema
        self.tokens = _tokens(text, frozenset(schema.kinds))
        self.at = 0

    def peek(self, *texts: str) -> bool:
        token = self.tokens[self.at]
        return token.kind in ("op", "keyword") and token.text in texts

    def take(self) -> _Token:
        token = self.tokens[self.at]
        self.at += 1
        return token

    def expect(self, text: str) -> None:
        if not self.peek(text):
            found = self.tokens[self.at].text or "the end"
            raise ExpressionError(f"expected {text!r}, found {found!r}")
        self.take()

    def whole(self) -> Expr:
        node = self.implication()
        if self.tokens[self.at].kind != "end":
            raise ExpressionError(f"unexpected {self.tokens[self.at].text!r}")
        return node

    def implication(self) -> Expr:
        if self.peek("if"):
            self.take()
            condition = self.disjunction()
            self.expect("then")
            return Implies(condition, self.disjunction())
        return self.disjunction()

    def disjunction(self) -> Expr:
        operands = [self.conjunction()]
        while self.peek("or"):
            self.take()
            operands.append(self.conjunction())
        return operands[0] if len(operands) == 1 else Logic("or", tuple(operands))

    def conjunction(self) -> Expr:
        operands = [self.negation()]
        while self.peek("and"):
            self.take()
            operands.append(self.negation())
        return operands[0] if len(operands) == 1 else Logic("and", tuple(operands))

    def negation(self) -> Expr:
        if self.peek("not"):
            self.take()
            return Not(self.negation())
        if self.peek("all", "any"):
            op = self.take().text
            kind = self.collection()
            where = self.selection()
            self.expect(":")
            return Quantified(op, kind, self.key(kind), where, self.disjunction())
        return self.comparison()

    def collection(self) -> str:
        token = self.take()
        if token.kind != "word" or token.text not in self.schema.kinds:
            found = token.text or "the end"
            raise ExpressionError(
                f"expected a fact kind to quantify over ({', '.join(self.schema.kinds)}), "
                f"found {found!r}"
            )
        return token.text

    def selection(self) -> Expr | None:
        if not self.peek("where"):
            return None
        self.take()
        return self.disjunction()

    def key(self, kind: str) -> str:
        return self.schema.kinds[kind].id_field

    def function(self, name: str) -> Quantified:
        """count(kind [where ...]), or sum(expression [where ...]) over the collection its
        first field names (sum(item.new_price - item.price where ...))."""
        self.expect("(")
        if name == "count":
            kind, body = self.collection(), None
        else:
            body = self.sum()
            first = next(refs(body), None)
            if first is None:
                raise ExpressionError(
                    f"sum needs fields of a collection to add up, like item.price; got '{body}'"
                )
            kind = first.kind
        where = self.selection()
        self.expect(")")
        return Quantified(name, kind, self.key(kind), where, body)

    def comparison(self) -> Expr:
        left = self.sum()
        if self.peek("==", "!=", "<", "<=", ">", ">="):
            op = self.take().text
            return Compare(op, left, self.sum())
        if self.peek("in") or (self.peek("not") and self._next_is("in")):
            op = "in" if self.take().text == "in" else (self.take(), "not in")[1]
            return Compare(op, left, self.listing())
        return left

    def _next_is(self, text: str) -> bool:
        token = self.tokens[self.at + 1]
        return token.kind == "keyword" and token.text == text

    def listing(self) -> Const:
        if not self.peek("["):
            found = self.tokens[self.at].text or "the end"
            raise ExpressionError(f"'in' needs a list like [silver, gold], got {found!r}")
        self.take()
        items: list[Const] = []
        while not self.peek("]"):
            if self.tokens[self.at].kind == "end":
                raise ExpressionError("the list is not closed with ']'")
            node = self.atom()
            if not isinstance(node, Const):
                raise ExpressionError(f"a list holds values, not {node}")
            items.append(node)
            if not self.peek("]"):
                self.expect(",")
        self.take()
        if not items:
            raise ExpressionError("'in' needs at least one value in its list")
        text = "[" + ", ".join(i.text for i in items) + "]"
        return Const(tuple(i.value for i in items), text)

    def sum(self) -> Expr:
        node = self.product()
        while self.peek("+", "-"):
            op = self.take().text
            node = Arith(op, node, self.product())
        return node

    def product(self) -> Expr:
        node = self.unary()
        while self.peek("*", "/"):
            op = self.take().text
            node = Arith(op, node, self.unary())
        return node

    def unary(self) -> Expr:
        if self.peek("-"):
            self.take()
            operand = self.unary()
            if isinstance(operand, Const) and is_number(operand.value):
                return Const(-operand.value, f"-{operand.text}")
            return Neg(operand)
        return self.atom()

    def atom(self) -> Expr:
        token = self.take()
        if token.kind == "op" and token.text == "(":
            node = self.implication()
            self.expect(")")
            return node
        if token.kind == "ref":
            kind, _, field = token.text.partition(".")
            return Ref(kind, field)
        if token.kind == "number":
            return Const(_number(token.text), token.text)
        if token.kind == "quoted":
            return Const(token.text[1:-1], token.text)
        if token.kind == "word" and token.text in _FUNCTIONS and self.peek("("):
            return self.function(token.text)
        if token.kind == "word":
            if token.text in ("true", "false"):
                return Const(token.text == "true", token.text)
            return Const(token.text, token.text)
        raise ExpressionError(f"expected a field or a value, found {token.text or 'the end'!r}")


def _number(text: str) -> Value:
    if text.endswith("%"):
        return Decimal(text[:-1]) / 100
    return float(text) if "." in text else int(text)


def is_number(value: Value) -> bool:
    return isinstance(value, int | float | Decimal) and not isinstance(value, bool)


def parse(text: str, schema: FactSchema) -> Expr:
    """The tree of ``text`` (names checked against ``schema`` by ``check``)."""
    return _Parser(text, schema).whole()


def parse_guarded(text: str, schema: FactSchema) -> tuple[Expr, Expr | None]:
    """``value [where condition]``: an effect's value and the condition that selects what it
    assigns (a ``where`` inside ``sum(...)`` or a quantifier belongs to them)."""
    parser = _Parser(text, schema)
    value = parser.implication()
    where = None
    if parser.peek("where"):
        parser.take()
        where = parser.implication()
    if parser.tokens[parser.at].kind != "end":
        raise ExpressionError(f"unexpected {parser.tokens[parser.at].text!r}")
    return value, where


def free_refs(node: Expr) -> Iterator[Ref]:
    """The references in ``node`` that no quantifier binds (``item.price`` outside
    ``sum(item.price)``): they read the fact in focus, or the single fact of their kind."""
    if isinstance(node, Ref):
        yield node
    for child in children(node):
        bound = node.kind if isinstance(node, Quantified) else None
        yield from (r for r in free_refs(child) if r.kind != bound)


# ---- type checking -------------------------------------------------------------------------


def check(node: Expr, schema: FactSchema) -> str:
    """The type of ``node`` (number, text or true/false); raises ExpressionError naming the
    first unknown field or mismatch."""
    if isinstance(node, Ref):
        if node.kind not in schema.kinds:
            raise ExpressionError(
                f"unknown fact kind {node.kind!r} (known: {', '.join(schema.kinds)})"
            )
        spec = schema.field(node.kind, node.field)
        if spec is None:
            known = ", ".join(f"{node.kind}.{f}" for f in schema.kinds[node.kind].fields)
            raise ExpressionError(f"unknown fact field '{node.ref}' (known: {known})")
        return _TYPE_NAMES[spec.python_type]
    if isinstance(node, Const):
        values = node.value if isinstance(node.value, tuple) else (node.value,)
        types = {_value_type(v) for v in values}
        if len(types) > 1:
            raise ExpressionError(f"the list {node.text} mixes {' and '.join(sorted(types))}")
        return types.pop()
    if isinstance(node, Arith | Neg):
        for part in (node.left, node.right) if isinstance(node, Arith) else (node.operand,):
            if (kind := check(part, schema)) != NUMBER:
                raise ExpressionError(f"'{part}' is {a_type(kind)}; arithmetic needs numbers")
        return NUMBER
    if isinstance(node, Compare):
        _check_compare(node, schema)
        return BOOL
    if isinstance(node, Quantified):
        return _check_quantified(node, schema)
    parts = (
        node.operands
        if isinstance(node, Logic)
        else (node.operand,)
        if isinstance(node, Not)
        else (node.condition, node.then)
    )
    word = node.op if isinstance(node, Logic) else "not" if isinstance(node, Not) else "if/then"
    for part in parts:
        if (kind := check(part, schema)) != BOOL:
            raise ExpressionError(f"'{word}' joins conditions, but '{part}' is {a_type(kind)}")
    return BOOL


def _check_quantified(node: Quantified, schema: FactSchema) -> str:
    if not schema.kinds[node.kind].many:
        raise ExpressionError(
            f"'{node}' quantifies over {node.kind}, which is one fact, not a collection; "
            f"declare it with many: true in facts.yaml, or test {node.kind}'s fields directly"
        )
    for part, what in (
        (node.where, "where"),
        (node.body if node.op in ("all", "any") else None, ":"),
    ):
        if part is not None and (kind := check(part, schema)) != BOOL:
            raise ExpressionError(f"'{what}' takes a condition, but '{part}' is {a_type(kind)}")
    if node.op == "sum":
        assert node.body is not None
        if (kind := check(node.body, schema)) != NUMBER:
            raise ExpressionError(f"sum adds up numbers, but '{node.body}' is {a_type(kind)}")
    return BOOL if node.op in ("all", "any") else NUMBER


def _check_compare(node: Compare, schema: FactSchema) -> None:
    left, right = check(node.left, schema), check(node.right, schema)
    if left != right:
        raise ExpressionError(
            f"'{node.left}' is {a_type(left)} but is compared with {a_type(right)} '{node.right}'"
        )
    if node.op in ("<", "<=", ">", ">=") and left != NUMBER:
        raise ExpressionError(f"'{node.left}' is {a_type(left)}; '{node.op}' needs numbers")
    if left == BOOL and node.op not in ("==", "!="):
        raise ExpressionError(f"'{node.left}' is true/false; use == or !=")
    for side, other in ((node.left, node.right), (node.right, node.left)):
        if isinstance(side, Ref) and isinstance(other, Const):
            allowed = schema.field(side.kind, side.field).values  # type: ignore[union-attr]
            values = other.value if isinstance(other.value, tuple) else (other.value,)
            unknown = [v for v in values if allowed is not None and v not in allowed]
            if unknown:
                raise ExpressionError(
                    f"{side} is never {', '.join(map(repr, unknown))} "
                    f"(its values: {', '.join(allowed or ())})"
                )


_TYPE_NAMES = {int: NUMBER, float: NUMBER, str: TEXT, bool: BOOL}


def _value_type(value: Value) -> str:
    if isinstance(value, bool):
        return BOOL
    return NUMBER if is_number(value) else TEXT


def a_type(kind: str) -> str:
    return {NUMBER: "a number", TEXT: "text", BOOL: "true/false"}[kind]


# ---- evaluation ----------------------------------------------------------------------------


class _Unknown(Exception):
    """A value the expression needs is not known yet."""


def value_of(node: Expr, lookup: Lookup) -> Value:
    """The value of an arithmetic (or single) expression; None while a field is unknown,
    and a ZeroDivisionError for a division by zero."""
    try:
        return _code(node, VALUE)(lookup, ())
    except _Unknown:
        return None


def holds(node: Expr, lookup: Lookup) -> bool | None:
    """Whether the test holds: True, False, or None while it cannot be told. A division by
    zero makes its comparison fail (what cannot be computed is never granted)."""
    return _code(node, TRUTH)(lookup, ())


class Bound:
    """An environment with one member of a collection bound to its kind's name."""

    def __init__(self, outer: Env, kind: str, member: Mapping[str, Value]):
        self.outer, self.kind, self.member = outer, kind, member

    def value(self, kind: str, field: str) -> Value:
        return self.member.get(field) if kind == self.kind else self.outer.value(kind, field)

    def collection(self, kind: str) -> tuple[Mapping[str, Value], ...] | None:
        return self.outer.collection(kind)


def _members(node: Quantified, env: Env) -> list[tuple[bool | None, Bound]]:
    """(whether ``where`` selects it, the member bound) for each member; _Unknown while the
    collection itself is not known."""
    members = env.collection(node.kind)
    if members is None:
        raise _Unknown
    bound = [Bound(env, node.kind, m) for m in members]
    return [(True if node.where is None else holds(node.where, b), b) for b in bound]


def _decimal(value: Value) -> Value:
    """Numbers as decimals (from their shortest text, as money.cents reads them)."""
    if type(value) in (int, float):
        return _from_text(value)
    return value


def forget_numbers() -> None:
    """Forget the decimals read so far (novamart.kernel.decide.forget_decisions)."""
    _from_text.cache_clear()


@functools.lru_cache(maxsize=8_192, typed=True)
def _from_text(value: float) -> Decimal:
    """Prices and days recur from one decision to the next: each is read once."""
    return Decimal(str(value))


# ---- compiling -----------------------------------------------------------------------------
#
# An expression is evaluated by closures built from its tree once (a tree walk dispatching on
# each node's type cost most of a decision's kernel conditions). Each closure takes the
# environment and the members bound by the quantifiers around it, innermost last: a field of
# a kind a quantifier binds reads that member, any other the environment.

Code = Callable[[Env, tuple[Mapping[str, Value], ...]], Value]
VALUE, TRUTH = "_value_code", "_truth_code"
"""The two readings of a node (its value; whether it holds), kept on the node itself."""


def _code(node: Expr, reading: str) -> Code:
    code = node.__dict__.get(reading)
    if code is None:
        code = (_compile_value if reading == VALUE else _compile_truth)(node, ())
        object.__setattr__(node, reading, code)  # not a field: equality and hash ignore it
    return code


def _ref(node: Ref, scope: tuple[str, ...]) -> Callable[[Env, tuple], Value]:
    """The field's observed value (None when unknown), from its bound member or the env."""
    kind, name = node.kind, node.field
    if kind in scope:
        at = len(scope) - 1 - scope[::-1].index(kind)  # the innermost binding of the kind
        return lambda env, bound: bound[at].get(name)
    return lambda env, bound: env.value(kind, name)


_ARITHMETIC: dict[str, Callable[[Any, Any], Any]] = {
    "+": operator.add,
    "-": operator.sub,
    "*": operator.mul,
    "/": operator.truediv,
}


def _compile_value(node: Expr, scope: tuple[str, ...]) -> Code:
    """The closure computing ``node``'s value; it raises _Unknown while a field is unknown."""
    if isinstance(node, Ref):
        observed = _ref(node, scope)

        def field_value(env: Env, bound: tuple) -> Value:
            value = observed(env, bound)
            if value is None:
                raise _Unknown
            return _decimal(value)

        return field_value
    if isinstance(node, Const):
        constant = node.evaluated
        return lambda env, bound: constant
    if isinstance(node, Neg):
        operand = _compile_value(node.operand, scope)
        return lambda env, bound: -operand(env, bound)
    if isinstance(node, Quantified) and node.op in ("count", "sum"):
        return _aggregate(node, scope)
    if isinstance(node, Arith):
        left, right, apply = (
            _compile_value(node.left, scope),
            _compile_value(node.right, scope),
            _ARITHMETIC[node.op],
        )
        undefined = f"{node} divides by zero"

        def arithmetic(env: Env, bound: tuple) -> Value:
            a, b = left(env, bound), right(env, bound)
            try:
                return apply(a, b)
            except (DivisionByZero, InvalidOperation):
                raise ZeroDivisionError(undefined) from None

        return arithmetic
    raise TypeError(f"not a value: {node}")


def _selection(node: Quantified, scope: tuple[str, ...]) -> Code:
    """Whether ``where`` selects a member (bound last): True when there is no ``where``."""
    if node.where is None:
        return lambda env, bound: True
    return _compile_truth(node.where, (*scope, node.kind))


def _aggregate(node: Quantified, scope: tuple[str, ...]) -> Code:
    """count or sum: unknown while the collection, or any member's selection or summed
    value, is."""
    kind, selects = node.kind, _selection(node, scope)
    body = None if node.op == "count" else _compile_value(node.body, (*scope, kind))  # type: ignore[arg-type]

    def aggregate(env: Env, bound: tuple) -> Value:
        members = env.collection(kind)
        if members is None:
            raise _Unknown
        total = Decimal(0)
        for member in members:
            inner = (*bound, member)
            selected = selects(env, inner)
            if selected is None:
                raise _Unknown
            if selected:
                total += 1 if body is None else body(env, inner)
        return total

    return aggregate


def _quantify(node: Quantified, scope: tuple[str, ...]) -> Code:
    """all: every selected member holds ((not selected) or body), a False member decides;
    any: some selected member holds (selected and body), a True member decides. A member
    whose selection is unknown cannot decide, only leave the answer unknown."""
    assert node.body is not None
    kind, selects, body = (
        node.kind,
        _selection(node, scope),
        _compile_truth(node.body, (*scope, node.kind)),
    )
    decisive = node.op != "all"

    def quantify(env: Env, bound: tuple) -> bool | None:
        members = env.collection(kind)
        if members is None:
            return None
        unknown = False
        for member in members:
            inner = (*bound, member)
            selected = selects(env, inner)
            if selected is False:
                continue
            value = body(env, inner)
            if selected is None and value is decisive:
                value = None
            if value is decisive:
                return decisive
            unknown |= value is None
        return None if unknown else not decisive

    return quantify


def _compile_truth(node: Expr, scope: tuple[str, ...]) -> Code:
    """The closure telling whether ``node`` holds (None: it cannot be told yet)."""
    if isinstance(node, Compare):
        return _comparison(node, scope)
    if isinstance(node, Quantified):
        return _quantify(node, scope)
    if isinstance(node, Ref):  # a true/false field on its own
        observed = _ref(node, scope)

        def flag(env: Env, bound: tuple) -> bool | None:
            value = observed(env, bound)
            return None if value is None else bool(value)

        return flag
    if isinstance(node, Const):
        constant = bool(node.value)
        return lambda env, bound: constant
    if isinstance(node, Not):
        operand = _compile_truth(node.operand, scope)

        def negation(env: Env, bound: tuple) -> bool | None:
            inner = operand(env, bound)
            return None if inner is None else not inner

        return negation
    if isinstance(node, Implies):
        condition, then = _compile_truth(node.condition, scope), _compile_truth(node.then, scope)

        def implication(env: Env, bound: tuple) -> bool | None:
            unless = _not(condition(env, bound))
            return True if unless is True else _either(unless, then(env, bound))

        return implication
    if isinstance(node, Logic):
        return _logic(node.op == "or", tuple(_compile_truth(o, scope) for o in node.operands))
    raise TypeError(f"not a test: {node}")


def _comparison(node: Compare, scope: tuple[str, ...]) -> Code:
    left, right, compare = (
        _compile_value(node.left, scope),
        _compile_value(node.right, scope),
        _COMPARE[node.op],
    )

    def comparison(env: Env, bound: tuple) -> bool | None:
        try:
            a, b = left(env, bound), right(env, bound)
        except _Unknown:
            return None
        except ZeroDivisionError:
            return False
        return compare(a, b)

    return comparison


def _logic(stop: bool, operands: tuple[Code, ...]) -> Code:
    """``or`` (``stop`` True: a True operand decides) or ``and`` (a False one decides)."""

    def logic(env: Env, bound: tuple) -> bool | None:
        unknown = False
        for operand in operands:
            value = operand(env, bound)
            if value is stop:
                return stop
            unknown |= value is None
        return None if unknown else not stop

    return logic


def _either(a: bool | None, b: bool | None) -> bool | None:
    """``a or b`` when either may be unknown (``a`` already not true)."""
    if b is True:
        return True
    return None if a is None or b is None else False


def _not(value: bool | None) -> bool | None:
    return None if value is None else not value


COMPARISONS: dict[str, Callable[[Any, Any], bool]] = {
    "==": operator.eq,
    "!=": operator.ne,
    "<": operator.lt,
    "<=": operator.le,
    ">": operator.gt,
    ">=": operator.ge,
}


_COMPARE: dict[str, Callable[[Any, Any], bool]] = {
    **COMPARISONS,
    "in": lambda a, b: a in b,
    "not in": lambda a, b: a not in b,
}


# ---- saying what failed --------------------------------------------------------------------


def failure(node: Expr, lookup: Lookup) -> str:
    """The part of a failed test that failed, with the values it saw: for 'and' the first
    part that fails, for 'or' every alternative, for 'if' the consequence that failed."""
    if isinstance(node, Logic) and node.op == "and":
        failed = next(o for o in node.operands if holds(o, lookup) is False)
        return failure(failed, lookup)
    if isinstance(node, Logic):
        return "; ".join(failure(o, lookup) for o in node.operands)
    if isinstance(node, Implies):
        return f"{failure(node.then, lookup)} (as {node.condition})"
    if isinstance(node, Not):
        shown = _shown(node.operand, lookup)
        return shown if isinstance(node.operand, Ref) else f"{shown} holds"
    if isinstance(node, Ref):
        return f"{node} is false"
    if isinstance(node, Quantified):
        return _quantified_failure(node, lookup)
    assert isinstance(node, Compare)
    try:
        a, b = value_of(node.left, lookup), value_of(node.right, lookup)
    except ZeroDivisionError as e:
        return str(e)
    left = _seen(node.left, a)
    right = _seen(node.right, b)
    return f"{left} is not {node.op} {right}"


def _quantified_failure(node: Quantified, env: Env) -> str:
    """'all': each selected member that fails, named by its id; 'any': that none holds."""
    if node.op == "any":
        where = f" where {node.where}" if node.where is not None else ""
        return f"no {node.kind}{where} has {node.body}"
    assert node.body is not None
    failed = [
        f"{node.kind} {m.member.get(node.key)}: {failure(node.body, m)}"
        for selected, m in _members(node, env)
        if selected and holds(node.body, m) is False
    ]
    return "; ".join(failed)


def _shown(node: Expr, lookup: Lookup) -> str:
    if isinstance(node, Compare):
        a, b = value_of(node.left, lookup), value_of(node.right, lookup)
        return f"{_seen(node.left, a)} {node.op} {_seen(node.right, b)}"
    return f"{node} is true" if isinstance(node, Ref) else str(node)


def _seen(node: Expr, value: Value) -> str:
    """A side of a comparison as the analyst wrote it, with its value when that differs."""
    if isinstance(node, Const):
        return node.text
    shown = _plain(value)
    return f"{node} ({shown})" if shown != str(node) else shown


def _plain(value: Value) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, Decimal):
        return f"{value:f}".rstrip("0").rstrip(".") if "." in f"{value:f}" else f"{value:f}"
    return str(value)
