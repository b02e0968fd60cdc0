"""Conditions, amounts and effects of a rulebook of declared resolutions, in words an agent
can follow ("every item named in the request: it was not sold as final").

The words come from the rulebook: a true/false field reads as its ``describe`` in facts.yaml
("whether it was sold as final" -> "it was sold as final"), any other field as the fact's own
name ("the order's status"), values and numbers as written. Only the grammar (every, some,
the total of, becomes) is written here. The shipped rulebook's articles keep their own words
(novamart.kb.policies); this is for rulebooks whose resolutions declare calls.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from novamart.kb.policies import FALLBACK_WORDS, condition_words
from novamart.kernel import FactSchema
from novamart.kernel import expressions as ex
from novamart.kernel.conditions import ExprTest, FieldTest, Test
from novamart.kernel.declared import EVENT_KIND, RESERVED
from novamart.kernel.effects import REQUEST_KIND, SELECTED, Effect

_OPS = condition_words()[1]
_ARITHMETIC = {"+": "plus", "-": "minus", "*": "times", "/": "divided by"}
_VERBS = ("is", "was", "has", "are", "can", "must")
"""The first of these in a statement takes the 'not' of a negation."""
ASKS = RESERVED[1]
"""The request's field naming the resolution asked for (``request.resolution``)."""
_IT = re.compile(r"\bit\b")
NAMED = "named in the request"
"""How a member the call names (``item.selected``) is spoken of."""


def words(name: object) -> str:
    """A rulebook name as words: return_items -> return items (a value is kept as written)."""
    return str(name).replace("_", " ")


def value_words(value: object) -> str:
    if isinstance(value, tuple):
        return ", ".join(map(str, value))
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


