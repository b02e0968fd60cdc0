"""A message as tokens, sentences and clauses.

Markdown, unicode punctuation and contractions are normalised first ("won't" is "will not",
"**done**" is "done", a bullet or a numbered step is a sentence of its own, a "> quoted" line
is in quotation marks). Tokens keep a lemma (irregular verbs mapped, inflections taken off:
"found" is "find", "issued" is "issu") and, for amounts of money and numbers (also written
as words), their value. Sentences end at . ! ? and line breaks; a sentence is cut into
clauses at ; dashes, parentheses, quotation marks, a colon after a clause, contrastive and
coordinating connectives ("but", ", and", ", so", "because", ", which") and at jokes that take
a clause back ("just kidding"). Clauses belong to segments: a segment ends only at a contrast
or coordination, so a condition ("if ...") holds over its whole segment, not beyond it.
"""

from __future__ import annotations

import re
from collections import defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from operator import itemgetter
from typing import Literal

TokenKind = Literal["word", "number", "money", "id", "punct"]


def wordset(text: str) -> frozenset[str]:
    """A set of words written as one string (for the word lists of the reader)."""
    return frozenset(text.split())


IRREGULAR = {
    "found": "find", "bought": "buy", "paid": "pay", "sent": "send", "made": "make",
    "got": "get", "gotten": "get", "gave": "give", "given": "give", "went": "go", "gone": "go",
    "was": "be", "were": "be", "is": "be", "are": "be", "am": "be", "been": "be", "being": "be",
    "has": "have", "had": "have", "having": "have", "did": "do", "does": "do", "done": "do",
    "took": "take", "taken": "take", "told": "tell", "said": "say", "saw": "see", "seen": "see",
    "broke": "break", "broken": "break", "wrote": "write", "written": "write", "kept": "keep",
    "brought": "bring", "left": "leave", "ran": "run", "chose": "choose", "chosen": "choose",
    "won": "win", "lost": "lose", "felt": "feel", "thought": "think", "sold": "sell",
    "put": "put", "set": "set", "shut": "shut", "hit": "hit", "cut": "cut",
}  # fmt: skip
CLOSED_CLASS = wordset(
    "never nothing neither nor nobody none other either whether under over after ever however "
    "number reply only early sorry worry hurry carry lovely really apply supply ready may "
    "yes this was has is does goes always perhaps unless news series"
)
"""Words no inflection rule may touch ("never" is not "nev", "reply" not "rep")."""
SUFFIXES = (("ies", "y"), ("ied", "y"), ("ing", ""), ("ed", ""), ("es", ""), ("s", ""))
NUMBER_WORDS = {
    "one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7, "eight": 8,
    "nine": 9, "ten": 10, "eleven": 11, "twelve": 12, "fourteen": 14, "fifteen": 15,
    "twenty": 20, "thirty": 30,
}  # fmt: skip
_CONTRACTED = re.compile(
    r"\b[a-z]+'[a-z]+\b|\b(?:cannot|unable|ineligible|impossible)\b|\bper cent\b"
)
_WHOLE = {
    "won't": "will not", "can't": "can not", "shan't": "shall not", "ain't": "is not",
    "let's": "let us", "i'm": "i am", "cannot": "can not", "unable": "not able",
    "ineligible": "not eligible", "impossible": "not possible", "per cent": "percent",
}  # fmt: skip
_TAILS = (("n't", " not"), ("'ll", " will"), ("'ve", " have"), ("'re", " are"), ("'d", " would"),
          ("'m", " am"))  # fmt: skip
_IS = wordset("it that there what here who where how he she")


def _expand(match: re.Match[str]) -> str:
    """ "won't" is "will not", "it's" is "it is", "Maya's" is "maya": one pass, one word."""
    word = match.group(0)
    if word in _WHOLE:
        return _WHOLE[word]
    for tail, replacement in _TAILS:
        if word.endswith(tail):
            return word[: -len(tail)] + replacement
    if word.endswith("'s"):
        base = word[:-2]
        return f"{base} is" if base in _IS else base
    return word


