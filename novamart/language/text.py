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
from collections.abc import Callable, Hashable, Iterable, Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from operator import itemgetter
from typing import Literal, NamedTuple, TypeVar

from novamart.language.unveil import Respell, fold_scripts, unveil

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
    "put": "put", "set": "set", "shut": "shut", "hit": "hit", "cut": "cut", "threw": "throw",
    "thrown": "throw",
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
_APOSTROPHE_WORD = r"\b[a-z]+'[a-z]+\b"
_WHOLE_WORDS = ("cannot", "unable", "ineligible", "impossible", "per cent")
_OTHER_WORDS = rf"\b(?:{'|'.join(_WHOLE_WORDS)})\b"
_CONTRACTED = re.compile(f"{_APOSTROPHE_WORD}|{_OTHER_WORDS}")
_ONLY_APOSTROPHES = re.compile(_APOSTROPHE_WORD)
_ONLY_OTHERS = re.compile(_OTHER_WORDS)
"""The same pattern without the branches a message cannot match (scanning 4,000 characters
with every branch costs a tenth of a millisecond; a substring test costs microseconds)."""
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
_BULLET_IN_WORD = re.compile(r"(?<=[^\W\d_])\u2022(?=[^\W\d_])")
_DASHED_PRICE = re.compile(r"(\d)\.-")
_MARKDOWN = re.compile(r"\*\*|__|`+|^\s*#{1,6}\s*|^\s*(?:[-*+]|\d{1,2}[.)])\s+", re.M)
_ID = r"\b[a-z]{1,5}-\d{2,}\b"
_ID_POSSESSIVE = r"\b[a-z]{1,5}+-\d{2,}+\b"
"""The same ids: letters are never a "-" and digits never a word's end, so nothing is retried."""
_TOKEN = re.compile(
    rf"(?P<word>(?!(?:usd ?|eur ?) ?\d|{_ID})[a-z]+(?:'[a-z]+)?)"
    r"|(?P<money>(?:\$|usd ?|eur ?|€|£) ?\d[\d,]*(?:\.\d+)?|\d[\d,]*\.\d\d(?!\d)"
    r"|\d[\d,]*(?:\.\d+)? ?(?:dollars|usd)\b)"
    rf"|(?P<id>{_ID})"
    r"|(?P<number>\d+(?:\.\d+)?)"
    r"|(?P<punct>\.\.\.|[.!?;:,()\"\n%]|\s-\s)"
)
"""Words come first, since most tokens are words: the lookahead leaves to the other kinds
exactly the letters they claim ("usd 20" is money, "ord-1042" an id)."""
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


class Token(NamedTuple):
    """One token: its text, lemma, kind and (for numbers and money) value. A named tuple,
    so a 4,000-character message tokenizes in well under a millisecond and its fields are
    read by C descriptors in the reader's hot loops."""

    text: str
    lemma: str
    kind: TokenKind
    value: float | None = None


_T = TypeVar("_T")


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
    disguised: tuple[str, ...] = ()
    """The disguised words read in it as the words they spell ("r3fund -> refund")."""
    framed: int = 0
    """The negations of a frame it was read out of ("it's not as if ...": 1; see
    novamart.language.frames): they count toward the polarity of everything it says."""
    hedged: bool = False
    """Its frame denies knowing or saying it ("I can't say ..."): what it claims is hedged."""
    read: dict[object, object] = field(default_factory=dict, init=False, repr=False, compare=False)
    """What the reader's passes found in it, by pass (a clause is asked again by the passes
    around it); empty in a copy (``dataclasses.replace``), whose words may differ."""

    def kept(self, key: Hashable, find: Callable[[], _T]) -> _T:
        """``find()``, found once per clause under ``key`` (a pass and what it reads with)."""
        if key in self.read:
            return self.read[key]  # type: ignore[return-value]
        found = self.read[key] = find()
        return found


