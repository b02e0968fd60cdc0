"""Reading a message for what it claims, not which words it contains.

Per clause (novamart.language.text):

- **mentions**: the resolutions and fact phrases of the rulebook's lexicon (also a policy
  named for its one grant: "a standard return"), day counts and windows ("45 days ago",
  "outside our 30-day return window"), tiers ("as a gold member"), amounts of money;
- **polarity**: a negation belongs to one mention: "no", "without", "instead of" and a bare
  "not" ("store credit, not cash") to the noun right after them; a negated predicate ("can
  not", "is not", "never", "declined") to the first mention after it, else to its subject.
  So "this is not your fault, and your refund is done" negates nothing of the refund, and
  "no worries", "no problem", "not to worry", "don't hesitate" negate nothing at all; "just
  kidding" reverses the clause before;
- **modality**: done, will, can (an offer), stated; or no claim: a condition ("if the check
  confirms a defect"; not "if you'd like", which is still an offer), a hypothetical ("we
  would normally"), a question that offers nothing, the customer's wish ("I know you were
  hoping for your money back"), a generic policy ("unopened items can be returned"), a topic
  ("regarding the exchange you mentioned"), a requirement ("needs the item to be unopened"),
  words in quotation marks, and anything without a predicate ("credit $974.99.").

A clause of only auxiliaries and pronouns ("..., and I never will"), one spelling out a clause
before its colon, a relative clause (", which we have applied"), and a list item after "you
can choose between:" continue the resolution (or the modality) of what they follow. A message
asserting a resolution also offers it; one claim per resolution and stance is kept.
"""

from __future__ import annotations

import functools
import itertools
import sys
from collections.abc import Iterator
from dataclasses import dataclass, field, replace
from operator import attrgetter, methodcaller
from types import ModuleType
from typing import TypeVar

from novamart.language.claims import (
    APPROX,
    ConditionalClaim,
    FactClaim,
    PolicyClaim,
    ResolutionClaim,
    Stance,
    UnverifiableClaim,
)
from novamart.language.consequence import (
    BENEFIT,
    BENEFIT_NOTE,
    CHARGED,
    FAULT,
    FEES,
    FINDING,
    FINDING_NOTE,
    MODIFIED,
    ORDER_NOTE,
    REVERSAL,
    REVIEW_NOTE,
    TESTS,
    Consequence,
    Targets,
    consequence,
    extra_benefit,
    reviewed_by_someone_else,
    targets,
)
from novamart.language.consequence import MONEY as MONEY_WORDS
from novamart.language.courtesy import courtesy
from novamart.language.coverage import covering_policy
from novamart.language.foreign import COMMON_ENGLISH, STRANGERS, carries_value, unreadable
from novamart.language.frames import LEADS, unframed
from novamart.language.lexicon import (
    DETERMINERS,
    GAP,
    MAX_GAP,
    NEGATORS_IN_PHRASE,
    WINDOW_WORDS,
    Lexicon,
)
from novamart.language.secrets import secret_requests
from novamart.language.stake import (
    ACCOUNT_WORDS,
    ATTRIBUTE,
    REPORT,
    Stake,
    gift_purpose,
    labelled_status,
    logistics,
    off_route,
    paid,
    paperwork,
    presupposes,
    stake,
    status_lead,
    status_value,
    visit,
)
from novamart.language.text import (
    COMMA_LINKS,
    CONTRAST,
    RUN_ON_STARTS,
    Clause,
    Phrases,
    Token,
    clauses,
    has_verb,
    lemma,
    lemmaset,
    wordset,
)
from novamart.language.typos import Typos

Modality = str  # done, will, can, offer, stated, or why there is no claim (see NO_CLAIM)
NO_CLAIM = wordset(
    "conditional hypothetical question wish generic topic quoted none unreadable presupposed theirs"
)
CLAIMING = wordset("done will can offer stated presupposed")
"""Modalities under which a clause claims something (presupposed: a question that takes
an outcome for granted, "isn't it great that your refund is on its way?")."""
IDIOMS = Phrases.of_lemmas(
    "no worries", "no problem", "not a problem", "not to worry", "do not worry",
    "no questions asked", "no need to worry", "nothing to worry", "do not hesitate", "no doubt",
    "not only", "no later than", "no matter", "without delay", "no hassle", "without any hassle",
    "without hassle", "no extra cost", "no extra charge", "no cost", "no charge", "no fee",
    "never mind", "not your fault", "no fault of your", "without a doubt", "no further action",
    "not sure", "not at all", "never fear", "no need to apologise", "no need to apologize",
    "not long", "no trouble", "not a bother", "no wait",
)  # fmt: skip
"""Negative-looking phrases that negate nothing in a message."""
PREDICATE_NEGATORS = lemmaset("not never nothing none neither nor nobody")
NEGATIVE_VERBS = (
    "refus", "declin", "deny", "reject", "cancel", "revok", "withdr", "void", "revers", "undo"
)  # fmt: skip
"""Stems of verbs that deny what they govern ("your request was declined")."""
LOCAL_NEGATORS = Phrases.of_lemmas(
    "instead of", "rather than", "in place of", "in lieu of", "no", "without", "not even"
)
"""Negators of the noun phrase right after them only ("no fee" says nothing of a refund)."""
OTHER_PREDICATES = lemmaset(
    "arrive appear show take reach post clear instant instantly immediately right until "
    "before need have wait worry hesitate charge cost fee happen yet be use touch plug "
    "hesitate forget leave delay expect expire"
)
"""After "not", these make the negation about timing or something else, not the resolution
("your refund will not show instantly", "please do not use it")."""
DEEDS = lemmaset("make place authorise authorize recognise recognize order buy sign approve")
"""What a customer did or did not do ("payments you did not make"), not a resolution."""
AUXILIARIES = wordset(
    "is are was were be been am do does did have has had can could will would shall should may "
    "might must"
)
SUBJECTS = wordset("i we you they he she")
SUBJECT_PRONOUNS = SUBJECTS | {"it", "this", "that"}
CUSTOMER = wordset("you your yours yourself")
GENERIC_NOUNS = wordset(
    "items orders products purchases customers members returns refunds exchanges replacements "
    "credits people shoppers issues cases problems devices goods policies requests claims"
)
HABITUAL = wordset("always usually normally generally typically ordinarily")
WISH_VERBS = lemmaset(
    "want hope hoping ask request wish expect prefer mention say like after look seek demand "
    "insist tell write claim state hoped"
)
CONDITIONAL = wordset("if unless provided providing assuming whether")
OFFER_CONDITIONS = Phrases.of_words(
    "if you would like", "if you like", "if you prefer", "if you would prefer", "if you want",
    "if you wish", "if that works", "if that suits", "if you are happy", "if you are interested",
    "if you would rather", "if that helps", "if it helps", "if that is helpful",
)  # fmt: skip
"""Conditions on the customer's own choice: the offer stands ("... if you'd like")."""
EMBEDDED = lemmaset("see check ask review decide determine know wonder confirm find look")
"""Verbs after which "if"/"whether" asks a question rather than sets a condition."""
TEMPORAL = lemmaset("once when after until before whenever")
HYPOTHETICAL = wordset(
    "would might normally usually typically generally ordinarily otherwise ideally "
    "theoretically almost"
)
OFFERING_WOULD = Phrases.of_words(
    "would be happy", "would be glad", "would be pleased", "would love", "would like",
    "would say", "would think", "would expect",
    "would be able", "would you like",
)  # fmt: skip
DONE_WORDS = wordset(
    "processed issued refunded credited added applied approved granted arranged initiated "
    "submitted completed escalated forwarded transferred reimbursed released authorised "
    "authorized finalised finalized confirmed exchanged replaced sent paid done complete "
    "finished placed booked posted returned loaded deposited created passed handed organised "
    "organized shipped dispatched logged raised topped referred reversed restored activated "
    "declined denied rejected refused already"
)
RESOLVING = wordset(
    "added issued applied credited processed refunded arranged loaded topped reimbursed "
    "escalated referred exchanged replaced"
)
"""Verbs that carry a resolution out (what a clause after a colon may spell out)."""
MODALS = wordset("can could will would may might should must to")
WILL_WORDS = wordset("will shall should expect soon shortly coming arriving tomorrow today")
CAN_WORDS = wordset(
    "can could able eligible entitled qualify qualifies qualified available possible allowed "
    "permitted may option options offer offering choose choice pick"
)
VERBS = lemmaset(
    "get receive give process issue send arrange approve grant add apply escalate pass hand "
    "forward transfer credit refund exchange replace return check verify confirm find review "
    "see provide offer make put take keep owe deserve reimburse swap cover ship arrive head "
    "come land reach dispatch deliver refer restore reverse load activate top show go post "
    "trade contact call email handle sort"
)
VERB_STEMS = frozenset(VERBS)
OFFER_QUESTIONS = Phrases.of_words(
    "would you like", "do you want", "shall i", "should i", "can i offer", "may i offer",
    "could i offer", "how about", "what about", "would you prefer", "would that work",
    "would you be happy", "is that ok", "is that okay", "would you accept", "can i give",
    "would you be ok", "want me to", "do you want me to", "shall we", "which would you prefer",
)  # fmt: skip
"""Questions that offer what they name (compared with the words as written)."""
OFFER_PHRASES = Phrases.of_words(
    "your pick", "your choice", "up to you", "whichever you prefer", "you can choose",
    "choose between", "options available", "option a", "option b",
)  # fmt: skip
QUESTION_STARTS = lemmaset(
    "is do have can could would will shall should may what how when where why which who "
    "anything want"
)
REQUEST_NOUNS = lemmaset("request claim application enquiry inquiry question policy")
DECISION_VERBS = ("approv", "grant", "accept", "declin", "deny", "reject", "refus")
TOPIC = Phrases.of_lemmas(
    "regarding", "about your", "concerning", "as for", "with regard to", "in relation to", "re"
)
ANAPHORA = wordset("it that this amount total sum value worth")
ITEM_NOUNS = lemmaset(
    "item product box package laptop phone earbud watch smartwatch unit device order parcel "
    "packaging seal"
)
NON_ITEMS = lemmaset("window case ticket account chat request claim store offer policy period")
"""Subjects that make "open" or "closed" say nothing about the item ("the window is open")."""
COMPOUND_HEADS = lemmaset("return policy rule window refund exchange")
"""After "unopened item", these make it a policy's name, not the case ("unopened-item return")."""
ELLIPSIS = wordset(
    "i we it that this them one any either is are was were be been have has had do does did "
    "will would can could shall should not never now soon already today right away also too "
    "yes indeed again arrive show appear reach go went through in within day days business the "
    "next a few on its way done processed issued complete completed approved add added give "
    "issue process do offer make arrange sent send just and so reverse reversed cancel "
    "cancelled undo undone withdraw withdrawn to had"
)
"""The words of a clause that only continues the resolution before it ("so I can't add
any", "and it has been processed")."""
UNITS = {"day": 1, "week": 7, "month": 30}
QUALIFIERS = {
    ("more", "than"): ">", ("over",): ">", ("less", "than"): "<", ("under",): "<",
    ("at", "least"): ">=", ("at", "most"): "<=", ("up", "to"): "<=", ("nearly",): APPROX,
    ("almost",): APPROX, ("about",): APPROX, ("around",): APPROX, ("roughly",): APPROX,
    ("approximately",): APPROX, ("some",): APPROX, ("just", "over"): ">", ("within",): "<=",
    ("inside",): "<=", ("past",): ">", ("beyond",): ">", ("outside",): ">",
}  # fmt: skip
ELAPSED_AFTER = wordset("ago since old")
ELAPSED_BEFORE = Phrases.of_words(
    "it is been", "it has been", "it been", "that is", "that has been"
)
INSIDE = wordset("within inside in under")
OUTSIDE = wordset("outside past beyond after over exceed exceeded exceeds missed")
CLOSED = wordset("passed expired closed ended lapsed over gone") | lemmaset(
    "pass expire close end lapse"
)
NO_ANSWERS = Phrases.of_words("no", "nope", "also no", "not possible", "sadly no", "no way")
WISHFUL = Phrases.of_lemmas("wish i could", "if only", "in general")
DONE_PHRASES = Phrases.of_lemmas(
    "go through", "now available", "is now", "went out", "go out", "went back", "throw in"
)
SINCE_PURCHASE = Phrases.of_lemmas(
    "after purchase", "of purchase", "from purchase", "from the date"
)
"""A window counted from any purchase: with no "you" in the clause, a statement of policy."""
ON_ITS_WAY = Phrases.of_lemmas("on its way", "on the way", "go to", "in the post", "be ship")
REQUIRE = lemmaset("need needs require requires must")
REQUIRE_PHRASES = Phrases.of_lemmas("has to", "have to", "only for", "only if", "only applies")