_UNICODE = str.maketrans(
    {"\u2019": "'", "\u2018": "'", "\u201c": '"', "\u201d": '"', "\u2014": " - ",
     "\u2013": " - ", "\u2026": "...", "\u00a0": " ", "\u2022": "\n"}
)  # fmt: skip
_BLOCKQUOTE = re.compile(r"^\s*>\s?(.*)$", re.M)
_MARKDOWN = re.compile(r"\*\*|__|`+|^\s*#{1,6}\s*|^\s*(?:[-*+]|\d{1,2}[.)])\s+", re.M)
_TOKEN = re.compile(
    r"(?P<money>(?:\$|usd ?|eur ?|€|£) ?\d[\d,]*(?:\.\d+)?|\d[\d,]*\.\d\d(?!\d)"
    r"|\d[\d,]*(?:\.\d+)? ?(?:dollars|usd)\b)"
    r"|(?P<id>\b[a-z]{1,5}-\d{2,}\b)"
    r"|(?P<number>\d+(?:\.\d+)?)"
    r"|(?P<word>[a-z]+(?:'[a-z]+)?)"
    r"|(?P<punct>\.\.\.|[.!?;:,()\"\n%]|\s-\s)"
)
_ABBREVIATIONS = wordset("e g i etc mr mrs ms dr vs approx no")
SENTENCE_END = wordset(". ! ? ...") | {"\n"}
CLAUSE_PUNCT = wordset("; ( ) -")
CONTRAST = wordset("but however although though whereas yet unfortunately")
COMMA_LINKS = wordset("and so or then plus which meaning therefore")
SUBJECTS = wordset("i we you it they he she")
QUESTION_TAILS = wordset("would could can is are does do will shall should may right ok okay")
SUBORDINATORS = wordset("because since as once when if although while after before unless")
DETERMINERS_BEFORE_SUBJECT = wordset("the our your this its their my")
FINITE = wordset(
    "is are was were has have had did does do will would can could shall should may might must not"
)
KIDDING = (
    ("just", "kidding"), ("only", "kidding"), ("just", "joking"), ("only", "joking"), ("jk",),
    ("kidding",), ("lol", "no"), ("not", "really"), ("i", "am", "messing", "with", "you"),
    ("messing", "with", "you"), ("pulling", "your", "leg"), ("scratch", "that"),
)  # fmt: skip


class Token(tuple):
    """One token: its text, lemma, kind and (for numbers and money) value. A bare tuple
    underneath, so a 4,000-character message tokenizes in well under a millisecond."""

    __slots__ = ()
    text: str = property(itemgetter(0))  # type: ignore[assignment]
    lemma: str = property(itemgetter(1))  # type: ignore[assignment]
    kind: TokenKind = property(itemgetter(2))  # type: ignore[assignment]
    value: float | None = property(itemgetter(3))  # type: ignore[assignment]

    def __new__(cls, text: str, lemma: str, kind: TokenKind, value: float | None = None) -> Token:
        return tuple.__new__(cls, (text, lemma, kind, value))


@dataclass(slots=True)
class Clause:
    """A run of tokens with one predicate (roughly): the unit polarity and modality are read on."""

    tokens: list[Token]
    sentence: int
    segment: int
    question: bool = False
    retracts: bool = False
    """A joke marker ("just kidding") that takes the previous clause back."""
    quoted: bool = False
    """Inside quotation marks: a label or someone's words, not the agent's claim."""
    link: str = ""
    """The connective or punctuation the clause starts after ("because", ":", ...)."""
    words: list[str] = field(default_factory=list)
    lemmas: list[str] = field(default_factory=list)
    vocabulary: frozenset[str] = frozenset()
    """Its words and lemmas, to skip the passes that cannot find anything in it."""
    kinds: frozenset[str] = frozenset()
    """The kinds of its tokens (is there a number, an amount of money?)."""
    text: str = ""
    """The clause as normalised words (for notes and claims)."""
    introduced: bool = False
    """Its sentence follows one ending in a colon: an item of the list it introduces."""
    opens: bool = False
    """The first clause of its sentence."""


def normalise(text: str) -> str:
    text = _BLOCKQUOTE.sub(r'"\1"', text.translate(_UNICODE))
    text = _MARKDOWN.sub("", text).lower()
    return _CONTRACTED.sub(_expand, text)


@lru_cache(maxsize=65536)
def lemma(word: str) -> str:
    """A light lemma: irregular verbs mapped, -s/-es/-ed/-ing/-ies/-ied taken off, a doubled
    consonant undone and a final e dropped ("issue", "issued", "issuing" are all "issu"), so
    a phrase written once matches its inflections. Function words stay as they are."""
    if word in IRREGULAR:
        return IRREGULAR[word]
    if word in CLOSED_CLASS or len(word) <= 3 or not word.isalpha():
        return word
    for suffix, keep in SUFFIXES:
        root = word[: -len(suffix)]
        if word.endswith(suffix) and len(root) >= 3 and any(v in root for v in "aeiouy"):
            if suffix == "s" and word.endswith(("ss", "us", "is")):
                break
            if suffix == "es" and not word.endswith(("xes", "ches", "shes", "sses", "zes")):
                continue  # "issues" is "issue" + s: the plain s rule takes it
            word = root + keep
            doubled = len(word) > 3 and word[-1] == word[-2] and word[-1] not in "lsz"
            if suffix in ("ing", "ed") and doubled:
                word = word[:-1]  # "shipped", "shipping" -> "ship"
            break
    return word[:-1] if len(word) > 4 and word.endswith("e") else word