def normalise(text: str, folded: bool = False) -> str:
    """The text to tokenize. Each rewrite runs only when the text holds what it rewrites
    (checked by substring, at C speed), since a regular expression scan of 4,000
    characters costs tenths of a millisecond even when nothing matches. Text beyond ASCII
    is folded first (novamart.language.unveil), unless the caller did (``folded``)."""
    if not folded and not text.isascii():
        text = fold_scripts(text)[0]
    if "\u2022" in text:
        text = _BULLET_IN_WORD.sub(
            ".", text
        )  # "s\u2022t\u2022o\u2022r\u2022e": letters, not a list
    text = text.translate(_UNICODE)
    if ".-" in text:
        text = _DASHED_PRICE.sub(r"\1", text)  # "$399.-": a price with no cents
    if ">" in text:
        text = _BLOCKQUOTE.sub(r'"\1"', text)
    if _may_hold_markdown(text):
        text = _MARKDOWN.sub("", text)
    return expand_contractions(spoken_amounts(text.lower()))


_UNITS = (
    "zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten",
    "eleven", "twelve", "thirteen", "fourteen", "fifteen", "sixteen", "seventeen", "eighteen",
    "nineteen",
)  # fmt: skip
_TENS = ("twenty", "thirty", "forty", "fifty", "sixty", "seventy", "eighty", "ninety")
_SCALES = {"hundred": 100, "thousand": 1000, "million": 1_000_000}
_NUMBER_WORD = "|".join([*_UNITS, *_TENS, *_SCALES])
_SPELLED = rf"(?:{_NUMBER_WORD})(?:(?:[ -]|[ -]?and[ -])(?:{_NUMBER_WORD}))*"
_FIGURE = r"\d[\d,]*(?:\.\d+)?"
_SPOKEN_MONEY = re.compile(
    rf"\b(?P<whole>{_FIGURE}|{_SPELLED})[ -]?(?:dollars?|bucks?|usd)\b"
    rf"(?:,? and (?P<cents>\d{{1,2}}|{_SPELLED}) cents?\b)?"
)
"""An amount said in words or in dollars and cents ("seven hundred and seventy-nine dollars
and twenty-two cents", "89 dollars and 99 cents", "129 bucks"): read as the amount it is."""


def _spelled_value(words: str) -> float | None:
    """The value of a number written in words or figures (None: not a number)."""
    if words[0].isdigit():
        return float(words.replace(",", ""))
    total = current = 0
    for word in re.split(r"[ -]+", words):
        if word in ("", "and"):
            continue
        if word in _SCALES:
            current = max(current, 1) * _SCALES[word]
            if _SCALES[word] >= 1000:
                total, current = total + current, 0
        elif word in _TENS:
            current += 10 * (_TENS.index(word) + 2)
        elif word in _UNITS:
            current += _UNITS.index(word)
        else:
            return None
    return float(total + current)


def _amount(match: re.Match[str]) -> str:
    whole = _spelled_value(match.group("whole"))
    cents = _spelled_value(match.group("cents")) if match.group("cents") else 0.0
    if whole is None or cents is None or cents >= 100:
        return match.group(0)
    return f"${whole + cents / 100:,.2f}"


def spoken_amounts(text: str) -> str:
    """Amounts said in words or in dollars and cents written as amounts (lower-case text)."""
    if "dollar" not in text and "buck" not in text and "usd" not in text:
        return text
    return _SPOKEN_MONEY.sub(_amount, text)


def expand_contractions(text: str) -> str:
    """ "won't" is "will not", "cannot" is "can not" (lower-case text)."""
    apostrophes = "'" in text
    others = any(word in text for word in _WHOLE_WORDS)
    if apostrophes and others:
        return _CONTRACTED.sub(_expand, text)
    if apostrophes:
        return _ONLY_APOSTROPHES.sub(_expand, text)
    return _ONLY_OTHERS.sub(_expand, text) if others else text


_LINE_MARKS = frozenset("#-*+")


