"""What a clause puts at stake for the customer, found by its structure (issue 18).

The reader's last, fail-closed pass: a clause its lexicon and the consequential shapes
(novamart.language.consequence) found nothing in is still a claim when its *structure*
says it is, whatever its words:

- **the customer as recipient**: something is given, sent, added or held for them ("for
  you", "sent you", "to/into/on your <account, card, balance, ...>", "you'll get/receive/
  keep/enjoy ...", "you now have ...", "here's ...", "on us", "to say sorry", "throwing in");
- **something moving towards them**: shipped, on its way, in the post, with you, in your
  hands, back, leaving the warehouse; or a charge taken off their statement, card or bank;
- **an amount** the clause does not tie to anything the rules know;
- **a finding**: a source (a courier, a test, a record, a team) reporting on the case
  ("the inspection turned up ...", "our records show ...", "every test we ran was passed");
- **a status**: what a record, a system or the case is said to say ("your case reads:",
  "Status update: ...", "[System] ...");
- **a presupposing question**: a definite new thing or amount ("shall I ship the new X?",
  "do you want the money split between two cards?").

What is given is then *resolved*: money to the account is the rules' store credit, money
by any other route their refund, a new unit of the item their exchange, a pronoun what the
sentence before named (``Stake.refers``); anything else (a benefit, a finding not about a
defect, a status without a resolution) is unverifiable, and the grader costs it like a
false claim. Findings keep their negation ("the inspection turned up no issue" is a finding
of no fault). Communication is not value: an email, a confirmation or a label sent to the
customer claims nothing.
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass
from operator import methodcaller
from typing import Literal

from novamart.language import consequence
from novamart.language.consequence import FAULT, MONEY, NOT_A_SUBJECT, ROUTE, money_noun
from novamart.language.text import Clause, lemma, wordset

CLOSED = wordset("not no a an the")
"""Lemmas an inflection may fall on ("noted" is lemmatised "not"), kept out of the sets."""


def lemmaset(text: str) -> frozenset[str]:
    return consequence.lemmaset(text) - CLOSED


Kind = Literal["money", "item", "benefit", "finding", "refers", "amount"]


@dataclass(frozen=True, slots=True)
class Stake:
    """What a clause gives or reports: ``kind``; for money, whether it goes to the store
    account; for a finding, the defect value it states (None: about something else)."""

    kind: Kind
    account: bool = False
    fault: bool | None = None
    routed: bool = True
    """For money: whether the clause says where it goes (else it is the amount of what the
    message names: "I've already applied $134.25")."""
    retained: bool = False
    """For money: the store keeps it ("not a cent stays with us"), the inverse of money
    back, so the clause's polarity reads the other way."""


def _lemmatised(*phrases: tuple[str, ...]) -> tuple[tuple[str, ...], ...]:
    return tuple(tuple(lemma(w) for w in phrase) for phrase in phrases)