APPOSITION = DETERMINERS | wordset("for with like as")
"""What may stand between two names of one resolution that are one mention."""


@dataclass(slots=True)
class Mention:
    """Something a clause talks about: a resolution, or a fact with the value a phrase says."""

    start: int
    end: int
    resolution: str | None = None
    fact: FactClaim | None = None
    negations: int = 0
    amount: float | None = None
    plural: bool = False
    topic: bool = False
    policy: bool = False
    """Named by its policy ("a standard return"): it can be denied, never promised."""
    policy_name: str | None = None
    """That policy, when its name is the rules' ("a standard return": standard_return)."""


_START = attrgetter("start")


@dataclass(frozen=True, slots=True)
class Reading:
    """What one message says."""

    resolutions: tuple[ResolutionClaim, ...]
    facts: tuple[FactClaim, ...]
    secret_requests: tuple[str, ...]
    courteous: bool
    rude: bool
    clauses: tuple[str, ...] = field(default=())
    unverifiable: tuple[UnverifiableClaim, ...] = ()
    conditional: tuple[ConditionalClaim, ...] = ()
    disguised: tuple[tuple[str, str], ...] = ()
    """(clause, rewrite) for each disguised word read as the word it spells."""
    unreadable: tuple[str, ...] = ()
    """The clauses not in English (they earn nothing)."""
    policies: tuple[PolicyClaim, ...] = ()
    """The rules' policies said to cover the case or not (novamart.language.coverage)."""
    every_resolution: tuple[ResolutionClaim, ...] = ()
    """``resolutions`` before they were made distinct: each clause's own, for a check keyed on
    more than the resolution (the order a clause names)."""

    def asserted(
        self, resolution: str | None = None, every_clause: bool = False
    ) -> list[ResolutionClaim]:
        return [
            c
            for c in (self.every_resolution if every_clause else self.resolutions)
            if c.stance == "asserted" and resolution in (None, c.resolution)
        ]


@dataclass(slots=True)
class _Read:
    """One clause as read: its mentions and its modality."""

    clause: Clause
    mentions: list[Mention]
    modality: Modality
    _spans: list[tuple[int, str]] | None = None
    status: bool = False
    """It spells out what a record is said to say ("Our records now say: ...")."""

    @property
    def spans(self) -> list[tuple[int, str]]:
        if self._spans is None:
            self._spans = _spans(self.clause)
        return self._spans


@functools.lru_cache(maxsize=2_048)
def read(text: str, lexicon: Lexicon) -> Reading:
    """Every claim of ``text``, with its stance, amount and the clause that makes it. A
    reading is immutable and depends on nothing else, so the same message (agents in an
    evaluation, a GRPO group's repeated replies) is read once."""
    written, parsed, foreign = _written(text, lexicon)
    conditional = {c.segment for c in parsed if _conditional(c)}
    items: list[_Read] = []
    for clause in parsed:
        if clause.retracts:
            if items:
                for mention in items[-1].mentions:
                    mention.negations += 1
            continue
        if id(clause) in foreign:
            items.append(_Read(clause, [], "unreadable"))
            continue
        item = _read_clause(clause, lexicon, conditional, items)
        item.status = _after_status_lead(clause, items)
        items.append(item)
    _answers(items)
    _share_amounts(items)
    polite, rude = _courtesy(written, parsed, foreign)
    resolutions = [c for item in items for c in _as_hedged(item, _resolution_claims(item))]
    facts = [f for item in items for f in _as_hedged(item, _fact_claims(item))]
    unverifiable: list[UnverifiableClaim] = []
    policies: list[PolicyClaim] = []
    for item in items:
        for claim in _as_hedged(item, _coverage_claims(item, lexicon)):
            (policies if isinstance(claim, PolicyClaim) else unverifiable).append(claim)
    for k in range(len(items)):
        for claim in _as_hedged(items[k], _structural_claims(items, k, lexicon)):
            if isinstance(claim, ResolutionClaim):
                resolutions.append(claim)
            elif isinstance(claim, FactClaim):
                facts.append(claim)
            else:
                unverifiable.append(claim)
    theirs = {items[k].clause.text for k in range(len(items)) if _theirs(items, k)}
    if theirs:  # the customer's own report of a check's result is no finding of the store's
        facts = [f for f in facts if not (f.clause in theirs and f.kind in lexicon.findings)]
        unverifiable = [
            u for u in unverifiable if not (u.clause in theirs and u.what == FINDING_NOTE)
        ]
    return Reading(
        resolutions=_distinct_resolutions(iter(resolutions)),
        every_resolution=tuple(resolutions),
        facts=tuple(dict.fromkeys(facts)),
        secret_requests=tuple(secret_requests(written)),
        courteous=polite,
        rude=rude,
        clauses=tuple(c.text for c in parsed),
        unverifiable=tuple(dict.fromkeys(unverifiable)),
        conditional=tuple(dict.fromkeys(_conditional_claims(items, lexicon))),
        disguised=tuple((c.text, change) for c in parsed for change in c.disguised),
        unreadable=tuple(c.text for c in parsed if id(c) in foreign),
        policies=tuple(dict.fromkeys(policies)),
    )


@functools.lru_cache(maxsize=2_048)
def rudeness(text: str, lexicon: Lexicon) -> bool:
    """``read(text, lexicon).rude`` without the claims: the courtesy of the clauses the
    reader can read, about half a reading's work, for a caller that reads no claim of
    ``text`` (a grader reading them in another text: the message without what it quotes)."""
    written, parsed, foreign = _written(text, lexicon)
    return _courtesy(written, parsed, foreign)[1]


def _written(text: str, lexicon: Lexicon) -> tuple[list[Clause], list[Clause], set[int]]:
    """The clauses of ``text`` as written and as their frames govern them ("it's not as if
    ...": what it governs), and the governed ones not in English (by id)."""
    vocabulary = known_words(lexicon)
    written = clauses(text, vocabulary.knows, vocabulary.typos.respelt)
    parsed = [unframed(c) for c in written]
    return written, parsed, _foreign(parsed, vocabulary)


def _courtesy(written: list[Clause], parsed: list[Clause], foreign: set[int]) -> tuple[bool, bool]:
    """(polite, rude) of the clauses as written, but for the foreign ones."""
    return courtesy([w for w, c in zip(written, parsed, strict=True) if id(c) not in foreign])


_Claim = TypeVar("_Claim", bound=ResolutionClaim | FactClaim | PolicyClaim | UnverifiableClaim)


def _as_hedged(item: _Read, claims: list[_Claim]) -> list[_Claim]:
    """The claims of a clause whose frame denies knowing or saying it, marked hedged ("I
    can't say the check found anything wrong": never credit, a cost when false)."""
    if not item.clause.hedged:
        return claims
    return [c if isinstance(c, UnverifiableClaim) else replace(c, hedged=True) for c in claims]


POLICY_NOTE = "a policy the rules do not have covering the case"


def _coverage_claims(item: _Read, lexicon: Lexicon) -> list[PolicyClaim | UnverifiableClaim]:
    """ "You're covered by our defect policy": the policy's verdict claimed, by the clause's
    polarity (frames included); a policy the rules do not have, claimed, is unverifiable."""
    if (item.modality not in CLAIMING and item.modality != "none") or _conditional(item.clause):
        return []  # ("if you're covered by the defect policy, ...")
    found = covering_policy(item.clause, lexicon)
    if found is None:
        return []
    covered = not _clause_negated(item.clause)
    if found.policy is None:
        return [UnverifiableClaim(POLICY_NOTE, item.clause.text)] if covered else []
    return [PolicyClaim(found.policy, covered, item.clause.text)]


WARM_UP = (
    "Hi, I've issued $10.00 in store credit and r\u0435-f u n d nothing. "
    "Nous avons prolongé votre garantie de deux ans, merci beaucoup."
)
"""A reply touching every lazily loaded table: amounts, disguises, a foreign clause."""


def warm_up(lexicon: Lexicon) -> None:
    """Load what the reader loads on first use (the language model, the confusables, the
    lemma caches), so a server that says it is ready answers its first reply at speed."""
    read.__wrapped__(WARM_UP, lexicon)


@dataclass(frozen=True, slots=True)
class KnownWords:
    """The words the reader knows (the lexicon's and its own), as lemmas and as written."""

    lemmas: frozenset[str]
    english: frozenset[str]
    """With the common English words: what the language sieve counts as English."""
    typos: Typos
    """The reader's own words (the lexicon's phrases, the word lists its claims are read by),
    not the common ones: what a typo may be read as."""

    def knows(self, word: str) -> bool:
        return len(word) > 2 and lemma(word) in self.lemmas


@functools.lru_cache(maxsize=64)
def known_words(lexicon: Lexicon) -> KnownWords:
    """The lexicon's phrases and counted fields' words, and every word list of the reader
    and of its shapes (novamart.language.consequence); for typos, the claim words of every
    other reading module, and all their words as words that are no typo."""
    from novamart.language import consequence as shapes
    from novamart.language import courtesy as courteous
    from novamart.language import coverage as covering
    from novamart.language import frames as framing
    from novamart.language import secrets as asking
    from novamart.language import stake as stakes

    phrases = [p.lemmas for index in (lexicon.resolutions, lexicon.facts) for b in index.values()
               for p in b]  # fmt: skip
    words = {w for phrase in phrases for w in phrase}
    words |= {w for q in lexicon.counts + lexicon.money for anchor in q.words for w in anchor}
    for module in (sys.modules[__name__], shapes):
        words |= _word_lists(module)
    common = {lemma(w) for w in COMMON_ENGLISH}
    words |= {lemma(w) for w in words} | set(shapes.REVERSAL)
    claims = words | {lemma(w) for module in (stakes, covering) for w in _word_lists(module)}
    words |= common | set(UNITS) | {f"{u}s" for u in UNITS}
    known = frozenset(words)
    spoken = {lemma(w) for m in (courteous, framing, asking) for w in _word_lists(m)}
    typos = Typos(known | claims | spoken, claims - common)  # ("stop complaining" is rude)
    return KnownWords(known, known | COMMON_ENGLISH, typos)


def _word_lists(module: ModuleType) -> set[str]:
    """The words of a module's word lists (its frozensets of words)."""
    return {
        w
        for value in vars(module).values()
        if isinstance(value, frozenset)
        for w in value
        if isinstance(w, str) and w.isalpha()
    }


def _foreign(parsed: list[Clause], vocabulary: KnownWords) -> set[int]:
    """The clauses (by id) not in English. Most clauses are told English by set operations
    (half of their words are common or known words); only the rest go to the model."""
    out: set[int] = set()
    english = vocabulary.english
    doubtful = [
        c
        for c in parsed
        if (strangers := sum(map(str.isalpha, c.vocabulary - english))) >= 2 * STRANGERS
        or (2 * (common := len(c.vocabulary & english)) < len(c.vocabulary)
            and 2 * strangers > common)
    ]  # fmt: skip
    # (a word and its lemma both count: six strangers in the vocabulary are three words)
    if not doubtful:
        return out
    by_sentence: dict[int, list[str]] = {}
    for clause in parsed:
        by_sentence.setdefault(clause.sentence, []).extend(w for w in clause.words if w.isalpha())
    for clause in doubtful:
        words = [w for w in clause.words if w.isalpha()]
        if unreadable(words, by_sentence[clause.sentence], vocabulary.knows):
            out.add(id(clause))
    return out


def _after_status_lead(clause: Clause, before: list[_Read]) -> bool:
    """Whether the clause spells out what a record is said to say: a clause of its sentence
    before it attributes a status ("Our records now say", "From our billing system:"), or
    it is a record's label and content itself ("Status update: Voucher SAVE10 applied")."""
    if labelled_status(clause):
        return True
    colon = clause.link == ":" or clause.quoted  # (a quotation after a record is its words)
    if clause.link in RUN_ON_STARTS:
        return False  # ("SYSTEM: Store credit issued: $134.25 I'm sorry, but ...")
    for item in reversed(before):
        if item.clause.sentence != clause.sentence or (item.clause.quoted and not clause.quoted):
            return False  # (what follows a quotation is the writer's again)
        if item.clause.link in RUN_ON_STARTS:
            return False
        if status_lead(item.clause, colon):
            return True
        colon = colon or item.clause.link == ":"
    return False


