"""Whether a reply conveys an answer's facts *in sentences*, not merely contains its words.

A shuffled bag of the right article's words holds every content word of the answer, and a
list of keywords holds the important ones; neither says anything. So a fact of the reference
answer (one of its sentences, or a part of one after a semicolon) counts as conveyed only by
a short stretch of *one* sentence of the reply (a list counts as one sentence with the line
that introduces it) that

- holds the fact's content words (as the reader's lemmas, so "expires"/"expire" agree),
- reads as a sentence: function words where English has them ("the" before a noun, not
  before "and" or "can"; no run of seven content words; not a comma-separated word list),
- keeps some of the source's phrasing: among the fact's words it holds, at least half stand
  next to a word they stand next to in the article ("reset link", "within 30 days", "our
  warehouse"); a paraphrase keeps such pairs, a shuffle almost never does,
- and, when the fact is a negation ("cash on delivery is not available"), is one too.

Nothing here calls a model; the same reply always gets the same figures.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache
from itertools import pairwise
from statistics import mean

from novamart.kb.text import STOPWORDS
from novamart.language.text import Token, lemma, normalise, sentences, tokenize, wordset

CITATION = re.compile(r"\bKB-[A-Z0-9]+(?:-[A-Z0-9]+)*\b", re.IGNORECASE)
DETERMINERS = wordset("a an the your our my their its every each")
PREPOSITIONS = wordset(
    "to of in on for with within from by at into about after before until via per without "
    "than under through during"
)
STRANDLESS = wordset("of by per via within into during through than")
"""Prepositions that never end a sentence or stand before "and" ("a list of and")."""
AUXILIARIES = wordset("is are was were am be been do does did have has had")
MODALS = wordset("can could will would shall should may might must")
SUBJECTS = wordset("i we they he she")
CONJUNCTIONS = wordset("and or but nor")
NEGATORS = wordset("not never no nothing none nobody neither nor")
CONDITIONS = wordset("if unless when whether")
FUNCTION = STOPWORDS | DETERMINERS | PREPOSITIONS | AUXILIARIES | MODALS | CONJUNCTIONS | NEGATORS
COMMON = wordset(
    "the a an and or to of in on for is are be it you your we i this that with at by as"
)
"""Function words too frequent for a pair with them to show the source's phrasing."""
_BULLET = re.compile(r"^\s*(?:[-*+\u2022]|\d{1,2}[.)])\s+")
SHORT = 5
"""Sentences shorter than this are not judged for fluency (greetings, "Thanks!")."""
MIN_FUNCTION_SHARE = 0.05
MAX_CONTENT_RUN = 7
MAX_COMMA_SHARE = 0.4
FLUENT, BROKEN = 0.1, 0.25
"""Share of function words misplaced at which a sentence starts to count less, and none."""
ANCHORED = 0.5
FULL = 0.75
"""Share of a fact's content words from which it counts as fully conveyed."""
SPAN_FACTOR, SPAN_SLACK, MIN_SPAN = 2.0, 4, 10


def _misplaced(words: list[str], question: bool) -> float:
    """Share of the function words standing where English does not put them."""
    words = [
        "x" if w in ("am", "pm") and i and words[i - 1][0].isdigit() else w
        for i, w in enumerate(words)
    ]
    checked = bad = 0
    for i, word in enumerate(words):
        after = words[i + 1] if i + 1 < len(words) else None
        if word in DETERMINERS:
            wrong = after is None or after in (
                DETERMINERS | PREPOSITIONS | AUXILIARIES | MODALS | CONJUNCTIONS | SUBJECTS
            )
        elif word in PREPOSITIONS:
            wrong = after is not None and (
                after in MODALS
                or (after in AUXILIARIES and not (word == "to" and after in ("be", "have", "do")))
                or (after in PREPOSITIONS and word in STRANDLESS)
            )
            wrong = wrong or (word in STRANDLESS and (after is None or after in CONJUNCTIONS))
        elif word in MODALS:
            wrong = (
                after is None
                or after in PREPOSITIONS | CONJUNCTIONS | MODALS
                or (after in DETERMINERS and not question and i > 0)
            )
        elif word in AUXILIARIES:
            wrong = after is not None and after in CONJUNCTIONS | MODALS
        elif word in CONJUNCTIONS:
            wrong = after is None or after in CONJUNCTIONS
        elif word in SUBJECTS:
            wrong = after is not None and after in DETERMINERS | PREPOSITIONS | SUBJECTS
        else:
            continue
        checked += 1
        bad += wrong
    return bad / checked if checked else 0.0