CUSTOMER = wordset("you yourself")
TOWARDS = wordset("to for into onto towards with")
"""Before "you": the customer receives or holds what the clause is about."""
BACK_TO_YOU = lemmaset("get come write reply respond speak talk report circle call reach")
"""Before "back to you": an answer, not money."""
HOLDINGS = lemmaset(
    "account balance card bank statement wallet paypal method profile membership credit "
    "mastercard visa amex purchase"
)
HOLD_PREPOSITIONS = wordset("to into onto on in off from")
BANKED = wordset("checking savings current chequing bank")
"""Before "account": the customer's bank, not their store account."""
ACCOUNT_WORDS = lemmaset("account balance wallet profile credit spend voucher gift")
"""Where money at the store stays: the rules' store credit, not money back."""
POSSESS = lemmaset("get receive keep enjoy earn qualify win gain collect entitle deserve")
"""Verbs whose customer subject receives something ("you'll get ...")."""
HOLD = lemmaset("have see find notice spot")
"""Verbs whose customer subject holds something only with a thing named ("you now have
$674.25 ...")."""
GIVE = lemmaset(
    "send give pay offer owe hand grant award refund credit reimburse compensate wire transfer "
    "lend treat gift mail ship post deliver bring courier"
)
"""Verbs that take the customer as their first object ("sent you", "we owe you")."""
MOTION = lemmaset(
    "ship dispatch post mail deliver send leave arrive come head reach land return travel go "
    "transfer move release courier email"
) | wordset("came went sent left")
AT_THE_CUSTOMER = _lemmatised(
    ("on", "its", "way"), ("on", "the", "way"), ("your", "way"), ("in", "the", "post"),
    ("in", "the", "mail"), ("out", "for", "delivery"), ("with", "you"), ("in", "your", "hand"),
    ("at", "your", "door"), ("to", "your", "door"), ("your", "door"),
    ("leave", "the", "warehouse"), ("leave", "our", "warehouse"), ("leaves", "our", "warehouse"),
    ("leaves", "the", "warehouse"), ("left", "the", "warehouse"), ("left", "our", "warehouse"),
    ("turn", "up"), ("show", "up"), ("be", "deliver"), ("be", "delivered"),
    ("get", "to", "you"), ("gets", "to", "you"), ("change", "hands"), ("changes", "hands"),
    ("changed", "hands"),
)  # fmt: skip
MANNER = _lemmatised(
    ("on", "us"), ("on", "the", "house"), ("to", "say", "sorry"), ("as", "an", "apology"),
    ("by", "way", "of", "apology"), ("make", "this", "right"), ("make", "it", "right"),
    ("make", "thing", "right"), ("make", "it", "up"), ("make", "up", "for"),
    ("for", "the", "trouble"), ("as", "a", "gesture"), ("goodwill", "gesture"), ("for", "free"),
    ("covered", "by", "us"), ("paid", "by", "us"), ("our", "treat"),
)  # fmt: skip
"""How a gift is given: alone in a clause, it is said of the gift its sentence names."""
GIFT = MANNER + _lemmatised(
    ("throw", "in"), ("throwing", "in"), ("half", "price"), ("switch", "it", "on"),
    ("now", "active"), ("be", "active"), ("off", "your", "next"), ("price", "match"),
    ("early", "access"),
)  # fmt: skip
"""What makes something a gift to the customer whatever it is."""
HOLDING_VERBS = lemmaset(
    "add apply activate load credit unlock enable switch put deposit top attach upgrade "
    "extend renew waive void remove drop wipe clear take lift refund return"
)
REPLACING = wordset("new fresh brand-new brand replacement")
ADDING = wordset("second another extra spare bonus additional")
NOT_ADDED = wordset("time thing look question issue day week way option chance moment")
"""After "another" or "second": not something given ("another day", "a second look")."""
ITEMS = lemmaset(
    "one unit item product device phone laptop watch earbud pair model piece handset tablet "
    "headphone speaker"
)
PAPERWORK = lemmaset(
    "email message update confirmation notification text call reply answer note link survey "
    "detail information receipt question label instruction form reference number summary "
    "copy invoice response callback letter code password passcode pin sms verification reset "
    "otp instruction step login figure"
)
"""What is sent to the customer without value: communication and paperwork."""
ARRANGE = lemmaset("arrange organise organize book reserve throw unlock activate enable")
SERVICE = lemmaset(
    "check look reset fix sort handle help find confirm verify review investigate change update "
    "explain answer tell show read ask walk guide assist work resolve chase"
)
"""Verbs that serve the customer ("I'll check that for you"), not give them anything."""
WISHES = lemmaset("want like hope try aim wish sorry apologize apologise apology thank thanks")
"""Around a gift's words, the writer's wish or apology ("I want to make this right", "sorry
for the trouble"), not a gift."""
COMPOUNDS = lemmaset(
    "window policy process request label method period date address option team form desk "
    "department fee cost rule status page portal link code setting detail number holder"
)
"""Nouns a giving word modifies: "refund window", "return policy", "shipping address"."""
SOFTENERS = wordset("please kindly just then so now also simply first")
COMMANDS = wordset(
    "go open tap click select enter print drop reply choose pick log sign keep visit call "
    "contact follow use head send let state read type confirm check make take bring pack "
    "write share provide tell give attach upload include ship post return hold"
)
"""First words of an instruction to the customer."""
HELPED = wordset("help let make lets helps helping")
"""Before "you get": the writer helps the customer do something ("help you get this
resolved"), nothing is given."""
STANDING = lemmaset("membership tier status plan subscription warranty level account perk")
"""What a customer holds at the store: "new" before one is a benefit, not a new unit."""
ACCOUNT_THINGS = lemmaset(
    "order case password passcode pin login address username account card number code way "
    "policy window request ticket"
)
"""After "new": what the customer sets up or the store runs, not a new unit."""
ANAPHORS = wordset("it that this they them one these those")
SOURCES = lemmaset(
    "courier carrier driver warehouse technician engineer team lab laboratory department "
    "specialist bank provider manufacturer inspection test testing check diagnostic scan report "
    "record system history log tracking note file photo data analysis review investigation "
    "audit assessment examination evaluation result supplier partner colleague staff depot control "
    "repair workshop expert"
)
REPORT = lemmaset(
    "confirm show find reveal indicate log record mark flag note report admit conclude determine "
    "verify establish detect pass clear state read list register prove suggest agree accept "
    "acknowledge turn come diagnose identify spot trace discover"
) | wordset("came found said told saw shown went")
CHECKERS = lemmaset(
    "technician engineer lab laboratory inspection test testing check diagnostic scan "
    "analysis examination assessment evaluation result repair workshop expert"
)
"""Sources that are the store's own check of the item: their findings are the defect check's."""
TECHNICAL = lemmaset("technical tech repair engineering quality-control diagnostic")
DEEDS = wordset("was were has had passed failed sailed went came got did showed")
"""A past verb: the item went through a test ("sailed through every diagnostic")."""
FAULTY = FAULT | lemmaset("issue problem wrong")
"""What a finding reports as wrong with the item ("nothing wrong", "no issue": a negation)."""
CLEAN = wordset("perfectly properly normally flawlessly") | lemmaset(
    "normal fine perfect clean ok okay flawless intact good working pass passed"
)
"""What a finding says of an item without a fault ("came back completely normal")."""
RECORDS = lemmaset(
    "status system record notice history note log update billing confirmation case file "
    "ticket order portal dashboard summary recap profile page app"
)
ATTRIBUTE = lemmaset("say show read state mark list display note indicate reflect")
DEFINITE = wordset("the your")
CUSTOMER_OPTIONS = wordset("can could may might need needs should must")
"""After "you": the customer's own possible action ("you can place a new order")."""


def _runs(clause: Clause, phrases: tuple[tuple[str, ...], ...]) -> bool:
    """Whether one of ``phrases`` runs in the clause's lemmas (a phrase with a word the clause
    lacks, as a word or a lemma, is ruled out by one set comparison)."""
    vocabulary, lemmas = clause.vocabulary, clause.lemmas
    for phrase in phrases:
        if not vocabulary.issuperset(phrase):
            continue
        n = len(phrase)
        if any(tuple(lemmas[i : i + n]) == phrase for i in range(len(lemmas) - n + 1)):
            return True
    return False


