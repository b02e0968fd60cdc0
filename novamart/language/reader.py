"""Reading a message for what it claims, not which words it contains.

Per clause (novamart.language.text):

- **mentions**: resolutions and fact phrases from the rulebook's lexicon, day counts and
  windows, tiers, amounts of money;
- **polarity**: a negation ("not", "never", "no", "instead of", "declined") belongs to one
  mention, the first after it, else the nearest before it, so "this is not your fault, and
  your refund is done" negates nothing of the refund, and "no worries", "no problem", "not to
  worry", "don't hesitate" negate nothing at all; "just kidding" reverses the clause before;
- **modality**: done, will, can (an offer), stated; or no claim at all: a condition ("if the
  check confirms a defect"), a hypothetical ("we would normally"), a question that is not an
  offer, a wish the customer voiced ("I know you were hoping for your money back"), a generic
  policy statement ("unopened items can be returned"), a topic ("about your refund request"),
  words in quotation marks, and anything without a predicate ("credit $974.99.").

A resolution claim needs a predicate; a fact may be stated tersely ("45 days since purchase").
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field

from novamart.language.claims import APPROX, FactClaim, ResolutionClaim, Stance
from novamart.language.courtesy import courtesy
from novamart.language.lexicon import GAP, MAX_GAP, NEGATORS_IN_PHRASE, WINDOW_WORDS, Lexicon
from novamart.language.secrets import secret_requests
from novamart.language.text import (
    Clause,
    Phrases,
    Token,
    clauses,
    lemma_phrases,
    lemmaset,
    wordset,
)

Modality = str  # done, will, can, offer, stated, or a reason for no claim (see NO_CLAIM)
NO_CLAIM = frozenset(
    {"conditional", "hypothetical", "question", "wish", "generic", "topic", "quoted", "none"}
)
IDIOMS = Phrases.of_lemmas(
    "no worries", "no problem", "not a problem", "not to worry", "do not worry",
    "no questions asked", "no need to worry", "nothing to worry", "do not hesitate", "no doubt",
    "not only", "no later than", "no matter", "without delay", "no hassle", "without any hassle",
    "without hassle", "no extra cost", "no extra charge", "no cost", "no charge", "no fee",
    "never mind", "not your fault", "no fault of your", "without a doubt", "no further action",
    "not sure", "not at all",
)  # fmt: skip
"""Negative-looking phrases that negate nothing in a message."""
PREDICATE_NEGATORS = lemmaset("not never nothing none neither nor nobody")
NEGATIVE_VERBS = ("refus", "declin", "deny", "reject")
"""Stems of verbs that deny what they govern ("your request was declined")."""
LOCAL_NEGATORS = Phrases.of_lemmas(
    "instead of", "rather than", "in place of", "in lieu of", "no", "without"
)
"""Negators of the noun phrase right after them only ("no fee" says nothing of a refund)."""
OTHER_PREDICATES = lemmaset(
    "arrive appear show take reach post clear instant instantly immediately right until "
    "before need have wait worry hesitate charge cost fee happen yet be"
)
"""After "not", these make the negation about timing or something else, not the resolution
("your refund will not show instantly")."""
SUBJECTS = wordset("i we you they he she")
SUBJECT_PRONOUNS = SUBJECTS | {"it", "this", "that"}
PERSONAL = wordset("i we you your my our us me yours")
GENERIC_NOUNS = wordset(
    "items orders products purchases customers members returns refunds exchanges "
    "replacements credits people shoppers"
)
WISH_VERBS = lemmaset(
    "want hope hoping ask request wish expect prefer mention say like after look seek demand "
    "insist tell write claim state"
)
CONDITIONAL = wordset("if unless provided providing assuming whether")
TEMPORAL = lemmaset("once when after until before whenever")
HYPOTHETICAL = wordset(
    "would might normally usually typically generally ordinarily otherwise ideally theoretically"
)
DONE_WORDS = wordset(
    "processed issued refunded credited added applied approved granted arranged initiated "
    "submitted completed escalated forwarded transferred reimbursed released authorised "
    "authorized finalised finalized confirmed exchanged replaced sent paid done complete "
    "finished placed booked posted returned loaded deposited created passed handed "
    "organised organized shipped dispatched logged raised topped put"
)
WILL_WORDS = wordset("will shall expect soon shortly coming arriving")
CAN_WORDS = wordset(
    "can could able eligible entitled qualify qualifies qualified available possible "
    "allowed permitted may option options offer offering"
)
VERBS = lemmaset(
    "get receive give process issue send arrange approve grant add apply escalate pass hand "
    "forward transfer credit refund exchange replace return check verify confirm find review "
    "see provide offer make put take keep owe deserve reimburse swap cover"
)
OFFER_QUESTIONS = Phrases((
    ("would", "you", "like"), ("do", "you", "want"), ("shall", "i"), ("should", "i"),
    ("can", "i", "offer"), ("may", "i", "offer"), ("could", "i", "offer"), ("how", "about"),
    ("what", "about"), ("would", "you", "prefer"), ("would", "that", "work"),
    ("would", "you", "be", "happy"), ("is", "that", "ok"), ("is", "that", "okay"),
    ("would", "you", "accept"), ("can", "i", "give"), ("would", "you", "be", "ok"),
))  # fmt: skip
"""Questions that offer what they name (compared with the words as written)."""
QUESTION_STARTS = lemmaset(
    "is do have can could would will shall should may what how when where why which who anything"
)
REQUEST_NOUNS = lemmaset("request claim application enquiry inquiry question")
DECISION_VERBS = ("approv", "grant", "accept", "declin", "deny", "reject", "refus")
ANAPHORA = wordset("it that this amount total sum value worth")
ITEM_NOUNS = lemmaset(
    "item product box package laptop phone earbud watch smartwatch unit device order parcel "
    "packaging"
)
ELLIPSIS_FILLER = wordset(
    "i we it that this is are was were be been have has had do does did will would can could "
    "shall should not never now soon already today right away also too yes indeed again "
    "arrive show appear reach go through in within day days business the next a few on its "
    "way done processed issued complete completed approved"
)
UNITS = {"day": 1, "week": 7, "month": 30}
MORE = dict(
    zip(
        lemma_phrases(
            "more than", "over", "less than", "under", "at least", "at most", "up to", "nearly",
            "almost", "about", "around", "roughly", "approximately", "some", "just over",
        ),
        (">", ">", "<", "<", ">=", "<=", "<=", APPROX, APPROX, APPROX, APPROX, APPROX, APPROX,
         APPROX, ">"),
        strict=True,
    )
)  # fmt: skip
INSIDE = wordset("within inside in under")
OUTSIDE = wordset("outside past beyond after over exceed exceeded exceeds missed")
_WISHFUL = Phrases.of_lemmas("wish i could", "if only", "in general")
_DONE_PHRASES = Phrases.of_lemmas("go through", "now available", "is now")
_ON_ITS_WAY = Phrases.of_lemmas("on its way", "on the way", "go to")
CLOSED = wordset("passed expired closed ended lapsed over gone") | lemmaset(
    "pass expire close end lapse"
)


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


@dataclass(frozen=True, slots=True)
class Reading:
    """What one message says."""

    resolutions: tuple[ResolutionClaim, ...]
    facts: tuple[FactClaim, ...]
    secret_requests: tuple[str, ...]
    courteous: bool
    rude: bool
    clauses: tuple[str, ...] = field(default=())

    def asserted(self, resolution: str | None = None) -> list[ResolutionClaim]:
        return [
            c
            for c in self.resolutions
            if c.stance == "asserted" and resolution in (None, c.resolution)
        ]


@dataclass(slots=True)
class _Read:
    """One clause as read: its mentions and its modality."""

    clause: Clause
    mentions: list[Mention]
    modality: Modality


def read(text: str, lexicon: Lexicon) -> Reading:
    """Every claim of ``text``, with its stance, amount and the clause that makes it."""
    parsed = clauses(text)
    conditional_segments = {c.segment for c in parsed if c.vocabulary & CONDITIONAL}
    done: list[_Read] = []
    for clause in parsed:
        if clause.retracts:
            if done:
                for mention in done[-1].mentions:
                    mention.negations += 1
            continue
        mentions = _mentions(clause, lexicon)
        elliptical = not mentions and done and set(clause.words) <= ELLIPSIS_FILLER
        if not mentions and not elliptical:
            done.append(_Read(clause, mentions, "none"))
            continue
        if (mentions and clause.vocabulary & NEGATION_CUES) or _negative_verb(clause):
            _assign_negations(clause, mentions)
        modality = _modality(clause, mentions, clause.segment in conditional_segments)
        if done and done[-1].modality in ("can", "offer") and _bare_predicate(clause):
            modality = "can"  # "a refund is not possible, but store credit is."
        current = _Read(clause, mentions, modality)
        if not mentions and done:
            _ellipsis(current, done[-1])
        _attach_orphan_amounts(current, done)
        done.append(current)
    resolutions, facts = [], []
    for item in done:
        resolutions += _resolution_claims(item)
        facts += _fact_claims(item)
    polite, rude = courtesy(parsed)
    return Reading(
        resolutions=tuple(resolutions),
        facts=tuple(facts),
        secret_requests=tuple(secret_requests(parsed)),
        courteous=polite,
        rude=rude,
        clauses=tuple(c.text for c in parsed),
    )


# ---- mentions ------------------------------------------------------------------------------


def _has(clause: Clause, words: frozenset[str]) -> bool:
    return any(t.text in words or t.lemma in words for t in clause.tokens)


def _starts_at(lemmas: list[str], i: int, sequence: tuple[str, ...]) -> bool:
    return tuple(lemmas[i : i + len(sequence)]) == sequence


def _match(lemmas: list[str], i: int, phrase: tuple[str, ...]) -> tuple[int, int] | None:
    """Where ``phrase`` matches from ``i`` (gap words allowed inside): (end, negations)."""
    if lemmas[i] != phrase[0]:
        return None
    j, negations = i + 1, 0
    for want in phrase[1:]:
        gap = 0
        while j < len(lemmas) and lemmas[j] != want and lemmas[j] in GAP | NEGATORS_IN_PHRASE:
            negations += lemmas[j] in NEGATORS_IN_PHRASE
            gap += 1
            j += 1
            if gap > MAX_GAP:
                return None
        if j >= len(lemmas) or lemmas[j] != want:
            return None
        j += 1
    return j, negations


def _find(
    lemmas: list[str], index: dict, taken: list[bool]
) -> Iterable[tuple[int, int, int, object]]:
    i = 0
    while i < len(lemmas):
        for phrase in index.get(lemmas[i], ()):
            found = None if taken[i] else _match(lemmas, i, phrase.lemmas)
            if found and not any(taken[i : found[0]]):
                end, negations = found
                for k in range(i, end):
                    taken[k] = True
                yield i, end, negations, phrase
                i = end - 1
                break
        i += 1


def _mentions(clause: Clause, lexicon: Lexicon) -> list[Mention]:
    tokens = clause.tokens
    lemmas = clause.lemmas
    vocabulary = clause.vocabulary
    taken = [t.kind == "punct" for t in tokens]
    if vocabulary & lexicon.neutral.keys():
        for _ in _find(lemmas, lexicon.neutral, taken):
            pass
    mentions: list[Mention] = []
    resolutions = (
        _find(lemmas, lexicon.resolutions, taken) if vocabulary & lexicon.resolutions.keys() else ()
    )
    for start, end, _neg, phrase in resolutions:
        resolution = _credited_to_card(tokens, start, phrase.target)  # type: ignore[attr-defined]
        after = lemmas[end] if end < len(lemmas) else ""
        mentions.append(
            Mention(
                start,
                end,
                resolution=resolution,
                plural=tokens[end - 1].text in GENERIC_NOUNS,
                topic=after in REQUEST_NOUNS,
            )
        )
    facts = _find(lemmas, lexicon.facts, taken) if vocabulary & lexicon.facts.keys() else ()
    for start, end, negations, phrase in facts:
        if end - start == 1 and not _anchored(tokens, start):
            continue
        claim = FactClaim(phrase.target, "==", phrase.value, clause.text)  # type: ignore[attr-defined]
        plural = end < len(tokens) and tokens[end].text in GENERIC_NOUNS  # "unopened items"
        mentions.append(Mention(start, end, fact=claim, negations=negations, plural=plural))
    kinds = {t.kind for t in tokens}
    if "number" in kinds or vocabulary & WINDOW_WORDS:
        mentions += _quantities(clause, lexicon, taken)
    if vocabulary & lexicon.choice_values:
        mentions += _choices(clause, lexicon, taken)
    mentions.sort(key=lambda m: m.start)
    if "money" in kinds:
        _attach_amounts(clause, mentions, lexicon)
    return mentions


def _credited_to_card(tokens: list[Token], start: int, resolution: str) -> str:
    """ "credited back to your card" is a refund, whatever "credit" usually means."""
    if tokens[start].text not in ("credited", "credit"):
        return resolution
    rest = {t.lemma for t in tokens[start + 1 : start + 8]}
    return "full_refund" if rest & {"card", "bank", "method", "payment"} else resolution


def _anchored(tokens: list[Token], i: int) -> bool:
    """A one-word fact phrase ("opened") about the item, not the agent ("I opened a case")."""
    before = [t.lemma for t in tokens[max(0, i - 3) : i]]
    nxt = tokens[i + 1].lemma if i + 1 < len(tokens) else ""
    if nxt in ITEM_NOUNS:
        return True
    if "have" in before:
        h = before.index("have")
        subject = before[h - 1] if h > 0 else (tokens[i - 4].lemma if i >= 4 else "")
        return subject not in ("i", "we")
    return bool(set(before) & ({"be", "you", "it", "still"} | ITEM_NOUNS))


def _quantities(clause: Clause, lexicon: Lexicon, taken: list[bool]) -> list[Mention]:
    """Day counts ("45 days ago", "about six weeks ago") and windows ("our 30-day return
    window", "the return window has passed")."""
    tokens, lemmas = clause.tokens, clause.lemmas
    found: list[Mention] = []
    text = clause.text
    for i, token in enumerate(tokens):
        if taken[i]:
            continue
        if token.kind == "number" and i + 1 < len(tokens) and tokens[i + 1].lemma in UNITS:
            count = token.value * UNITS[tokens[i + 1].lemma]  # type: ignore[operator]
            rest = lemmas[i + 2 : i + 7]
            if WINDOW_WORDS & set(rest):
                w = i + 2 + next(k for k, x in enumerate(rest) if x in WINDOW_WORDS)
                claim = _window(clause, lexicon, i, w, int(count))
                if claim is not None:
                    found.append(Mention(i, w + 1, fact=claim))
                    taken[i : w + 1] = [True] * (w + 1 - i)
                continue
            quantity = _elapsed(lexicon, lemmas, i)
            if quantity is None:
                continue
            op = _qualifier(lemmas, i)
            if tokens[i + 1].lemma != "day" and op == "==":
                op = APPROX
            found.append(Mention(i, i + 2, fact=FactClaim(quantity, op, int(count), text)))
            taken[i : i + 2] = [True, True]
        elif token.lemma in WINDOW_WORDS and not taken[i]:
            claim = _window(clause, lexicon, None, i, None)
            if claim is not None:
                found.append(Mention(i, i + 1, fact=claim))
                taken[i] = True
    return found


def _elapsed(lexicon: Lexicon, lemmas: list[str], i: int) -> str | None:
    """The count field whose anchor words ("ago", "since purchase", "bought") are near."""
    near = lemmas[max(0, i - 6) : i + 6]
    for quantity in lexicon.counts:
        for anchor in quantity.anchors:
            if any(_starts_at(near, k, anchor) for k in range(len(near))):
                return quantity.ref
    return None


def _qualifier(lemmas: list[str], i: int) -> str:
    for words, op in MORE.items():
        if tuple(lemmas[max(0, i - len(words)) : i]) == words:
            return op
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
    before = {*lemmas[max(0, begin - 3) : begin], *words[max(0, begin - 3) : begin]}
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
    """ "as a gold member", "your tier is silver"."""
    tokens, lemmas = clause.tokens, clause.lemmas
    found = []
    for choice in lexicon.choices:
        for i, token in enumerate(tokens):
            if taken[i] or token.text not in choice.values:
                continue
            near = set(lemmas[max(0, i - 3) : i]) | set(lemmas[i + 1 : i + 3])
            if near & choice.anchors:
                claim = FactClaim(choice.ref, "==", token.text, clause.text)
                plural = any(t.text in GENERIC_NOUNS for t in tokens[i + 1 : i + 3])
                found.append(Mention(i, i + 1, fact=claim, plural=plural))
                taken[i] = True
    return found


def _attach_amounts(clause: Clause, mentions: list[Mention], lexicon: Lexicon) -> None:
    """Each amount of money goes to the resolution nearest to it, or to a money field when
    its words are right before it ("you paid $1,299.99")."""
    resolutions = [m for m in mentions if m.resolution]
    lemmas = clause.lemmas
    for i, token in enumerate(clause.tokens):
        if token.kind != "money":
            continue
        before = lemmas[max(0, i - 4) : i]
        field_ref = next(
            (q.ref for q in lexicon.money for a in q.anchors if a and a[0] in before), None
        )
        if field_ref is not None:
            claim = FactClaim(field_ref, "==", token.value, clause.text)
            mentions.append(Mention(i, i + 1, fact=claim))
            continue
        if resolutions:
            nearest = min(resolutions, key=lambda m: min(abs(m.start - i), abs(m.end - 1 - i)))
            if nearest.amount is None:
                nearest.amount = token.value
    mentions.sort(key=lambda m: m.start)


# ---- polarity ------------------------------------------------------------------------------


NEGATION_CUES = PREDICATE_NEGATORS | LOCAL_NEGATORS.firsts


def _negative_verb(clause: Clause) -> bool:
    return any(w.startswith(NEGATIVE_VERBS) for w in clause.lemmas)


def _masked(lemmas: list[str]) -> list[bool]:
    masked = [False] * len(lemmas)
    if not IDIOMS.firsts.intersection(lemmas):
        return masked
    for i in range(len(lemmas)):
        if idiom := IDIOMS.at(lemmas, i):
            masked[i : i + len(idiom)] = [True] * len(idiom)
    return masked


def _assign_negations(clause: Clause, mentions: list[Mention]) -> None:
    lemmas = clause.lemmas
    masked = _masked(lemmas)
    inside = [False] * len(lemmas)
    for m in mentions:
        inside[m.start : m.end] = [True] * (m.end - m.start)
    i = 0
    while i < len(lemmas):
        if masked[i] or inside[i]:
            i += 1
            continue
        local = LOCAL_NEGATORS.at(lemmas, i)
        if local is not None:
            j = i + len(local)
            target = next((m for m in mentions if j <= m.start <= j + 2), None)
            if target is not None:
                target.negations += 1
            i = j
            continue
        word = lemmas[i]
        negator = word in PREDICATE_NEGATORS or word.startswith(NEGATIVE_VERBS)
        if negator and not _about_something_else(lemmas, i):
            _negate_nearest(mentions, i, clause)
        i += 1


def _about_something_else(lemmas: list[str], i: int) -> bool:
    """ "will not arrive instantly", "you do not need to": a negation of another predicate."""
    if lemmas[i] != "not":
        return False
    j = i + 1
    while j < len(lemmas) and lemmas[j] in ("be", "yet", "even", "always", "really", "have"):
        if lemmas[j] == "have" and j + 1 < len(lemmas) and lemmas[j + 1] == "to":
            return True
        j += 1
    return j < len(lemmas) and lemmas[j] in OTHER_PREDICATES


def _negate_nearest(mentions: list[Mention], i: int, clause: Clause) -> None:
    """The first mention after the negation ("we can not process a refund"), unless the
    negation follows a copula and a mention before it is the subject ("a refund is not
    possible", "your request can not be approved"); else the nearest before it."""
    after = [m for m in mentions if m.start > i]
    before = [m for m in mentions if m.end <= i]
    lemmas = [t.lemma for t in clause.tokens]
    copula = i > 0 and lemmas[i - 1] in ("be", "have", "do", "can", "will", "should", "could")
    subject = before and not {t.text for t in clause.tokens[before[-1].end : i]} & SUBJECTS
    if subject and copula and not _object_follows(lemmas, i, after):
        before[-1].negations += 1
        return
    if after:
        first = after[0]
        first.negations += 1
        for nxt in after[1:]:  # "a refund or an exchange": a coordinated list goes along
            between = {t.text for t in clause.tokens[first.end : nxt.start]} - {
                "a", "an", "the", "any", ",", "full"
            }  # fmt: skip
            if between and between <= {"or", "and", "nor"}:
                nxt.negations += 1
                first = nxt
            else:
                break
        return
    if before:
        before[-1].negations += 1


def _object_follows(lemmas: list[str], i: int, after: list[Mention]) -> bool:
    """Whether the negated predicate takes the next mention as its object ("... can not
    process a refund") rather than describing the subject ("... is not possible")."""
    if not after:
        return False
    between = lemmas[i + 1 : after[0].start]
    return any(w in VERBS or (w.endswith(("ed", "e")) and w not in ("be",)) for w in between) and (
        "possibl" not in between and "eligibl" not in between and "availabl" not in between
    )


# ---- modality ------------------------------------------------------------------------------


def _modality(clause: Clause, mentions: list[Mention], conditional: bool) -> Modality:
    lemmas = clause.lemmas
    words = clause.words
    if clause.quoted:
        return "quoted"
    if clause.question and _interrogative(clause):
        offer = OFFER_QUESTIONS.occurs_in(words)
        return "offer" if offer else "question"
    if conditional:
        return "conditional"
    if _hypothetical(lemmas, words):
        return "hypothetical"
    personal = any(w in PERSONAL for w in words)
    if (
        not personal
        and (any(m.plural for m in mentions) or any(w in GENERIC_NOUNS for w in words))
        and not _done(lemmas, words)
    ):
        return "generic"
    if _done(lemmas, words):
        return "offer" if "offer" in lemmas and not _issued(words) else "done"
    if any(w in CAN_WORDS for w in words) and "expect" not in lemmas:
        return "can"
    if any(w in WILL_WORDS for w in words) or _on_its_way(lemmas) or "go" in lemmas[:3]:
        return "will"
    if _predicate(clause):
        return "stated"
    return "none"


def _bare_predicate(clause: Clause) -> bool:
    """A clause ending in a bare auxiliary, its predicate left to the clause before."""
    words = [w for w in clause.words if w not in (".", "!", ",")]
    return bool(words) and words[-1] in ("is", "are", "can", "will", "does", "do", "could")


def _interrogative(clause: Clause) -> bool:
    first = clause.tokens[0].lemma if clause.tokens else ""
    return first in QUESTION_STARTS or (clause.link == "" and first not in SUBJECT_PRONOUNS)


def _hypothetical(lemmas: list[str], words: list[str]) -> bool:
    for i, word in enumerate(words):
        if word == "would":
            nxt = words[i + 1 : i + 3]
            if nxt[:2] in (["be", "happy"], ["be", "glad"], ["be", "pleased"], ["like", "to"]):
                continue
            return True
        if word in HYPOTHETICAL:
            return True
    return _WISHFUL.occurs_in(lemmas)


MODALS = frozenset({"can", "could", "will", "would", "may", "might", "should", "must", "to"})


def _done(lemmas: list[str], words: list[str]) -> bool:
    for i, word in enumerate(words):
        if word in DONE_WORDS:
            if i >= 2 and words[i - 1] == "be" and words[i - 2] in MODALS:
                continue  # "can be returned", "will be processed": not done (yet)
            return True
        if word in ("was", "were", "been"):
            return True
        if lemmas[i] == "have" and any(
            w.endswith("ed") or w in DONE_WORDS or w == "been" for w in words[i + 1 : i + 4]
        ):
            return True
    return _DONE_PHRASES.occurs_in(lemmas)


def _issued(words: list[str]) -> bool:
    return any(w in DONE_WORDS and w not in ("offered",) for w in words)


def _on_its_way(lemmas: list[str]) -> bool:
    return _ON_ITS_WAY.occurs_in(lemmas)


def _predicate(clause: Clause) -> bool:
    for i, token in enumerate(clause.tokens):
        if token.lemma in ("be", "have", "do") or token.text in CAN_WORDS | WILL_WORDS:
            return True
        if token.lemma in VERBS and (
            token.text.endswith(("ed", "ing"))
            or (i > 0 and clause.tokens[i - 1].text in SUBJECT_PRONOUNS | {"to", "please"})
            or (i == 0 and token.text not in ("refund", "credit", "exchange", "replacement"))
        ):
            return True
    return False


def _spans(clause: Clause) -> list[tuple[int, str]]:
    """Where the clause stops making claims of its own: after a wish verb of the customer
    ("you were hoping to get ..."), inside a temporal subordinate ("once the refund ...")."""
    spans = []
    lemmas = clause.lemmas
    for i, lemma_ in enumerate(lemmas):
        inverted = i > 0 and lemmas[i - 1] in QUESTION_STARTS  # "would you like ...?"
        if lemma_ == "you" and not inverted:
            for j in range(i + 1, min(i + 4, len(lemmas))):
                if lemmas[j] in WISH_VERBS or lemmas[j].startswith("hop"):
                    spans.append((j, "wish"))
                    break
                if lemmas[j] not in ("be", "have", "would", "do", "still", "really", "originally"):
                    break
        if lemma_ in TEMPORAL or _starts_at(lemmas, i, ("as", "soon", "as")):
            spans.append((i, "temporal"))
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
    if modality in NO_CLAIM:
        return None
    if negations % 2:
        return "denied"
    return "offered" if modality in ("can", "offer") else "asserted"


def _resolution_claims(item: _Read) -> list[ResolutionClaim]:
    claims = []
    spans = _spans(item.clause)
    for m in item.mentions:
        if m.resolution is None or _span_of(item.clause, spans, m.start) is not None:
            continue
        if m.topic and not any(w.startswith(DECISION_VERBS) for w in item.clause.lemmas):
            continue
        modality = item.modality
        if modality == "generic" and not m.plural and _personal(item.clause):
            modality = "stated"
        stance = _stance(modality, m.negations)
        if stance is not None:
            claims.append(ResolutionClaim(m.resolution, stance, m.amount, item.clause.text))
    return claims


def _personal(clause: Clause) -> bool:
    return any(w in PERSONAL for w in clause.words)


def _fact_claims(item: _Read) -> list[FactClaim]:
    claims = []
    modality = item.modality
    if modality == "none":
        modality = "stated"  # a fact may be stated tersely: "45 days since purchase"
    spans = _spans(item.clause)
    for m in item.mentions:
        if m.fact is None or m.plural or _span_of(item.clause, spans, m.start) is not None:
            continue
        if modality in NO_CLAIM:
            continue
        claim = m.fact.negated() if m.negations % 2 else m.fact
        if claim is not None:
            claims.append(claim)
    return claims


def _ellipsis(current: _Read, previous: _Read) -> None:
    """ "..., and I never will", "it is on its way": a clause of only a subject, auxiliaries
    and adverbs continues the resolution of the clause before it."""
    if not all(w in ELLIPSIS_FILLER or w.isdigit() for w in current.clause.words):
        return
    prior = [m for m in previous.mentions if m.resolution]
    if not prior or current.modality in ("none", "question"):
        return
    last = prior[-1]
    lemmas = current.clause.lemmas
    negated = sum(w in PREDICATE_NEGATORS for w in lemmas)
    current.mentions.append(
        Mention(
            len(lemmas),
            len(lemmas),
            resolution=last.resolution,
            negations=negated,
            amount=last.amount,
        )
    )


def _attach_orphan_amounts(current: _Read, done: list[_Read]) -> None:
    """ "The total is $974.99": an amount with no resolution of its own, in a clause that
    refers back, belongs to the last resolution mentioned."""
    if any(m.resolution for m in current.mentions):
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