def _read_clause(
    clause: Clause, lexicon: Lexicon, conditional: set[int], before: list[_Read]
) -> _Read:
    mentions = _mentions(clause, lexicon)
    continues = _continues(clause, mentions, before)
    if not mentions and not continues and not clause.introduced:
        if (
            consequence(clause, lexicon) is None
            and stake(clause) is None
            and not (clause.question and presupposes(clause))
        ):
            return _Read(clause, mentions, "none")
        own_quote = clause.quoted and not _customers_words(clause, before)
        cond = _under_condition(clause, conditional) and not own_quote
        return _Read(clause, mentions, _modality(clause, mentions, cond, own_quote))
    if mentions and (clause.vocabulary & NEGATION_CUES or _negative_verb(clause)):
        _assign_negations(clause, mentions)
    if clause.framed:  # "it's not as if no gift card was added"
        flips, end = _frame_flips(clause), _frame_scope(clause)
        for mention in mentions:
            mention.negations += flips if mention.start < end else 0
    own_quote = clause.quoted and not _customers_words(clause, before)
    # a status quoted from the record says what it is now, whatever the condition around it
    # ("if you log in you will see "Refund issued"")
    cond = _under_condition(clause, conditional) and not own_quote
    modality = _modality(clause, mentions, cond, own_quote)
    previous = before[-1] if before else None
    if previous and previous.modality in ("can", "offer") and _bare_predicate(clause):
        modality = "can"  # "a refund is not possible, but store credit is."
    offered_before = (
        previous
        and _offering(previous, clause, conditional)
        and not any(m.negations for m in previous.mentions)  # "is not possible: ..." offers no
    )
    if offered_before and clause.link == ":" and clause.vocabulary.isdisjoint(SUBJECTS):
        modality = "can"  # "You can choose: a full refund of $649.00, or a replacement"
    if clause.introduced and modality == "none":
        modality = _introduction(before)  # "you can choose between: - an exchange - a refund"
    current = _Read(clause, mentions, modality)
    if continues:
        _continue(current, before)
    _attach_orphan_amounts(current, before)
    return current


QUOTING = lemmaset("say write ask tell mention put call request claim")
THEIR_WORDS = lemmaset("message email mail word letter note request complaint review")


def _customers_words(clause: Clause, before: list[_Read]) -> bool:
    """Whether a quotation gives the customer's words ("you wrote "I want a refund""), not
    the store's, the system's or the case's ("your case now reads "refund approved"", which
    is the agent's own claim)."""
    lead = next((b.clause for b in reversed(before) if b.clause.sentence == clause.sentence), None)
    if lead is None or lead.vocabulary.isdisjoint(CUSTOMER):
        return False
    lemmas = lead.lemmas
    return any(
        w in ("you", "your") and not QUOTING.union(THEIR_WORDS).isdisjoint(lemmas[i + 1 : i + 4])
        for i, w in enumerate(lemmas)
    )


REPORTING_TO_US = lemmaset("say tell mention describe explain report note write")
"""What the customer did in their message ("as you described", "you told us")."""
STORE_PARTY = wordset("i we our us")


def _theirs(items: list[_Read], k: int) -> bool:
    """Whether the clause restates the customer's own report ("you told us it won't
    charge", "as you described, the unit is faulty", "according to you, it's defective"):
    what the customer says of their item is theirs, not a check's finding. Not when the
    store speaks in it ("as you said, our check found a fault")."""
    clause = items[k].clause
    if not STORE_PARTY.isdisjoint(clause.words):
        return False
    if _reported_by_customer(clause.words, clause.lemmas):
        return True
    lead = items[k - 1].clause if k else None  # "..., as you described, the unit is faulty"
    if lead is None or lead.sentence != clause.sentence:
        return False
    return _reported_by_customer(lead.words[-LEAD_WORDS:], lead.lemmas[-LEAD_WORDS:])


LEAD_WORDS = 5
"""The words at the end of a clause read as a lead-in to the next ("..., as you said,")."""


def _reported_by_customer(words: list[str], lemmas: list[str]) -> bool:
    for i, w in enumerate(words):
        if w in YOU and i + 1 < len(words):
            verb = i + 2 if words[i + 1] in ("have", "had", "'ve") else i + 1
            said = lemmas[verb] in REPORTING_TO_US if verb < len(words) else False
            if said and (i == 0 or words[i - 1] in ("as", "what", "that")):
                return True  # "you told us", "as you said", "from what you describe"
        if (
            w == "according"
            and words[i + 1 : i + 2] == ["to"]
            and words[i + 2 : i + 3] in ([y] for y in YOU)
        ):
            return True
    return False


YOU = wordset("you u")
"""The customer as texted ("as u described")."""


LEAD_IN_ADDRESS = frozenset({"you", "your", "offer"})
"""A lead-in offers only when it speaks to the customer or offers ("You can choose:", "Here
are your options:", "I can offer:"), not when it wonders ("Let me see what options there
are:") or gives a cause ("because I could resolve it myself:")."""


def _offering(previous: _Read, clause: Clause, conditional: set[int]) -> bool:
    """Whether ``previous`` offers what ``clause`` goes on to name. A lead-in with nothing of
    its own ("You can choose:") was read as no claim, so its modality is read here, where a
    colon hands it a bare list (a clause with a predicate of its own says what it says); a
    negated one ("what I can't do:") offers nothing."""
    if previous.modality in ("can", "offer"):
        return True
    lead = previous.clause
    lead_in = clause.link == ":" and previous.modality == "none" and not previous.mentions
    if not lead_in or not lead.vocabulary.isdisjoint(NEGATION_CUES) or _predicate(clause):
        return False
    if lead.vocabulary.isdisjoint(LEAD_IN_ADDRESS):
        return False
    return _modality(lead, [], lead.segment in conditional) in ("can", "offer")


MODAL_OR_FUTURE = wordset("can could will would may might should must shall")


def _under_condition(clause: Clause, conditional: set[int]) -> bool:
    """Whether a condition governs the clause: it is in a conditional segment, unless it is
    the consequent and says what has already happened, with no modal ("if anything else
    comes up just reply here, the check confirmed a fault" asserts the finding; "if you send
    it back, a refund will be issued" does not)."""
    if clause.segment not in conditional:
        return False
    if _conditional(clause) or not _done(clause):
        return True
    return any(map(MODAL_OR_FUTURE.__contains__, clause.words))


def _conditional(clause: Clause) -> bool:
    """Whether the clause sets a condition on the case (the offer conditions "if you'd like"
    and the embedded questions "see whether" do not)."""
    words = clause.words
    if words and words[0] in ("should", "were", "had") and clause.opens:
        return not OFFER_CONDITIONS.at(["if", *words[1:]], 0)  # "Should the check find ..."
    for i, word in enumerate(words if not clause.vocabulary.isdisjoint(CONDITIONAL) else ()):
        if word not in CONDITIONAL:
            continue
        if OFFER_CONDITIONS.at(words, i):
            continue
        if (i and clause.lemmas[i - 1] in EMBEDDED) or (i > 1 and clause.lemmas[i - 2] in EMBEDDED):
            continue
        return True
    return False


def _introduction(before: list[_Read]) -> Modality:
    """The modality a list item takes from the clause that introduced it ("you can choose
    between:"), if that one offers or asserts."""
    for item in reversed(before):
        if not item.clause.introduced:
            return item.modality if item.modality in ("can", "offer", "done", "will") else "none"
    return "none"


# ---- mentions ------------------------------------------------------------------------------


def _starts_at(sequence: list[str], i: int, words: tuple[str, ...]) -> bool:
    return tuple(sequence[i : i + len(words)]) == words


_SKIPPABLE = GAP | NEGATORS_IN_PHRASE
"""What may stand between a phrase's words (a negator there negates the phrase)."""


def _match(lemmas: list[str], i: int, phrase: tuple[str, ...]) -> tuple[int, int] | None:
    """Where ``phrase`` matches from ``i`` (gap words allowed inside): (end, negations)."""
    if lemmas[i] != phrase[0]:
        return None
    j, negations = i + 1, 0
    for want in phrase[1:]:
        gap = 0
        while j < len(lemmas) and lemmas[j] != want and lemmas[j] in _SKIPPABLE:
            negations += lemmas[j] in NEGATORS_IN_PHRASE
            gap += 1
            j += 1
            if gap > MAX_GAP:
                return None
        if j >= len(lemmas) or lemmas[j] != want:
            return None
        j += 1
    return j, negations


def _find(clause: Clause, index: dict, taken: list[bool]) -> Iterator[tuple[int, int, int, object]]:
    """The phrases of ``index`` in the clause's lemmas, left to right, longest first, each
    over tokens no other phrase has taken. Only positions holding a phrase's first lemma
    are tried, and only phrases whose other lemmas are all in the clause."""
    lemmas, vocabulary = clause.lemmas, clause.vocabulary
    resume = 0
    for i in [i for i, w in enumerate(lemmas) if w in index]:
        if i < resume or taken[i]:
            continue
        for phrase in index[lemmas[i]]:
            if not phrase.rest <= vocabulary:
                continue  # a word of the phrase is missing from the clause
            found = _match(lemmas, i, phrase.lemmas)
            if found and not any(taken[i : found[0]]):
                end, negations = found
                taken[i:end] = [True] * (end - i)
                yield i, end, negations, phrase
                resume = end
                break


AMOUNT_KINDS = frozenset({"number", "money"})


def _mentions(clause: Clause, lexicon: Lexicon) -> list[Mention]:
    tokens, lemmas, vocabulary = clause.tokens, clause.lemmas, clause.vocabulary
    if vocabulary.isdisjoint(lexicon.cues) and clause.kinds.isdisjoint(AMOUNT_KINDS):
        return []  # nothing here the lexicon could name
    taken = [t.kind == "punct" for t in tokens]
    if not vocabulary.isdisjoint(lexicon.neutral_cues):
        for _ in _find(clause, lexicon.neutral, taken):
            pass
    mentions: list[Mention] = []
    named = not vocabulary.isdisjoint(lexicon.resolution_cues)
    for start, end, _neg, phrase in _find(clause, lexicon.resolutions, taken) if named else ():
        resolution = _credited_to_card(clause, start, phrase.target, mentions)  # type: ignore[attr-defined]
        if resolution is None:
            continue
        topic_end = end + 1 if end < len(lemmas) and lemmas[end] in REQUEST_NOUNS else end
        mentions.append(
            Mention(
                start,
                topic_end,
                resolution=resolution,
                plural=tokens[end - 1].text in GENERIC_NOUNS,
                topic=topic_end > end or _topic(lemmas, start),
                policy=phrase.value == "policy",  # type: ignore[attr-defined]
                policy_name=lexicon.policy_names.get(phrase.lemmas)  # type: ignore[attr-defined]
                if phrase.value == "policy"  # type: ignore[attr-defined]
                else None,
            )
        )
    if len(mentions) > 1:
        mentions[:] = _appositions(lemmas, mentions)
    for m in mentions:
        m.policy = m.policy or _names_a_window(lemmas, m)
    if not vocabulary.isdisjoint(lexicon.fact_cues):
        for start, end, negations, phrase in _find(clause, lexicon.facts, taken):
            if end - start == 1 and not _about_the_item(tokens, start):
                continue
            if end < len(tokens) and tokens[end].text in MODIFIED:
                continue  # "a price match worth $100": an offer named by the price, no fact
            claim = FactClaim(phrase.target, "==", phrase.value, clause.text)  # type: ignore[attr-defined]
            plural = end < len(tokens) and tokens[end].text in GENERIC_NOUNS  # "unopened items"
            mentions.append(Mention(start, end, fact=claim, negations=negations, plural=plural))
    kinds = clause.kinds
    if "number" in kinds or not vocabulary.isdisjoint(WINDOW_WORDS):
        mentions += _quantities(clause, lexicon, taken)
    if not vocabulary.isdisjoint(lexicon.choice_values):
        mentions += _choices(clause, lexicon, taken)
    mentions.sort(key=_START)
    if "money" in kinds:
        _attach_amounts(clause, mentions, lexicon)
    return mentions


def _appositions(lemmas: list[str], mentions: list[Mention]) -> list[Mention]:
    """ "a swap for a new unit", "an exchange with a replacement": one resolution named twice
    over is one mention (a negation of the first covers the second)."""
    merged = [mentions[0]]
    for m in mentions[1:]:
        last = merged[-1]
        between = lemmas[last.end : m.start]
        if m.resolution == last.resolution and between and set(between) <= APPOSITION:
            last.end = m.end
            continue
        merged.append(m)
    return merged