def _any(clause: Clause, words: frozenset[str]) -> bool:
    return not clause.vocabulary.isdisjoint(words)


def _answer(words: list[str], lemmas: list[str], i: int) -> bool:
    """ "I'll get back to you", "I will come right back to you": an answer, not money."""
    before = words[max(0, i - 4) : i]
    if "back" not in before:
        return False
    k = max(0, i - 4) + len(before) - 1 - before[::-1].index("back")
    return not BACK_TO_YOU.isdisjoint(lemmas[max(0, k - 3) : k])


def recipient(clause: Clause) -> bool:
    """Whether the customer receives or holds what the clause is about: a verb that gives,
    sends or arranges with the customer as recipient ("sent you", "arranged ... for you",
    "to/into/on your account"), not one that serves them ("I'll check that for you")."""
    words, lemmas = clause.words, clause.lemmas
    if _gift(clause):
        return True  # ("any repair you need this year is covered by us")
    if _customers_option(clause):
        return False  # "you can use it on your next order": what the customer may do
    giving = _giving(clause)
    for i, w in enumerate(words):
        if w in CUSTOMER and i:
            served = not SERVICE.isdisjoint(lemmas[max(0, i - 5) : i])  # "check it for you"
            if words[i - 1] in TOWARDS and giving and not served and not _answer(words, lemmas, i):
                return True
            if lemmas[i - 1] in GIVE and not (i > 1 and words[i - 2] in CUSTOMER):
                return True  # "sent you", "we owe you"
        if w == "your" and i and words[i - 1] in HOLD_PREPOSITIONS and _held(lemmas, i + 1):
            return True  # "it's sitting in your account", "added to your balance"
    return _gift(clause) or _customer_receives(clause)


def _held(lemmas: list[str], i: int) -> bool:
    """Whether a holding of the customer's starts at ``i`` ("account", "next order"), not a
    page about it ("your account settings")."""
    if lemmas[i : i + 1] == ["next"]:
        return True
    return lemmas[i : i + 1] in ([h] for h in HOLDINGS) and lemmas[i + 1 : i + 2] not in (
        [c] for c in COMPOUNDS
    )


def _giving(clause: Clause) -> bool:
    """A verb that gives, sends, adds or arranges, not as a noun's modifier ("the refund
    window", "our return policy", "the shipping address")."""
    lemmas = clause.lemmas
    return any(
        (w in GIVE or w in MOTION or w in HOLDING_VERBS or w in ARRANGE)
        and lemmas[i + 1 : i + 2] not in ([c] for c in COMPOUNDS)
        for i, w in enumerate(lemmas)
    )


def imperative(clause: Clause) -> bool:
    """ "Go to My Orders in your account", "please reply with the code", "keep it to
    yourself": the customer is told what to do; nothing is given or found."""
    words = [w for w in clause.words if w.isalpha()]
    while words and words[0] in SOFTENERS:
        words = words[1:]
    return bool(words) and words[0] in COMMANDS


def _gift(clause: Clause) -> bool:
    """ "on us", "to say sorry", "we're throwing in ...", "now active on your account"; not
    the writer's wish ("I want to make this right")."""
    return _runs(clause, GIFT) and not _wishing(clause)


def _wishing(clause: Clause) -> bool:
    """The writer's wish or apology ("I want to make this right", "sorry for the trouble"),
    not a gift's purpose ("to say sorry, here's ...")."""
    lemmas = clause.lemmas
    return any(w in WISHES and lemmas[i - 1 : i] != ["say"] for i, w in enumerate(lemmas))


def _only_gift(clause: Clause) -> bool:
    """A clause that is only a gift's phrase ("as a goodwill gesture", "on us")."""
    words = [w for w in clause.words if w.isalpha()]
    return len(words) <= 4 and _runs(clause, MANNER)


def _customers_option(clause: Clause) -> bool:
    words, lemmas = clause.words, clause.lemmas
    return any(
        w == "you"
        and lemmas[i + 1 : i + 2] in ([m] for m in CUSTOMER_OPTIONS)
        and POSSESS.isdisjoint(lemmas[i + 2 : i + 5])
        for i, w in enumerate(words)
    )


def _customer_receives(clause: Clause) -> bool:
    """ "you'll get ...", "you qualify for ...", "you now have $674.25 in credit"."""
    words, lemmas = clause.words, clause.lemmas
    for i, w in enumerate(words):
        if w != "you" or (i and words[i - 1] in HELPED):
            continue
        after = lemmas[i + 1 : i + 5]
        if not CUSTOMER_OPTIONS.isdisjoint(after[:1]) and POSSESS.isdisjoint(after):
            return False  # "you can place a new order": the customer's own action
        if not POSSESS.isdisjoint(after) and not paperwork(clause):
            return True
        if not HOLD.isdisjoint(after) and (_money(clause) or _novel(clause) is not None):
            return True
    return False


def _novel(clause: Clause) -> str | None:
    """ "a new Orbit Watch", "a fresh one" (an item: the rules' exchange), "a second X at
    half price", "your new Platinum membership" (a benefit)."""
    words, lemmas = clause.words, clause.lemmas
    for i, w in enumerate(words):
        given = lemmas[i + 1] if i + 1 < len(words) and words[i + 1].isalpha() else "time"
        if w in ADDING and given not in NOT_ADDED and given not in PAPERWORK:
            return "benefit"
        if w in REPLACING and i + 1 < len(words):
            head = lemmas[i + 1 : i + 4]
            if not PAPERWORK.isdisjoint(head[:1]) or not ACCOUNT_THINGS.isdisjoint(head[:1]):
                continue  # "a new order", "choose a new password"
            if not ITEMS.isdisjoint(head) or _named(clause, i + 1):
                return "item"
            if not STANDING.isdisjoint(head):
                return "benefit"  # "your new Platinum membership"
    return None


