"""A message as tokens, sentences and clauses.

Markdown, unicode punctuation and contractions are normalised first ("won't" is "will not",
"**done**" is "done", a bullet is a sentence of its own). Tokens keep their position, a lemma
(the KB's light stemmer, with irregular verbs mapped: "found" is "find") and, for amounts of
money and plain numbers, their value. Sentences end at . ! ? and line breaks; a sentence is
cut into clauses at ; dashes, parentheses, quotes, contrastive and coordinating connectives ("but",
", and", ", so", "because") and at jokes that take a clause back ("just kidding"). Clauses
belong to segments: a segment ends only at a contrast or coordination, so a condition ("if
...") holds over its whole segment, not beyond it.
"""

from __future__ import annotations

import re
from collections import defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from functools import lru_cache
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
}  # fmt: skip
_CONTRACTIONS = (
    (r"\bwon't\b", "will not"), (r"\bcan't\b", "can not"), (r"\bcannot\b", "can not"),
    (r"\bshan't\b", "shall not"), (r"\bain't\b", "is not"), (r"n't\b", " not"),
    (r"'ll\b", " will"), (r"'ve\b", " have"), (r"'re\b", " are"), (r"\bi'm\b", "i am"),
    (r"\b(it|that|there|what|here|who|where|how|he|she)'s\b", r"\1 is"), (r"'d\b", " would"),
    (r"\blet's\b", "let us"), (r"'s\b", ""), (r"\bunable\b", "not able"),
    (r"\bineligible\b", "not eligible"), (r"\bimpossible\b", "not possible"),
)  # fmt: skip
_CONTRACTION_RES = [(re.compile(p), r) for p, r in _CONTRACTIONS]
_UNICODE = str.maketrans(
    {"\u2019": "'", "\u2018": "'", "\u201c": '"', "\u201d": '"', "\u2014": " - ",
     "\u2013": " - ", "\u2026": "...", "\u00a0": " ", "\u2022": "\n"}
)  # fmt: skip
_MARKDOWN = re.compile(r"\*\*|__|`+|^\s*#{1,6}\s*|^\s*(?:[-*+]|\d{1,2}[.)])\s+", re.M)
_TOKEN = re.compile(
    r"(?P<money>(?:\$|usd ?|eur ?|€|£) ?\d[\d,]*(?:\.\d+)?|\d[\d,]*\.\d\d(?!\d)"
    r"|\d[\d,]*(?:\.\d+)? ?(?:dollars|usd)\b)"
    r"|(?P<id>\b[a-z]{1,5}-\d{2,}\b)"
    r"|(?P<number>\d+(?:\.\d+)?)"
    r"|(?P<word>[a-z]+(?:'[a-z]+)?)"
    r"|(?P<punct>\.\.\.|[.!?;:,()\"\n]|\s-\s)"
)
_ABBREVIATIONS = frozenset({"e", "g", "i", "etc", "mr", "mrs", "ms", "dr", "vs", "approx"})
SENTENCE_END = frozenset({".", "!", "?", "\n", "..."})
CLAUSE_PUNCT = frozenset({";", "(", ")", " - "})
CONTRAST = frozenset({"but", "however", "although", "though", "whereas", "yet", "unfortunately"})
COMMA_LINKS = frozenset({"and", "so", "or", "then", "plus", "which", "meaning", "therefore"})
SUBJECTS = frozenset({"i", "we", "you", "it", "they", "he", "she"})
QUESTION_TAILS = wordset("would could can is are does do will shall should may right ok okay")
REASON_LINKS = frozenset({"because", "since", "as", "given", "due"})
KIDDING = (("just", "kidding"), ("only", "kidding"), ("just", "joking"), ("only", "joking"),
           ("jk",), ("kidding",), ("lol", "no"), ("not", "really"))  # fmt: skip


@dataclass(frozen=True, slots=True)
class Token:
    text: str
    lemma: str
    kind: TokenKind
    value: float | None = None


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
    """The connective the clause starts with ("because", "and", ...), if any."""
    words: list[str] = field(default_factory=list)
    lemmas: list[str] = field(default_factory=list)
    vocabulary: frozenset[str] = frozenset()
    """Its words and lemmas, to skip the passes that cannot find anything in it."""

    text: str = ""
    """The clause as normalised words (for notes and claims)."""


