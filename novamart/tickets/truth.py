"""Whether a reply states its article's facts *truly*: with the same polarity and numbers.

``novamart.tickets.answer`` measures how far a reply conveys each fact of the reference
answer; it cannot tell "cash on delivery is not available" from "it is not true that cash on
delivery is not available", nor "within 30 days" from "within 90 days". Here a stretch of one
sentence of the reply *states* a fact when it holds most of the fact's words (numbers aside),
and it *contradicts* the fact when, from the start of the clause its first such word stands
in to the end of the clause its last one stands in,

- the count of negators differs from the fact's in parity (a "not" inserted after the first
  verb, "it is not true that ...", a "never" dropped), or it holds a word that reverses one
  the fact holds ("after" for "before", "past" for "future") and not that word; or
- it states numbers and one of the fact's numbers is missing while another number stands
  instead ("within 90 days" for "within 30 days"; "5 to 10 business days" with "one to two
  weeks" beside it changes nothing).

A contradicted fact is a wrong fact: the reply answers falsely, whatever else it gets right.
What counts as a negation: "not", "never", "no" ... (not inside phrases that negate nothing:
"no problem", "don't forget to", "no later than", ``answer.NOT_NEGATING``; not in a clause of
a word or two, "no phone, no problem"; not a negation repeated clause after clause, "never by
email, not in chat"), a frame before the clause ("it is not true that, ..."), and "until" ("as
long as not": "until it ships" is "as long as it hasn't shipped"). Where another sentence of
the reply says the fact truly and more fully, a partial contradiction elsewhere stands down
(two parallel facts: "standard delivery takes 3 to 5 days", "express takes 1 to 2").

Two passes read a fact told far from its words. A word of the fact replaced by its opposite
in the same place (the content word before or after it is the fact's): ``OPPOSED`` pairs
opposites with their near synonyms ("available" for the article's "open", "unavailable" for
its opposite), a negating prefix turns any word round ("non-refundable", "impossible"); and
a denying frame ("it is not true that ...") over a sentence holding a share of the fact's
words, however far it paraphrases the rest.

More shapes are read as propositions (``novamart.tickets.propositions``): an order of events
turned round, a negated predication said without its negation, a universal weakened by
"sometimes", who pays turned round ("prepaid" for "you pay"). And here: a restriction lifted
("future orders only" -> "past and future"), a number bound to another fact's subject
("standard ... costs $9.99"), two numbers of one fact trading what they buy ("$500 for gold
and $1500 for silver"), a negated opposite read as agreeing ("no longer have" for "lost").

Measured by ``python -m tests.tickets.falsified`` (honest corpus replies falsified one
sentence at a time; the later kinds labelled from the article's answer by construction):
held-out precision 1.000, recall 1.000 (716 lies, 209 true replies); held-out means: honest
0.985 (min 0.800), a denied negation (true) 0.991 (min 0.822), negated 0.225 (max 0.400),
reversed 0.277 (max 0.400), changed numbers 0.100 (max 0.217), antonyms 0.233 (max 0.367),
swapped roles 0.273 (max 0.400), another article's fact 0.098 (max 0.397), hedged denials
0.203 (max 0.400). More
shapes read here and in ``propositions``: a fact's later clause said in other words carries
its negation ("will never be in touch" for "will contact you"); a negation inside the fact's
condition is not required where the reply leaves the condition to a question ("still no
sync? unpair the watch"); a denial frame without a negator ("it's wrong to say that"), and
a denied negation read as the fact ("it is not true that you cannot ..."); who acts for
whom and whose thing it is ("you will contact our team", "your security team"); a
sentence stating another article's fact instead (``foreign_facts``).
Read since: an opposite beside the same word where another fact has it ("a different
charger" beside "a different wall socket" for "the original charger"); roles swapped in the
sentence telling the fact while a sentence less about it keeps the true owner ("what your
bank has ... our bank can tell us"); a foreign fact written as a list (each sentence read
with its punctuation); a negation dropped where the rest holds just over half the fact's
words ("they do have an expiry date" for "never expire"); "no X" for the fact's "X-free".
Read since: an instruction given with the other polarity, one conjunct of a fact told over
two sentences enough ("do not keep 10 percent free", "do click anything in that message");
a restriction negated ("not only for future orders"); a comparison bounded the other way
("not more than one"); a noun made of the fact's verb ("payments" for "paid"); the one a
passive is done to doing its verb ("you may ask" for "you may be asked"); a list's items
read one by one for another article's step. A negated conjunct left out whole is an
omission, not a reversal ("stop using it and keep it away ..." without "do not charge it").
Read since: a negation English cannot read in the sentence stating a fact ("so please do
not it quick", "nothing you need to do not", a denying frame over an instruction: "it is not
true that don't click ...") fails closed, the fact counted contradicted
(``novamart.tickets.unreadable``); a recipient swapped around a transfer verb ("you'll get us
a reset link"); another article's fact stated more fully than the asked one's, in words the
asked article never uses ("unplug it at once" for a swollen battery).
What it still misses: a hedge over the reply's own negation outside an "instead" ("it's not
really the case that you can't ..." where the article says nothing the negation denies).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from functools import lru_cache
from itertools import pairwise

from novamart.kb import default_kb
from novamart.kb.text import STOPWORDS
from novamart.language.text import lemma
from novamart.tickets import propositions
from novamart.tickets.answer import (
    CONDITIONS,
    DETERMINERS,
    NEGATORS,
    Fact,
    Unit,
    conveyed,
    conveyed_in,
    facts,
    units,
)
from novamart.tickets.unreadable import unreadable

STATED = 0.55
"""Share of a fact's words (numbers aside) from which a stretch states it."""
MIN_WORDS = 2
"""A fact of fewer content words is too short to be told stated from merely mentioned."""
SPAN_FACTOR, SPAN_SLACK = 2.0, 4
ABOUT = 0.3
"""Share of a fact's words from which a sentence is about it, for a number changed in it."""
MIN_CLAUSE = 3
"""A negator in a clause shorter than this negates a noun, not a statement ("no phone, no
problem: ..."). """
IMPLICIT = frozenset(("until",))
FRAMES = frozenset(("true", "case", "correct", "right", "so", "say", "said", "claim", "think"))
DENIALS = frozenset(("wrong", "false", "untrue", "incorrect", "myth", "mistaken"))
"""Words that deny what follows without a negator: "it's wrong to say that ...", "it is
false that ..."."""
OPPOSITES = {
    "before": ("after",),
    "until": ("after",),
    "future": ("past", "previous", "earlier"),
    "include": ("exclude",),
    "included": ("excluded",),
    "free": ("paid", "charged"),
    "always": ("sometimes", "rarely"),
    "every": ("some",),
    "same": ("different", "another"),
    "new": ("old",),
    "old": ("new",),
    "open": ("closed",),
    "intact": ("broken", "cut", "removed"),
    "once": ("before",),
    "within": ("after",),
}
"""Words whose opposite (in a clause that states the fact without them) reverses it: time
order, inclusion, cost, sameness; the negators are counted apart."""
CONDITIONAL = CONDITIONS | frozenset(("where", "whenever"))
"""Words opening a condition ("where no other policy covers a case" for the article's
"when")."""
RELATIONAL = frozenset(("before", "until", "once", "within"))
"""Opposites that relate two events: "Y after X" says what "X before Y" says, so they reverse
the fact only where the fact's word stood (followed by the same words)."""


