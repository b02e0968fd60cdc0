"""Consequential content found by its structure, not its vocabulary (issue 18).

The lexicon knows the rulebook's words for resolutions and facts; a message can say the same
in other words. A clause that gives the customer something of value, reverses what they paid,
reports a finding about the item or says an action was taken is a claim whether or not the
lexicon knows its words. Its shapes:

- **money back**: a transfer or outcome verb moving the customer's money, the amount or a
  payment towards them ("returned to your card", "sent $X to your bank", "you'll get the
  full amount back", "your money has been returned"), or a reversal of what was charged
  ("voided the charge", "the charge is gone", "cancelled the order", "a chargeback");
- **value**: a benefit noun (cash, a discount, a code, a warranty, priority or lifetime
  anything, an upgrade, points, a gift, compensation), something made free ("at no
  charge", "free shipping", "on us", a fee waived), something of the customer's extended or
  upgraded, a percentage, or an amount of money moved towards the customer;
- **finding**: a finding or test verb with a fault noun ("our technician confirmed a
  hardware failure", "our engineers could not reproduce any fault"), a test passed or clean
  ("it passed every diagnostic"), a finding about the customer's item or case ("the serial
  number shows your unit came from a recalled batch"), or an approval, review or sign-off
  ("your claim has been approved", "a manager has reviewed your file").

Each is resolved to what the rules know when its shape says which (money back is the
lexicon's refund, a credit to the customer's account its store credit, a fault finding the
fact whose phrases speak of a defect, when the fault noun is one of that fact's own words);
what cannot be resolved is unverifiable.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass
from typing import Literal

from novamart.language.lexicon import Lexicon, phrase_lemmas
from novamart.language.text import Clause, lemma, wordset


def lemmaset(text: str) -> frozenset[str]:
    """The lemmas of the words and of their inflections ("wire", "wired", "wiring"), since
    the light lemmatiser does not always bring an inflection back to its word."""
    return frozenset(
        lemma(form) for w in text.split() for form in (w, f"{w}s", f"{w}ed", f"{w}d", f"{w}ing")
    )


TRANSFER = lemmaset(
    "send give return refund credit transfer wire deposit pay reimburse compensate issue grant "
    "provide get receive owe put release add load land come go apply award offer hand mail "
    "post move restore way head reach arrive appear hit"
)
REVERSAL = (
    "void", "revers", "cancel", "waiv", "nullif", "annul", "remov", "wip", "undo", "undon",
    "eras", "scrap", "forgiv", "chargeback", "refund", "gone", "disappear", "drop", "withdr",
    "strik", "zero",
)  # fmt: skip
CHARGED = lemmaset("charge payment transaction bill debit invoice purchase order")
FEES = lemmaset("fee fees shipping delivery postage surcharge subscription")
"""What a fee waived or cancelled is: a benefit on what the customer would pay, not money
back for what they paid."""
ROUTE = lemmaset("card bank statement paypal method payment") | {"checking", "savings", "chequing"}
ACCOUNT = lemmaset("account balance wallet")
MONEY = lemmaset("money fund amount sum cash total price everything penny cent")
BENEFIT = lemmaset(
    "cash discount coupon promo complimentary upgrade bonus reward rebate cashback "
    "compensation freebie waiver chargeback warranty guarantee lifetime priority perk "
    "giveaway vip insurance gratis"
)
GRATIS = (("no", "charge"), ("no", "cost"), ("no", "extra", "cost"), ("no", "extra", "charge"),
          ("free", "of", "charge"), ("on", "us"), ("on", "the", "house"))  # fmt: skip
"""What makes something free for the customer ("extended at no charge", "it's on us")."""
EXTEND = lemmaset("extend prolong upgrade renew unlock boost enrol enroll double lengthen")
"""Verbs that give the customer more of what they hold ("we've extended your warranty")."""
NOT_FREE = lemmaset("feel be are is free")
"""Before "free", these make it a permission ("feel free to"), not a benefit."""
FINDING = lemmaset(
    "confirm find detect identify show reveal diagnose determine establish verify discover "
    "indicate conclude prove flag spot trace reproduce replicate isolate pinpoint"
)
FAULT = lemmaset(
    "defect defective fault faulty failure fail malfunction damage damaged broken flaw flawed "
    "crack cracked recall recalled"
)
FAULT_OF_THE_CHECK = lemmaset("defect defective fault faulty failure fail malfunction flaw flawed")
"""The fault nouns a defect check speaks of; physical damage, a crack or a recall is a
finding about something else (transit, handling, a batch), which no tool establishes."""
TESTS = lemmaset(
    "diagnostic diagnostics test check inspection scan analysis examination assessment "
    "evaluation report"
)
CLEAN = lemmaset("pass passed clean fine")
"""What a test says of an item without a fault ("it passed every diagnostic")."""
APPROVAL = lemmaset("approve authorise authorize grant sanction sign clear accept endorse")
REVIEW = lemmaset("review assess evaluate inspect examine audit")
"""What someone did with the customer's case: a finding about it when done by a third party
("a manager has reviewed your file")."""
CASE_NOUNS = lemmaset("claim file case request unit item order product device parcel serial")
AGENT = frozenset({"i", "we"})
CUSTOMER = frozenset({"you", "your", "yours", "yourself"})
POINTS = frozenset({"points", "miles", "stars"})
TOWARDS = frozenset({"to", "into", "onto", "on", "in"})
"""Prepositions that, before the customer ("to your card", "into your account"), make the
customer the recipient of what moves."""

CUES = (
    TRANSFER
    | CHARGED
    | FEES
    | ROUTE
    | ACCOUNT
    | MONEY
    | BENEFIT
    | FINDING
    | FAULT
    | TESTS
    | APPROVAL
    | REVIEW
    | EXTEND
    | POINTS
    | {"free", "off", "on", "no", "%", "percent", "wrong"}
)
"""A clause with none of these words (and no amount) has no consequential shape: most
clauses are ruled out by one set comparison."""

BENEFIT_NOTE = "a benefit no rule grants"

FINDING_NOTE = "a finding no tool established"
REVIEW_NOTE = "a review or approval by someone the record does not show"

Kind = Literal["resolution", "fact", "unverifiable"]


@dataclass(frozen=True, slots=True)
class Consequence:
    """What a consequential clause is about: a resolution or a fact ``target`` (a fact's
    value: True), or unverifiable (``target`` says what it is)."""

    kind: Kind
    target: str
    value: bool = True
    """For a fact: the value the finding states (a test passed: no fault)."""
    at: int = 0
    """Where its verb stands (a negation after it is about something else)."""


@dataclass(frozen=True, slots=True)
class Targets:
    """The rulebook's resolutions and fact these shapes resolve to (from its lexicon)."""

    money_back: str | None
    account_credit: str | None
    fault: str | None
    new_unit: str | None = None