@dataclass(frozen=True)
class Phrases:
    """The phrasing of one rulebook's facts; ``member`` is the collection kind a quantifier
    has in scope (its fields read 'its status', 'it was sold as final')."""

    schema: FactSchema
    member: str | None = None

    def inside(self, kind: str) -> Phrases:
        return Phrases(self.schema, kind)

    # ---- fields -----------------------------------------------------------------------

    def statement(self, ref: ex.Ref) -> str:
        """A true/false field as the statement it makes when true."""
        spec = self.schema.field(ref.kind, ref.field)
        if ref.field == SELECTED:
            return f"it is {NAMED}" if ref.kind == self.member else f"the {ref.kind} is {NAMED}"
        said = spec.describe.removeprefix("whether ") if spec is not None else ""
        if not said:
            return f"{self.noun(ref)} is true"
        if said.startswith("it ") and ref.kind != self.member:
            return f"the {words(ref.kind)} {said.removeprefix('it ')}"
        return said

    def negated(self, ref: ex.Ref) -> str:
        said = self.statement(ref).split(" ")
        for i, word in enumerate(said):
            if word in _VERBS:
                if word == "can":
                    return " ".join([*said[:i], "cannot", *said[i + 1 :]])
                return " ".join([*said[: i + 1], "not", *said[i + 1 :]])
        return f"it is not the case that {' '.join(said)}"

    def noun(self, ref: ex.Ref) -> str:
        """Any other field: its ``describe`` when that names it ('the payment method that paid
        for the order'), else the fact's own name for it ('the order's status')."""
        if ref.kind == REQUEST_KIND:
            return f"the {words(ref.field)} asked for"
        spec = self.schema.field(ref.kind, ref.field)
        if spec is not None and spec.describe.startswith("the "):
            return spec.describe
        field = words(ref.field.removeprefix(f"{ref.kind}_"))
        if ref.kind == self.member:
            return f"its {field}"
        return f"the {words(ref.kind)}'s {field}"

    def _is_bool(self, node: ex.Expr) -> bool:
        if not isinstance(node, ex.Ref):
            return False
        spec = self.schema.field(node.kind, node.field)
        return node.field == SELECTED or (spec is not None and spec.type == "bool")

    # ---- expressions ------------------------------------------------------------------

    def say(self, node: ex.Expr) -> str:
        """An expression in plain words."""
        if isinstance(node, ex.Ref):
            return self.statement(node) if self._is_bool(node) else self.noun(node)
        if isinstance(node, ex.Const):
            if node.text.endswith("%"):
                return f"{node.text[:-1]} percent of"
            if isinstance(node.value, tuple):
                return value_words(node.value)
            return node.text.strip("'\"")
        if isinstance(node, ex.Arith):
            left, right = self.say(node.left), self.say(node.right)
            if right.endswith(" percent of"):
                return f"{right} {left}"
            return f"{left} {_ARITHMETIC[node.op]} {right}"
        if isinstance(node, ex.Neg):
            return f"minus {self.say(node.operand)}"
        if isinstance(node, ex.Compare):
            return self._compare(node)
        if isinstance(node, ex.Logic):
            parts = [self._part(o) for o in node.operands]
            return ("either " if node.op == "or" else "") + f" {node.op} ".join(parts)
        if isinstance(node, ex.Not):
            if self._is_bool(node.operand):
                assert isinstance(node.operand, ex.Ref)
                return self.negated(node.operand)
            return f"it is not the case that {self.say(node.operand)}"
        if isinstance(node, ex.Quantified):
            return self._quantified(node)
        assert isinstance(node, ex.Implies)
        return f"if {self.say(node.condition)}, then {self.say(node.then)}"

    def _part(self, node: ex.Expr) -> str:
        """An operand of and/or: a nested and/or in parentheses, so the grouping survives."""
        said = self.say(node)
        grouped = isinstance(node, ex.Logic | ex.Implies) or (
            isinstance(node, ex.Quantified) and node.op in ("all", "any")
        )
        return f"({said})" if grouped else said

    def _compare(self, node: ex.Compare) -> str:
        left, right = node.left, node.right
        if isinstance(left, ex.Ref) and left.kind == REQUEST_KIND and left.field == ASKS:
            asked = words(self.say(right))
            return {
                "==": f"the customer asks for {asked}",
                "!=": f"the customer does not ask for {asked}",
                "in": f"the customer asks for one of {asked}",
                "not in": f"the customer asks for none of {asked}",
            }[node.op]
        if self._is_bool(left) and isinstance(right, ex.Const) and isinstance(right.value, bool):
            assert isinstance(left, ex.Ref)
            truth = (node.op == "==") == right.value
            return self.statement(left) if truth else self.negated(left)
        return f"{self.say(left)} {_OPS[node.op]} {self.say(right)}"

    def _quantified(self, node: ex.Quantified) -> str:
        kind = words(node.kind)
        which = self._which(node)
        if node.op == "count":
            return f"the number of {kind}s{which}"
        assert node.body is not None
        if node.op == "sum":
            inner = Phrases(self.schema, None)
            summed = inner.say(node.body).replace(f"the {kind}'s ", "the ")
            summed = _IT.sub("each", summed)  # 'the price paid for it': for each of them
            return f"the total of {summed} over the {kind}s{which}"
        body = self.inside(node.kind).say(node.body)
        if node.op == "all":
            return f"every {kind}{which or ' of the order'}: {body}"
        return f"some {kind}{which}: {body}"

    def _which(self, node: ex.Quantified) -> str:
        where = node.where
        if where is None:
            return ""
        if isinstance(where, ex.Ref) and where.field == SELECTED:
            return f" {NAMED}"
        return f" where {self.inside(node.kind).say(where)}"

    # ---- conditions and effects -------------------------------------------------------

    def condition(self, test: Test) -> str:
        if isinstance(test, ExprTest):
            return self.say(test.expr)
        if isinstance(test, FieldTest):
            ref = ex.Ref(test.kind, test.field)
            const = ex.Const(test.value, value_words(test.value))
            return self.say(ex.Compare(test.op, ref, const))
        return FALLBACK_WORDS

    def effect(self, effect: Effect) -> str:
        """``order.status = 'return requested'`` -> the order's status becomes return
        requested; a collection's effect says which members."""
        target = ex.Ref(effect.kind, effect.field)
        many = self.schema.kinds[effect.kind].many
        scope = self.inside(effect.kind) if many else self
        if isinstance(effect.value, ex.Const) and isinstance(effect.value.value, bool):
            said = scope.statement(target)
            change = f"{said} holds" if effect.value.value else f"'{said}' no longer holds"
            if effect.kind == EVENT_KIND and not effect.value.value:
                change += f": it must happen again before another call that requires {effect.field}"
        else:
            change = f"{scope.noun(target)} becomes {scope.say(effect.value)}"
        if effect.where is None:
            return change
        if many:
            if isinstance(effect.where, ex.Const) and effect.where.value is True:
                return f"for every {words(effect.kind)} of the order, {change}"
            if isinstance(effect.where, ex.Ref) and effect.where.field == SELECTED:
                return f"for each {words(effect.kind)} {NAMED}, {change}"
            return f"for each {words(effect.kind)} where {scope.say(effect.where)}, {change}"
        return f"{change}, when {self.say(effect.where)}"