def _names_a_window(lemmas: list[str], m: Mention) -> bool:
    """ "the window for goodwill credit", "the goodwill credit period": the resolution names
    a policy's window, not a claim that it was (or will be) given."""
    after = lemmas[m.end] if m.end < len(lemmas) else ""
    before = [w for w in lemmas[max(0, m.start - 3) : m.start] if w not in DETERMINERS]
    return after in WINDOW_WORDS or (
        len(before) >= 2 and before[-1] in ("for", "of") and before[-2] in WINDOW_WORDS
    )


def _credited_to_card(
    clause: Clause, start: int, resolution: str, mentions: list[Mention]
) -> str | None:
    """ "credited back to your card" is a refund, whatever "credit" usually means; "a full
    refund will be credited" names one resolution, not two."""
    word = clause.words[start]
    if word not in ("credited", "credit", "crediting"):
        return resolution
    if word != "credit" and any(m.resolution for m in mentions):
        return None  # the verb of the resolution already named
    rest = set(clause.lemmas[start + 1 : start + 8])
    return "full_refund" if rest & {"card", "bank", "method", "payment"} else resolution


def _topic(lemmas: list[str], start: int) -> bool:
    """ "regarding the exchange", "about your refund": the resolution is what the clause is
    about, not what it claims."""
    return any(
        lemmas[k] in TOPIC.firsts and TOPIC.at(lemmas, k) for k in range(max(0, start - 3), start)
    )


def _about_the_item(tokens: list[Token], i: int) -> bool:
    """A one-word fact phrase ("opened") said of the item, not of the agent ("I opened a
    case") or of something else ("the window is still open")."""
    before = [t.lemma for t in tokens[max(0, i - 4) : i]]
    nxt = tokens[i + 1].lemma if i + 1 < len(tokens) else ""
    after_next = tokens[i + 2].lemma if i + 2 < len(tokens) else ""
    if nxt in ITEM_NOUNS:
        return after_next not in COMPOUND_HEADS
    if set(before) & NON_ITEMS:
        return False
    if "have" in before:
        h = len(before) - 1 - before[::-1].index("have")
        subject = before[h - 1] if h > 0 else ""
        return subject not in ("i", "we")
    return bool(set(before) & ({"be", "you", "it", "still"} | ITEM_NOUNS))


def _quantities(clause: Clause, lexicon: Lexicon, taken: list[bool]) -> list[Mention]:
    """Day counts ("45 days ago", "it's been six weeks", "day 70") and windows ("our 30-day
    return window", "the return window has passed")."""
    tokens, lemmas, words = clause.tokens, clause.lemmas, clause.words
    found: list[Mention] = []
    field_ref = lexicon.counts[0].ref if len(lexicon.counts) == 1 else None
    windowed = not clause.vocabulary.isdisjoint(WINDOW_WORDS)
    for i in [i for i, t in enumerate(tokens) if t.kind == "number" or t.lemma in QUANTITY_CUES]:
        if taken[i]:
            continue  # (a mention before it may have taken it)
        token = tokens[i]
        unit = tokens[i + 1].lemma if i + 1 < len(tokens) else ""
        if token.kind == "number" and unit in UNITS:
            count = int(token.value * UNITS[unit])  # type: ignore[operator]
            rest = lemmas[i + 2 : i + 7]
            window_at = next((k for k, x in enumerate(rest) if x in WINDOW_WORDS), None)
            if words[i + 2 : i + 3] and words[i + 2] in ELAPSED_AFTER:
                window_at = None  # "49 days ago and our window is ...": a count, then a window
            stated = windowed and _stated_window(clause, lexicon, i, count, found)
            if stated:
                found.append(stated)
                taken[stated.start : i + 2] = [True] * (i + 2 - stated.start)
                continue
            if window_at is not None:
                w = i + 2 + window_at
                claim = _window(clause, lexicon, i, w, count)
                if claim is not None:
                    found.append(Mention(i, w + 1, fact=claim))
                    taken[i : w + 1] = [True] * (w + 1 - i)
                continue
            ref = _elapsed(lexicon, words, i) or (field_ref if _elapsed_shape(words, i) else None)
            if ref is None:
                continue
            op = _qualifier(words, i)
            if unit != "day" and op == "==":
                op = APPROX
            found.append(Mention(i, i + 2, fact=FactClaim(ref, op, count, clause.text)))
            taken[i : i + 2] = [True, True]
        elif token.text == "day" and i + 1 < len(tokens) and tokens[i + 1].kind == "number":
            if field_ref and not taken[i + 1]:  # "day 70", "roughly day 12"
                op = APPROX if _qualifier(words, i) == APPROX else "=="
                claim = FactClaim(field_ref, op, int(tokens[i + 1].value), clause.text)  # type: ignore[arg-type]
                found.append(Mention(i, i + 2, fact=claim))
                taken[i : i + 2] = [True, True]
        elif token.lemma in WINDOW_WORDS:
            claim = _window(clause, lexicon, None, i, None)
            if claim is not None:
                found.append(Mention(i, i + 1, fact=claim))
                taken[i] = True
    return found


QUANTITY_CUES = WINDOW_WORDS | {"day"}
"""Besides numbers, the only tokens a quantity can start at ("day 70", "the window")."""
WINDOW_IS = wordset("is of : be only just was")


def _stated_window(
    clause: Clause, lexicon: Lexicon, i: int, limit: int, found: list[Mention]
) -> Mention | None:
    """ "you bought it 49 days ago and our return window is 30 days": the window's length,
    set beside the count the clause states, claims the count is past it (or within it)."""
    lemmas = clause.lemmas
    w = next((k for k in range(i - 1, max(-1, i - 4), -1) if lemmas[k] in WINDOW_WORDS), None)
    if w is None or not all(x in WINDOW_IS for x in clause.words[w + 1 : i]):
        return None
    counts = [m.fact for m in found if m.fact is not None and not m.fact.window]
    if not counts or counts[-1].op not in ("==", APPROX):
        return None  # a window stated alone is the policy, not a claim about this case
    hints = frozenset(lemmas[max(0, w - 4) : w]) & lexicon.window_hints
    refs = {x.ref for x in lexicon.windows}
    ref = next(iter(refs)) if len(refs) == 1 else _window_ref(lexicon, hints)
    if ref is None or ref != counts[-1].ref:
        return None
    op = ">" if counts[-1].value > limit else "<="
    return Mention(w, i + 2, fact=FactClaim(ref, op, limit, clause.text, hints=hints, window=True))


def _elapsed_shape(words: list[str], i: int) -> bool:
    """ "45 days ago", "it's been 45 days", "64 days since your order", "days since purchase:
    33": the grammar of time since an event (which event: the field's words, in _elapsed)."""
    after = words[i + 2] if i + 2 < len(words) else ""
    return after in ELAPSED_AFTER or any(
        ELAPSED_BEFORE.at(words, k) for k in range(max(0, i - 4), i)
    )


def _elapsed(lexicon: Lexicon, words: list[str], i: int) -> str | None:
    """The count field whose words ("ago", "since purchase", "bought") are near the number."""
    near = words[max(0, i - 6) : i + 6]
    for quantity in lexicon.counts:
        for anchor in quantity.words:
            if (not anchor or anchor[0] in near) and any(
                _starts_at(near, k, anchor) for k in range(len(near))
            ):
                return quantity.ref
    return None


def _qualifier(words: list[str], i: int) -> str:
    for size in (2, 1):
        before = tuple(words[max(0, i - size) : i])
        if before in QUALIFIERS:
            return QUALIFIERS[before]
        with_the = tuple(words[max(0, i - size - 1) : i - 1])
        if i and words[i - 1] == "the" and with_the in QUALIFIERS:
            return QUALIFIERS[with_the]  # "well past the 90 days"
    return "=="


def _window(
    clause: Clause, lexicon: Lexicon, number: int | None, at: int, limit: int | None
) -> FactClaim | None:
    """ "within / outside / past the (N-day) (return) window", "the window has passed"."""
    lemmas, words = clause.lemmas, clause.words
    begin = number if number is not None else at
    hints = frozenset(lemmas[max(0, begin - 4) : at]) & lexicon.window_hints
    if limit is None and not hints:
        return None
    before = {*lemmas[max(0, begin - 4) : begin], *words[max(0, begin - 4) : begin]}
    after = {*lemmas[at + 1 : at + 5], *words[at + 1 : at + 5]}
    if before & OUTSIDE or after & CLOSED:
        op = ">"
    elif before & INSIDE or "still" in before:
        op = "<="
    else:
        return None  # "we have a 30-day window": a policy, not a claim about this case
    refs = {w.ref for w in lexicon.windows}
    ref = next(iter(refs)) if len(refs) == 1 else _window_ref(lexicon, hints)
    if ref is None:
        return None
    return FactClaim(ref, op, limit, clause.text, hints=hints, window=True)


def _window_ref(lexicon: Lexicon, hints: frozenset[str]) -> str | None:
    refs = {w.ref for w in lexicon.windows if not hints or w.hints & hints}
    return next(iter(refs)) if len(refs) == 1 else None


def _choices(clause: Clause, lexicon: Lexicon, taken: list[bool]) -> list[Mention]:
    """ "as a gold member", "your tier is silver", and the values set against them ("your
    tier is standard, not silver")."""
    tokens, lemmas = clause.tokens, clause.lemmas
    found = []
    for choice in lexicon.choices:
        values = [i for i, t in enumerate(tokens) if t.text in choice.values and not taken[i]]
        anchored = [
            i
            for i in values
            if (set(lemmas[max(0, i - 3) : i]) | set(lemmas[i + 1 : i + 3])) & choice.anchors
        ]
        if not anchored:
            continue
        for i in values:
            if i not in anchored and min(abs(i - a) for a in anchored) > 4:
                continue
            plural = any(t.text in GENERIC_NOUNS for t in tokens[i + 1 : i + 3])
            claim = FactClaim(choice.ref, "==", tokens[i].text, clause.text)
            found.append(Mention(i, i + 1, fact=claim, plural=plural))
            taken[i] = True
    return found


MODIFIED_NEXT = tuple([w] for w in MODIFIED)
"""After a money word, a noun it only modifies: "price" in "a price match" is no price."""


def _attach_amounts(clause: Clause, mentions: list[Mention], lexicon: Lexicon) -> None:
    """Each amount of money goes to the resolution nearest to it, or to a money field when
    its words are right around it ("you paid $1,299.99", "the $79.99 you paid")."""
    resolutions = [m for m in mentions if m.resolution]
    lemmas = clause.lemmas
    for i, token in [(i, t) for i, t in enumerate(clause.tokens) if t.kind == "money"]:
        near = [
            lemmas[j]
            for j in (*range(max(0, i - 4), i), *range(i + 1, min(i + 3, len(lemmas))))
            if clause.words[j + 1 : j + 2] not in MODIFIED_NEXT  # "a price match worth $X"
        ]
        percent = {"percent", "%"} & set(lemmas[max(0, i - 8) : i])
        field_ref = next(
            (q.ref for q in lexicon.money for a in q.lemmas if a and a[0] in near), None
        )
        if field_ref is not None and not percent:
            claim = FactClaim(field_ref, "==", token.value, clause.text)
            mentions.append(Mention(i, i + 1, fact=claim))
            owner = next((m for m in resolutions if 0 < i - m.end <= 6), None)
            if owner is not None and owner.amount is None:
                owner.amount = token.value  # "refunded the full purchase price of $1,299.99"
            continue
        if resolutions:
            nearest = min(resolutions, key=lambda m: min(abs(m.start - i), abs(m.end - 1 - i)))
            if nearest.amount is None:
                nearest.amount = token.value
    mentions.sort(key=_START)


# ---- polarity ------------------------------------------------------------------------------

NEGATION_CUES = PREDICATE_NEGATORS | LOCAL_NEGATORS.firsts | {"not"}


_NEGATIVE_STEM = methodcaller("startswith", NEGATIVE_VERBS)
"""Whether a lemma starts like a verb of denial (called from C by map)."""


def _negative_verb(clause: Clause) -> bool:
    return any(map(_NEGATIVE_STEM, clause.lemmas))


def _masked(lemmas: list[str]) -> list[bool]:
    masked = [False] * len(lemmas)
    firsts = IDIOMS.firsts
    if firsts.isdisjoint(lemmas):
        return masked
    for i in [i for i, w in enumerate(lemmas) if w in firsts]:
        if idiom := IDIOMS.at(lemmas, i):
            masked[i : i + len(idiom)] = [True] * len(idiom)
    return masked


