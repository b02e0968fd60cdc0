"""Consequential content found by its structure, not its vocabulary (issue 18).

The lexicon knows the rulebook's words for resolutions and facts; a message can say the same
in other words. A clause that gives the customer something of value, reverses what they paid,
reports a finding about the item or says an action was taken is a claim whether or not the
lexicon knows its words. Its shapes:

- **money back**: a transfer or outcome verb with the customer's money, card, bank, payment
  or the amount as what moves ("returned to your card", "sent $X to your bank", "you'll get
  the full amount back"), or a reversal of what was charged ("voided the charge", "the
  charge is gone", "cancelled the order", "a chargeback");
- **value**: a benefit noun (cash, a discount, a code, free shipping, an upgrade, points, a
  gift, compensation) or an amount of money given to the customer;
- **finding**: a finding verb with a fault noun ("our technician confirmed a hardware
  failure", "the diagnostics detected a faulty board"), or an approval ("your claim has been
  approved").

Each is resolved to what the rules know when its shape says which (money back is the
lexicon's refund, a credit to the customer's account its store credit, a fault finding the
fact whose phrases speak of a defect); what cannot be resolved is unverifiable.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass
from typing import Literal

from novamart.language.lexicon import Lexicon, phrase_lemmas
from novamart.language.text import Clause, lemma


def lemmaset(text: str) -> frozenset[str]:
    """The lemmas of the words and of their inflections ("wire", "wired", "wiring"), since
    the light lemmatiser does not always bring an inflection back to its word."""
    return frozenset(
        lemma(form) for w in text.split() for form in (w, f"{w}s", f"{w}ed", f"{w}d", f"{w}ing")
    )


TRANSFER = lemmaset(
    "send give return refund credit transfer wire deposit pay reimburse compensate issue grant "
    "provide get receive owe put release add load land come go apply award offer hand mail "
    "post move restore way head"
)
REVERSAL = (
    "void", "revers", "cancel", "waiv", "nullif", "annul", "remov", "wip", "undo", "undon",
    "eras", "scrap", "forgiv", "chargeback", "refund", "gone", "disappear", "drop", "withdr",
    "strik",
)  # fmt: skip
CHARGED = lemmaset("charge payment transaction bill fee debit invoice purchase order")
ROUTE = lemmaset("card bank statement paypal method payment")
ACCOUNT = lemmaset("account balance wallet")
MONEY = lemmaset("money fund amount sum cash total price everything")
BENEFIT = lemmaset(
    "cash discount coupon promo complimentary upgrade bonus reward rebate cashback "
    "compensation freebie waiver chargeback"
)
NOT_FREE = lemmaset("feel be are is free")
"""Before "free", these make it a permission ("feel free to"), not a benefit."""
FINDING = lemmaset(
    "confirm find detect identify show reveal diagnose determine establish verify discover "
    "indicate conclude prove flag spot trace"
)
FAULT = lemmaset(
    "defect defective fault faulty failure fail malfunction damage damaged broken flaw flawed crack"
)
APPROVAL = lemmaset("approve authorise authorize grant sanction")
CUSTOMER = frozenset({"you", "your", "yours", "yourself"})
POINTS = frozenset({"points", "miles", "stars"})

CUES = (
    TRANSFER
    | CHARGED
    | ROUTE
    | ACCOUNT
    | MONEY
    | BENEFIT
    | FINDING
    | FAULT
    | APPROVAL
    | POINTS
    | {"free", "off", "on"}
)
"""A clause with none of these words (and no amount) has no consequential shape: most
clauses are ruled out by one set comparison."""

BENEFIT_NOTE = "a benefit no rule grants"

Kind = Literal["resolution", "fact", "unverifiable"]


@dataclass(frozen=True, slots=True)
class Consequence:
    """What a consequential clause is about: a resolution or a fact ``target`` (a fact's
    value: True), or unverifiable (``target`` says what it is)."""

    kind: Kind
    target: str


@dataclass(frozen=True, slots=True)
class Targets:
    """The rulebook's resolutions and fact these shapes resolve to (from its lexicon)."""

    money_back: str | None
    account_credit: str | None
    fault: str | None