def _content_run(raw: list[str]) -> int:
    """The longest run of content words with no function word or punctuation between."""
    best = run = 0
    for word in raw:
        run = 0 if word in FUNCTION or not word[0].isalnum() else run + 1
        best = max(best, run)
    return best


def fluency(words: list[str], raw: list[str], question: bool = False) -> float:
    """How far ``words`` (``raw``: with punctuation) read as a sentence: 1 for English word
    order, 0 for a keyword list or a shuffle."""
    n = len(words)
    if n < SHORT:
        return 1.0
    if sum(w in FUNCTION for w in words) / n < MIN_FUNCTION_SHARE:
        return 0.0
    if _content_run(raw) >= MAX_CONTENT_RUN or raw.count(",") / n >= MAX_COMMA_SHARE:
        return 0.0
    return min(1.0, max(0.0, (BROKEN - _misplaced(words, question)) / (BROKEN - FLUENT)))


@dataclass(frozen=True)
class Unit:
    """One sentence of a reply (or a list with its introduction): its words, their lemmas,
    which are content words, and how well each word's sentence reads."""

    words: tuple[str, ...]
    stems: tuple[str, ...]
    content: tuple[bool, ...]
    fluency: tuple[float, ...]
    negated: bool
    clause: tuple[int, ...] = ()
    """Per word, which clause of the unit it stands in (punctuation and "but" part them)."""
    negates: tuple[bool, ...] = ()
    """Per word, whether it negates its clause ("not", "never"; not in "no problem")."""
    values: tuple[float | None, ...] = ()
    """Per word, its value when it is a number or an amount of money."""


def _blocks(text: str) -> list[tuple[str, bool]]:
    """The text as blocks: (a list with the line introducing it, True) or (other lines)."""
    blocks: list[tuple[str, bool]] = []
    current: list[str] = []
    for line in CITATION.sub(" ", text).split("\n"):
        if current and (_BULLET.match(line) or not line.strip()):
            current.append(line)  # a blank line may stand between a list and its intro
            continue
        if current:
            blocks.append(("\n".join(current), sum(bool(x.strip()) for x in current) > 1))
            current = []
        if line.rstrip().endswith(":") or _BULLET.match(line):
            current = [line]
        else:
            blocks.append((line, False))
    if current:
        blocks.append(("\n".join(current), sum(bool(x.strip()) for x in current) > 1))
    return blocks


_SEPARATOR = "zzunitzz"
"""A line between blocks, so the whole text is normalised and tokenised in one pass."""


def _block_sentences(text: str) -> list[tuple[bool, list[list[Token]]]]:
    """Per block (is it a list?), its sentences as tokens."""
    blocks = [(b, is_list) for b, is_list in _blocks(text) if b.strip()]
    joined = f"\n{_SEPARATOR}\n".join(b for b, _ in blocks)
    out: list[tuple[bool, list[list[Token]]]] = [(blocks[0][1], [])] if blocks else []
    for sentence in sentences(tokenize(normalise(joined))):
        if sentence[0].text == _SEPARATOR:
            out.append((blocks[len(out)][1], []))
        else:
            out[-1][1].append(sentence)
    return out