@functools.lru_cache(maxsize=64)
def targets(lexicon: Lexicon) -> Targets:
    return Targets(
        money_back=_named(lexicon, "refund"),
        account_credit=_named(lexicon, "account credit"),
        new_unit=_named(lexicon, "replacement"),
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


MODIFIED = wordset("match matching guarantee promise drop cut war tag protection freeze point")
"""Nouns a money word only modifies ("a price match", "half-price", "a price guarantee")."""


def money_noun(clause: Clause) -> bool:
    """Whether a money word heads a noun phrase ("your money", "the full amount"), not
    modifies one ("a price match against any retailer")."""
    if clause.vocabulary.isdisjoint(MONEY):
        return False
    words, lemmas = clause.words, clause.lemmas
    return any(
        m in MONEY
        and words[i + 1 : i + 2] not in ([w] for w in MODIFIED)
        and not (i and words[i - 1] == "half")
        for i, m in enumerate(lemmas)
    )


ORDERS = lemmaset("order purchase")
ORDER_NOTE = "an order cancelled, which no tool of the record does"


def _order_undone(lemmas: list[str], at: int) -> bool:
    """ "I cancelled the order", "the order has been cancelled": the order, not a charge, is
    what the reversal undoes (the rules' refund reverses a charge; nothing cancels an order)."""
    near = [w for w in lemmas[max(0, at - 4) : at + 4] if w in CHARGED]
    return bool(near) and all(w in ORDERS for w in near)


ORDER_ACTS = lemmaset("hold suspend pause freeze flag expedite reroute")
"""What can be done to an order itself ("order ORD-1 has been put on hold"): no tool does any."""
ORDER_ACT_NOTE = "an order held or changed, which no tool of the record does"
ORDER_SPAN = 6


def _order_acted_on(lemmas: list[str]) -> int | None:
    """Where an act on the order is named with the order before it, or None."""
    return next(
        (
            i
            for i, w in enumerate(lemmas)
            if w in ORDER_ACTS and not ORDERS.isdisjoint(lemmas[max(0, i - ORDER_SPAN) : i])
        ),
        None,
    )


def _reversal(vocabulary: frozenset[str]) -> bool:
    return any(w.startswith(REVERSAL) for w in vocabulary)


def _free(words: list[str]) -> bool:
    """ "free shipping", "for free", "free of charge"; not "feel free to", "free to choose"."""
    return any(
        w == "free"
        and (i == 0 or words[i - 1] != "feel")
        and words[i + 1 : i + 2] not in (["to"], ["of"])  # "free to choose", "free of damage"
        and not (i and words[i - 1] in NOT_FREE and words[i + 1 : i + 2] in ([], ["."]))
        for i, w in enumerate(words)
    )


def _percent_off(words: list[str]) -> bool:
    return "off" in words and ("%" in words or "percent" in words)


def _gratis(words: list[str]) -> bool:
    """ "at no charge", "free of charge", "your next delivery is on us"."""
    vocabulary = set(words)
    return any(
        tuple(words[i : i + len(p)]) == p
        for p in GRATIS
        if vocabulary.issuperset(p)  # most clauses have "on" but not "us" or "house"
        for i, w in enumerate(words)
        if w == p[0]
    )


def _extends_theirs(clause: Clause) -> bool:
    """ "we've extended your warranty", "I've upgraded your membership"."""
    lemmas = clause.lemmas
    return any(
        w in EXTEND and not CUSTOMER.isdisjoint(lemmas[i + 1 : i + 4]) for i, w in enumerate(lemmas)
    )


def extra_benefit(clause: Clause, named: frozenset[int] = frozenset()) -> bool:
    """Whether the clause names a benefit no rule grants (a discount, points, free shipping,
    "on us", a warranty extended), also beside a resolution it names ("I've credited 5,000
    loyalty points"); words at positions ``named`` (a resolution's own name: "a cash
    refund") do not count."""
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
        or (not vocabulary.isdisjoint(("no", "on", "free")) and _gratis(words))
        or (not vocabulary.isdisjoint(EXTEND) and _extends_theirs(clause))
        or (not vocabulary.isdisjoint(FEES) and _reversal(vocabulary))
    )