@dataclass(frozen=True)
class Contradiction:
    fact: str
    how: str
    """"negated", "reversed", "number" or "unreadable" (a negation English cannot read in
    the sentence stating it: ``novamart.tickets.unreadable``)."""
    said: str
    """The stretch of the reply that says it."""


def _plain(fact: Fact) -> frozenset[str]:
    """The fact's content words, numbers and amounts aside."""
    return frozenset(s for s in fact.stems if not (s[0].isdigit() or s[0] == "$"))


NOMINAL = "ment"
"""A suffix that makes a noun of a verb ("payment", "shipment", "replacement")."""


def _root(stem: str) -> str:
    """The verb a noun is made of, so a paraphrase's noun holds the fact's verb ("spread
    across 4 payments" for "paid in 4"; the lemma gives "pay" for "paid")."""
    if stem.endswith(NOMINAL) and len(stem) - len(NOMINAL) >= 3:
        return stem[: -len(NOMINAL)].removesuffix("e")
    return stem


def _stretch(unit: Unit, wanted: frozenset[str], length: int) -> tuple[int, int, float] | None:
    """The stretch of ``unit`` holding the largest share of ``wanted`` (first and last word
    of it, and the share), within a span a paraphrase of the fact fits in."""
    limit = max(10, int(SPAN_FACTOR * length) + SPAN_SLACK)
    roots = {_root(s) for s in wanted}
    hits = [i for i, s in enumerate(unit.stems) if unit.content[i] and _root(s) in roots]
    best: tuple[int, int, float] | None = None
    for start in hits:
        seen: set[str] = set()
        for i in (h for h in hits if start <= h < start + limit):
            seen.add(_root(unit.stems[i]))
            share = len(seen) / len(wanted)
            if best is None or share > best[2]:
                best = (start, i, share)
    return best


def _region(unit: Unit, first: int, last: int) -> range:
    """From the start of ``first``'s clause to the end of ``last``'s; from an earlier clause
    on when it is a negated frame ending in "that" ("it is not true that, as you heard, ...")."""
    start, end = first, last
    while start > 0 and unit.clause[start - 1] == unit.clause[first]:
        start -= 1
    while end + 1 < len(unit.words) and unit.clause[end + 1] == unit.clause[last]:
        end += 1
    frame = next((i for i in range(start) if _denying(unit, i) and _frames(unit, i, start)), None)
    return range(start if frame is None else frame, end + 1)


def _denying(unit: Unit, i: int) -> bool:
    """A negator, or a word of denial standing in a frame ("wrong to say that")."""
    return unit.negates[i] or (unit.words[i] in DENIALS and _frames(unit, i, len(unit.words)))