def _may_hold_markdown(text: str) -> bool:
    """False only when _MARKDOWN cannot match: no inline marks, and no line whose first
    non-space character could start a heading, a bullet or a numbered step."""
    if "**" in text or "__" in text or "`" in text:
        return True
    for line in text.split("\n"):
        first = line.lstrip()[:1]
        if first and (first in _LINE_MARKS or first.isdecimal()):
            return True
    return False


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
        self.firsts = frozenset(by_first)
        """The first words of the phrases (a clause without one holds none of them)."""
        by_pair: dict[tuple[str, str], list[tuple[str, ...]]] = defaultdict(list)
        self._single: dict[str, tuple[str, ...]] = {}
        for first, bucket in by_first.items():
            for phrase in bucket:
                if len(phrase) == 1:
                    self._single[first] = phrase
                else:
                    by_pair[phrase[0], phrase[1]].append(phrase)
        self._by_pair = {k: sorted(v, key=len, reverse=True) for k, v in by_pair.items()}
        """Longer phrases by their first two words, longest first: a look-up leaves the
        few phrases that can match (the negation idioms share "no" and "not")."""
        self._word_sets = {f: tuple(frozenset(p) for p in b) for f, b in by_first.items()}
        """The words of each phrase, by first word (see _possible)."""

    @classmethod
    def of_lemmas(cls, *texts: str) -> Phrases:
        return cls(lemma_phrases(*texts))

    @classmethod
    def of_words(cls, *texts: str) -> Phrases:
        return cls(tuple(t.split()) for t in texts)

    def at(self, sequence: Sequence[str], i: int) -> tuple[str, ...] | None:
        """The longest phrase starting at ``i``, or None."""
        if i + 1 < len(sequence):
            for phrase in self._by_pair.get((sequence[i], sequence[i + 1]), ()):
                if tuple(sequence[i : i + len(phrase)]) == phrase:
                    return phrase
        return self._single.get(sequence[i])

    def _possible(self, sequence: Sequence[str], among: frozenset[str] | None) -> bool:
        """Whether a phrase could occur: its first word is in ``sequence`` and, when
        ``among`` (a set holding every item of the sequence: a clause's vocabulary) is
        given, so are all its words. Set comparisons at C speed rule most clauses out
        before any position is tried ("you" starts rude phrases; "you should have" needs
        "should" too)."""
        if among is None:
            return not self.firsts.isdisjoint(sequence)
        if self.firsts.isdisjoint(among):
            return False  # (most clauses: no set is built)
        sets = self._word_sets
        return any(words <= among for f in self.firsts.intersection(among) for words in sets[f])

    def positions(self, sequence: Sequence[str], among: frozenset[str] | None = None) -> list[int]:
        if not self._possible(sequence, among):
            return []
        firsts = self.firsts
        return [i for i, w in enumerate(sequence) if w in firsts and self.at(sequence, i)]

    def occurs_in(self, sequence: Sequence[str], among: frozenset[str] | None = None) -> bool:
        """Whether a phrase occurs in ``sequence`` (``among``: see _possible)."""
        if not self._possible(sequence, among):
            return False
        firsts = self.firsts
        return any(w in firsts and self.at(sequence, i) for i, w in enumerate(sequence))


_KIDDING = Phrases(KIDDING)


def _money(raw: str) -> float:
    digits = re.sub(r"[^\d.]", "", raw.replace(",", ""))
    return float(digits) if digits and digits != "." else 0.0


_SPLIT = re.compile(re.sub(r"\?P<\w+>", "?:", _TOKEN.pattern).replace(_ID, _ID_POSSESSIVE, 1))
"""The same tokens as _TOKEN, without groups: findall gives the token strings at C speed (a
word's look-ahead for an id gives up at once on a word that is none)."""
_ANY_LETTERS = "[^\\W\\d_]"
_TOKEN_ANY_SCRIPT = re.compile(
    _TOKEN.pattern.replace("[a-z]+(?:'[a-z]+)?", f"{_ANY_LETTERS}+(?:'{_ANY_LETTERS}+)?")
)
_SPLIT_ANY_SCRIPT = re.compile(re.sub(r"\?P<\w+>", "?:", _TOKEN_ANY_SCRIPT.pattern))
"""Words of any script (text beyond ASCII: another language's words are words, so the
language identifier sees them); the ASCII pattern is twice as fast, so it serves the rest."""
_SEEN: dict[str, Token] = {}
SEEN_LIMIT = 200_000