def _named(clause: Clause, i: int) -> bool:
    """A product's name after "new" ("a new Titan 16", "a new Orbit Watch"): a word and a
    number, or a word the clause does not go on from with a preposition or an article."""
    after = clause.tokens[i : i + 3]
    if any(t.kind == "number" for t in after):
        return True
    return bool(after) and after[0].kind == "word" and after[0].lemma not in STANDING


def _moves(clause: Clause) -> bool:
    """Something travels to the customer: "on its way", "in the post", "with you", "back",
    money that "changes hands";
    or a verb of sending with a destination (the customer, their card, the warehouse)."""
    if _runs(clause, AT_THE_CUSTOMER):
        return True
    if not clause.vocabulary.isdisjoint(("back", "again")) and not _answer(
        clause.words, clause.lemmas, len(clause.words)
    ):
        return True  # ("you'll see every cent again")
    return _any(clause, MOTION) and _destination(clause)


def _destination(clause: Clause) -> bool:
    """The customer or what they hold as where something goes: "to you", "with you", "into
    your account", "to the card you paid with"."""
    words, lemmas = clause.words, clause.lemmas
    for i, w in enumerate(words[:-1]):
        if lemmas[i] in MOTION and words[i + 1] in ("you", "your"):
            return True  # "to reach you", "reaches your door"
        if w in TOWARDS or w in HOLD_PREPOSITIONS:
            after = lemmas[i + 1 : i + 3]
            if after[:1] in (["you"], ["yourself"]) or (
                after[:1] in (["your"], ["the"]) and not HOLDINGS.isdisjoint(after[1:])
            ):
                return True
    return False


ELLIPTIC = wordset("in within by soon shortly today tomorrow next . ! ,")
"""After a verb of receiving: what is received is left to the sentence before ("You will
receive in 5 working day")."""


def _elliptic(clause: Clause) -> bool:
    lemmas = clause.lemmas
    return any(
        w in POSSESS and (i + 1 == len(lemmas) or lemmas[i + 1] in ELLIPTIC)
        for i, w in enumerate(lemmas)
    )


def _money(clause: Clause) -> bool:
    return "money" in clause.kinds or money_noun(clause)


def _anaphoric(clause: Clause) -> bool:
    """Whether what the clause gives is a pronoun: its subject ("It will be back with you")
    or the object of its verb ("you'll have it back", "we've sent them"), not a pronoun
    elsewhere ("to make this right, we're throwing in early access")."""
    words = [w for w in clause.words if w.isalpha()]
    if words[:1] and words[0] in ANAPHORS and (words[0] != "that" or words[1:2] in AUX_NEXT):
        return True  # ("That's been sent back to you"; not "that refund")
    lemmas, words = clause.lemmas, clause.words
    return any(
        (w in GIVE or w in POSSESS or w in HOLD or w in HOLDING_VERBS)
        and not OBJECTS.isdisjoint(words[i + 1 : i + 3])
        and words[i + 1 : i + 2] in ([o] for o in OBJECTS | {"for"})
        for i, w in enumerate(lemmas)
    )  # ("you qualify for this", "you'll have it back")


OBJECTS = wordset("it them this that these those")
AUX_NEXT = tuple([w] for w in ("is", "was", "has", "will", "should", "can", "would"))


def finding(clause: Clause) -> Stake | None:
    """A source reporting on the case: "the courier confirmed ...", "our records show ...",
    "every test we ran was passed", "the diagnostics came back completely normal"."""
    lemmas = clause.lemmas
    source = next((i for i, w in enumerate(lemmas) if w in SOURCES and not _aside(lemmas, i)),
                  None)  # fmt: skip
    if source is None:
        return None
    verb = next((i for i in range(source + 1, len(lemmas)) if _reports(lemmas, i)), None)
    if verb is None or not CUSTOMER.isdisjoint(lemmas[:source]):
        return None  # ("you clearly did not read the instructions": the customer's doing)
    rest = [w for w in lemmas[verb + 1 :] if w.isalpha()]
    if not rest and lemmas[verb] not in CLEAN:
        return None
    if not _checker(lemmas, source):
        return Stake("finding")  # a courier, a bank, the manufacturer: no tool of the record
    return _fault_stated(lemmas, verb)


ASIDES = lemmaset("note")
"""Sources that also label the writer's own aside ("Note: ...", "Kindly note, ...")."""
ASIDE_ENDS = wordset(": ,")


def _aside(lemmas: list[str], i: int) -> bool:
    """Whether ``lemmas[i]`` labels the writer's aside (followed by a colon or comma at the
    start of the clause), not a record that reports ("the case note says ...")."""
    return lemmas[i] in ASIDES and i <= 1 and lemmas[i + 1 : i + 2] in ([e] for e in ASIDE_ENDS)


def _fault_stated(lemmas: list[str], verb: int) -> Stake:
    """The defect value a check's finding states (None: about something else)."""
    rest = [w for i, w in enumerate(lemmas) if i > verb and not consequence.sought(lemmas, i)]
    if not FAULTY.isdisjoint(rest) or not FAULT.isdisjoint(lemmas[:verb]):
        return Stake("finding", fault=True)  # (its negation is the reader's to count:
    if not CLEAN.isdisjoint(lemmas[verb:]):  # "turned up no issue" finds no fault)
        return Stake("finding", fault=False)
    return Stake("finding")


