"""The compiled evaluation of expressions agrees with a plain tree-walking reading of them.

The kernel evaluates a test through closures compiled once from its tree (for speed). The
reference below walks the tree instead, node by node, as the language is specified: Kleene's
three-valued logic (unknown unless the known part decides), numbers in decimal, a division by
zero failing its comparison, ``all``/``any``/``count``/``sum`` over a collection with a
``where`` that may itself be unknown, and a quantified kind shadowing the fact in focus.
Random trees over a small vocabulary, random (partly unknown) worlds: both readings must give
the same answer, or raise the same error.
"""

from __future__ import annotations

from collections.abc import Mapping
from decimal import Decimal
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from novamart.kernel.expressions import (
    Arith,
    Compare,
    Const,
    Expr,
    Implies,
    Logic,
    Neg,
    Not,
    Quantified,
    Ref,
    holds,
    value_of,
)
from tests.kernel.test_property import OPS  # the relations, read without the kernel

STATUSES = ("pending", "delivered", "cancelled")


class World:
    """One order, the item in focus, and the order's items (None: not looked up yet)."""

    def __init__(self, order: dict, focus: dict, items: tuple[dict, ...] | None):
        self.singles = {"order": order, "item": focus}
        self.items = items

    def value(self, kind: str, field: str) -> Any:
        return self.singles[kind].get(field)

    def collection(self, kind: str) -> tuple[Mapping[str, Any], ...] | None:
        return self.items if kind == "item" else None

    def __repr__(self) -> str:
        return f"World({self.singles}, items={self.items})"


class Unknown(Exception):
    pass


def number(value: Any) -> Any:
    if isinstance(value, int | float) and not isinstance(value, bool):
        return Decimal(str(value))
    return value


def reference_value(node: Expr, env: Any, bound: dict[str, Mapping]) -> Any:
    """The value of ``node``; Unknown while a field it needs is, ZeroDivisionError for /0."""
    if isinstance(node, Ref):
        value = (bound[node.kind] if node.kind in bound else env.singles[node.kind]).get(node.field)
        if value is None:
            raise Unknown
        return number(value)
    if isinstance(node, Const):
        return (
            tuple(map(number, node.value)) if isinstance(node.value, tuple) else number(node.value)
        )
    if isinstance(node, Neg):
        return -reference_value(node.operand, env, bound)
    if isinstance(node, Arith):
        a = reference_value(node.left, env, bound)
        b = reference_value(node.right, env, bound)
        if node.op == "/" and b == 0:
            raise ZeroDivisionError
        return {"+": a + b, "-": a - b, "*": a * b}[node.op] if node.op != "/" else a / b
    assert isinstance(node, Quantified) and node.op in ("count", "sum")
    members = env.collection(node.kind)
    if members is None:
        raise Unknown
    total = Decimal(0)
    for member in members:
        inner = {**bound, node.kind: member}
        selected = True if node.where is None else reference_truth(node.where, env, inner)
        if selected is None:
            raise Unknown
        if selected:
            total += 1 if node.op == "count" else reference_value(node.body, env, inner)
    return total


def reference_truth(node: Expr, env: Any, bound: dict[str, Mapping]) -> bool | None:
    """Whether ``node`` holds: True, False, or None (unknown)."""
    if isinstance(node, Compare):
        try:
            a = reference_value(node.left, env, bound)
            b = reference_value(node.right, env, bound)
        except Unknown:
            return None
        except ZeroDivisionError:
            return False
        return OPS[node.op](a, b)
    if isinstance(node, Ref):
        value = (bound[node.kind] if node.kind in bound else env.singles[node.kind]).get(node.field)
        return None if value is None else bool(value)
    if isinstance(node, Const):
        return bool(node.value)
    if isinstance(node, Not):
        inner = reference_truth(node.operand, env, bound)
        return None if inner is None else not inner
    if isinstance(node, Implies):
        return kleene_or(
            [
                kleene_not(reference_truth(node.condition, env, bound)),
                reference_truth(node.then, env, bound),
            ]
        )
    if isinstance(node, Logic):
        values = [reference_truth(o, env, bound) for o in node.operands]
        return kleene_or(values) if node.op == "or" else kleene_and(values)
    assert isinstance(node, Quantified) and node.op in ("all", "any")
    members = env.collection(node.kind)
    if members is None:
        return None
    values = []
    for member in members:
        inner = {**bound, node.kind: member}
        selected = True if node.where is None else reference_truth(node.where, env, inner)
        body = reference_truth(node.body, env, inner)
        if node.op == "all":  # every member: not selected, or the body holds
            values.append(kleene_or([kleene_not(selected), body]))
        else:  # some member: selected and the body holds
            values.append(kleene_and([selected, body]))
    return kleene_and(values) if node.op == "all" else kleene_or(values)