@functools.lru_cache(maxsize=64)
def targets(lexicon: Lexicon) -> Targets:
    return Targets(
        money_back=_named(lexicon, "refund"),
        account_credit=_named(lexicon, "account credit"),
        fault=next(
            (
                p.target
                for bucket in lexicon.facts.values()
                for p in bucket
                if p.value is True and {"defect", "fault"} & set(p.lemmas)
            ),
            None,
        ),
    )


def _named(lexicon: Lexicon, words: str) -> str | None:
    lemmas = phrase_lemmas(words)
    bucket = lexicon.resolutions.get(lemmas[0], [])
    return next((p.target for p in bucket if p.lemmas == lemmas and p.value is None), None)


def _reversal(vocabulary: frozenset[str]) -> bool:
    return any(w.startswith(REVERSAL) for w in vocabulary)


def _free(words: list[str]) -> bool:
    """ "free shipping", "for free", "free of charge"; not "feel free to", "free to choose"."""
    return any(
        w == "free" and (i == 0 or words[i - 1] not in NOT_FREE) and words[i + 1 : i + 2] != ["to"]
        for i, w in enumerate(words)
    )


ON_US = (("on", "us"), ("on", "the", "house"))


def _percent_off(words: list[str]) -> bool:
    return "off" in words and ("%" in words or "percent" in words)


def _on_us(words: list[str]) -> bool:
    """ "your next delivery is on us", "this one's on the house"."""
    return any(
        tuple(words[i : i + len(p)]) == p
        for p in ON_US
        for i in range(len(words))
        if words[i] == "on"
    )


def extra_benefit(clause: Clause, named: frozenset[int] = frozenset()) -> bool:
    """Whether the clause names a benefit no rule grants (a discount, points, free shipping,
    "on us"), also beside a resolution it names ("I've credited 5,000 loyalty points");
    words at positions ``named`` (a resolution's own name: "a cash refund") do not count."""
    words, vocabulary = clause.words, clause.vocabulary
    if named:
        lemmas = clause.lemmas
        benefit = any(
            (lemmas[i] in BENEFIT or w in POINTS) and i not in named for i, w in enumerate(words)
        )
    else:
        benefit = not vocabulary.isdisjoint(BENEFIT) or not vocabulary.isdisjoint(POINTS)
    return (
        benefit
        or ("free" in vocabulary and _free(words))
        or _percent_off(words)
        or ("on" in vocabulary and _on_us(words))
    )


def consequence(clause: Clause, lexicon: Lexicon) -> Consequence | None:
    """What the clause claims of consequence by its shape (None: nothing)."""
    vocabulary = clause.vocabulary
    money = "money" in clause.kinds
    if not money and vocabulary.isdisjoint(CUES):
        return None
    found = targets(lexicon)
    route = not vocabulary.isdisjoint(ROUTE)
    moves = not vocabulary.isdisjoint(TRANSFER)
    amount = money or not vocabulary.isdisjoint(MONEY)
    if extra_benefit(clause):
        return Consequence("unverifiable", BENEFIT_NOTE)
    if not vocabulary.isdisjoint(CHARGED) and _reversal(vocabulary):
        return _resolved(found.money_back, "a reversed charge")
    if moves and (route or ("back" in vocabulary and amount)):
        return _resolved(found.money_back, "money back")
    if money and not vocabulary.isdisjoint(ACCOUNT):
        return _resolved(found.account_credit, "a credit to the account")
    if not vocabulary.isdisjoint(FAULT) and not vocabulary.isdisjoint(FINDING):
        return _resolved(found.fault, "a finding", kind="fact")
    to_customer = not vocabulary.isdisjoint(CUSTOMER)
    if money and (moves or to_customer):
        return Consequence("unverifiable", "an amount given to the customer")
    if to_customer and not vocabulary.isdisjoint(APPROVAL):
        return Consequence("unverifiable", "an approval")
    return None


def _resolved(target: str | None, what: str, kind: Kind = "resolution") -> Consequence:
    return Consequence(kind, target) if target else Consequence("unverifiable", what)