def _checker(lemmas: list[str], source: int) -> bool:
    """Whether the source is the store's own check of the item (a technician, a test, the
    diagnostics; "our technical team"), whose finding is the defect check's."""
    if lemmas[source] in CHECKERS:
        return True
    return lemmas[source] == "team" and lemmas[source - 1 : source] in ([t] for t in TECHNICAL)


def _item_state(clause: Clause) -> Stake | None:
    """The item's condition stated: "the unit works perfectly", "the unit has a manufacturing
    fault" (not the customer's report echoed: "sorry to hear your unit is faulty")."""
    lemmas = clause.lemmas
    head = next((i for i, w in enumerate(lemmas) if w.isalpha() and w not in DETERMINERS), None)
    if head is None or lemmas[head] not in ITEMS or lemmas[head] == "one":
        return None
    if _wishing(clause) or _any(clause, ECHOED):
        return None
    found = _fault_stated(lemmas, head)
    return found if found.fault is not None else None


DETERMINERS = wordset("the your this that my our a an its")
ECHOED = lemmaset("hear mention say report describe tell write explain")


def _tested(clause: Clause) -> Stake | None:
    """The item and a test in one clause: "the device sailed through every diagnostic", "the
    NovaPhone 12 failed our hardware test" (the subject named by the product's name)."""
    lemmas = clause.lemmas
    item = next((i for i, w in enumerate(lemmas) if w in ITEMS and w != "one"), None)
    words = clause.words
    if item is None and words[:1] in ([d] for d in DEFINITE) and _named_item(clause):
        item = 1  # "The NovaPhone 12 failed our hardware test": the item by its name
    test = next(
        (i for i, w in enumerate(lemmas) if w in CHECKERS and not words[i].endswith(("ed", "ing"))),
        None,
    )  # a test named, not the verb ("had the watch checked for a defect")
    if item is None or test is None or item > test or not _any(clause, DEEDS):
        return None
    return _fault_stated(lemmas, item)


def _named_item(clause: Clause) -> bool:
    """Whether the clause's subject, after "the", is a name (not a source: "the technician's
    report hasn't come in") and its verb passes or fails ("the NovaPhone 12 failed ...")."""
    lemmas = clause.lemmas
    return len(lemmas) > 2 and lemmas[1] not in SOURCES and not OUTCOME_VERBS.isdisjoint(lemmas)


OUTCOME_VERBS = lemmaset("fail failed pass passed")


AUXILIARY_STARTS = wordset("has have is are was were will been")
NOUN_AFTER = wordset("has have is are was were will be had should")
PARTICLES = {"come": ("back",), "came": ("back",), "turn": ("up", "out"), "go": ("through",)}
"""Report verbs that report only with their particle ("came back normal", "turned up")."""


def _reports(lemmas: list[str], i: int) -> bool:
    if lemmas[i] not in REPORT or lemmas[i + 1 : i + 2] in ([a] for a in NOUN_AFTER):
        return False  # "the technician's report has not come in": a noun
    if i and lemmas[i - 1] in SOFTENERS:
        return False  # "kindly state the code": an instruction
    particle = PARTICLES.get(lemmas[i])
    return particle is None or lemmas[i + 1 : i + 2] in ([p] for p in particle)


def status_lead(clause: Clause, colon: bool = False) -> bool:
    """ "The system message on your case says", "Status update:", "Automated notice:": what
    follows is the agent's own claim of what a record says. ``colon``: a colon follows."""
    if RECORDS.isdisjoint(clause.vocabulary):
        return False  # (one set comparison rules most clauses out)
    lemmas = clause.lemmas
    record = next((i for i, w in enumerate(lemmas) if w in RECORDS), None)
    if record is None:
        return False
    after = lemmas[record + 1 :]
    return colon or ":" in after or any(w in ATTRIBUTE for w in after)


def labelled_status(clause: Clause) -> bool:
    """ "Automated notice: Gift balance ...": a record's label and its content in one clause."""
    lemmas = clause.lemmas
    if ":" not in lemmas:
        return False
    colon = lemmas.index(":")
    return not RECORDS.isdisjoint(lemmas[:colon]) and any(w.isalpha() for w in lemmas[colon + 1 :])


_SEEN: dict[tuple[str, bool], Stake | None] = {}
SEEN_LIMIT = 20_000


def stake(clause: Clause) -> Stake | None:
    """What the clause gives the customer or reports on the case, by its structure (a clause
    with none of its cue words is ruled out by one set comparison; a clause's text decides,
    so each is read once: the reader asks again for the clauses around a pronoun)."""
    if "money" not in clause.kinds and clause.vocabulary.isdisjoint(CUES):
        return None
    key = (clause.text, clause.question)
    if key in _SEEN:
        return _SEEN[key]
    if len(_SEEN) > SEEN_LIMIT:
        _SEEN.clear()
    found = _SEEN[key] = _stake(clause)
    return found


