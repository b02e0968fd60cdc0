"""Help-centre articles rendered from the rule files, so they cannot disagree with the kernel.

Each policy becomes one article: its clause, its conditions in plain words, and what it
grants. The numbers a customer reads (windows, percentages) come from the same Rulebook the
kernel decides with.
"""

from __future__ import annotations

from novamart.kb.article import Article
from novamart.kernel.conditions import FieldTest
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


def describe_condition(test: object) -> str:
    """One condition in plain words ('the number of days since purchase is at most 30')."""
    if not isinstance(test, FieldTest):
        return FALLBACK_WORDS
    if isinstance(test.value, bool):
        truth = (test.op == "==") == test.value
        return _field(test.ref) if truth else f"it is not the case that {_field(test.ref)}"
    return f"{_field(test.ref)} {_OPS[test.op]} {_value(test.value)}"


def describe_amount(amount: Amount) -> str:
    if amount.percent and amount.field:
        parts = [f"{p:g} percent for {k}" for k, p in amount.percent.items()]
        return f"{' and '.join(parts)} of {_field(amount.field)}"
    if amount.field:
        return _field(amount.field)
    return f"${amount.constant:.2f}" if amount.constant else "no payment"


def render_policy(policy: Policy, rulebook: Rulebook, questions: list[str]) -> Article:
    """The help-centre article of one policy."""
    conditions = "\n".join(f"- {describe_condition(c.test)}" for c in policy.conditions)
    grants = "\n".join(
        f"- {g.resolution.replace('_', ' ')}: {rulebook.resolutions[g.resolution].description} "
        f"Amount: {describe_amount(g.amount)}."
        for g in policy.grants
    )
    title = policy.name.replace("_", " ").capitalize() + " policy"
    when = "any of these holds" if policy.any_condition else "all of these hold"
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