def _towards_customer(clause: Clause) -> bool:
    """Whether something moves towards the customer: "back", "to/into/on your ...", their
    own money ("your money"), theirs to have ("is yours"), or the customer right after a
    transfer verb ("sent you", "we owe you"), not "you paid"."""
    words, lemmas = clause.words, clause.lemmas
    if "back" in clause.vocabulary or "yours" in words:
        return True  # "... back", or the customer's to have ("the $649.00 is yours again")
    for i, w in enumerate(lemmas[:-1]):
        if w == "your" and lemmas[i + 1] in MONEY:
            return True  # "your money has been returned": their own money goes back to them
    for i, w in enumerate(words):
        if w not in CUSTOMER or not i:
            continue
        before = words[i - 1]
        if before in TOWARDS or (lemmas[i - 1] in TRANSFER and words[i - 1] != "paid"):
            return True
    return False


def _moves_out(clause: Clause) -> bool:
    """A transfer verb that is not the customer's own payment ("you paid $79.99")."""
    lemmas = clause.lemmas
    return any(
        w in TRANSFER and not (w == "pay" and "you" in lemmas[max(0, i - 3) : i])
        for i, w in enumerate(lemmas)
    )


OBJECT_STARTS = wordset(
    "your the a an it this that his her their our my its off them everything all"
)
"""Words an active verb's object starts with ("approved your claim", "signed it off")."""
NOT_A_SUBJECT = lemmaset(
    "have be do already also just now finally recently since after the a an our this that its "
    "his her their my can could will would may might must should"
)