def _token(raw: str) -> Token:
    """The token of one string (classified once, then served from _SEEN)."""
    match = (_TOKEN if raw.isascii() else _TOKEN_ANY_SCRIPT).fullmatch(raw)
    kind = match.lastgroup if match else "punct"
    make = tuple.__new__
    if kind == "word":
        if raw in NUMBER_WORDS:
            token = make(Token, (raw, raw, "number", float(NUMBER_WORDS[raw])))
        else:
            token = make(Token, (raw, lemma(raw), "word", None))
    elif kind == "money":
        token = make(Token, (raw, "$", "money", _money(raw)))
    elif kind == "number":
        token = make(Token, (raw, raw, "number", float(raw)))
    elif kind == "id":
        token = make(Token, (raw, raw, "id", None))
    else:
        token = make(Token, (raw, raw.strip() or "-", "punct", None))
    if len(_SEEN) < SEEN_LIMIT:
        _SEEN[raw] = token
    return token


def tokenize(normalised: str) -> list[Token]:
    """Tokens are immutable, so each distinct string is classified and lemmatised once."""
    raws = (_SPLIT if normalised.isascii() else _SPLIT_ANY_SCRIPT).findall(normalised)
    tokens = list(map(_SEEN.get, raws))  # at C speed; only new strings need classifying
    if None in tokens:
        return [token or _token(raw) for token, raw in zip(tokens, raws, strict=True)]
    return tokens  # type: ignore[return-value]


def sentences(tokens: list[Token]) -> list[list[Token]]:
    """Sentences as slices between their ends (a "." after an abbreviation is dropped and
    the sentence goes on)."""
    out: list[list[Token]] = []
    current: list[Token] = []
    start = 0
    for i in [i for i, t in enumerate(tokens) if t.text in SENTENCE_END and t.kind == "punct"]:
        if tokens[i].text == "." and i and tokens[i - 1].text in _ABBREVIATIONS:
            current += tokens[start:i]
        else:
            current += tokens[start : i + 1]
            out.append(current)
            current = []
        start = i + 1
    current += tokens[start:]
    out.append(current)
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


def clauses(
    text: str,
    known: Callable[[str], bool] | None = None,
    respell: Respell | None = None,
) -> list[Clause]:
    """The clauses of ``text``, in order; disguised words read as the words they spell, when
    ``known`` says which words the reader knows, and misspelt ones as the words meant, with
    ``respell`` (novamart.language.unveil)."""
    changes: list[str] = []
    if not text.isascii():
        text, changes = fold_scripts(text, known)
    normalised = normalise(text, folded=True)
    if known is not None:
        normalised, rewritten = unveil(normalised, known, respell)
        if rewritten:  # "cann0t" spelled "cannot" is "can not"
            normalised = expand_contractions(normalised)
        changes += rewritten
    result: list[Clause] = []
    segment = 0
    introduced = False
    for number, sentence in enumerate(sentences(tokenize(normalised))):
        question = sentence[-1].text == "?"
        segment += 1
        quoted = False
        current = Clause([], number, segment, question, introduced=introduced, opens=True)
        result.append(current)
        words = list(map(_TEXT, sentence))
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
        last = next((t.text for t in reversed(sentence) if t.text != "\n"), None)
        introduced = last == ":" or (introduced and len(sentence) < 16)
    kept = []
    for clause in result:
        kinds = frozenset(map(_KIND, clause.tokens))
        if not kinds or kinds == _ONLY_PUNCT:
            continue  # nothing but punctuation
        clause.kinds = kinds
        clause.words = list(map(_TEXT, clause.tokens))
        clause.lemmas = list(map(_LEMMA, clause.tokens))
        clause.vocabulary = frozenset(clause.words).union(clause.lemmas)
        clause.text = " ".join(clause.words)
        if changes:
            clause.disguised = tuple(c for c in changes if c.rsplit(" -> ", 1)[1] in clause.text)
        kept.append(clause)
    return kept