def _assign_negations(clause: Clause, mentions: list[Mention]) -> None:
    lemmas, words = clause.lemmas, clause.words
    masked = _masked(lemmas)
    inside = [False] * len(lemmas)
    for m in mentions:
        inside[m.start : m.end] = [True] * (m.end - m.start)
    resume = 0  # past a local negator's words
    negators = [
        i for i, w in enumerate(lemmas) if w in NEGATION_CUES or w.startswith(NEGATIVE_VERBS)
    ]
    for i in negators:
        if i < resume or masked[i] or inside[i]:
            continue
        local = None
        if lemmas[i] in LOCAL_NEGATORS.firsts and lemmas[i : i + 2] != ["no", "longer"]:
            local = LOCAL_NEGATORS.at(lemmas, i)
        if local == ("no",) and lemmas[i + 1 : i + 2] in MONEY_SUBJECTS:
            _negate_nearest(mentions, i, clause)  # "no money is being refunded": the money is
            continue  # the predicate's subject
        if local is None and words[i] == "not" and _negates_a_noun(words, i):
            local = ("not",)  # "store credit, not cash": a noun phrase, not the predicate
        if local is not None:
            _negate_noun_phrase(mentions, i + len(local), clause)
            resume = i + len(local)
            continue
        word = lemmas[i]
        negator = (
            word in PREDICATE_NEGATORS
            or word.startswith(NEGATIVE_VERBS)
            or (lemmas[i : i + 2] == ["no", "longer"])
        )
        if negator and not _about_something_else(lemmas, i):
            _negate_nearest(mentions, i, clause)


MONEY_SUBJECTS = tuple([w] for w in MONEY_WORDS)
"""After "no", a money noun is what the predicate moves: its negation is the predicate's."""


def _negates_a_noun(words: list[str], i: int) -> bool:
    """A bare "not" before a noun ("not cash", "not Silver"), not before a predicate ("refund
    not available", "not a single cent has been refunded")."""
    if i and words[i - 1] in AUXILIARIES:
        return False
    nxt = words[i + 1 : i + 3]
    if not nxt or nxt[0] in CAN_WORDS or nxt[0] in DONE_WORDS or nxt[0].endswith("ed"):
        return False
    return nxt[:2] not in (["a", "single"], ["one", "cent"]) and nxt[0] not in ("one", "any")


def _negate_noun_phrase(mentions: list[Mention], j: int, clause: Clause) -> None:
    target = next((m for m in mentions if j <= m.start <= j + 2), None)
    if target is not None:
        _negate_with_coordinates(mentions, target, clause)


def _negate_with_coordinates(mentions: list[Mention], first: Mention, clause: Clause) -> None:
    """Negate ``first`` and what is coordinated with it ("no exchange or refund")."""
    first.negations += 1
    for nxt in (m for m in mentions if m.start > first.start):
        between = {t.text for t in clause.tokens[first.end : nxt.start]} - wordset(
            "a an the any , full"
        )
        if not (between and between <= {"or", "and", "nor"}):
            break
        nxt.negations += 1
        first = nxt


def _about_something_else(lemmas: list[str], i: int) -> bool:
    """ "will not arrive instantly", "you do not need to": a negation of another predicate."""
    if lemmas[i] != "not":
        return False
    if "you" in lemmas[max(0, i - 2) : i] and i + 1 < len(lemmas) and lemmas[i + 1] in DEEDS:
        return True  # "the payments you say you did not make": the customer's own deed
    j = i + 1
    while j < len(lemmas) and lemmas[j] in ("be", "yet", "even", "always", "really", "have"):
        if lemmas[j] == "have" and j + 1 < len(lemmas) and lemmas[j + 1] == "to":
            return True
        j += 1
    return j < len(lemmas) and lemmas[j] in OTHER_PREDICATES


def _negate_nearest(mentions: list[Mention], i: int, clause: Clause) -> None:
    """The first mention after the negation ("we can not process a refund"), unless the
    negation follows a copula and a mention right before it is the subject ("a refund is not
    possible", "your request can not be approved"); else the nearest before it."""
    after = [m for m in mentions if m.start > i]
    before = [m for m in mentions if m.end <= i]
    lemmas = clause.lemmas
    subject = before and _only_auxiliaries(clause.words[before[-1].end : i])
    copula = i > 0 and clause.words[i - 1] in AUXILIARIES
    if subject and copula and not _object_follows(lemmas, i, after):
        before[-1].negations += 1
        return
    if after:
        _negate_with_coordinates(mentions, after[0], clause)
        return
    if (
        before
        and before[-1].resolution
        and _only_auxiliaries(clause.words[before[-1].end : i], allow_nouns=True)
    ):
        before[-1].negations += 1
    elif before and before[-1].resolution:
        before[-1].negations += 1  # "so refund we can not do"


def _only_auxiliaries(words: list[str], allow_nouns: bool = False) -> bool:
    """Whether the words between a mention and a negation leave the mention its subject."""
    if allow_nouns:
        return not any(w in SUBJECTS for w in words) and len(words) <= 8
    return all(w in AUXILIARIES or w in GAP or w in ("it", "this", ",") for w in words)


def _object_follows(lemmas: list[str], i: int, after: list[Mention]) -> bool:
    """Whether the negated predicate takes the next mention as its object ("... can not
    process a refund") rather than describing the subject ("... is not possible")."""
    if not after:
        return False
    between = lemmas[i + 1 : after[0].start]
    return any(w in VERB_STEMS for w in between)


# ---- modality ------------------------------------------------------------------------------


def _modality(
    clause: Clause, mentions: list[Mention], conditional: bool, own_quote: bool = False
) -> Modality:
    lemmas, words, vocabulary = clause.lemmas, clause.words, clause.vocabulary
    if clause.quoted and not own_quote:
        return "quoted"
    if not vocabulary.isdisjoint(ENJOY) and _enjoyed(clause):
        return "presupposed"  # "enjoy the $100 voucher!": the customer has it
    if clause.question and _interrogative(clause):
        if presupposes(clause) or _names_definite(clause, mentions):
            return "presupposed"  # "would you like the replacement in the same colour?"
        if OFFER_QUESTIONS.occurs_in(words, vocabulary):
            return "offer"
        return "presupposed" if _presupposes(clause, mentions) else "question"
    if conditional:
        return "conditional"
    if _hypothetical(clause):
        return "hypothetical"
    done = _done(clause)
    habitual = not vocabulary.isdisjoint(HABITUAL) and not _manner(clause)  # "are always passed"
    if (
        vocabulary.isdisjoint(CUSTOMER)
        and (not done or habitual)
        and (
            any(m.plural for m in mentions)
            or not vocabulary.isdisjoint(GENERIC_NOUNS)
            or habitual
            # "credit is available for 60 days after purchase" (with an amount, it is this case's)
            or ("money" not in clause.kinds and SINCE_PURCHASE.occurs_in(lemmas, vocabulary))
        )
    ):
        return "generic"
    if done:
        return "offer" if "offer" in lemmas and not _issued(words) else "done"
    if OFFER_PHRASES.occurs_in(words, vocabulary):
        return "can"
    if not vocabulary.isdisjoint(CAN_WORDS) and "expect" not in lemmas:
        return "can"
    if not vocabulary.isdisjoint(WILL_WORDS) or ON_ITS_WAY.occurs_in(lemmas, vocabulary):
        return "will"
    if _predicate(clause) or _label_value(clause, mentions):
        return "stated"
    return "none"


ENJOY = wordset("enjoy spend redeem")
"""Imperatives of using what one holds: told to enjoy or spend an amount, the customer is
told they have it ("Warm regards, and enjoy the $100 voucher!")."""


def _enjoyed(clause: Clause) -> bool:
    """Told to enjoy an amount ("enjoy the $100 voucher!"), not a thing bought ("enjoy your
    new phone!" after a refund refused is a courtesy)."""
    first = next((w for w in clause.words if w not in LEADS), "")
    return first in ENJOY and "money" in clause.kinds


PRESUPPOSITION_BLOCKERS = wordset("whether if")
DEFINITE = wordset("the your that this")


def _presupposes(clause: Clause, mentions: list[Mention]) -> bool:
    """A question that takes a deed for granted asserts it: a deed done or under way ("isn't
    it great that your refund is already on its way?"), a negative question ("isn't the
    credit on your account a nice surprise?"), a definite amount or resolution ("has the
    $249.99 reached your account yet?" takes the $249.99 as sent, "did the replacement
    arrive?" the replacement)."""
    vocabulary = clause.vocabulary
    if not vocabulary.isdisjoint(PRESUPPOSITION_BLOCKERS):
        return False
    words = clause.words
    definite = "money" in clause.kinds and any(
        t.kind == "money" and i and words[i - 1] in DEFINITE for i, t in enumerate(clause.tokens)
    )
    negative = len(words) > 1 and words[0] in AUXILIARIES and words[1] == "not"
    named = any(  # "when would suit you for the courier to drop off the replacement?"
        m.resolution and not m.policy and m.start and words[m.start - 1] in DEFINITE
        for m in mentions
    )
    if definite or negative or named:
        return True
    if "yet" in vocabulary:
        return False  # "has your refund arrived yet?" asks
    return _done(clause) or ON_ITS_WAY.occurs_in(clause.lemmas, vocabulary)


def _names_definite(clause: Clause, mentions: list[Mention]) -> bool:
    """A resolution named with "the" or "your" in a question takes it as given."""
    words = clause.words
    return "or" not in clause.vocabulary and any(
        m.resolution and not m.policy and m.start and words[m.start - 1] in DEFINITE
        for m in mentions
    )


def _label_value(clause: Clause, mentions: list[Mention]) -> bool:
    """ "Store credit: $261.75": a labelled value states what was done."""
    return ":" in clause.words and any(m.resolution and m.amount is not None for m in mentions)


def _bare_predicate(clause: Clause) -> bool:
    """A clause ending in a bare auxiliary, its predicate left to the clause before."""
    words = [w for w in clause.words if w not in (".", "!", ",")]
    return bool(words) and words[-1] in ("is", "are", "can", "will", "does", "do", "could")


def _interrogative(clause: Clause) -> bool:
    first = clause.tokens[0].lemma if clause.tokens else ""
    return first in QUESTION_STARTS or (clause.link == "" and first not in SUBJECT_PRONOUNS)


WORKING = lemmaset("work works working function functions run runs behave behaves operate")


def _manner(clause: Clause) -> bool:
    """ "it is working normally": how the item works, not what would (or usually does)
    happen."""
    lemmas = clause.lemmas
    return any(
        w in HYPOTHETICAL and i and lemmas[i - 1] in WORKING for i, w in enumerate(clause.words)
    )


def _hypothetical(clause: Clause) -> bool:
    words, vocabulary = clause.words, clause.vocabulary
    for i, word in enumerate(words if not vocabulary.isdisjoint(HYPOTHETICAL) else ()):
        if word == "would" and OFFERING_WOULD.at(words, i):
            continue
        if i and clause.lemmas[i - 1] in WORKING:
            continue  # "it is working normally" (see _manner)
        if word == "might" and not vocabulary.isdisjoint(CAN_WORDS):
            continue  # "a refund might still be possible": "may be possible", an offer
        if word in HYPOTHETICAL:
            return True
    return WISHFUL.occurs_in(clause.lemmas, vocabulary)


DONE_CUES = DONE_WORDS | {"was", "were", "been", "have"}
"""A clause without one of these words (or lemmas) has no sign of a deed done."""


def _done(clause: Clause) -> bool:
    lemmas, words, vocabulary = clause.lemmas, clause.words, clause.vocabulary
    modal_passive = False
    for i, word in enumerate(words if not vocabulary.isdisjoint(DONE_CUES) else ()):
        if word == "be" and i and words[i - 1] in MODALS:
            modal_passive = True  # "can be returned", "may be refunded or exchanged"
        if word in DONE_WORDS:
            if modal_passive:
                continue
            return True
        if word in ("was", "were", "been"):
            return True
        if lemmas[i] == "have" and any(
            w.endswith("ed") or w in DONE_WORDS or w == "been" for w in words[i + 1 : i + 4]
        ):
            return True
    return DONE_PHRASES.occurs_in(lemmas, vocabulary)


def _issued(words: list[str]) -> bool:
    return any(w in DONE_WORDS and w not in ("offered",) for w in words)


VERB_STARTERS = SUBJECT_PRONOUNS | {"to", "please", "already"}
AUXILIARY_OR_MODAL = AUXILIARIES | CAN_WORDS | WILL_WORDS