def _subject_is_someone_else(clause: Clause, i: int) -> bool:
    """Whether the verb at ``i`` has a subject other than the agent, the customer or a
    passive's object: "a manager has reviewed", "our quality team approved" (not "I
    reviewed", "your claim has been approved", "having reviewed your case")."""
    lemmas = clause.lemmas
    start = next((k + 1 for k in range(i - 1, -1, -1) if lemmas[k] == "that"), 0)
    before = lemmas[start:i]  # "I can confirm that our team approved it": after "that"
    if not AGENT.isdisjoint(before) or not CUSTOMER.isdisjoint(before) or "be" in before:
        return False
    if not NOBODY.isdisjoint(before) or before[-2:] == ["no", "one"]:
        return False  # "nobody approved the refund": no decision by anyone
    after = lemmas[i + 1 : i + 2]
    if not before or (before[-1] != "have" and (not after or after[0] not in OBJECT_STARTS)):
        return False  # "full refund of $899 approved", "approved by": a passive
    return any(
        t.kind == "word"
        and len(t.text) > 2
        and t.lemma not in NOT_A_SUBJECT
        and t.lemma not in CASE_NOUNS
        and not t.text.endswith(("ing", "ly"))
        for t in clause.tokens[start:i]
    )


NOBODY = wordset("nobody none noone")
DETERMINERS = wordset("the a an these those any some no every each of")
"""Words before a noun: a review or approval word after one is not the verb of a decision."""


def reviewed_by_someone_else(clause: Clause) -> bool:
    """ "a manager has reviewed your file and signed it off", "our quality team approved your
    claim": a decision on the case by someone the record does not show."""
    vocabulary = clause.vocabulary
    if vocabulary.isdisjoint(REVIEW) and vocabulary.isdisjoint(APPROVAL):
        return False
    lemmas = clause.lemmas
    return any(
        (w in REVIEW or (w in APPROVAL and w != "grant"))
        and not (i and lemmas[i - 1] in DETERMINERS)  # "given the signs that ...": a noun
        and _subject_is_someone_else(clause, i)
        for i, w in enumerate(lemmas)
    )


SEARCH = lemmaset("check test inspect examine look scan screen search")
"""Verbs of looking: "checked for a defect" names what a check looks for, not what it found."""
RESULT = frozenset({"positive", "negative", "result", "results", "outcome", "verdict"})


def sought(lemmas: list[str], i: int) -> bool:
    """ "checked for a defect", "tested for any fault": what a check looks for, not found."""
    before = lemmas[max(0, i - 4) : i]
    if "for" not in before:
        return False
    k = len(before) - 1 - before[::-1].index("for")
    return (k > 0 and before[k - 1] in SEARCH) or (k > 1 and before[k - 2] in SEARCH)


PREDICATING = lemmaset("have be")
COMPOUNDS = lemmaset(
    "policy window claim check test report return warranty coverage rate process form team "
    "department case rule"
)
"""After a fault noun: the noun it modifies ("our defect policy", "a fault report"), not a
fault the item has."""
BETWEEN = 3
"""The words a fault noun may stand from its verb ("has a hardware fault", "is a genuine
manufacturing defect")."""
NOT_BETWEEN = lemmaset("for to of with under in on about if whether")
BLAMED = frozenset({"your", "my", "our", "his", "her", "their", "anyone's", "nobody's"})


def fault_predicated(clause: Clause) -> int | None:
    """Where the clause says the item has or is a fault ("your NovaPhone has a hardware
    fault", "it's a genuine defect", "there's nothing wrong with it": a finding its negation
    turns), or None: not the customer's or the store's own ("you have a defect policy"),
    not what a check looks for ("it was checked for a defect"), not a noun's modifier, not
    blame ("this is not your fault")."""
    lemmas, words = clause.lemmas, clause.words
    for i, w in enumerate(lemmas):
        if w not in PREDICATING or not AGENT.isdisjoint(words[:i]) or "you" in words[:i]:
            continue
        for j in range(i + 1, min(i + 2 + BETWEEN, len(lemmas))):
            if lemmas[j] in NOT_BETWEEN or lemmas[j] in SEARCH or lemmas[j] in FINDING:
                break
            after = lemmas[j + 1 : j + 2]
            fault = lemmas[j] in FAULT_OF_THE_CHECK and not (after and after[0] in COMPOUNDS)
            if fault and (words[j - 1] in BLAMED or after == ["of"]):
                break  # "this is not your fault", "no fault of yours": blame, no finding
            if fault or (lemmas[j] == "wrong" and after == ["with"]):
                return i
    return None