_Word = tuple[str, float, int, float | None]
"""A word of a unit: its text, its sentence's fluency, its clause, its value."""
CLAUSE_BREAKS = frozenset(",;:()[]-\u2013\u2014")
CLAUSE_WORDS = frozenset(("and", "or", "but", "so"))
"""Words that start a new clause: a negation before them is not a negation after them."""
NOT_NEGATING = (
    ("no", "problem"), ("no", "worries"), ("no", "worry"), ("not", "to", "worry"),
    ("no", "need", "to", "worry"), ("do", "not", "worry"), ("not", "a", "problem"),
    ("no", "rush"),
    ("do", "not", "forget"), ("never", "forget"), ("not", "only"), ("no", "later", "than"),
    ("no", "more", "than"), ("not", "more", "than"), ("no", "matter"),
)  # fmt: skip
"""Phrases whose negator negates nothing of the sentence ("don't forget to keep the
receipt" tells the customer to keep it; "no later than" is a bound like "within")."""


def _scored(sentence: list[Token], q: float, clause: int) -> tuple[list[_Word], int]:
    """The words of ``sentence`` with their clause (counted on from ``clause``)."""
    out: list[_Word] = []
    for token in sentence:
        if token.kind == "punct":
            clause += token.text in CLAUSE_BREAKS
            continue
        clause += token.text in CLAUSE_WORDS
        value = token.value if token.kind in ("number", "money") else None
        out.append((token.text, q, clause, value))
    return out, clause + 1


@lru_cache(maxsize=2048)
def units(text: str, lists: bool = True) -> tuple[Unit, ...]:
    """The reply's sentences, a list read as one unit (an item may go on with the fact the
    one before began); without ``lists``, each item is a unit of its own (a step from
    another article stands apart from the steps beside it)."""
    out = []
    for block_is_list, found in _block_sentences(text):
        is_list = block_is_list and lists
        joined: list[_Word] = []
        clause = 0
        for sentence in found:
            raw = [t.text for t in sentence]
            words = [t.text for t in sentence if t.kind != "punct"]
            if not words:
                continue
            q = fluency(words, raw, sentence[-1].text == "?")
            scored, clause = _scored(sentence, q, clause if is_list else 0)
            if is_list:
                joined += scored
            else:
                out.append(_unit(scored))
        if joined:
            out.append(_unit(joined))
    return tuple(out)


def negators(words: tuple[str, ...] | list[str]) -> tuple[bool, ...]:
    """Per word, whether it is a negator that negates (not one of ``NOT_NEGATING``)."""
    out = [w in NEGATORS for w in words]
    for i in range(len(words)):
        for phrase in NOT_NEGATING:
            if tuple(words[i : i + len(phrase)]) == phrase:
                out[i : i + len(phrase)] = [False] * len(phrase)
    return tuple(out)


def _unit(scored: list[_Word]) -> Unit:
    words = tuple(w for w, _, _, _ in scored)
    return Unit(
        words=words,
        stems=tuple(lemma(w) for w in words),
        content=tuple(w not in STOPWORDS for w in words),
        fluency=tuple(q for _, q, _, _ in scored),
        negated=bool(NEGATORS.intersection(words)),
        clause=tuple(c for _, _, c, _ in scored),
        negates=negators(words),
        values=tuple(v for _, _, _, v in scored),
    )


@dataclass(frozen=True)
class Fact:
    text: str
    stems: frozenset[str]
    negated: bool
    length: int
    negations: int = 0
    """How many negators negate it (not one inside a condition: "if it still won't sync")."""
    values: frozenset[float] = frozenset()
    """The numbers and amounts it states."""
    words: frozenset[str] = frozenset()
    """Its words and their lemmas, function words included ("before", "until")."""
    unit: Unit | None = None
    """The fact read as a reply's sentence is (its clauses, negators, numbers)."""


@lru_cache(maxsize=1024)
def facts(reference: str) -> tuple[Fact, ...]:
    """The reference answer's facts: its sentences, cut at semicolons."""
    out = []
    for sentence in sentences(tokenize(normalise(reference))):
        parts: list[list[Token]] = [[]]
        for token in sentence:
            if token.text == ";":
                parts.append([])
            else:
                parts[-1].append(token)
        for tokens in parts:
            part = [t for t in tokens if t.kind != "punct"]
            words = [t.text for t in part]
            stems = frozenset(lemma(w) for w in words if w not in STOPWORDS)
            if not stems:
                continue
            negations = sum(
                negates and not CONDITIONS.intersection(words[:i])
                for i, negates in enumerate(negators(words))
            )
            values = frozenset(t.value for t in part if t.kind in ("number", "money") and t.value)
            every = frozenset(words) | {lemma(w) for w in words}
            unit = _unit(_scored(tokens, 1.0, 0)[0])
            out.append(
                Fact(
                    " ".join(words),
                    stems,
                    negations > 0,
                    len(words),
                    negations,
                    values,
                    every,
                    unit,
                )
            )
    return tuple(out)