def normalise(text: str) -> str:
    text = _MARKDOWN.sub("", text.translate(_UNICODE)).lower()
    for pattern, replacement in _CONTRACTION_RES:
        text = pattern.sub(replacement, text)
    return text


CLOSED_CLASS = wordset(
    "never nothing neither nor nobody none other either whether under over after ever however "
    "number reply only early sorry worry hurry carry lovely really apply supply ready may "
    "yes this was has is does goes always perhaps unless"
)


SUFFIXES = (("ies", "y"), ("ied", "y"), ("ing", ""), ("ed", ""), ("es", ""), ("s", ""))


@lru_cache(maxsize=65536)
def lemma(word: str) -> str:
    """A light lemma: irregular verbs mapped, -s/-es/-ed/-ing/-ies/-ied taken off, a doubled
    consonant undone and a final e dropped ("issue", "issued", "issuing" are all "issu"), so
    a phrase written once matches its inflections. Function words stay as they are."""
    if word in IRREGULAR:
        return IRREGULAR[word]
    if word in CLOSED_CLASS or len(word) <= 3 or not word.isalpha():
        return word
    for suffix, keep in (
        ("ies", "y"),
        ("ied", "y"),
        ("ing", ""),
        ("ed", ""),
        ("es", ""),
        ("s", ""),
    ):
        root = word[: -len(suffix)]
        if word.endswith(suffix) and len(root) >= 3 and any(v in root for v in "aeiouy"):
            if suffix == "s" and word.endswith(("ss", "us", "is")):
                break
            if suffix == "es" and not word.endswith(("xes", "ches", "shes", "sses", "zes")):
                continue  # "issues" is "issue" + s: let the plain s rule take it
            word = root + keep
            if (
                suffix in ("ing", "ed")
                and len(word) > 3
                and word[-1] == word[-2]
                and word[-1] not in "lsz"
            ):
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
        self._firsts = frozenset(self._by_first)

    @classmethod
    def of_lemmas(cls, *texts: str) -> Phrases:
        return cls(lemma_phrases(*texts))

    @property
    def firsts(self) -> frozenset[str]:
        """The first words of the phrases (a clause without one holds none of them)."""
        return self._firsts

    def at(self, sequence: Sequence[str], i: int) -> tuple[str, ...] | None:
        """The longest phrase starting at ``i``, or None."""
        for phrase in self._by_first.get(sequence[i], ()):
            if tuple(sequence[i : i + len(phrase)]) == phrase:
                return phrase
        return None

    def positions(self, sequence: Sequence[str]) -> list[int]:
        return [i for i in range(len(sequence)) if self.at(sequence, i)]

    def occurs_in(self, sequence: Sequence[str]) -> bool:
        return any(self.at(sequence, i) for i in range(len(sequence)))


def _money(raw: str) -> float:
    digits = re.sub(r"[^\d.]", "", raw.replace(",", ""))
    return float(digits) if digits and digits != "." else 0.0


def tokenize(normalised: str) -> list[Token]:
    tokens = []
    for match in _TOKEN.finditer(normalised):
        kind = match.lastgroup
        raw = match.group(0)
        if kind == "money":
            tokens.append(Token(raw, "$", "money", _money(raw)))
        elif kind == "number":
            tokens.append(Token(raw, raw, "number", float(raw)))
        elif kind == "word":
            tokens.append(Token(raw, lemma(raw), "word"))
        elif kind == "id":
            tokens.append(Token(raw, raw, "id"))
        else:
            tokens.append(Token(raw, raw.strip() or "-", "punct"))
    return tokens


def _kidding_at(words: list[str], tokens: list[Token], i: int) -> int:
    """The length of a "just kidding" marker starting at ``i`` (0 when none)."""
    marker = _KIDDING.at(words, i)
    if marker is None:
        return 0
    after = tokens[i + len(marker)] if i + len(marker) < len(tokens) else None
    if marker == ("not", "really") and after is not None and after.kind == "word":
        return 0  # "not really possible" is a negation, not a retraction
    return len(marker)


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


