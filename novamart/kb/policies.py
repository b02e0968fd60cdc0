"""Help-centre articles rendered from the rule files, so they cannot disagree with the kernel.

Each policy becomes one article: its clause, its conditions in plain words, and what it
grants. The numbers a customer reads (windows, percentages) come from the same Rulebook the
kernel decides with.
"""

from __future__ import annotations

from novamart.kb.article import Article
from novamart.kernel import expressions as ex
from novamart.kernel.conditions import ExprTest, FieldTest, ScopeTest
from novamart.kernel.rulebook import Amount, Policy, Rulebook

_OPS = {
    "<=": "is at most",
    ">=": "is at least",
    "<": "is less than",
    ">": "is more than",
    "==": "is",
    "!=": "is not",
    "in": "is one of",
    "not in": "is not one of",
}
_FIELDS = {
    "order.days_since_purchase": "the number of days since purchase",
    "order.opened": "the item has been opened",
    "order.price": "the purchase price",
    "customer.tier": "the customer's loyalty tier",
    "defect_check.verified": "the defect check confirmed a defect",
    "ticket.battery_swelling": "the customer reports a swollen or bulging battery",
    "ticket.burning_smell": "the customer reports a burning smell, smoke or dangerous overheating",
    "ticket.legal_threat": "the customer threatens legal action",
    "ticket.account_takeover": "someone else has taken over the customer's account",
    "ticket.payment_fraud": "the customer reports payments they never made",
}


FALLBACK_WORDS = "no other policy offers a resolution for the case"
OVERRIDES_WORDS = (
    "When it applies, it overrides every other policy: only its resolution is offered."
)


def condition_words() -> tuple[dict[str, str], dict[str, str]]:
    """The words conditions are written in: fact field -> phrase, operator -> phrase."""
    return dict(_FIELDS), dict(_OPS)


def article_id(policy: str) -> str:
    """The citable id of a policy article, e.g. KB-POLICY-STANDARD-RETURN."""
    return "KB-POLICY-" + policy.upper().replace("_", "-")


def _field(ref: str) -> str:
    return _FIELDS.get(ref, ref.replace(".", " ").replace("_", " "))


def _value(value: object) -> str:
    if isinstance(value, tuple):
        return ", ".join(map(str, value))
    return str(value).lower()


_ARITHMETIC = {"+": "plus", "-": "minus", "*": "times", "/": "divided by"}


def describe_expression(node: ex.Expr) -> str:
    """An expression in plain words ('the gift card balance is at least the new price minus
    the purchase price')."""
    if isinstance(node, ex.Ref):
        return _field(node.ref)
    if isinstance(node, ex.Const):
        if node.text.endswith("%"):
            return f"{node.text[:-1]} percent of"
        return _value(node.value) if isinstance(node.value, tuple) else node.text.strip("'\"")
    if isinstance(node, ex.Arith):
        left, right = describe_expression(node.left), describe_expression(node.right)
        if right.endswith(" percent of"):  # price * 10%: 10 percent of the price
            return f"{right} {left}"
        return f"{left} {_ARITHMETIC[node.op]} {right}"
    if isinstance(node, ex.Neg):
        return f"minus {describe_expression(node.operand)}"
    if isinstance(node, ex.Compare):
        left, right = describe_expression(node.left), describe_expression(node.right)
        return f"{left} {_OPS[node.op]} {right}"
    if isinstance(node, ex.Logic):
        parts = [describe_expression(o) for o in node.operands]
        return ("either " if node.op == "or" else "") + f" {node.op} ".join(parts)
    if isinstance(node, ex.Not):
        return f"it is not the case that {describe_expression(node.operand)}"
    if isinstance(node, ex.Quantified):
        return _describe_quantified(node)
    assert isinstance(node, ex.Implies)
    return f"if {describe_expression(node.condition)}, then {describe_expression(node.then)}"


def _describe_quantified(node: ex.Quantified) -> str:
    kind = node.kind.replace("_", " ")
    where = f" where {describe_expression(node.where)}" if node.where is not None else ""
    if node.op == "count":
        return f"the number of {kind}s{where}"
    if node.op == "sum":
        assert node.body is not None
        return f"the total of {describe_expression(node.body)} over the {kind}s{where}"
    assert node.body is not None
    every = "every" if node.op == "all" else "some"
    return f"for {every} {kind}{where}: {describe_expression(node.body)}"


def describe_condition(test: object) -> str:
    """One condition in plain words ('the number of days since purchase is at most 30')."""
    if isinstance(test, ExprTest):
        return describe_expression(test.expr)
    if not isinstance(test, FieldTest):
        return FALLBACK_WORDS
    if isinstance(test.value, bool):
        truth = (test.op == "==") == test.value
        return _field(test.ref) if truth else f"it is not the case that {_field(test.ref)}"
    return f"{_field(test.ref)} {_OPS[test.op]} {_value(test.value)}"


def describe_amount(amount: Amount) -> str:
    if amount.expression is not None:
        base: str | None = describe_expression(amount.expression)
    else:
        base = _field(amount.field) if amount.field else None
    if base and amount.percent:
        parts = [f"{p:g} percent for {k}" for k, p in amount.percent.items()]
        return f"{' and '.join(parts)} of {base}"
    if base:
        return base
    return f"${amount.constant:.2f}" if amount.constant else "no payment"


def render_policy(policy: Policy, rulebook: Rulebook, questions: list[str]) -> Article:
    """The help-centre article of one policy."""
    conditions = "\n".join(
        f"- {describe_condition(c.test)}"
        for c in policy.conditions
        if not isinstance(c.test, ScopeTest)
    )
    grants = "\n".join(
        f"- {g.resolution.replace('_', ' ')}: {rulebook.resolutions[g.resolution].description} "
        f"Amount: {describe_amount(g.amount)}."
        for g in policy.grants
    )
    title = policy.name.replace("_", " ").capitalize() + " policy"
    when = "any of these holds" if policy.any_condition else "all of these hold"
    if policy.for_each:
        when = f"{when}, decided for each {policy.for_each.replace('_', ' ')} on its own"
    body = f"{policy.clause}\n\nThis applies when {when}:\n{conditions}\n\n"
    body += f"What you can get:\n{grants}\n"
    if policy.overrides:
        body += OVERRIDES_WORDS + "\n"
    return Article(
        id=article_id(policy.name),
        title=title,
        category="policy",
        tags=[
            policy.name.replace("_", " "),
            *(g.resolution.replace("_", " ") for g in policy.grants),
        ],
        answer=policy.clause,
        questions=questions,
        body=body,
        source=policy.file,
    )