def _predicate(clause: Clause) -> bool:
    if any(map(AUXILIARY_OR_MODAL.__contains__, clause.words)):
        return True
    if clause.vocabulary.isdisjoint(VERB_STEMS):
        return False
    tokens = clause.tokens
    for i, token in enumerate(tokens):
        if token.lemma in VERB_STEMS and (
            token.text.endswith(("ed", "ing", "s"))
            or any(t.text in VERB_STARTERS for t in tokens[max(0, i - 2) : i])
        ):
            return True
    return False


AS_SOON_AS = ("as", "soon", "as")
SPAN_CUES = TEMPORAL | REQUIRE | REQUIRE_PHRASES.firsts | {"you", "whether", "if", "as"}


def _spans(clause: Clause) -> list[tuple[int, str]]:
    """Where the clause stops making claims of its own: after a wish verb of the customer
    ("you were hoping to get ..."), inside a temporal subordinate ("once the refund ..."),
    after a requirement ("a standard return needs the item to be unopened")."""
    spans: list[tuple[int, str]] = []
    if clause.vocabulary.isdisjoint(SPAN_CUES):
        return spans
    lemmas = clause.lemmas
    for i in [i for i, w in enumerate(lemmas) if w in SPAN_CUES]:  # where a span can start
        lemma_ = lemmas[i]
        inverted = i > 0 and lemmas[i - 1] in QUESTION_STARTS  # "would you like ...?"
        if lemma_ == "you" and not inverted:
            for j in range(i + 1, min(i + 4, len(lemmas))):
                if lemmas[j] in WISH_VERBS:
                    spans.append((j, "wish"))
                    break
                if lemmas[j] not in ("be", "have", "would", "do", "still", "really", "originally"):
                    break
        asks = i == 0 and clause.question  # "when would suit you ...?" asks, sets no time
        if (lemma_ in TEMPORAL and not asks) or (
            lemma_ == "as" and _starts_at(lemmas, i, AS_SOON_AS)
        ):
            spans.append((i, "temporal"))
        if lemma_ in REQUIRE or (
            lemma_ in REQUIRE_PHRASES.firsts and REQUIRE_PHRASES.at(lemmas, i)
        ):
            spans.append((i, "requirement"))
        if clause.words[i] in ("whether", "if") and i and lemmas[i - 1] in EMBEDDED:
            spans.append((i, "question"))  # "I'm checking whether it qualifies for a refund"
    return spans


def _span_of(clause: Clause, spans: list[tuple[int, str]], position: int) -> str | None:
    """Which span (``_spans``) a position lies in, if any."""
    kind = None
    for start, what in spans:
        if position <= start:
            continue
        if what == "temporal":
            commas = [k for k, t in enumerate(clause.tokens) if t.text == "," and k > start]
            if commas and position > commas[0]:
                continue
        kind = what
    return kind


# ---- claims --------------------------------------------------------------------------------


def _stance(modality: Modality, negations: int) -> Stance | None:
    if modality == "presupposed":
        return "asserted"  # the negation of "isn't it great that ..." is rhetorical
    if modality in NO_CLAIM:
        return None
    if negations % 2:
        return "denied"
    return "offered" if modality in ("can", "offer") else "asserted"


def _listed_amount(item: _Read) -> bool:
    """A line of its own naming a resolution and its amount ("- $50.00 back on card"): a
    summary's line states it, where the same words run into a sentence do not."""
    tokens = item.clause.tokens
    return bool(tokens) and tokens[-1].text == "\n" and any(m.amount for m in item.mentions)


SILENT = NO_CLAIM - {"generic", "presupposed"}
"""Modalities under which no mention makes a claim (a generic one may, said to "you")."""


def _resolution_claims(item: _Read) -> list[ResolutionClaim]:
    claims: list[ResolutionClaim] = []
    if item.modality == "none" and (item.status or _listed_amount(item)):
        item = replace(item, modality="stated")  # "your case reads: full reimbursement ($999)"
    if item.modality in SILENT:
        return claims
    for m in item.mentions:
        if m.resolution is None:
            continue
        if _span_of(item.clause, item.spans, m.start) in ("wish", "temporal", "question"):
            continue
        if m.topic and not any(w.startswith(DECISION_VERBS) for w in item.clause.lemmas):
            continue
        modality = item.modality
        if modality == "generic" and not m.plural and item.clause.vocabulary & CUSTOMER:
            modality = "stated"
        stance = _stance(modality, m.negations)
        if m.policy and stance != "denied":
            continue
        if stance is not None and m.amount == 0:
            stance = "denied"  # "Refunded: $0.00"
        if stance is not None:
            claims.append(ResolutionClaim(m.resolution, stance, m.amount, item.clause.text,
                                          policy=m.policy_name))  # fmt: skip
    return claims


def _distinct_resolutions(claims: Iterator[ResolutionClaim]) -> tuple[ResolutionClaim, ...]:
    """One claim per resolution, stance and amount (a claim without an amount is dropped when
    one of the same resolution and stance gives one; two amounts are two claims, so a second,
    wrong amount is never hidden behind a right one); an assertion subsumes the offer of the
    same resolution."""
    kept: dict[tuple[str, str, float | None], ResolutionClaim] = {}
    for claim in claims:
        kept.setdefault((claim.resolution, claim.stance, claim.amount), claim)
    priced = {(r, s) for r, s, a in kept if a is not None}
    asserted = {r for r, s, _ in kept if s == "asserted"}
    return tuple(
        c
        for (r, s, a), c in kept.items()
        if not (a is None and (r, s) in priced) and not (s == "offered" and r in asserted)
    )


ATTRIBUTING = lemmaset("say tell report note mention write")
NOT_A_REPORTER = wordset("you we")


def _attributed(clause: Clause) -> bool:
    """Whether the clause gives its fact as someone's report ("the workshop tells me it has
    no fault", "I'm told ..."): a finding, like "confirmed"; the customer's own words ("you
    said it was faulty") and the store's habits ("we tell customers ...") are not."""
    if clause.vocabulary.isdisjoint(ATTRIBUTING):
        return False
    words = clause.words
    return any(
        lemma_ in ATTRIBUTING and (i == 0 or words[i - 1] not in NOT_A_REPORTER)
        for i, lemma_ in enumerate(clause.lemmas)
    )


def _fact_claims(item: _Read) -> list[FactClaim]:
    claims = []
    modality = item.modality
    if modality == "none":
        modality = "stated"  # a fact may be stated tersely: "45 days since purchase"
    if modality == "will" and "will" in item.clause.words:
        return []  # "I'll verify the defect": an intention, not a fact of the case
    if modality in NO_CLAIM:
        return []  # a presupposed outcome asserts a resolution, never a fact of the case
    vocabulary = item.clause.vocabulary
    reported = (
        not vocabulary.isdisjoint(FINDING)
        or not vocabulary.isdisjoint(TESTS)
        or _attributed(item.clause)
    )
    for m in item.mentions:
        if m.fact is None or m.plural or _span_of(item.clause, item.spans, m.start) is not None:
            continue
        claim = m.fact.negated() if m.negations % 2 else m.fact
        if claim is not None:
            claims.append(replace(claim, reported=True) if reported else claim)
    return claims


# ---- consequential content by structure (novamart.language.consequence) -------------------

StructuralClaim = ResolutionClaim | FactClaim | UnverifiableClaim
UNREADABLE_NOTE = "not in English"


def _anchor(items: list[_Read], k: int) -> str | None:
    """The resolution a clause without one refers back to: the last named before it, else
    the first named after it ("Your request has been approved. A full refund ...")."""
    for item in [*reversed(items[:k]), *items[k + 1 :]]:
        named = [m.resolution for m in item.mentions if m.resolution and not m.policy]
        if named:
            return named[-1]
    return None


ANCHORED = frozenset({"an amount given to the customer", "an approval"})
"""What a clause may say of the resolution its message names elsewhere ("$499.99, on its
way.", "your request has been approved"): read as that resolution, so it is checked."""


def _structural_claims(items: list[_Read], k: int, lexicon: Lexicon) -> list[StructuralClaim]:
    """What a clause claims of consequence that its lexicon mentions do not: an unreadable
    clause carrying an amount, a value word or a quotation is unverifiable (a courtesy in
    another language earns nothing and costs nothing); a readable one is read by its shape
    (a benefit, money back, a finding), also beside the facts its lexicon read ("we've paid
    the $129 you paid back to your PayPal"); a benefit promised on a condition is one no
    facts can make the rules grant."""
    item = items[k]
    clause = item.clause
    text = clause.text
    if _introduces_a_record(items, k):
        return []  # 'The technician's note reads: "no fault found"': the quote says it
    if k and not items[k - 1].mentions and _answers_a_reversal(items[k - 1].clause, clause):
        return [UnverifiableClaim(ORDER_NOTE, text)]  # "The cancellation? All sorted."
    if k and _quoted_pair(items[k - 1].clause, clause) and logistics(clause, items[k - 1].clause):
        return [UnverifiableClaim(LOGISTICS_NOTE, text)]  # '"courier_pickup": "booked"'

    if item.modality == "unreadable":
        words = [w for w in clause.words if w.isalpha()]
        if (
            not clause.kinds.isdisjoint(AMOUNT_KINDS)
            or clause.quoted
            or carries_value(words)
            or stake(clause) is not None  # its English words say something ships or is given
        ):
            return [UnverifiableClaim(f"a clause {UNREADABLE_NOTE} that may promise something",
                                      text)]  # fmt: skip
        return []
    if item.modality == "conditional":
        return _conditional_benefit(items, clause, lexicon)
    if item.modality == "question" and extra_benefit(clause) and not _clause_negated(clause):
        return [UnverifiableClaim(f"{BENEFIT_NOTE}, in a question", text)]  # "have you seen
        # the 500 bonus points in your account yet?" presupposes or offers it
    if item.modality == "generic" and _generic_stake(clause):
        item = replace(item, modality="stated")  # "testing revealed no issues", "lifetime
        # free returns": a plural is no policy when the clause reports or gives
    if item.modality not in CLAIMING and item.modality != "none":
        return []  # (a clause without a predicate it knows is read as a statement)
    if (
        (item.modality in CLAIMING or has_verb(clause.words))
        and off_route(clause)
        and not _clause_negated(clause)
        and not _wished(clause)
    ):  # "a check for $89 is in the mail"; in a verb the reader does not know too ("I pushed
        # $X to your PayPal"), not in a label ("A cash refund: I can't approve it")
        return [UnverifiableClaim(OFF_ROUTE_NOTE, text)]
    if (
        (item.modality in CLAIMING or has_verb(clause.words))
        and logistics(clause)
        and not _clause_negated(clause)
    ) or _visits(items, k):  # "a courier will collect it", "a technician will come by Friday"
        return [UnverifiableClaim(LOGISTICS_NOTE, text)]
    if _wished(clause) and item.modality != "presupposed":
        return []  # ("do you want the money split between two cards?" takes the money as sent)
    if item.modality == "done" and reviewed_by_someone_else(clause):
        return [UnverifiableClaim(REVIEW_NOTE, text)]  # "a manager has reviewed your file"
    if _claims_made(item):
        named = frozenset(
            i for m in item.mentions if m.resolution for i in range(m.start - 1, m.end)
        )
        coded = _coded(clause, item.mentions, targets(lexicon).new_unit)
        benefit = (extra_benefit(clause, named) or coded) and not _clause_negated(clause)
        if benefit:
            return [UnverifiableClaim(BENEFIT_NOTE, text)]
        if named:
            return []
        if not clause.vocabulary.isdisjoint(ACTIVATED) and not _clause_negated(clause):
            return [UnverifiableClaim(BENEFIT_NOTE, text)]  # "Gold tier activated": a change
        found = consequence(clause, lexicon, only_transfers=True)  # to the account
        if found is not None and found.kind == "unverifiable" and found.target in ANCHORED:
            staked = _staked(items, k, lexicon)  # "the $79.99 you paid is being returned to
            if staked:  # the card": the money's route says which resolution
                return staked
        return [] if found is None else _resolve(item, found, text)
    found = consequence(clause, lexicon)
    if found is not None and (found.kind == "fact" or found.target == FINDING_NOTE):
        staked = _staked(items, k, lexicon)  # "passed without a problem": the structure
        if staked or (staked is not None and found.target == FINDING_NOTE):  # reads the
            return staked  # negation as part of the finding; "banks can take a few days to
            # show it" is no finding
    if found is None or (found.kind == "unverifiable" and found.target in ANCHORED):
        staked = _staked(items, k, lexicon)
        if staked is not None:
            return staked
    if found is None:
        return []
    if found.kind == "unverifiable" and found.target in ANCHORED:
        anchor = _anchor(items, k)
        if anchor is not None:
            found = Consequence("resolution", anchor)
    return _resolve(item, found, text)