_TEXT, _LEMMA, _KIND = itemgetter(0), itemgetter(1), itemgetter(2)
_ONLY_PUNCT = frozenset({"punct"})


RUN_ON_STARTS = wordset("i we please")
OBJECT_PRONOUNS = wordset("you it them us me him her")
LINE_ENDS = wordset(
    "do done needed required else now today tomorrow here there again too soon back"
)
"""Words that end a line a writer ran on ("Nothing else to do I've processed ...")."""
NOT_BEFORE_PLEASE = wordset("yes ok okay and or but so would could will can may might")


def _new_subject(sentence: list[Token], i: int, so_far: list[Token]) -> bool:
    """ "i can't say the check found anything wrong i have issued $49 in credit": "I" or "we"
    with an auxiliary, after words that already hold a clause, starts one of its own (not
    "the items I have ordered", "you said I have to wait")."""
    after = sentence[i + 1].text if i + 1 < len(sentence) else ""
    if sentence[i].text == "please" or after not in AUXILIARY_AFTER_SUBJECT or not so_far:
        return False
    before = sentence[i - 1]
    if before.kind != "word" or before.text in LINKING:
        return False  # "it's not that I can't", "here's what I can do": one clause
    return _finite(so_far) and _finite(sentence[i + 2 : i + 4])


AUXILIARY_AFTER_SUBJECT = wordset("have has am will can")
LINKING = wordset(
    "that what which who whom whose where when if as because since so and or but than whether "
    "how why once unless while until the a an"
)
"""Words after which "I" goes on the clause they open, not a new one."""


def _run_on(sentence: list[Token], i: int) -> bool:
    """ "Nothing else needed from you I've processed a refund": a subject (or "please")
    right after an object pronoun starts a sentence its writer ran on (a list line with no
    stop); "could you please", "thank you" stay one clause."""
    if i < 1:
        return False
    previous = sentence[i - 1].text
    before = sentence[i - 2].text if i > 1 else ""
    if sentence[i].text == "please":  # "... as 'NVM REFUND' Please let me know": a new one
        if previous == "you":
            return before not in QUESTION_TAILS and before not in ("if", "thank", "thanks")
        return previous not in NOT_BEFORE_PLEASE and sentence[i - 1].kind != "punct"
    if sentence[i - 1].kind in ("money", "number") or previous in LINE_ENDS:
        after = sentence[i + 1].text if i + 1 < len(sentence) else ""
        return after in FINITE or after == "am"  # "... $134.25 I am sorry", "... to do I have"
    if previous not in OBJECT_PRONOUNS:
        return False
    return before not in QUESTION_TAILS and previous != "me"


IMPERATIVE_MARKERS = wordset("just simply")
CONDITION_MIN = 3
"""Words a condition needs before an imperative can close it ("if anything comes up")."""


def _condition_closed(sentence: list[Token], i: int, so_far: list[Token]) -> bool:
    """ "if anything else comes up just reply here, ...": "just" or "simply" after a
    condition with a verb of its own starts the imperative that answers it, so what follows
    is no longer under the condition ("if you just send it back", "if it's just a scratch"
    stay one)."""
    if len(so_far) < CONDITION_MIN or so_far[0].text not in SUBORDINATORS:
        return False
    before = sentence[i - 1]
    return before.kind == "word" and before.text not in SUBJECTS and before.text not in FINITE