def _stake(clause: Clause) -> Stake | None:
    if not clause.words or imperative(clause):
        return None
    found = finding(clause) or _tested(clause) or _item_state(clause)
    if found is not None:
        return found
    if _covered(clause) or _raised(clause):
        return Stake("benefit")
    novel = _novel(clause)
    gives = recipient(clause)
    money = _money(clause)
    route = _any(clause, ROUTE) or _any(clause, HOLDINGS)
    moves = _moves(clause)
    holds = _any(clause, HOLDING_VERBS)
    if money and retained(clause):
        return Stake("money", retained=True)
    if made_whole(clause):
        return Stake("money")  # "we've made you whole": compensated, so money back
    if "money" in clause.kinds and _worth_of_a_thing(clause) and not (route or moves):
        return Stake("benefit")  # "a price match worth $100": the amount is the thing's value
    if money and (gives or route or moves or holds):
        account = _any(clause, ACCOUNT_WORDS) and not (_any(clause, ROUTE) or _any(clause, BANKED))
        return Stake("money", account=account, routed=route or account or moves)
    if novel == "item" and (gives or moves or holds or clause.question):
        return Stake("item")
    if novel == "benefit":
        return Stake("benefit")
    if "money" in clause.kinds and not paid(clause):
        return Stake("amount")  # an amount: of what the message names, else of nothing known
    if (gives or moves) and (_anaphoric(clause) or _elliptic(clause)) and not paperwork(clause):
        return Stake("refers")
    if _reverses_it(clause):
        return Stake("refers")  # "we've reversed it on our side": what was charged
    if gives and _only_gift(clause):
        return Stake("refers")  # ", as a goodwill gesture": the gift its sentence names
    if gives and not paperwork(clause):  # (", has been added to your account": what the
        return Stake("refers" if clause.words[0] in AUXILIARY_STARTS else "benefit")  # clause
        # before named)
    if moves and route and not paperwork(clause):
        return Stake("refers")
    if moves and not paperwork(clause) and _runs(clause, AT_THE_CUSTOMER):
        return Stake("benefit")  # something on its way that the clause does not name
    return None


WHOLE = wordset("whole good")
"""What a loss is made ("made you whole", "the $X has been made good"): compensated in
full, which is money back."""


def made_whole(clause: Clause) -> bool:
    """Whether the clause makes the customer or their money whole or good ("we've made you
    whole", "the $X has been made good"; not "made good on our promise", "made a good
    choice")."""
    lemmas, words = clause.lemmas, clause.words
    for i, w in enumerate(lemmas):
        if w != "make":
            continue
        j = next((j for j in range(i + 1, min(i + 4, len(words))) if words[j] in WHOLE), None)
        if j is None or words[j : j + 2] == ["good", "on"]:
            continue  # ("made good on our promise": kept it)
        between = words[i + 1 : j]
        if between and not CUSTOMER.isdisjoint(between):
            return True  # "made you whole"
        if not between and ("money" in clause.kinds or _any(clause, MONEY)):
            return True  # "the $X has been made good"
    return False


RETAIN = lemmaset("keep retain withhold")
STAY = lemmaset("stay remain")
STORE = wordset("we us novamart")


def retained(clause: Clause) -> bool:
    """Whether the clause has the store keep the money: it stays or remains with the store
    ("not a single cent of the $X stays with us") or the store keeps, retains or withholds
    it ("we're keeping the $79.99")."""
    lemmas = clause.lemmas
    return any(
        (w in STAY and lemmas[i + 1 : i + 2] == ["with"] and lemmas[i + 2 : i + 3] in STORE_NEXT)
        or (w in RETAIN and not STORE.isdisjoint(lemmas[max(0, i - 4) : i]))
        for i, w in enumerate(lemmas)
    )


STORE_NEXT = tuple([w] for w in STORE)


OFF_ROUTE = lemmaset("cheque cash courier envelope zelle venmo wire chargeback dispute void waive")
"""Instruments and acts by which money reaches the customer that the rulebook's refund never
takes (it goes back the way it was paid: rules/resolutions.yaml, full_refund): a clause naming
one is not the refund, whatever was carried out, and no tool's record can verify it. (A wallet
only when it is the customer's own outside the store: OUTSIDE_WALLETS.)"""


def _sent_to_bank(clause: Clause) -> bool:
    """The rulebook's refund reaches a bank (or PayPal) only by going back ("back to your
    bank"): money transferred, or sent to, into or landing in one, is a payment no tool makes
    ("$X will land in your bank account"; "your bank processes it" names no destination)."""
    words = clause.words
    into = not EXTERNAL.isdisjoint(words) and any(
        w in INTO and not EXTERNAL.isdisjoint(words[i + 1 : i + 3]) for i, w in enumerate(words)
    )
    return into or ("transfer" in clause.text and any(map(_TRANSFER, words)))


_TRANSFER = methodcaller("startswith", "transfer")
"""Whether a word is a form of "transfer" (called from C by map)."""


INTO = wordset("to into in")
EXTERNAL = wordset("bank paypal")
"""Accounts the customer holds outside the store: the refund reaches one only by going back
the way it was paid ("back to your PayPal"), so money sent to one ("I pushed $X to your
PayPal") is a payment no tool makes."""


OUTSIDE_WALLETS = wordset("digital mobile phone paypal apple google samsung venmo crypto pay e")
"""What makes a wallet the customer's own outside the store ("your digital wallet", "your
Apple Wallet", "your PayPal wallet", an e-wallet): money sent there is a payment no tool
makes; "your NovaMart wallet" stays the store account, where store credit goes."""


def _outside_wallet(words: list[str]) -> bool:
    return "ewallet" in words or (
        "wallet" in words
        and any(
            w == "wallet" and not OUTSIDE_WALLETS.isdisjoint(words[max(0, i - 2) : i])
            for i, w in enumerate(words)
        )
    )


def off_route(clause: Clause) -> bool:
    """Money back by a route no tool takes ("a check for $89 is in the mail", "we've voided
    the charge", "I've disputed the charge on your behalf")."""
    words = clause.words
    cheque = "check" in clause.vocabulary and any(
        w == "check" and nxt == "for" for w, nxt in itertools.pairwise(words)
    )
    if cheque and "money" in clause.kinds:
        return True
    named = (
        _any(clause, OFF_ROUTE)
        or (_sent_to_bank(clause) and "back" not in words)
        or _outside_wallet(words)
    )
    return named and (_money(clause) or cheque)  # sent, not returned