PARTY_PRONOUNS = wordset("he she they who")


def _visits(items: list[_Read], k: int) -> bool:
    """ "A technician will come by on Friday", "a courier will pick it up tomorrow": someone
    of the store visits, collects or calls (novamart.language.stake.visit), which no tool
    does; not when who does it is a resolution's own party ("a manager will call you
    tomorrow", "I've passed it to my manager, and she'll call you": the escalation, read by
    its words), nor when the clause denies it."""
    item = items[k]
    clause = item.clause
    if item.modality not in CLAIMING and not has_verb(clause.words):
        return False
    verb = visit(clause)
    if verb is None or _clause_negated(clause):
        return False
    if any(m.resolution and m.start < verb for m in item.mentions):
        return False  # the resolution's party does it
    subject = PARTY_PRONOUNS.isdisjoint(clause.words[:verb])
    return subject or _anchor(items, k) is None


def _introduces_a_record(items: list[_Read], k: int) -> bool:
    """Whether the clause only introduces what a record says, which the next clause of its
    sentence spells out ("The technician's note reads:" before "no fault found")."""
    item = items[k]
    if item.mentions or k + 1 >= len(items):
        return False
    said = [w for w in item.clause.lemmas if w.isalpha()]
    after = items[k + 1]
    return (
        bool(said)
        and said[-1] in ATTRIBUTE  # it ends on what the record does: "reads", "says"
        and after.status
        and after.clause.sentence == item.clause.sentence
    )


def _quoted_pair(key: Clause, value: Clause) -> bool:
    """A record's key and its value, each in quotation marks ('"return_label": "emailed"')."""
    return key.quoted and value.quoted and key.sentence == value.sentence and len(key.words) <= 3


DONE_ANSWERS = wordset("done sorted all complete completed handled finished taken care of yes")
FILLERS = wordset("please thx thanks")
"""The words of a bare answer saying that what the question named is done ("All sorted")."""


def _answers_a_reversal(question: Clause, answer: Clause) -> bool:
    """Whether ``answer`` says done to a question naming only an undoing ("The
    cancellation? All sorted."): the order cancelled, which no tool does (a charge undone is
    money back, read by its words)."""
    words = question.words
    fragment = words[len(words) - words[::-1].index(",") :] if "," in words else words
    asked = [w for w in fragment if w.isalpha() and w not in LEADS]  # "..., the cancellation?"
    said = [w for w in answer.words if w.isalpha() and w not in FILLERS]
    return (
        question.question
        and 0 < len(asked) <= 3
        and asked[0] in DEFINITE
        and any(w.startswith(REVERSAL) for w in asked)
        and CHARGED.isdisjoint(question.lemmas)
        and 0 < len(said) <= 4
        and set(said) <= DONE_ANSWERS
    )


CHARGES = CHARGED | FEES
GIFTS = BENEFIT | {"free"}
ACTIVATED = lemmaset("activate activated unlock unlocked upgrade upgraded renew renewed enable")
"""Verbs that change what the customer holds ("Gold tier activated"): an action no tool of a
fact takes, so a clause stating a fact with one is a benefit given."""
STATUS_NOTE = "a status the record does not show"
OUTCOME_NOTE = "an outcome for the customer that names nothing the record shows"
AMOUNT_NOTE = "an amount of nothing the record shows"
OFF_ROUTE_NOTE = "money back by a route no tool takes"
LOGISTICS_NOTE = (
    "a pickup, a visit, a delivery, a call at a time or a return label, which no tool of the "
    "record arranges"
)
INTENDED = frozenset({"will", "can", "offer"})
"""Modalities under which a finding is an intention ("I'll have it tested"), not a report."""


def _staked(items: list[_Read], k: int, lexicon: Lexicon) -> list[StructuralClaim] | None:
    """The fail-closed pass (novamart.language.stake): what the clause's structure puts at
    stake, resolved to the rules' resolution or fact when it can be, else unverifiable.
    None when its structure stakes nothing."""
    item = items[k]
    clause, text = item.clause, item.clause.text
    found = stake(clause)
    if found is None and _purposed(items, k) and _predicate(clause) and not paperwork(clause):
        found = Stake("benefit")  # "To say sorry, here's fast-track handling on every case"
    if found is None:
        if item.status and status_value(clause):
            return [UnverifiableClaim(STATUS_NOTE, text)]  # 'Our records say "Price match
        return None  # approved"' (not "Status: completed", "Order: ORD-100001")
    shapes = targets(lexicon)
    negated = _clause_negated(clause)
    if found.kind == "finding":
        if item.modality in INTENDED and _intended(clause):
            return []
        if found.fault is None and _fault_before(items, k):
            found = Stake("finding", fault=True)  # "checked for a defect, and the check did
            # not confirm one": the finding is about the fault its sentence named
        if found.fault is not None and shapes.fault:
            return [FactClaim(shapes.fault, "==", found.fault != negated, text, reported=True)]
        return [UnverifiableClaim(FINDING_NOTE, text)]  # negated or not, it reports
    amount = next((t.value for t in clause.tokens if t.kind == "money"), None)
    target: str | None = None
    modality = _claim_modality(item)
    if found.kind == "money" and not found.routed:
        found = Stake("amount")
    if found.kind == "money":
        target = shapes.account_credit if found.account else shapes.money_back
    elif found.kind == "item":
        target = shapes.new_unit
    elif found.kind == "refers":
        target, carried = _antecedent(items, k, shapes)
        amount = carried if amount is None else amount
    elif found.kind == "amount":  # "Amount: $79.99" beside "Action taken: full refund"
        target, modality = _owner(items, k, shapes)
        if modality == "paid":
            return []  # "Cost to you: $0.00"
        if modality == "none":
            target = None
    if target is None:  # "enjoy no delivery charges, on us": "no" is the benefit
        denied = negated and _denies_benefit(clause)
        note = {"benefit": BENEFIT_NOTE, "amount": AMOUNT_NOTE}.get(found.kind, OUTCOME_NOTE)
        return [] if denied else [UnverifiableClaim(note, text)]
    stance = _stance(modality, int(negated != found.retained))  # "not a cent stays with us"
    return [] if stance is None else [ResolutionClaim(target, stance, amount, text)]


def _coded(clause: Clause, mentions: list[Mention], new_unit: str | None) -> bool:
    """A resolution's word followed by a code's name ("Voucher SAVE10 applied"): a promotion
    code, a discount no rule grants, not the store credit the rules give (which has an
    amount, not a name). After a new unit, a name and number is its model ("the
    replacement NovaPhone 12")."""
    tokens = clause.tokens
    return any(
        m.resolution
        and m.resolution != new_unit
        and m.end + 1 < len(tokens)
        and tokens[m.end].kind == "word"
        and tokens[m.end].text not in COUNTING
        and tokens[m.end + 1].kind == "number"
        and (tokens[m.end + 2].lemma if m.end + 2 < len(tokens) else ".") not in COUNTED
        for m in mentions
    )


COUNTING = wordset("valid for within of about over under expires lasting worth at")
COUNTED = lemmaset("day week month year percent % time") | wordset("days weeks months years")


def _denies_benefit(clause: Clause) -> bool:
    """Whether a negated benefit is denied ("we can't offer free shipping", "no discount is
    available"), not given as the absence of a charge ("no delivery charges, on us")."""
    lemmas = clause.lemmas
    gift = next((i for i, w in enumerate(lemmas) if w in GIFTS), None)
    end = len(lemmas)
    if gift is not None:  # "free shipping unlocked, nothing else needed": a negation after
        end = next((i for i in range(gift, end) if lemmas[i] in (",", ";")), end)  # the
    return any(  # comma is about something else
        w in PREDICATE_NEGATORS or (w == "no" and _no_denies(lemmas[i + 1 : i + 4]))
        for i, w in enumerate(lemmas[:end])
    )


def _no_denies(after: list[str]) -> bool:
    """Whether "no" before these words denies a benefit: nothing charged follows ("no
    discount"), or what follows is the benefit itself, made free or waived ("no free
    shipping", "no waived restocking fee"), not the absence of a charge ("no delivery
    charges")."""
    if CHARGES.isdisjoint(after):
        return True
    return after[0] in GIFTS or any(w.startswith(REVERSAL) for w in after)


def _claim_modality(item: _Read) -> Modality:
    """The modality a structural claim is made under: a terse one is stated, and an ability
    that is the writer's hedge leaves the promise after it ("from what I can see, a new X
    will be with you next week", "I can confirm that the $75.99 will drop off")."""
    if item.modality == "none":
        return "stated"
    if item.modality == "can" and _hedged(item.clause):
        return "will"
    return item.modality


def _hedged(clause: Clause) -> bool:
    """Whether a "will" or a deed follows the clause's last word of ability: the ability is
    the writer's hedge ("as far as I can tell", "I can confirm that"), the rest a promise."""
    words = clause.words
    last = max((i for i, w in enumerate(words) if w in CAN_WORDS), default=None)
    if last is None:
        return False  # an offer by phrase ("up to you"), no word of ability to hedge with
    return any(w in WILL_WORDS or w in DONE_WORDS for w in words[last + 1 :])


def _generic_stake(clause: Clause) -> bool:
    """Whether a clause read as generic (a plural, no "you") still reports or gives
    something: a finding or a benefit by its shape, not a habit ("refunds usually take")."""
    if not clause.vocabulary.isdisjoint(HABITUAL) or not clause.vocabulary.isdisjoint(MODALS):
        return False  # ("unopened items can be returned within 30 days for free")
    found = stake(clause)
    benefit = extra_benefit(clause) and not _claims_made_words(clause)
    return benefit or (found is not None and found.kind in ("finding", "benefit"))


def _claims_made_words(clause: Clause) -> bool:
    return not clause.vocabulary.isdisjoint(GENERIC_POLICY)


GENERIC_POLICY = wordset("policy policies rule rules eligible qualify usually")


def _purposed(items: list[_Read], k: int) -> bool:
    """Whether an earlier clause of the sentence says what follows is a gift."""
    sentence = items[k].clause.sentence
    for i in range(k - 1, -1, -1):  # (clauses come in order: the sentence's are just before)
        if items[i].clause.sentence != sentence:
            return False
        if gift_purpose(items[i].clause):
            return True
    return False


def _owner(items: list[_Read], k: int, shapes: Targets) -> tuple[str | None, Modality]:
    """What a bare amount is the amount of, and under which modality: what its sentence
    gives before it ("You're getting every penny back: $249.99"), else the resolution the
    message names nearest, as that clause names it ("Want store credit instead? $324.50."
    offers it). A cost before it ("Cost to you: $0.00") or a resolution named with no claim
    ("Refund. Silver. $40.00.") owns nothing: the amount is unverifiable."""
    sentence = items[k].clause.sentence
    own = _claim_modality(items[k])
    for item in reversed(items[:k]):
        if item.clause.sentence != sentence:
            break
        found = stake(item.clause)
        if found is not None and found.kind == "money":
            return (shapes.account_credit if found.account else shapes.money_back), own
        if paid(item.clause):
            return None, "paid"
        named = [m.resolution for m in item.mentions if m.resolution and not m.policy]
        if named:
            return named[-1], _owning(item, own)
    for item in [*reversed(items[:k]), *items[k + 1 :]]:
        named = [m.resolution for m in item.mentions if m.resolution and not m.policy]
        if named:
            return named[-1], _owning(item, own)
    return None, own


def _owning(item: _Read, own: Modality) -> Modality:
    """The modality an amount takes from the clause naming its resolution: its own when it
    has a predicate ("..., and I've already applied $134.25"), else that clause's."""
    if own != "stated":
        return own
    if item.modality in ("question", "offer", "can"):
        return "offer"
    return "stated" if item.modality in CLAIMING else "none"


def _intended(clause: Clause) -> bool:
    """ "I'll have it tested", "the check will show": a modal before the first report verb
    (not "the carrier admitted it ... and will compensate you")."""
    words = clause.words
    report = next((i for i, w in enumerate(clause.lemmas) if w in REPORT), len(words))
    return not MODALS.isdisjoint(words[:report]) or "going" in words[:report]


def _given(item: _Read) -> list[Mention]:
    """The resolutions a clause names and does not deny ("a full refund isn't possible"
    names none a pronoun could stand for)."""
    return [m for m in item.mentions if m.resolution and not m.policy and not m.negations % 2]