BOUNDARY_WORDS = (
    CLAUSE_PUNCT
    | CONTRAST
    | RUN_ON_STARTS
    | IMPERATIVE_MARKERS
    | {",", ":", "and", "because", "since", "as"}
)
"""The only tokens at which a clause can start (every other token just continues it)."""
_STOPS = BOUNDARY_WORDS | _KIDDING.firsts | {'"'}


_LINKS_AFTER_COMMA = COMMA_LINKS | CONTRAST


PAST_FORMS = frozenset(IRREGULAR)


def has_verb(words: Sequence[str]) -> bool:
    """Whether the words hold a verb a clause can stand on: a finite one, or one in the past
    ("found", "pushed")."""
    return not _VERB_FORMS.isdisjoint(words) or any(map(_PAST_ED, words))


_VERB_FORMS = FINITE | PAST_FORMS
_PAST_ED = re.compile(r"(?s).{2,}ed").fullmatch
"""A word of more than three letters ending in "ed" (called from C by map)."""


def _finite(tokens: Sequence[Token]) -> bool:
    """Whether the tokens hold a finite verb (so they can stand as a clause)."""
    return any(t.text in FINITE or (t.text.endswith("ed") and len(t.text) > 4) for t in tokens)


def _boundary(sentence: list[Token], i: int, so_far: list[Token]) -> tuple[bool, int, int]:
    """Whether a clause starts at token ``i``: (cut, starts a new segment, tokens to skip)."""
    token = sentence[i]
    after = sentence[i + 1] if i + 1 < len(sentence) else None
    following = after.text if after is not None else ""
    if token.kind == "punct":
        if token.text in PARENTHESES and _apposition(sentence, i):
            return False, 0, 0  # "your money ($59.99) has been returned": one clause
        if token.text in CLAUSE_PUNCT:
            return True, 1, 1
        if token.text == "," and following in _LINKS_AFTER_COMMA:
            return True, 1, 2
        if token.text == "," and following in QUESTION_TAILS:
            return True, 1, 1  # "we can offer a refund, would that work?"
        if token.text == "," and so_far and so_far[0].text in SUBORDINATORS:
            return True, 0, 1  # "because the defect was confirmed, you can choose ..."
        then = [t.text for t in sentence[i + 2 : i + 3]]
        if token.text == "," and following in SUBJECTS and has_verb(then) and _finite(so_far):
            return True, 0, 1  # "your credit is active, you can use it for anything"
        if _in_number(sentence, i):
            return False, 0, 0
        if token.text == "," and _predicate_run(sentence, i + 1) and _holds_clause(so_far):
            return True, 0, 1  # "we want you to be happy, a check for $349 is in the mail"
        if token.text == "," and following in IMPERATIVE_STARTS and _finite(so_far):
            return True, 1, 1  # "we want you to be happy, consider the $X back": a new one
        if token.text == ":" and sum(t.kind != "punct" for t in sentence[:i]) > 2:
            return True, 1, 1  # "a refund is not possible: ..." (not a label: "Refund: $5")
        return False, 0, 0
    if token.text in RUN_ON_STARTS:
        return _run_on(sentence, i) or _new_subject(sentence, i, so_far), 1, 0
    if token.text in IMPERATIVE_MARKERS:
        return _condition_closed(sentence, i, so_far), 1, 0
    if token.text in CONTRAST and i > 0:
        return True, 1, 1
    if token.text == "and" and following in SUBJECTS and i > 0:
        return True, 1, 1
    if (
        token.text == "and"
        and following in DEMONSTRATIVES
        and i > 0
        and _finite(sentence[i + 2 : i + 3])
    ):
        return True, 1, 1  # "all sorted and that is everything from our side"
    if token.text == "and" and following in DETERMINERS_BEFORE_SUBJECT:
        rest = next((k for k in range(i + 1, len(sentence)) if sentence[k].kind == "punct"), None)
        if _finite(so_far) and _finite(sentence[i + 1 : rest]):
            return True, 1, 1  # "... need it unopened and the check did not confirm a defect"
    if token.text in ("because", "since") and i > 0 and not _since_time(sentence, i):
        return True, 0, 1
    if token.text == "as" and following in ("the", "your", "this"):
        return (i > 0 and _finite(sentence[i + 1 : i + 6])), 0, 1  # "as the item was opened"
    return False, 0, 0