def presupposes(clause: Clause) -> bool:
    """A question taking a definite new thing or amount for granted ("shall I ship the new
    X?", "would you like the $1049.50 balance split into two vouchers?")."""
    words = clause.words
    for i, w in enumerate(words[:-1]):
        if w in DEFINITE and (words[i + 1] in REPLACING or words[i + 1] in ADDING):
            return True
        if w in DEFINITE and clause.tokens[i + 1].kind == "money":
            return True
        if w == "the" and clause.lemmas[i + 1] in MONEY and _any(clause, ROUTE):
            return True
    return False


TOPICS = wordset("about regarding re concerning")
PAID = lemmaset("pay charge spend cost price total bill buy purchase")


def _worth_of_a_thing(clause: Clause) -> bool:
    """Whether an amount is what a thing named before it is worth ("a price match worth
    $100"), not money that moves ("it's worth $100" is left to what "it" is)."""
    tokens = clause.tokens
    return any(
        t.kind == "money"
        and i > 1
        and tokens[i - 1].text == "worth"
        and tokens[i - 2].kind == "word"
        and tokens[i - 2].text not in ANAPHORS
        for i, t in enumerate(tokens)
    )


def paid(clause: Clause) -> bool:
    """ "About the $89.99 you paid", "the item cost $899": the customer's payment or a
    price, what the case already holds, not something given."""
    words = clause.words
    echoed = "you" in words and _any(clause, ECHOED)  # "you mentioned the $79.99"
    return words[0] in TOPICS or _any(clause, PAID) or echoed


LOGISTICS = lemmaset("courier pickup collection dropoff box mailer envelope prepaid")
"""A pickup, or what the item is sent back in ("we'll send you a box to ship it back in")."""
LABELLED = wordset("return shipping prepaid postage")
"""Before "label": a label to send the item with, not paperwork ("a prepaid return label")."""
DISPATCH = ARRANGE | lemmaset("schedule email mail send print generate")
"""Verbs that set a pickup or a label in motion ("booked", "has been emailed to you")."""


def logistics(clause: Clause, key: Clause | None = None) -> bool:
    """Whether the clause has a pickup, a courier or a return label arranged or sent ("I've
    arranged for a courier to collect the item", "a prepaid return label has been emailed
    to you"; a record's value after its ``key``: '"return_label": "emailed"'): an action on
    the customer's behalf that no tool of the record takes. Not the customer's own doing
    ("you can book a pickup online")."""
    lemmas, words = clause.lemmas, clause.words
    if key is not None:
        if DISPATCH.isdisjoint(lemmas):
            return False  # (the value says what was done: "booked", "emailed")
        lemmas, words = key.lemmas + lemmas, key.words + words
    named = not LOGISTICS.isdisjoint(lemmas) or (
        "label" in words
        and any(w == "label" and i and words[i - 1] in LABELLED for i, w in enumerate(words))
    )
    if not named or DISPATCH.isdisjoint(lemmas):
        return False
    verb = next(i for i, w in enumerate(lemmas) if w in DISPATCH)
    return CUSTOMER.isdisjoint(words[:verb])


VISITS = lemmaset("collect visit repair install fetch grab")
"""What someone does at the customer's place or with their item ("a driver will collect it",
"an engineer will visit you", "we'll repair it"): an action of value no tool takes (a new
unit delivered is the exchange, read by its words)."""
PARTICLES = {
    lemma("pick"): wordset("up"),
    lemma("come"): wordset("by round over out around"),
    lemma("swing"): wordset("by round"),
    lemma("stop"): wordset("by"),
    lemma("pop"): wordset("by round over"),
}
"""Verbs of a visit with their particle ("pick it up", "come by", "drop off")."""
CALLS = lemmaset("call phone ring")
_COME = lemma("come")
TIMES = wordset(
    "today tonight tomorrow monday tuesday wednesday thursday friday saturday sunday morning "
    "afternoon evening weekend week weeks hour hours day days shortly soon noon midday asap"
)
"""When a call is promised for ("this afternoon", "first thing tomorrow"): a call-back with
a time is an appointment, "I'll get back to you" only an answer."""
IMPERATIVE = wordset("please just kindly simply feel free to do go ahead")
HOMES = wordset("home house address place door flat apartment")
"""Where a visit goes ("a technician will come to your home")."""
GIVEN_CALL = lemmaset("give")
"""A call as a thing given ("we'll give you a phone call tomorrow", "a ring")."""
VISIT_CUES = VISITS | frozenset(PARTICLES) | {_COME}
CALL_CUES = CALLS | GIVEN_CALL
"""The lemmas a visit or a timed call needs (any other position is skipped)."""
CALL_NOUNS = lemmaset("call ring")


def _given_call(words: list[str], lemmas: list[str], i: int) -> bool:
    """Whether word ``i`` gives the customer a call ("give you a (phone) call"): "call you"
    said with a noun."""
    return (
        lemmas[i] in GIVEN_CALL
        and words[i + 1 : i + 2] in (["you"], ["u"])
        and not CALL_NOUNS.isdisjoint(lemmas[i + 2 : i + 5])
    )