def lemmaset(text: str) -> frozenset[str]:
    """The lemmas of the words of ``text`` (word lists compared with lemmas)."""
    return frozenset(lemma(w) for w in text.split())


def lemma_phrases(*texts: str) -> tuple[tuple[str, ...], ...]:
    """Each phrase as its tuple of lemmas."""
    return tuple(tuple(lemma(w) for w in t.split()) for t in texts)


class Phrases:
    """A fixed set of phrases (tuples of words or of lemmas), looked up by first word, so
    finding them in a clause costs one dictionary look-up per token."""

    def __init__(self, phrases: Iterable[tuple[str, ...]]) -> None:
        by_first: dict[str, list[tuple[str, ...]]] = defaultdict(list)
        for phrase in phrases:
            if phrase:
                by_first[phrase[0]].append(phrase)
        self._by_first = {k: sorted(v, key=len, reverse=True) for k, v in by_first.items()}
        self.firsts = frozenset(self._by_first)
        """The first words of the phrases (a clause without one holds none of them)."""

    @classmethod
    def of_lemmas(cls, *texts: str) -> Phrases:
        return cls(lemma_phrases(*texts))

    @classmethod
    def of_words(cls, *texts: str) -> Phrases:
        return cls(tuple(t.split()) for t in texts)

    def at(self, sequence: Sequence[str], i: int) -> tuple[str, ...] | None:
        """The longest phrase starting at ``i``, or None."""
        for phrase in self._by_first.get(sequence[i], ()):
            if tuple(sequence[i : i + len(phrase)]) == phrase:
                return phrase
        return None

    def positions(self, sequence: Sequence[str]) -> list[int]:
        if self.firsts.isdisjoint(sequence):
            return []
        return [i for i in range(len(sequence)) if self.at(sequence, i)]

    def occurs_in(self, sequence: Sequence[str]) -> bool:
        if self.firsts.isdisjoint(sequence):
            return False
        return any(self.at(sequence, i) for i in range(len(sequence)))


_KIDDING = Phrases(KIDDING)


def _money(raw: str) -> float:
    digits = re.sub(r"[^\d.]", "", raw.replace(",", ""))
    return float(digits) if digits and digits != "." else 0.0


def tokenize(normalised: str) -> list[Token]:
    tokens = []
    make = tuple.__new__
    for match in _TOKEN.finditer(normalised):
        kind = match.lastgroup
        raw = match.group(0)
        if kind == "word":
            if raw in NUMBER_WORDS:
                tokens.append(make(Token, (raw, raw, "number", float(NUMBER_WORDS[raw]))))
            else:
                tokens.append(make(Token, (raw, lemma(raw), "word", None)))
        elif kind == "money":
            tokens.append(make(Token, (raw, "$", "money", _money(raw))))
        elif kind == "number":
            tokens.append(make(Token, (raw, raw, "number", float(raw))))
        elif kind == "id":
            tokens.append(make(Token, (raw, raw, "id", None)))
        else:
            tokens.append(make(Token, (raw, raw.strip() or "-", "punct", None)))
    return tokens


def sentences(tokens: list[Token]) -> list[list[Token]]:
    out: list[list[Token]] = [[]]
    for i, token in enumerate(tokens):
        if token.kind == "punct" and token.text in SENTENCE_END:
            previous = tokens[i - 1].text if i else ""
            if token.text == "." and previous in _ABBREVIATIONS:
                continue
            out[-1].append(token)
            out.append([])
        else:
            out[-1].append(token)
    return [s for s in out if any(t.kind != "punct" for t in s)]


def _kidding_at(words: list[str], tokens: list[Token], i: int) -> int:
    """The length of a "just kidding" marker starting at ``i`` (0 when none)."""
    marker = _KIDDING.at(words, i)
    if marker is None:
        return 0
    after = tokens[i + len(marker)] if i + len(marker) < len(tokens) else None
    if marker == ("not", "really") and after is not None and after.kind == "word":
        return 0  # "not really possible" is a negation, not a retraction
    return len(marker)