DEMONSTRATIVES = wordset("that this")
NOT_OPENING = FINITE | wordset(
    "that which who whom whose where when what how why whether if unless to not nor or and but "
    "than so as because since once while until for with by from in on at of about into like"
)
"""Words that, after a comma, go on the clause before: an auxiliary whose subject stood
before the comma ("your refund, $59.99, has been issued"), a relative, a preposition."""
REPORTING = wordset("says tells told shows showed confirms reports notes mentions writes")
"""Verbs of attribution in the present ("billing says ..."): a clause stands on them."""


def _predicate_run(sentence: list[Token], start: int) -> bool:
    """Whether the words from ``start`` to the next punctuation are a run that holds a
    predicate of its own: a bare verb phrase ("went ahead and applied ..."), a noun with its
    verb ("order ORD-1 has been cancelled", "store credit of $20 was added") or an
    attribution ("billing says ..."), not a phrase that continues the clause before."""
    if start >= len(sentence) or sentence[start].text in NOT_OPENING:
        return False
    for k in range(start, len(sentence)):
        word = sentence[k].text
        if word in VERB_SIGNS or (len(word) > 3 and word.endswith("ed")):
            return True  # the verb test of has_verb, and an attribution
        if _ends_run(sentence, k):
            return False
    return False


VERB_SIGNS = FINITE | PAST_FORMS | REPORTING


def _ends_run(sentence: list[Token], k: int) -> bool:
    """Whether token ``k`` ends a run of words: clause punctuation, not a sign inside one ("20%
    off", "2,000 points")."""
    token = sentence[k]
    if token.kind != "punct" or token.text not in RUN_ENDS:
        return False
    return not _in_number(sentence, k)


def _in_number(sentence: list[Token], k: int) -> bool:
    """Whether token ``k`` is the comma of a number written with one ("2,500 points")."""
    if sentence[k].text != "," or not 0 < k < len(sentence) - 1:
        return False
    return sentence[k - 1].kind == sentence[k + 1].kind == "number"


RUN_ENDS = CLAUSE_PUNCT | SENTENCE_END | {",", ":", '"'}


def _holds_clause(tokens: Sequence[Token]) -> bool:
    """Whether the words before a comma already hold a clause: a finite verb, or a subject
    pronoun with a verb after it ("we want you to be happy", "I hope you understand")."""
    if _finite(tokens):
        return True
    words = [t.text for t in tokens]
    return any(w in SUBJECTS and k + 1 < len(words) for k, w in enumerate(words[:-1]))


IMPERATIVE_STARTS = wordset("consider expect enjoy rest")
"""Verbs that, after a comma, start a clause of their own telling the customer something
("..., consider the $X already back where it came from", "..., rest assured ...")."""
PARENTHESES = frozenset("()")
APPOSITION_SPAN = 8


def _apposition(sentence: list[Token], i: int) -> bool:
    """Whether the parenthesis at ``i`` holds a short phrase without a verb of its own (an
    amount, a name, a date), which belongs to the clause around it."""
    if sentence[i].text == "(":
        end = min(len(sentence), i + APPOSITION_SPAN)
        close = next((k for k in range(i + 1, end) if sentence[k].text == ")"), None)
        return close is not None and not _finite(sentence[i + 1 : close])
    start = max(-1, i - APPOSITION_SPAN)
    opening = next((k for k in range(i - 1, start, -1) if sentence[k].text == "("), None)
    return opening is not None and not _finite(sentence[opening + 1 : i])


def _since_time(sentence: list[Token], i: int) -> bool:
    """'since purchase', '10 days since you bought it': a time expression, not a reason."""
    before = sentence[i - 1] if i else None
    return before is not None and before.lemma in ("day", "week", "month", "be")