def _frames(unit: Unit, i: int, start: int) -> bool:
    """Whether the negator at ``i`` stands in a frame about what follows: "it is not true
    that", "nobody said that" (not "don't click anything in that message")."""
    words = unit.words
    return any(
        words[k] == "that" and words[k - 1] in FRAMES | DENIALS
        for k in range(i + 1, min(start, i + 5))
    )


def _frame_thats(unit: Unit) -> list[int]:
    """Where the "that" of each denying frame stands ("it is not true that ...")."""
    words = unit.words
    return [
        k
        for i in range(len(words))
        if _denying(unit, i)
        for k in range(i + 1, min(len(words), i + 5))
        if words[k] == "that" and words[k - 1] in FRAMES | DENIALS
    ]


def _negations(unit: Unit) -> list[bool]:
    """Per word, whether it negates a statement: a negator (not in a clause of a word or two:
    "no phone, no problem"; not one repeating the clause before: "never by email, not in
    chat, not on the phone"), or "until", which says "as long as not" ("until it ships" is
    "as long as it hasn't shipped")."""
    sizes: dict[int, int] = {}
    for c in unit.clause:
        sizes[c] = sizes.get(c, 0) + 1
    negated_clauses: set[int] = set()
    out = []
    for i, negates in enumerate(unit.negates):
        clause = unit.clause[i]
        opens = i == 0 or unit.clause[i - 1] != clause
        repeats = opens and bool(negated_clauses)
        timed = i + 1 < len(unit.values) and unit.values[i + 1] is not None  # "until 10 pm"
        counted = (negates and sizes[clause] >= MIN_CLAUSE and not repeats) or (
            unit.words[i] in IMPLICIT and not timed
        )
        counted = counted or (unit.words[i] in DENIALS and _frames(unit, i, len(unit.words)))
        if negates:
            negated_clauses.add(clause)
        out.append(counted)
    return out


def _absorbed(fact: Fact, unit: Unit, i: int) -> bool:
    """Whether the negator at ``i`` negates the opposite of a word of the fact, so says
    what the fact says ("if you no longer have the phone" for "if you lost the phone", "do
    not keep it close" for "keep it away"), or names what the fact's "X-free" is free of
    ("with no interest" for "interest-free")."""
    after = [w for w in unit.words[i + 1 : i + 4] if w not in ("longer", "even", "yet")]
    if not after or fact.unit is None:
        return False
    said = fact.unit.words
    free_of = {lemma(w) for w, then in pairwise(said) if then == "free"}
    # the opposite may follow the verb it negates ("do not keep it close" for "keep it away")
    turned = any(_opposite(word, other) for word in said for other in after if other not in said)
    return lemma(after[0]) in free_of or turned


def _negated_clause_held(fact: Fact, unit: Unit, region: range) -> bool:
    """Whether the region holds a word of a clause the fact negates, so leaving the negation
    out turns that clause round ("cash on delivery is possible" for "... is not available");
    a negated conjunct left out whole ("stop using it and keep it away ..." without "do not
    charge it") is an omission, not a reversal."""
    if fact.unit is None:
        return True
    words, clause = fact.unit.words, fact.unit.clause
    negated = {clause[i] for i, counts in enumerate(_negations(fact.unit)) if counts}
    said = {
        propositions.key(w)
        for k, w in enumerate(words)
        if clause[k] in negated and w not in STOPWORDS and w not in NEGATORS
    }
    return not said or any(propositions.key(unit.words[k]) in said for k in region)


def _same(value: float, values: frozenset[float]) -> bool:
    return any(math.isclose(value, v, rel_tol=1e-9) for v in values)


def _reversed(fact: Fact, unit: Unit, region: range) -> bool:
    """Whether the region turns a word of the fact round ("after" for its "before"), the
    fact holding that word and not its opposite."""
    said = {unit.stems[i] for i in region} | {unit.words[i] for i in region}
    stated = fact.words
    sequence = fact.text.split()
    for word, opposites in OPPOSITES.items():
        turned = said.intersection(opposites) - stated
        if word not in stated or word in said or not turned:
            continue
        if word not in RELATIONAL:
            return True
        # where the fact's word stood: what follows it follows the opposite too ("after the
        # order ships" for "before the order ships"; not "after that, report" for "before
        # reporting")
        after = {_next_word(sequence, i) for i, w in enumerate(sequence) if lemma(w) == lemma(word)}
        for i in region:
            opposite = unit.stems[i] in turned or unit.words[i] in turned
            if opposite and _next_word(list(unit.words), i) in after:
                return True
    return False


def _next_content(words: list[str], i: int) -> str | None:
    return next((lemma(w) for w in words[i + 1 :] if w not in STOPWORDS), None)


def _next_word(words: list[str], i: int) -> str | None:
    """The word after ``i`` (after a determiner, the one after that), as a lemma."""
    j = i + 1
    if j < len(words) and words[j] in DETERMINERS:
        j += 1
    return lemma(words[j]) if j < len(words) else None