def clauses(text: str) -> list[Clause]:
    """The clauses of ``text``, in order."""
    result: list[Clause] = []
    segment = 0
    introduced = False
    for number, sentence in enumerate(sentences(tokenize(normalise(text)))):
        question = sentence[-1].text == "?"
        segment += 1
        quoted = False
        current = Clause([], number, segment, question, introduced=introduced, opens=True)
        result.append(current)
        words = [t.text for t in sentence]
        i = 0
        for k in [k for k, w in enumerate(words) if w in _STOPS]:
            if k < i:
                continue  # consumed by the stop before
            current.tokens.extend(sentence[i:k])
            i = k
            token, word = sentence[k], words[k]
            if word == '"':
                quoted = not quoted
                current = Clause([], number, segment, question, quoted=quoted)
                result.append(current)
                i = k + 1
            elif word == "," and words[k + 1 : k + 3] in (["however", ","], ["though", ","]):
                i = k + 3  # "I have, however, issued ...": an aside, not a new clause
            elif word in _KIDDING.firsts and (kidding := _kidding_at(words, sentence, k)):
                segment += 1
                result.append(Clause(sentence[k : k + kidding], number, segment, question, True))
                current = Clause([], number, segment, question)
                result.append(current)
                i = k + kidding
            elif word in BOUNDARY_WORDS and (cut := _boundary(sentence, k, current.tokens))[0]:
                segment += cut[1]
                link = word if word == ":" or token.kind != "punct" else ""
                if cut[2] == 2 and word == ",":
                    link = words[k + 1]
                current = Clause([], number, segment, question, link=link, quoted=quoted)
                current.introduced = introduced
                result.append(current)
                i = k + cut[2]
        current.tokens.extend(sentence[i:])
        last = [t for t in sentence if t.text != "\n"]
        introduced = (bool(last) and last[-1].text == ":") or (introduced and len(sentence) < 16)
    kept = [c for c in result if any(t.kind != "punct" for t in c.tokens)]
    for clause in kept:
        clause.words = [t[0] for t in clause.tokens]
        clause.lemmas = [t[1] for t in clause.tokens]
        clause.kinds = frozenset(t[2] for t in clause.tokens)
        clause.vocabulary = frozenset(clause.words) | frozenset(clause.lemmas)
        clause.text = " ".join(clause.words)
    return kept


BOUNDARY_WORDS = CLAUSE_PUNCT | CONTRAST | {",", ":", "and", "because", "since", "as"}
"""The only tokens at which a clause can start (every other token just continues it)."""
_STOPS = BOUNDARY_WORDS | _KIDDING.firsts | {'"'}


def _finite(tokens: Sequence[Token]) -> bool:
    """Whether the tokens hold a finite verb (so they can stand as a clause)."""
    return any(t.text in FINITE or (t.text.endswith("ed") and len(t.text) > 4) for t in tokens)


def _boundary(sentence: list[Token], i: int, so_far: list[Token]) -> tuple[bool, int, int]:
    """Whether a clause starts at token ``i``: (cut, starts a new segment, tokens to skip)."""
    token = sentence[i]
    after = sentence[i + 1] if i + 1 < len(sentence) else None
    following = after.text if after is not None else ""
    if token.kind == "punct":
        if token.text in CLAUSE_PUNCT:
            return True, 1, 1
        if token.text == "," and following in COMMA_LINKS | CONTRAST:
            return True, 1, 2
        if token.text == "," and following in QUESTION_TAILS:
            return True, 1, 1  # "we can offer a refund, would that work?"
        if token.text == "," and so_far and so_far[0].text in SUBORDINATORS:
            return True, 0, 1  # "because the defect was confirmed, you can choose ..."
        then = sentence[i + 2].text if i + 2 < len(sentence) else ""
        if token.text == "," and following in SUBJECTS and then in FINITE and _finite(so_far):
            return True, 0, 1  # "your credit is active, you can use it for anything"
        if token.text == ":" and sum(t.kind != "punct" for t in sentence[:i]) > 2:
            return True, 1, 1  # "a refund is not possible: ..." (not a label: "Refund: $5")
        return False, 0, 0
    if token.text in CONTRAST and i > 0:
        return True, 1, 1
    if token.text == "and" and following in SUBJECTS and i > 0:
        return True, 1, 1
    if token.text == "and" and following in DETERMINERS_BEFORE_SUBJECT:
        rest = next((k for k in range(i + 1, len(sentence)) if sentence[k].kind == "punct"), None)
        if _finite(so_far) and _finite(sentence[i + 1 : rest]):
            return True, 1, 1  # "... need it unopened and the check did not confirm a defect"
    if token.text in ("because", "since") and i > 0 and not _since_time(sentence, i):
        return True, 0, 1
    if token.text == "as" and following in ("the", "your", "this"):
        return (i > 0 and _finite(sentence[i + 1 : i + 6])), 0, 1  # "as the item was opened"
    return False, 0, 0


def _since_time(sentence: list[Token], i: int) -> bool:
    """'since purchase', '10 days since you bought it': a time expression, not a reason."""
    before = sentence[i - 1] if i else None
    return before is not None and before.lemma in ("day", "week", "month", "be")