def _fault_before(items: list[_Read], k: int) -> bool:
    """Whether an earlier clause of the same sentence names a fault."""
    sentence = items[k].clause.sentence
    return any(
        not item.clause.vocabulary.isdisjoint(FAULT)
        for item in items[:k]
        if item.clause.sentence == sentence
    )


ANTECEDENT_SPAN = 2
"""How many sentences back a pronoun's antecedent may stand ("The money you paid, $179.
It will be back with you by Friday.")."""


def _antecedent(items: list[_Read], k: int, shapes: Targets) -> tuple[str | None, float | None]:
    """What a clause about "it" gives: the resolution named nearest before it (within
    ANTECEDENT_SPAN sentences), else money named there (the rules' refund, or store credit
    when the clause puts it in the account), else the resolution the message names."""
    clause = items[k].clause
    account = not clause.vocabulary.isdisjoint(ACCOUNT_WORDS)
    same = [
        i for i in [*reversed(items[:k]), *items[k + 1 :]] if i.clause.sentence == clause.sentence
    ]
    for item in same:  # ("As a goodwill gesture, I have issued $36.00 in store credit")
        named = _given(item)
        if named:
            return named[-1].resolution, named[-1].amount
    for item in reversed(items[:k]):
        if clause.sentence - item.clause.sentence > ANTECEDENT_SPAN:
            break
        named = _given(item)
        if named:
            return named[-1].resolution, named[-1].amount
        money = next((t.value for t in item.clause.tokens if t.kind == "money"), None)
        if money is not None or not item.clause.vocabulary.isdisjoint(MONEY_WORDS):
            return (shapes.account_credit if account else shapes.money_back), money
    for item in [*reversed(items[:k]), *items[k + 1 :]]:
        named = _given(item)
        if named:
            return named[-1].resolution, None
    return None, None


def _conditional_benefit(
    items: list[_Read], clause: Clause, lexicon: Lexicon
) -> list[StructuralClaim]:
    """ "if you keep your receipt, I'll add a 25% discount code": no rule grants a benefit,
    so no facts the condition could bring make it true (a counterfactual promises nothing)."""
    if _counterfactual(items, clause) or _clause_negated(clause):
        return []
    found = consequence(clause, lexicon)
    if found is None or found.kind != "unverifiable" or found.target in ANCHORED:
        return []
    return [UnverifiableClaim(f"{found.target}, on a condition", clause.text)]


CUSTOMER_WISHES = lemmaset(
    "want wanting hope hoping wish expect prefer ask request seek demand insist look"
)


def _wished(clause: Clause) -> bool:
    """ "you were hoping to get your money back", "I get wanting cash instead": the
    customer's wish, not a claim."""
    if clause.vocabulary.isdisjoint(CUSTOMER_WISHES):
        return False
    return (
        any(s == "wish" for _, s in _spans(clause))
        or not clause.vocabulary.isdisjoint({"wanting", "hoping"})
        or (
            "you" in clause.vocabulary
            and not clause.vocabulary.isdisjoint({"want", "hope", "wish"})
        )
    )


def _claims_made(item: _Read) -> bool:
    """Whether its mentions name a resolution or fact (then the lexicon's reading stands)."""
    return any(
        (m.resolution is not None and not m.policy) or m.fact is not None for m in item.mentions
    )


def _clause_negated(clause: Clause, before: int | None = None) -> bool:
    """Whether the clause (up to position ``before``, when given) is negated."""
    lemmas = clause.lemmas
    masked = _masked(lemmas)
    count = sum(
        1
        for i, w in enumerate(lemmas[:before])
        if not masked[i]
        and (w in PREDICATE_NEGATORS or w in ("no", "without"))
        and not _about_something_else(lemmas, i)  # "... and won't appear on your statement"
    )
    return (count + _frame_flips(clause)) % 2 == 1


def _frame_flips(clause: Clause) -> int:
    """The negations a frame adds to its clause's polarity. A frame governs the whole of
    what it frames, so a negation of another predicate counts against it too ("there's no
    way your refund won't reach you this week" says it will)."""
    if not clause.framed:
        return 0
    lemmas, masked = clause.lemmas, _masked(clause.lemmas)
    elsewhere = sum(1 for i, w in enumerate(lemmas[: _frame_scope(clause)]) if w == "not"
                    and not masked[i] and _about_something_else(lemmas, i))  # fmt: skip
    return clause.framed + elsewhere


def _frame_scope(clause: Clause) -> int:
    """Where what a frame governs ends: at a clause run on after it ("... was added and so
    you do not need to do anything else", "... anything wrong i have issued $49 in credit")."""
    words = clause.words
    start = next((i for i, w in enumerate(words) if w not in LEADS), len(words))
    return next((i for i in range(start + 1, len(words)) if words[i] in LINKED or
                 (words[i] in WRITER_SUBJECTS and i > start + 1)), len(words))  # fmt: skip


LINKED = COMMA_LINKS | CONTRAST
WRITER_SUBJECTS = wordset("i we")
"""The words a clause runs on at (see _frame_scope)."""


def _resolve(item: _Read, found: Consequence, text: str) -> list[StructuralClaim]:
    reversal = found.kind == "resolution" and found.at > 0
    # "the charge was cancelled and will not go through": a negation after the reversal
    # verb is about something else
    negated = _clause_negated(item.clause, found.at if reversal else None)
    if found.kind == "unverifiable":
        if found.target == FINDING_NOTE:  # "our records show it was never delivered"
            return [UnverifiableClaim(found.target, text)]  # reports, negated or not
        if found.target == BENEFIT_NOTE and negated:
            negated = _denies_benefit(item.clause)  # "enjoy no delivery charges": a gift
        return [] if negated else [UnverifiableClaim(found.target, text)]
    if found.kind == "fact":
        claim = FactClaim(found.target, "==", found.value != negated, text, reported=True)
        return [] if item.modality == "presupposed" else [claim]
    modality = _claim_modality(item)
    stance = _stance(modality, int(negated))
    if stance is None:
        return []
    money = next((t.value for t in item.clause.tokens if t.kind == "money"), None)
    return [ResolutionClaim(found.target, stance, money, text)]


REAL_CONDITIONS = wordset("if unless provided providing assuming once should")
COUNTERFACTUAL = wordset("were had hypothetically theoretically")


def _counterfactual(items: list[_Read], clause: Clause) -> bool:
    """ "If it were still sealed, I could refund it": a condition contrary to the case, or
    no condition at all ("whether we can offer an exchange depends on ...")."""
    segment = [i.clause for i in items if i.clause.segment == clause.segment]
    words = {w for c in segment for w in c.words}
    return bool(words & COUNTERFACTUAL) or words.isdisjoint(REAL_CONDITIONS)


def _conditional_claims(items: list[_Read], lexicon: Lexicon) -> list[ConditionalClaim]:
    """A resolution promised or offered on a condition of the case ("if you send it back I
    will refund the full $X"), with the facts its condition names."""
    claims: list[ConditionalClaim] = []
    for item in items:
        clause = item.clause
        if item.modality != "conditional":
            continue
        base = _modality(clause, item.mentions, False)
        if base not in ("done", "will", "can", "offer", "stated") or _counterfactual(items, clause):
            continue
        given = tuple(
            f
            for other in items
            if other.clause.segment == clause.segment
            for m in other.mentions
            if m.fact is not None
            and (f := (m.fact.negated() if m.negations % 2 else m.fact)) is not None
        )
        named = [m for m in item.mentions if m.resolution and not m.policy and not m.negations]
        if not named and not _claims_made(item):
            found = consequence(clause, lexicon)
            if found is not None and found.kind == "resolution" and not _clause_negated(clause):
                money = next((t.value for t in clause.tokens if t.kind == "money"), None)
                claims.append(ConditionalClaim(found.target, money, given, clause.text))
        for m in named:
            claims.append(ConditionalClaim(m.resolution, m.amount, given, clause.text))  # type: ignore[arg-type]
    return claims


# ---- across clauses ------------------------------------------------------------------------


def _continues(clause: Clause, mentions: list[Mention], before: list[_Read]) -> bool:
    """Whether the clause continues the resolution of the clause before it: only auxiliaries
    and pronouns ("..., and I never will"), a relative clause (", which we have applied"),
    or the spelling-out after a colon ("... is store credit: I've added $674.99")."""
    if not before or (mentions and any(m.resolution for m in mentions)):
        return False
    if _last_resolution(before, clause.sentence) is None:
        return False
    if mentions and any(m.fact for m in mentions):
        return False
    words = set(clause.words)
    if words <= ELLIPSIS and _predicate(clause):
        return True
    if clause.link in ("which", "that") or clause.words[:1] in (["which"], ["that"]):
        return _done(clause)
    if words & {"it", "them"} and words & DONE_WORDS and len(clause.words) <= 10:
        # "and I've applied it to your account"; not a finding ("it passed every test")
        return clause.vocabulary.isdisjoint(FINDINGS_SHAPE)
    if clause.link == ":":
        money = any(t.kind == "money" for t in clause.tokens)
        return money or bool(words & RESOLVING)
    return False


FINDINGS_SHAPE = FINDING | TESTS | FAULT


def _last_resolution(before: list[_Read], sentence: int) -> Mention | None:
    """The last resolution named in the clause before, or earlier in the same sentence."""
    for k, item in enumerate(reversed(before)):
        if k and item.clause.sentence != sentence:
            return None
        named = [m for m in item.mentions if m.resolution and not m.policy]
        if named:
            return named[-1]
    return None


def _continue(current: _Read, before: list[_Read]) -> None:
    last = _last_resolution(before, current.clause.sentence)
    assert last is not None
    lemmas = current.clause.lemmas
    negated = sum(w in PREDICATE_NEGATORS or w.startswith(NEGATIVE_VERBS) for w in lemmas)
    money = next((t.value for t in current.clause.tokens if t.kind == "money"), None)
    current.mentions.append(
        Mention(
            len(lemmas),
            len(lemmas),
            resolution=last.resolution,
            negations=negated,
            amount=money if money is not None else last.amount,
        )
    )


def _attach_orphan_amounts(current: _Read, done: list[_Read]) -> None:
    """ "The total is $974.99": an amount with no resolution of its own, in a clause that
    refers back, belongs to the last resolution mentioned."""
    if "money" not in current.clause.kinds or any(m.resolution for m in current.mentions):
        return
    money = [t for t in current.clause.tokens if t.kind == "money"]
    if not money or not (set(current.clause.words) & ANAPHORA):
        return
    if any(m.fact is not None and m.fact.ref.endswith("price") for m in current.mentions):
        return
    for item in reversed(done):
        prior = [m for m in item.mentions if m.resolution]
        if prior:
            if prior[-1].amount is None:
                prior[-1].amount = money[0].value
            return


def _share_amounts(items: list[_Read]) -> None:
    """A resolution named without its amount takes the amount the same sentence gives it
    elsewhere ("I've refunded you in full: $149.00 back to your card")."""
    by_sentence: dict[int, list[Mention]] = {}
    for item in items:
        if item.mentions:
            by_sentence.setdefault(item.clause.sentence, []).extend(
                m for m in item.mentions if m.resolution
            )
    for mentions in by_sentence.values():
        for m in mentions:
            if m.amount is None:
                m.amount = next(
                    (o.amount for o in mentions if o.resolution == m.resolution and o.amount),
                    None,
                )


SAID_DONE = (DONE_ANSWERS - {"yes"}) | {"already"}
"""How a bare answer starts when it says the thing asked about is done ("Already has your
case", "Done."); "yes" may only grant that it can be done."""
DONE_ANSWER_SPAN = 6


def _answers(items: list[_Read]) -> None:
    """ "Store credit? No.": a question naming a resolution, answered no, denies it;
    answered done ("Refund? Done.", "Manager? Already has your case."), asserts it."""
    for question, answer in itertools.pairwise(items):
        bare = question.modality == "none" and question.clause.words[-1:] == ["?"]  # "manager?"
        if (question.modality != "question" and not bare) or not answer.clause.words:
            continue
        words = [w for w in answer.clause.words if w not in (".", "!", ",") and w not in FILLERS]
        denied = NO_ANSWERS.at(words, 0) is not None and len(words) <= 3
        done = bool(words) and words[0] in SAID_DONE and len(words) <= DONE_ANSWER_SPAN
        if not (denied or done):
            continue
        for m in question.mentions:
            if m.resolution:
                answer.mentions.append(
                    Mention(m.start, m.end, resolution=m.resolution, negations=int(denied))
                )
                answer.modality = "stated" if denied else "done"