@dataclass(frozen=True)
class _Reading:
    """How one sentence of the reply says one fact: the share of the fact's words it holds,
    the stretch, and a contradiction (None: it says it truly); a reversal by a negation left
    out is ``weak`` (a negated fact's words also stand in true sentences about other things)."""

    share: float
    said: str
    contradiction: Contradiction | None
    weak: bool = False


def _expected(fact: Fact, unit: Unit, region: range) -> frozenset[int]:
    """The counts of negations the region may hold: the fact's; where the fact negates only
    inside its condition ("if it still won't sync, unpair ...") and the region says no
    condition, with or without that negation ("still no sync? unpair the watch" states the
    instruction and leaves the condition to a question of its own)."""
    if fact.unit is None:
        return frozenset((fact.negations,))
    counted = _negations(fact.unit)
    every = sum(counted)
    if any(unit.words[i] in CONDITIONAL for i in region):
        return frozenset((every,))
    words = fact.unit.words
    bare = sum(c and not CONDITIONAL.intersection(words[:i]) for i, c in enumerate(counted))
    return frozenset((every, bare))


def _clauses(unit: Unit, span: range) -> int:
    return len({unit.clause[i] for i in span})


def _spanned(fact: Fact, unit: Unit, region: range) -> range:
    """The region widened clause by clause to as many clauses as the fact has, when the fact
    goes on past the last of its words the region holds: "our safety team handles every
    case directly and will never be in touch with you" says the fact's second clause ("and
    will contact you") in words of its own, and its negation stands there."""
    if fact.unit is None or not len(region):
        return region
    wanted = _plain(fact)
    held = {unit.stems[i] for i in region} & wanted
    order = [i for i, s in enumerate(fact.unit.stems) if s in wanted]
    last_held = max((i for i in order if fact.unit.stems[i] in held), default=None)
    if last_held is None or not any(i > last_held for i in order):
        return region
    missing = _clauses(fact.unit, range(last_held, len(fact.unit.words))) - 1
    end = region.stop
    while missing > 0 and end < len(unit.words):
        clause = unit.clause[end]
        while end < len(unit.words) and unit.clause[end] == clause:
            end += 1
        missing -= 1
    return range(region.start, end)


def _reading(fact: Fact, unit: Unit) -> _Reading | None:
    wanted = _plain(fact) - NEGATORS  # a dropped "never" is the reversal, not a missing word
    found = _stretch(unit, wanted, fact.length) if len(wanted) >= MIN_WORDS else None
    if found is None or found[2] < STATED:
        return None
    share = found[2]
    region = _spanned(fact, unit, _region(unit, found[0], found[1]))
    said = " ".join(unit.words[i] for i in region)
    counted = _negations(unit)
    negations = sum(counted[i] and not _absorbed(fact, unit, i) for i in region)
    expected = _expected(fact, unit, region)
    if negations % 2 not in {n % 2 for n in expected}:
        if negations > max(expected):
            return _Reading(share, said, Contradiction(fact.text, "negated", said))
        if not any(counted) and _negated_clause_held(fact, unit, region):  # no negation anywhere
            return _Reading(share, said, Contradiction(fact.text, "reversed", said), weak=True)
    if _reversed(fact, unit, region) or propositions.weakened(fact, unit, region):
        return _Reading(share, said, Contradiction(fact.text, "reversed", said))
    numbers = frozenset(v for i in region if (v := unit.values[i]))
    if fact.values and numbers:
        missing = [v for v in fact.values if not _same(v, numbers)]
        if missing and any(not _same(v, fact.values) for v in numbers):
            return _Reading(share, said, Contradiction(fact.text, "number", said))
    garbled = unreadable(unit, _frame_thats(unit))  # fails closed: it may say the opposite
    return _Reading(share, said, garbled and Contradiction(fact.text, "unreadable", garbled))


def _changed_number(fact: Fact, read: tuple[Unit, ...]) -> Contradiction | None:
    """A number of the fact said nowhere in the reply while another number stands before
    the word that follows it in the fact ("keep 31 percent free" for "10 percent"), in a
    sentence about the fact (holding a share of its words: "hold the button for 15 seconds"
    in an answer about earbuds does not change "hold the power button for 10 seconds")."""
    if fact.unit is None:
        return None
    stated = frozenset(v for u in read for v in u.values if v)
    wanted = _plain(fact)
    about = [u for u in read if wanted and len(wanted & set(u.stems)) / len(wanted) >= ABOUT]
    for i, value in enumerate(fact.unit.values):
        if not value or _same(value, stated):
            continue
        unit_words = list(fact.unit.words)
        follows = _next_content(unit_words, i)
        for unit in about:
            for j, other in enumerate(unit.values):
                foreign = other and not _same(other, fact.values)
                if foreign and follows and _next_content(list(unit.words), j) == follows:
                    said = " ".join(unit.words[max(0, j - 3) : j + 3])
                    return Contradiction(fact.text, "number", said)
    return None