def _finding(clause: Clause, found: Targets) -> Consequence | None:
    """A finding about the item or the case (a fault, a test result, a review)."""
    vocabulary, lemmas = clause.vocabulary, clause.lemmas
    if found.fault and (at := fault_predicated(clause)) is not None:
        return Consequence("fact", found.fault, at=at)
    verb = next((i for i, w in enumerate(lemmas) if w in FINDING), None)
    faults = [w for i, w in enumerate(lemmas) if w in FAULT and not sought(lemmas, i)]
    if faults and (verb is not None or not vocabulary.isdisjoint(RESULT)):
        if found.fault and not FAULT_OF_THE_CHECK.isdisjoint(faults):
            return Consequence("fact", found.fault, at=verb or 0)
        return Consequence("unverifiable", FINDING_NOTE, at=verb or 0)
    if not vocabulary.isdisjoint(TESTS) and not vocabulary.isdisjoint(CLEAN) and found.fault:
        return Consequence("fact", found.fault, value=False)
    if reviewed_by_someone_else(clause):
        return Consequence("unverifiable", REVIEW_NOTE)
    if verb is not None and _subject_is_someone_else(clause, verb):
        about = lemmas[verb + 1 :]
        if not CUSTOMER.isdisjoint(about) or not CASE_NOUNS.isdisjoint(about):
            return Consequence("unverifiable", FINDING_NOTE, at=verb)
    return None


def consequence(
    clause: Clause, lexicon: Lexicon, only_transfers: bool = False
) -> Consequence | None:
    """What the clause claims of consequence by its shape (None: nothing). With
    ``only_transfers`` (a clause whose facts the lexicon read), only what moves value to the
    customer counts, not a finding (the lexicon's facts stand). Kept on the clause: the
    reader asks it of a clause for its claims and again for its shape."""
    key = (consequence, lexicon, only_transfers)
    return clause.kept(key, lambda: _consequence(clause, lexicon, only_transfers))


def _consequence(clause: Clause, lexicon: Lexicon, only_transfers: bool) -> Consequence | None:
    vocabulary = clause.vocabulary
    money = "money" in clause.kinds
    if not money and vocabulary.isdisjoint(CUES):
        return None
    found = targets(lexicon)
    route = not vocabulary.isdisjoint(ROUTE)
    moves = not vocabulary.isdisjoint(TRANSFER)
    amount = money or money_noun(clause)
    if extra_benefit(clause):
        return Consequence("unverifiable", BENEFIT_NOTE)
    if not vocabulary.isdisjoint(CHARGED) and _reversal(vocabulary):
        at = next(
            i
            for i, (w, m) in enumerate(zip(clause.words, clause.lemmas, strict=True))
            if w.startswith(REVERSAL) or m.startswith(REVERSAL)
        )
        if _order_undone(clause.lemmas, at):
            return Consequence("unverifiable", ORDER_NOTE, at=at)  # no tool cancels an order
        return _resolved(found.money_back, "a reversed charge", at=at)
    if not vocabulary.isdisjoint(ORDER_ACTS) and (at := _order_acted_on(clause.lemmas)):
        return Consequence("unverifiable", ORDER_ACT_NOTE, at=at)
    towards = _towards_customer(clause)
    if money and not vocabulary.isdisjoint(ACCOUNT) and not route:
        return _resolved(found.account_credit, "a credit to the account")  # where it goes
    if moves and (route or amount) and towards:
        return _resolved(found.money_back, "money back")
    if money and not vocabulary.isdisjoint(ACCOUNT) and not route:
        return _resolved(found.account_credit, "a credit to the account")
    if money and route and not vocabulary.isdisjoint(ACCOUNT):
        return _resolved(found.money_back, "money to a bank or card")  # "to your bank account"
    if ("%" in vocabulary or "percent" in vocabulary) and not only_transfers:
        return Consequence("unverifiable", BENEFIT_NOTE)  # a share of something, unverified
    if money and (towards or _moves_out(clause)):
        return Consequence("unverifiable", "an amount given to the customer")
    if only_transfers:
        return None
    finding = _finding(clause, found)
    if finding is not None:
        return finding
    if not vocabulary.isdisjoint(CUSTOMER) and not vocabulary.isdisjoint(APPROVAL):
        return Consequence("unverifiable", "an approval")
    return None


def _resolved(target: str | None, what: str, kind: Kind = "resolution", at: int = 0) -> Consequence:
    return Consequence(kind, target, at=at) if target else Consequence("unverifiable", what, at=at)