@lru_cache(maxsize=256)
def _phrasing(source: str) -> tuple[frozenset[tuple[str, ...]], frozenset[tuple[str, ...]]]:
    """The source's word pairs and triples (as stems), for telling its phrasing."""
    words = [
        t.text
        for s in sentences(tokenize(normalise(CITATION.sub(" ", source))))
        for t in s
        if t.kind != "punct"
    ]
    seq = [lemma(w) for w in words]
    pairs = frozenset(pairwise(seq))
    triples = frozenset(zip(seq, seq[1:], seq[2:], strict=False))
    return pairs, triples


def _anchored(unit: Unit, pairs: frozenset, triples: frozenset) -> list[bool]:
    """Per word: whether it stands next to a word it stands next to in the source (a pair
    with a very common function word does not count), or inside a triple of the source."""
    s, n = unit.stems, len(unit.stems)
    out = []
    for i in range(n):
        hit = any(
            0 <= j < n
            and (s[min(i, j)], s[max(i, j)]) in pairs
            and (unit.content[j] or unit.words[j] not in COMMON)
            for j in (i - 1, i + 1)
        )
        hit = hit or any(
            k >= 0 and k + 2 < n and s[k : k + 3] in triples for k in (i - 2, i - 1, i)
        )
        out.append(hit)
    return out


def conveyed(reply: str, reference: str, source: str) -> list[float]:
    """For each fact of ``reference``: how far some sentence of ``reply`` conveys it, in
    [0, 1] (``source`` is the article whose phrasing a paraphrase keeps some of)."""
    return list(_conveyed(reply, reference, source))


@lru_cache(maxsize=2048)
def _conveyed(reply: str, reference: str, source: str) -> tuple[float, ...]:
    pairs, triples = _phrasing(source)
    read = [(u, _anchored(u, pairs, triples)) for u in units(reply)]
    return tuple(_best(fact, read) for fact in facts(reference))


def conveyed_in(unit: Unit, reference: str, source: str) -> tuple[float, ...]:
    """``conveyed`` for one sentence read within its reply: its punctuation kept, so a list
    ("Visa, Mastercard, PayPal") reads as fluently as it was written."""
    pairs, triples = _phrasing(source)
    read = [(unit, _anchored(unit, pairs, triples))]
    return tuple(_best(fact, read) for fact in facts(reference))


def _best(fact: Fact, read: list[tuple[Unit, list[bool]]]) -> float:
    limit = max(MIN_SPAN, int(SPAN_FACTOR * fact.length) + SPAN_SLACK)
    best = 0.0
    for unit, anchored in read:
        if fact.negated and not unit.negated:
            continue
        hits = [i for i, s in enumerate(unit.stems) if unit.content[i] and s in fact.stems]
        for start in hits:
            seen: set[str] = set()
            held: set[str] = set()
            worst = 1.0
            for i in range(start, min(len(unit.words), start + limit)):
                worst = min(worst, unit.fluency[i])
                if unit.content[i] and unit.stems[i] in fact.stems:
                    seen.add(unit.stems[i])
                    if anchored[i]:
                        held.add(unit.stems[i])
                    share = len(seen) / len(fact.stems)
                    phrasing = min(1.0, len(held) / len(seen) / ANCHORED)
                    best = max(best, share * worst * phrasing)
    return min(1.0, best / FULL)


def coverage(reply: str, reference: str, source: str) -> float:
    """Mean share of the reference answer's facts the reply conveys in sentences."""
    found = conveyed(reply, reference, source)
    return mean(found) if found else 1.0