OPPOSED: tuple[tuple[frozenset[str], frozenset[str]], ...] = tuple(
    (frozenset(a.split()), frozenset(b.split()))
    for a, b in (
        ("open available", "closed unavailable shut"),
        ("must required mandatory obliged", "optional voluntary"),
        ("over above more exceeding", "under below less"),
        ("free", "paid charged"),
        ("future upcoming", "past previous earlier already existing"),
        ("include included", "exclude excluded"),
        ("same original", "different another"),
        ("intact sealed unopened", "broken cut removed opened"),
        ("always", "never sometimes rarely"),
        ("allowed permitted possible", "forbidden prohibited impossible"),
        ("accept accepted", "refuse refused reject rejected"),
        ("minimum least", "maximum most"),
        ("first earliest", "last latest"),
        ("with", "without"),
        ("increase", "decrease reduce"),
        ("full whole entire", "partial"),
        ("automatic automatically", "manual manually"),
        ("new", "old used"),
        ("safe", "unsafe dangerous"),
        ("on", "off"),
        ("start begin", "stop"),
        ("hold press", "release"),
        ("unplug disconnect", "plug connect"),
        ("away", "close near"),
        ("white", "red green blue amber orange yellow"),
        ("within", "after"),
        ("lost lose missing", "have kept keep found"),
        ("missing", "arrived shown turned delivered"),
    )
)
"""Opposites, each side with its near synonyms (a reply may say "available" for the
article's "open", and a falsified one "unavailable"); further pairs come by morphology
(``_opposite``). "before" / "after" relate two events and are read where the fact's word
stood (``_reversed``)."""
NEGATING_PREFIXES = ("non", "un", "in", "im", "ir", "il", "dis")
"""Prefixes that turn a word round: refundable / non-refundable, available / unavailable."""


def _across() -> dict[str, frozenset[str]]:
    """Each word of ``OPPOSED`` -> every word on the other side of a pair it is in."""
    found: dict[str, frozenset[str]] = {}
    for pair in OPPOSED:
        for side, other in (pair, pair[::-1]):
            for word in side:
                found[word] = found.get(word, frozenset()) | other
    return found


ACROSS = _across()


@lru_cache(maxsize=65_536)
def _opposite(a: str, b: str) -> bool:
    """Whether ``a`` and ``b`` say opposite things: on the two sides of ``OPPOSED``, or
    one the other with a negating prefix ("non-refundable", "unavailable", "impossible",
    "disallowed"), or a "-less" / "-ful" pair. (Asked of every word pair of a fact and a
    reply: the words recur, so each pair is worked out once.)"""
    if a == b:
        return False
    if b in ACROSS.get(a, ()):
        return True
    for short, long in ((a, b), (b, a)):
        for prefix in NEGATING_PREFIXES:
            if long.startswith(prefix) and long[len(prefix) :].lstrip("-") == short:
                return len(short) >= 4
    return a.endswith("less") and b.endswith("ful") and a[:-4] == b[:-3]


def _slots(words: tuple[str, ...], i: int) -> tuple[frozenset[str], frozenset[str]]:
    """The two content words (lemmas) on either side of word ``i`` ("we never see the
    reason": {see, reason} after "never"; "we're always told the reason" shares "reason")."""
    before = [lemma(w) for w in reversed(words[:i]) if w not in STOPWORDS][:SLOT]
    after = [lemma(w) for w in words[i + 1 :] if w not in STOPWORDS][:SLOT]
    return frozenset(before), frozenset(after)


SLOT = 2
NEGATED_BEFORE = 3
"""Words before an opposite in which a negator turns it back ("no longer have" for "lost")."""


def _said_in_place(
    word: str, around: tuple[frozenset[str], frozenset[str]], read: tuple[Unit, ...]
) -> bool:
    """Whether ``word`` stands somewhere in the reply beside a word it stands beside in the
    fact (the reply says the fact's word where the fact has it, so an opposite elsewhere is
    a parallel fact)."""
    for unit in read:
        for k, w in enumerate(unit.words):
            if w == word:
                left, right = _slots(unit.words, k)
                if (left & around[0]) or (right & around[1]):
                    return True
    return False


def _negated_in_clause(unit: Unit, i: int) -> bool:
    """Whether a negator stands before word ``i`` in its clause."""
    return any(unit.negates[k] for k in range(i) if unit.clause[k] == unit.clause[i])


def _own_word(words: tuple[str, ...], j: int, said: tuple[str, ...]) -> bool:
    """Whether the reply's word ``j`` stands where the fact has that very word, and no more
    often than there: the fact's own "can be paid in 4", not an opposite of its
    "interest-free"; "turn Wi-Fi off and off" says an "off" the fact does not."""
    if words.count(words[j]) > said.count(words[j]):
        return False
    left, right = _slots(words, j)
    for k, word in enumerate(said):
        if word == words[j]:
            before, after = _slots(said, k)
            if left & before or right & after:
                return True
    return False