def kleene_not(value: bool | None) -> bool | None:
    return None if value is None else not value


def kleene_or(values: list[bool | None]) -> bool | None:
    if True in values:
        return True
    return None if None in values else False


def kleene_and(values: list[bool | None]) -> bool | None:
    if False in values:
        return False
    return None if None in values else True


# ---- random trees and worlds -----------------------------------------------------------------

maybe = lambda values: st.one_of(st.none(), values)  # noqa: E731
money = st.sampled_from([0, 1, 2, 5, 0.5, 0.1, 0.2, 99.99, -3])
fields = {
    "price": maybe(money),
    "opened": maybe(st.booleans()),
    "status": maybe(st.sampled_from(STATUSES)),
}
record = st.fixed_dictionaries({}, optional=fields)
worlds = st.builds(
    World,
    record,
    record,
    maybe(st.lists(record, max_size=3).map(tuple)),
)


def const(value: Any) -> Const:
    return Const(value, str(value))


def quantified(op: str, where: Expr | None, body: Expr | None) -> Quantified:
    return Quantified(op, "item", "item_id", where, body)


conditions = st.deferred(lambda: st.one_of(tests, compounds))
numbers = st.deferred(
    lambda: st.one_of(
        money.map(const),
        st.sampled_from([Ref("order", "price"), Ref("item", "price")]),
        st.builds(Arith, st.sampled_from("+-*/"), numbers, numbers),
        st.builds(Neg, numbers),
        st.builds(quantified, st.just("sum"), maybe(conditions), numbers),
        st.builds(quantified, st.just("count"), maybe(conditions), st.none()),
    )
)
texts = st.one_of(
    st.sampled_from(STATUSES).map(const),
    st.sampled_from([Ref("order", "status"), Ref("item", "status")]),
)
tests = st.one_of(
    st.sampled_from([Ref("order", "opened"), Ref("item", "opened"), const(True), const(False)]),
    st.builds(Compare, st.sampled_from(["==", "!=", "<", "<=", ">", ">="]), numbers, numbers),
    st.builds(Compare, st.sampled_from(["==", "!="]), texts, texts),
    st.builds(
        Compare,
        st.sampled_from(["in", "not in"]),
        texts,
        st.lists(st.sampled_from(STATUSES), min_size=1, max_size=2).map(
            lambda v: Const(tuple(v), f"[{', '.join(v)}]")
        ),
    ),
)
compounds = st.one_of(
    st.builds(
        Logic,
        st.sampled_from(["and", "or"]),
        st.lists(conditions, min_size=2, max_size=3).map(tuple),
    ),
    st.builds(Not, conditions),
    st.builds(Implies, conditions, conditions),
    st.builds(quantified, st.sampled_from(["all", "any"]), maybe(conditions), conditions),
)


def outcome(evaluate: Any) -> Any:
    """What an evaluation gives, or the kind of error it raises."""
    try:
        return evaluate()
    except ZeroDivisionError:
        return ZeroDivisionError


@settings(max_examples=600, deadline=None)
@given(conditions, worlds)
def test_a_condition_holds_as_the_reference_reads_it(node: Expr, world: World) -> None:
    assert holds(node, world) is reference_truth(node, world, {})
    assert holds(node, world) is reference_truth(node, world, {})  # the cached code again


@settings(max_examples=300, deadline=None)
@given(tests, worlds)
def test_a_single_comparison_holds_as_the_reference_reads_it(node: Expr, world: World) -> None:
    """Where a compound would hide it: a comparison that divides by zero fails, not unknown."""
    assert holds(node, world) is reference_truth(node, world, {})


@settings(max_examples=600, deadline=None)
@given(numbers, worlds)
def test_an_amount_has_the_value_the_reference_gives(node: Expr, world: World) -> None:
    def reference() -> Any:
        try:
            return reference_value(node, world, {})
        except Unknown:
            return None

    assert outcome(lambda: value_of(node, world)) == outcome(reference)


def test_an_inner_quantifier_shadows_the_outer_and_the_focus() -> None:
    """all item: any item where item.opened: item.price > 1: the inner item is its own."""
    inner = quantified("any", Ref("item", "opened"), Compare(">", Ref("item", "price"), const(1)))
    node = quantified("all", None, inner)
    items = ({"price": 5, "opened": True}, {"price": 0, "opened": False})
    world = World({}, {"price": 0, "opened": True}, items)
    assert holds(node, world) is True
    assert reference_truth(node, world, {}) is True
    flat = World({}, {}, ({"price": 0, "opened": True},))
    assert holds(node, flat) is False