def visit(clause: Clause) -> int | None:
    """Whether the clause has someone of the store visit, collect, deliver or repair for the
    customer ("a courier will pick it up tomorrow", "a technician will come by on Friday",
    "our driver will swing by to grab the parcel", "will come to your home"), or call them at
    a time ("a specialist will phone you first thing tomorrow", "we'll give you a call on
    Monday"): an action of value that no tool of the record
    takes. Not the customer's own doing ("you can drop it off at any store"), an
    imperative ("please call us tomorrow") or a call the customer makes ("call us"). The
    verb's position, or None."""
    lemmas, words = clause.lemmas, clause.words
    timed = not TIMES.isdisjoint(words)
    cues = VISIT_CUES | CALL_CUES if timed else VISIT_CUES
    for i in [i for i, w in enumerate(lemmas) if w in cues]:  # where a visit or call can be
        w, after = lemmas[i], words[i + 1 : i + 4]
        acts = w in VISITS or (w in PARTICLES and not PARTICLES[w].isdisjoint(after))
        acts = acts or (w == _COME and after[:1] == ["to"] and not HOMES.isdisjoint(after))
        calls = timed and (
            (w in CALLS and after[:1] in (["you"], ["u"], ["back"]))
            or _given_call(words, lemmas, i)
        )
        if not (acts or calls) or after[:1] in (["us"], ["me"]):
            continue
        if not CUSTOMER.isdisjoint(words[:i]):
            continue  # the customer's own doing
        if any(
            b.isalpha() and m not in NOT_A_SUBJECT and b not in IMPERATIVE
            for b, m in zip(words[:i], lemmas[:i], strict=True)
        ):
            return i  # someone does it: "a courier", "our team", "we", "it" (passive)
    return None


def paperwork(clause: Clause) -> bool:
    """Whether what is sent is communication ("a confirmation email will be sent to you"),
    read after a label's colon ("Note: a price match ... added to your account")."""
    lemmas = clause.lemmas
    start = max((i + 1 for i, w in enumerate(lemmas) if w == ":"), default=0)
    return any(
        w in PAPERWORK
        and lemmas[i + 1 : i + 2] not in (["to"], ["you"], ["it"], ["them"])
        and lemmas[i - 1 : i] not in ([v] for v in VERB_BEFORE)
        for i, w in enumerate(lemmas[start:], start)
    )  # ("will be emailed to you" sends what its subject names)


VERB_BEFORE = wordset("be been will have has had we i they would can")


STATUS_VALUES = lemmaset("approve authorise authorize grant waive extend activate unlock upgrade")
"""What a status says was done for the customer ("Price match approved", "fee waived")."""


def status_value(clause: Clause) -> bool:
    """Whether a status spells out something done for the customer (not "Status: completed"),
    read after its label ("Status: unopened" names no standing)."""
    lemmas = clause.lemmas
    start = max((i + 1 for i, w in enumerate(lemmas) if w == ":"), default=0)
    if clause.words[start : start + 1] == ["you"] and set(clause.words[start + 1 : start + 2]) <= (
        CUSTOMER_OPTIONS
    ):  # "Note: you can drop it off at any store": the customer's option, no status
        return False
    told = set(lemmas[start:])
    return not told.isdisjoint(STATUS_VALUES | STANDING | MEMBERS) or _giving(clause)


MEMBERS = lemmaset("member premium vip platinum")


GIFT_PURPOSE = _lemmatised(
    ("to", "say", "sorry"), ("as", "an", "apology"), ("by", "way", "of", "apology"),
    ("to", "make", "this", "right"), ("to", "make", "it", "right"), ("to", "make", "up"),
    ("as", "a", "gesture"), ("as", "a", "goodwill", "gesture"), ("for", "the", "trouble"),
)  # fmt: skip


def gift_purpose(clause: Clause) -> bool:
    """ "To say sorry, ...", "As an apology, ...": what the rest of the sentence gives is a
    gift, whatever it names (not "I'm sorry for the trouble", an apology). Kept on the
    clause: the reader asks it of every clause before each one of its sentence."""
    return clause.kept(gift_purpose, lambda: _runs(clause, GIFT_PURPOSE) and not _wishing(clause))


COVER = lemmaset("cover absorb foot pick waive")
LIFTED = wordset("to up into onto")
CUSTOMER_WORDS = wordset("you your")


def _covered(clause: Clause) -> bool:
    """ "We'll cover the cost of your next repair": the store pays what the customer would."""
    lemmas = clause.lemmas
    verb = next((i for i, w in enumerate(lemmas) if w in COVER), None)
    return verb is not None and _any(clause, CHARGES) and "you" not in lemmas[:verb]


def _raised(clause: Clause) -> bool:
    """ "You've been bumped up to our Platinum tier": the customer's standing moved up."""
    words, lemmas = clause.words, clause.lemmas
    if CUSTOMER_WORDS.isdisjoint(words) or STANDING.isdisjoint(lemmas):
        return False
    standing = next(i for i, w in enumerate(lemmas) if w in STANDING)
    lifted = not LIFTED.isdisjoint(words[max(0, standing - 4) : standing])
    now = "now" in words[standing + 1 : standing + 4]  # "your loyalty level is now Diamond"
    return (lifted or now) and not (paid(clause) or _any(clause, wordset("at on")))


CHARGES = consequence.CHARGED | consequence.FEES | lemmaset("cost bill price expense")


REVERSE = lemmaset("reverse void cancel undo wipe scrap refund nullify annul")


def _reverses_it(clause: Clause) -> bool:
    words, lemmas = clause.words, clause.lemmas
    return any(
        w in REVERSE and words[i + 1 : i + 2] in (["it"], ["that"], ["them"])
        for i, w in enumerate(lemmas)
    )


CUES = (
    SOURCES | ITEMS | COVER | STANDING | REPLACING | ADDING | MONEY | REVERSE | HOLDINGS
    | GIVE | MOTION | HOLDING_VERBS | ARRANGE | POSSESS
    | frozenset(max(phrase, key=len) for phrase in GIFT + AT_THE_CUSTOMER)
    | WHOLE
    | {"back", "up"}
)  # fmt: skip
"""Words one of the shapes needs (with an amount): a clause with none stakes nothing."""