def _turned_word(
    fact: Fact, read: tuple[Unit, ...], others: tuple[tuple[str, ...], ...] = ()
) -> Contradiction | None:
    """A word of the fact replaced by its opposite in the same place, in a sentence about the
    fact: "interest-paid instalments" for "interest-free instalments", "non-refundable" for
    "refundable", "after the order ships" for "before the order ships"; the place is the
    content word before or after it, so "Y after X" for "X before Y" does not count."""
    if fact.unit is None:
        return None
    wanted = _plain(fact) - NEGATORS  # "never" is what an opposite replaces
    said = fact.unit.words
    everywhere = {w for unit in read for w in unit.words}
    for unit in read:
        if not wanted or len(wanted & set(unit.stems)) / len(wanted) < ABOUT:
            continue
        words = unit.words
        for j, other in enumerate(words[1:], 1):  # "non-refundable": "non" before the word
            if words[j - 1] == "non" and other in said and "non" not in said:
                return Contradiction(fact.text, "reversed", " ".join(words[j - 1 : j + 3]))
        for i, word in enumerate(said):
            around = _slots(said, i)
            denied = _negated_in_clause(fact.unit, i)  # "never switched the device on"
            for j, other in enumerate(words):
                # the fact's own word or a parallel fact: the opposite where another fact
                # has it ("within 3 to 5 days" beside "if ... after 5 days"), or the fact's
                # word said in its place elsewhere ("switch it on" beside "the seal on the
                # box" is not)
                if not _opposite(word, other) or any(
                    _own_word(words, j, place) for place in (said, *others)
                ):
                    continue
                if word in everywhere and _said_in_place(word, around, read):
                    continue
                if any(unit.negates[max(0, j - NEGATED_BEFORE) : j]) and not denied:
                    continue  # a negated opposite says what the fact says
                left, right = _slots(words, j)
                if (left & around[0]) or (right & around[1]):
                    return Contradiction(
                        fact.text, "reversed", " ".join(words[max(0, j - 3) : j + 3])
                    )
    return None


def _denied_frame(fact: Fact, read: tuple[Unit, ...]) -> Contradiction | None:
    """A sentence about the fact (a share of its words) under a frame that denies it: "it is
    not true that ...", "it's wrong to say that ..." (however far the rest paraphrases the
    fact), the fact itself not being a denial."""
    if fact.negations or fact.unit is None:
        return None
    wanted = _plain(fact)
    for unit in read:
        frame = next(
            (
                i
                for i in range(len(unit.words))
                if _denying(unit, i) and _frames(unit, i, len(unit.words))
            ),
            None,
        )
        if frame is None or not wanted:
            continue
        rest = set(unit.stems[frame:])
        if len(wanted & rest) / len(wanted) >= ABOUT and not _denied_negation(unit, frame):
            return Contradiction(fact.text, "negated", " ".join(unit.words[frame : frame + 8]))
    return None


DENIED_SPAN = 12
"""Words after a denying frame's "that" in which a negation is what the frame denies."""


def _denied_negation(unit: Unit, frame: int) -> bool:
    """Whether what the frame at ``frame`` denies is itself a negation, so the sentence says
    the fact ("it is not true that you cannot update your email"): an odd count of negators
    in the clause after the frame's "that"."""
    that = next(k for k in range(frame + 1, len(unit.words)) if unit.words[k] == "that")
    if that + 1 >= len(unit.words):
        return False
    last = unit.clause[that + 1] + 1  # "members of the silver and gold tiers may not ..."
    span = range(that + 1, min(len(unit.words), that + 1 + DENIED_SPAN))
    held = [k for k in span if unit.clause[k] <= last]
    # a negation inside a condition ("that if it still hasn't turned up, ...") is not denied
    opened = next((k for k in held if unit.words[k] in CONDITIONAL), len(unit.words))
    inner = sum(unit.negates[k] for k in held if k < opened)
    return inner % 2 == 1


def _judged(
    fact: Fact, read: tuple[Unit, ...], others: tuple[tuple[str, ...], ...] = ()
) -> Contradiction | None:
    readings = [r for u in read if (r := _reading(fact, u))]
    truly = max((r.share for r in readings if r.contradiction is None), default=0.0)
    for r in readings:
        # it stands unless another sentence says the fact truly and more fully (as fully,
        # for a weak reversal): "standard delivery takes 3 to 5 days" does not contradict
        # "express delivery takes 1 to 2 days" when the next sentence says just that
        if r.contradiction is not None and (r.share > truly or (r.share == truly and not r.weak)):
            return r.contradiction
    return (
        _changed_number(fact, read)
        or _turned_word(fact, read, others)
        or _denied_frame(fact, read)
        or _proposition(fact, read)
        or _widened(fact, read)
        or _bound_turned(fact, read)
    )


RESTRICTING = frozenset(("only", "solely", "exclusively"))
COMPARATIVES = frozenset(("more", "less", "fewer", "later", "earlier", "longer", "over", "under"))


def _bounds(words: tuple[str, ...]) -> dict[str, bool]:
    """Per comparison ("more than"), whether a negator bounds it ("not more than" is "at
    most", read apart from the negations: ``answer.NOT_NEGATING``)."""
    return {
        word: i > 0 and words[i - 1] in NEGATORS
        for i, (word, then) in enumerate(pairwise(words))
        if word in COMPARATIVES and then == "than"
    }