def clauses(text: str) -> list[Clause]:
    """The clauses of ``text``, in order."""
    tokens = tokenize(normalise(text))
    result: list[Clause] = []
    segment = 0
    for number, sentence in enumerate(sentences(tokens)):
        question = sentence[-1].text == "?"
        segment += 1
        current = Clause([], number, segment, question)
        result.append(current)
        quoted = False
        words = [t.text for t in sentence]
        i = 0
        while i < len(sentence):
            token = sentence[i]
            if token.text == '"':
                quoted = not quoted
                current = Clause([], number, segment, question, quoted=quoted)
                result.append(current)
                i += 1
                continue
            if kidding := _kidding_at(words, sentence, i):
                marker = Clause(sentence[i : i + kidding], number, segment, question, True)
                segment += 1
                result.append(marker)
                current = Clause([], number, segment, question)
                result.append(current)
                i += kidding
                continue
            cut, new_segment, skip = _boundary(sentence, i, current.tokens)
            if cut:
                segment += new_segment
                link = "" if token.kind == "punct" else token.text
                if skip and i + 1 < len(sentence) and token.text == ",":
                    link = sentence[i + 1].text
                current = Clause([], number, segment, question, link=link, quoted=quoted)
                result.append(current)
                i += skip
                continue
            current.tokens.append(token)
            i += 1
    kept = [c for c in result if any(t.kind != "punct" for t in c.tokens)]
    for clause in kept:
        clause.words = [t.text for t in clause.tokens]
        clause.lemmas = [t.lemma for t in clause.tokens]
        clause.vocabulary = frozenset(clause.words) | frozenset(clause.lemmas)
        clause.text = " ".join(clause.words)
    return kept


def _boundary(sentence: list[Token], i: int, so_far: list[Token]) -> tuple[bool, int, int]:
    """Whether a clause starts at token ``i``: (cut, starts a new segment, tokens to skip)."""
    token = sentence[i]
    after = sentence[i + 1] if i + 1 < len(sentence) else None
    if token.kind == "punct":
        if token.text in CLAUSE_PUNCT:
            return True, 1, 1
        if token.text == "," and after is not None and after.text in COMMA_LINKS:
            return True, 1, 2
        if token.text == "," and after is not None and after.text in CONTRAST:
            return True, 1, 2
        if token.text == "," and after is not None and after.text in QUESTION_TAILS:
            return True, 1, 1  # "we can offer a refund, would that work?"
        if token.text == ":" and sum(t.kind != "punct" for t in sentence[:i]) > 2:
            return True, 1, 1  # "a refund is not possible: ..." (not a label: "Refund: $5")
        return False, 0, 0
    if token.text in CONTRAST and i > 0:
        return True, 1, 1
    if token.text == "and" and after is not None and after.text in SUBJECTS and i > 0:
        return True, 1, 1
    if token.text == "and" and after is not None and after.text in DETERMINERS_BEFORE_SUBJECT:
        rest = next((k for k in range(i + 1, len(sentence)) if sentence[k].kind == "punct"), None)
        if _finite(so_far) and _finite(sentence[i + 1 : rest]):
            return True, 1, 1  # "... need it unopened and the check did not confirm a defect"
    if token.text in ("because", "since") and i > 0 and not _since_time(sentence, i):
        return True, 0, 1
    if token.text == "as" and after is not None and after.text in ("the", "your", "it", "this"):
        return (i > 0), 0, 1
    return False, 0, 0


DETERMINERS_BEFORE_SUBJECT = frozenset({"the", "our", "your", "this", "its", "their", "my"})
FINITE = wordset(
    "is are was were has have had did does do will would can could shall should may might must not"
)


def _finite(tokens: list[Token]) -> bool:
    """Whether the tokens hold a finite verb (so they can stand as a clause)."""
    return any(t.text in FINITE or (t.text.endswith("ed") and len(t.text) > 4) for t in tokens)


def _since_time(sentence: list[Token], i: int) -> bool:
    """'since purchase', '10 days since you bought it': a time expression, not a reason."""
    before = sentence[i - 1] if i else None
    return before is not None and before.lemma in ("day", "week", "month", "been")


_KIDDING = Phrases(KIDDING)