def _bound_turned(fact: Fact, read: tuple[Unit, ...]) -> Contradiction | None:
    """A comparison of the fact bounded the other way in a sentence about it: "if there is
    not more than one tracking number" for "for more than one tracking number"."""
    if fact.unit is None:
        return None
    told = _bounds(fact.unit.words)
    wanted = _plain(fact)
    for unit in read:
        if not told or not wanted or len(wanted & set(unit.stems)) / len(wanted) < ABOUT:
            continue
        for word, bounded in _bounds(unit.words).items():
            if word in told and bounded != told[word]:
                return Contradiction(fact.text, "reversed", f"{'not ' * bounded}{word} than")
    return None


def _widened(fact: Fact, read: tuple[Unit, ...]) -> Contradiction | None:
    """A restriction lifted: the fact limits something with "only" ("changes apply to future
    orders only") and a sentence about it negates the "only" ("not only for future orders")
    or names that thing and its opposite together ("to past orders as well as future
    ones")."""
    if fact.unit is None or not RESTRICTING & fact.words:
        return None
    wanted = _plain(fact) - RESTRICTING
    for unit in read:
        if not wanted or len(wanted & set(unit.stems)) / len(wanted) < ABOUT:
            continue
        for j, word in enumerate(unit.words[1:], 1):  # "not only for future orders"
            if word in RESTRICTING and unit.words[j - 1] in NEGATORS:
                return Contradiction(fact.text, "reversed", " ".join(unit.words[j - 1 : j + 4]))
        said, stems = set(unit.words), set(unit.stems)
        for word in (w for w in fact.unit.words if w in said and lemma(w) in stems):
            for j, turned in enumerate(unit.words):
                # "future orders only, not the ones already made" keeps the restriction
                negated = any(unit.negates[max(0, j - NEGATED_BEFORE) : j])
                if _opposite(word, turned) and not negated:
                    return Contradiction(fact.text, "reversed", f"{turned} ... {word}")
    return None


def _proposition(fact: Fact, read: tuple[Unit, ...]) -> Contradiction | None:
    """The fact's order or a negated predication turned round (novamart.tickets.propositions)."""
    wanted = _plain(fact)
    about = tuple(u for u in read if wanted and len(wanted & set(u.stems)) / len(wanted) >= ABOUT)
    said = (
        propositions.reversed_order(fact, read)
        or propositions.dropped_negation(fact, read)
        or propositions.payer_turned(fact, read)
        or propositions.alternative_affirmed(fact, read)
        or propositions.roles_swapped(about, fact)
        or propositions.recipient_swapped(about, fact)
        or propositions.owner_swapped(about, fact)
        or propositions.instruction_turned(about, fact, _opposite)
        or propositions.aspect_dropped(about)
    )
    return None if said is None else Contradiction(fact.text, "reversed", said)


@lru_cache(maxsize=2048)
def contradictions(reply: str, reference: str) -> tuple[Contradiction | None, ...]:
    """Per fact of ``reference``: how some sentence of ``reply`` contradicts it, or None."""
    read = units(reply)
    found = facts(reference)
    return tuple(
        _judged(fact, read, _others(fact, found))
        or _swapped(fact, found, read)
        or _rebound(fact, read)
        for fact in found
    )


def _others(fact: Fact, found: tuple[Fact, ...]) -> tuple[tuple[str, ...], ...]:
    """The answer's other facts, word by word (a reply's word where one of them has it is
    that fact told: "a different wall socket" is not "a different charger")."""
    return tuple(other.unit.words for other in found if other is not fact and other.unit)


def _groups(unit: Unit) -> list[tuple[frozenset[float], str | None, frozenset[str]]]:
    """Per clause holding numbers: its numbers ("3 to 5" is one group), the last content
    word it ends on (what the numbers buy: "$500 in a year makes you silver") and all its
    content words."""
    out = []
    for clause in sorted(set(unit.clause)):
        at = [k for k, c in enumerate(unit.clause) if c == clause]
        values = frozenset(v for k in at if (v := unit.values[k]))
        words = [unit.stems[k] for k in at if unit.content[k] and not unit.values[k]]
        if values:
            out.append((values, words[-1] if words else None, frozenset(words)))
    return out


def _rebound(fact: Fact, read: tuple[Unit, ...]) -> Contradiction | None:
    """Numbers of the fact that traded places: a reply clause whose numbers are one group's
    ends on the word another group of the fact ends on, a word the first group never says
    ("$500 in a year for gold" for "$500 in a year makes you silver and $1500 makes you
    gold"; "Gold: spend $1500 in a year" ends on "year" and changes nothing)."""
    if fact.unit is None:
        return None
    groups = _groups(fact.unit)
    if len(groups) < 2:
        return None
    for unit in read:
        for values, last, _ in _groups(unit):
            for own, _, mine in groups:
                others = [(o, end) for o, end, _ in groups if o != own]
                foreign = any(_same(v, o) for v in values for o, _ in others)
                if foreign or not all(_same(v, own) for v in values):
                    continue  # "1 to 2 days for $9.99": two groups in one clause
                if last not in mine and any(last == end for _, end in others):
                    return Contradiction(fact.text, "number", f"{last} for {sorted(values)}")
    return None


def _subject(fact: Fact, others: tuple[Fact, ...]) -> str | None:
    """The fact's first content word that no other fact of the answer holds ("standard" in
    "standard delivery takes 3 to 5 business days", beside "express delivery takes ...")."""
    if fact.unit is None:
        return None
    theirs = {s for other in others if other is not fact for s in _plain(other)}
    return next(
        (s for i, s in enumerate(fact.unit.stems) if fact.unit.content[i] and s in _plain(fact)
         and s not in theirs),
        None,
    )  # fmt: skip


def _swapped(fact: Fact, found: tuple[Fact, ...], read: tuple[Unit, ...]) -> Contradiction | None:
    """Another fact's number bound to this fact's subject, one of its own missing there:
    "standard delivery takes 3 to 5 business days and costs $9.99; express ... is free on
    orders over $50" swaps what the two deliveries cost. The subject's stretch runs to the
    next other fact's subject."""
    subject = _subject(fact, found)
    if subject is None or not fact.values:
        return None
    subjects = {s for other in found if other is not fact and (s := _subject(other, found))}
    foreign = {v for other in found if other is not fact for v in other.values} - fact.values
    for unit in read:
        for i, stem in enumerate(unit.stems):
            if stem != subject:
                continue
            end = next((k for k in range(i + 1, len(unit.stems)) if unit.stems[k] in subjects),
                       len(unit.stems))  # fmt: skip
            values = frozenset(v for v in unit.values[i:end] if v)
            alien = [v for v in values if _same(v, frozenset(foreign))]
            if alien and any(not _same(v, values) for v in fact.values):
                return Contradiction(fact.text, "number", " ".join(unit.words[i:end]))
    return None


def truly_conveyed(
    reply: str, reference: str, source: str
) -> tuple[list[float], list[Contradiction]]:
    """Per fact of ``reference``, how far ``reply`` conveys it in sentences (nothing for a
    fact it contradicts: a wrong fact conveys no answer), and the contradictions."""
    wrong = contradictions(reply, reference)
    found = conveyed(reply, reference, source)
    return [0.0 if w else f for f, w in zip(found, wrong, strict=True)], [w for w in wrong if w]


FOREIGN = 0.9
"""How fully a sentence conveys another article's fact to be stating it."""
OWN = 0.5
"""How far it may convey a fact of the article asked about and still be about another."""
SUPPORTED = 0.75
"""How fully the asked article's own text conveys the foreign fact for it to say it too."""


@lru_cache(maxsize=256)
def _plains(reference: str) -> tuple[frozenset[str], ...]:
    return tuple(_plain(f) for f in facts(reference))


def _may_state(reference: str, stems: set[str]) -> bool:
    """Whether the sentence holds enough of some fact's words to state it (a cheap test
    before reading it against every other article)."""
    return any(p and len(p & stems) / len(p) >= STATED for p in _plains(reference))


@lru_cache(maxsize=4096)
def _held(text: str, reference: str, source: str) -> tuple[float, ...]:
    return tuple(conveyed(text, reference, source))


@lru_cache(maxsize=256)
def _vocabulary(text: str) -> frozenset[str]:
    return frozenset(s for u in units(text) for s in u.stems)


@lru_cache(maxsize=2048)
def foreign_facts(reply: str, article_id: str) -> tuple[str, ...]:
    """Facts of *other* articles' answers that a sentence of the reply states: where that
    sentence says none of the asked article's facts and the asked article's text does not
    hold the fact (an answer about the wrong thing: "change your email in Account > Profile"
    to someone asking how to close their account; a list's items read one by one, a foreign
    step among the article's own), or where it states the other fact more fully than any of
    the asked article's and says words of it the asked article never uses ("unplug the device
    at once and stop using it" for a swollen battery: a burning device's step)."""
    kb = default_kb()
    asked = kb.articles[article_id]
    vocabulary = _vocabulary(asked.text)
    out: list[str] = []
    for unit in units(reply, lists=False):
        stems = set(unit.stems)
        own = max(conveyed_in(unit, asked.answer, asked.text), default=0.0)
        if own >= 1.0:
            continue  # no other fact is stated more fully than in full
        for other in kb.articles.values():
            if other.id == article_id or not other.questions or not _may_state(other.answer, stems):
                continue
            found = conveyed_in(unit, other.answer, other.text)
            held = _held(asked.text, other.answer, other.text)
            for fact, got, also in zip(facts(other.answer), found, held, strict=True):
                plain = _plain(fact)
                if got < FOREIGN or not plain or len(plain & stems) / len(plain) < STATED:
                    continue
                alien = (plain & stems) - vocabulary
                if (own < OWN and also < SUPPORTED) or (own < got and alien):
                    out.append(f"{fact.text} ({other.id})")
    return tuple(dict.fromkeys(out))
