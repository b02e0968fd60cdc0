"""What the reader looks for, taken from the rulebook: the words for each resolution
(rules/resolutions.yaml ``says``) and for each fact field (rules/facts.yaml ``says``,
``says_true``, ``says_false``), and the window conditions a message may refer to.

Phrases are matched on lemmas, with small grammatical words allowed in between ("confirmed
a defect" also matches "confirmed that there is a defect"; "found no defect" is "found a
defect" negated), so an analyst writes each phrase once, in plain words.
"""

from __future__ import annotations

import re
from collections import defaultdict
from dataclasses import dataclass, field
from typing import Any

from novamart.kernel.conditions import FieldTest
from novamart.kernel.recent import RecentlyUsed
from novamart.kernel.rulebook import Rulebook
from novamart.language.text import lemma, lemmaset, wordset

DETERMINERS = wordset("a an the any some your its their this that our my his her")
GAP = lemmaset(" ".join(DETERMINERS)) | lemmaset(
    "be have do will would can could should may might must also already really actually "
    "fully now successfully still yet just finally sadly indeed definitely there"
)
"""Words that may stand between a phrase's words in a message; determiners in a phrase are
optional, every other word of a phrase must be there."""
NEGATORS_IN_PHRASE = frozenset({"not", "no", "never"})
MAX_GAP = 3
NEUTRAL = (
    "credit card", "debit card", "bank card", "payment card", "card number", "credit limit",
    "credit score", "refund policy", "return policy", "refund window", "exchange rate",
    "manager of", "store manager", "get back to you", "back to you with", "call you back",
    "write back", "reply back", "come back to you",
)  # fmt: skip
WINDOW_WORDS = lemmaset("window period limit timeframe deadline frame coverage")
_GENERIC_HINTS = wordset(
    "within window day days since purchase order item the of is in period limit"
)


@dataclass(frozen=True, slots=True)
class Phrase:
    lemmas: tuple[str, ...]
    target: str
    """A resolution name, or a fact reference ``kind.field``."""
    value: Any = None
    """For a bool field: what the phrase says it is; for a policy's name, "policy"."""
    rest: frozenset[str] = field(init=False, compare=False, repr=False)
    """Its lemmas after the first: a clause lacking one of them cannot hold the phrase,
    which a set comparison tells before any matching is tried."""

    def __post_init__(self) -> None:
        object.__setattr__(self, "rest", frozenset(self.lemmas[1:]))


@dataclass(frozen=True, slots=True)
class Window:
    """A condition that limits a number of days: what "the N-day window" can refer to."""

    ref: str
    test: FieldTest
    policy: str
    condition: str
    hints: frozenset[str]


@dataclass(frozen=True, slots=True)
class Quantity:
    """A field read from a number: a count with a unit (days) or an amount of money, with the
    words that say which field a number is about (as written, and as lemmas)."""

    ref: str
    words: tuple[tuple[str, ...], ...]
    lemmas: tuple[tuple[str, ...], ...]
    unit: str | None


@dataclass(frozen=True, slots=True)
class Choice:
    ref: str
    values: tuple[str, ...]
    anchors: frozenset[str]


def phrase_lemmas(text: str) -> tuple[str, ...]:
    return tuple(lemma(w) for w in re.findall(r"[a-z0-9]+", text.lower()) if w not in DETERMINERS)


class Lexicon:
    """Everything the reader matches, indexed by first lemma; built once per rulebook."""

    def __init__(self, rulebook: Rulebook) -> None:
        self.resolutions = _index(
            [
                Phrase(phrase_lemmas(words), name)
                for name, spec in rulebook.resolutions.items()
                for words in (*spec.says, name.replace("_", " "))
            ]
            + _policy_names(rulebook)
        )
        self.policy_names = {
            phrase_lemmas(name.replace("_", " ")): name for name, _ in _named_policies(rulebook)
        }
        """A policy's name as lemmas -> the policy ("standard return" -> standard_return)."""
        self.neutral = _index(Phrase(phrase_lemmas(words), "") for words in NEUTRAL)
        bools, quantities, choices = [], [], []
        for kind, spec in rulebook.facts.kinds.items():
            for name, f in spec.fields.items():
                ref = f"{kind}.{name}"
                if f.type == "bool":
                    bools += [Phrase(phrase_lemmas(w), ref, True) for w in f.says_true]
                    bools += [Phrase(phrase_lemmas(w), ref, False) for w in f.says_false]
                elif f.type == "choice" and f.says:
                    anchors = frozenset(lemma(w) for w in f.says if " " not in w)
                    choices.append(Choice(ref, tuple(f.values or ()), anchors))
                elif f.type in ("integer", "number", "money") and f.says:
                    unit = None if f.type == "money" else f.unit
                    words = tuple(tuple(w.lower().split()) for w in f.says)
                    anchors = tuple(phrase_lemmas(w) for w in f.says)
                    quantities.append(Quantity(ref, words, anchors, unit))
        self.facts = _index(bools)
        self.findings = frozenset(k for k, spec in rulebook.facts.kinds.items() if spec.finding)
        """The kinds that are a check's result (rules/facts.yaml ``finding``)."""
        self.choices = choices
        self.counts = [q for q in quantities if q.unit]
        self.money = [q for q in quantities if not q.unit]
        self.windows = [
            Window(
                ref=c.test.ref,
                test=c.test,
                policy=p.name,
                condition=c.name,
                hints=frozenset(
                    lemma(w) for w in re.split(r"[_\W]+", f"{p.name} {c.name}") if w
                ).difference(lemma(w) for w in _GENERIC_HINTS),
            )
            for p in rulebook.policies.values()
            for c in p.conditions
            if isinstance(c.test, FieldTest) and c.test.op in ("<", "<=", ">", ">=")
            and any(q.ref == c.test.ref for q in self.counts)
        ]  # fmt: skip
        self.window_hints = frozenset(h for w in self.windows for h in w.hints)
        self.policy_hints = {
            p.name: frozenset(
                lemma(w)
                for w in re.split(r"[_\W]+", " ".join([p.name, *(c.name for c in p.conditions)]))
                if w
            ).difference(lemma(w) for w in _GENERIC_HINTS)
            for p in rulebook.policies.values()
        }
        """Each policy -> the words of its name and its conditions' names: what a message
        names it by ("the defect policy" is defective_item; novamart.language.coverage)."""
        self.choice_values = frozenset(v for c in self.choices for v in c.values)
        self.resolution_cues = frozenset(self.resolutions)
        self.fact_cues = frozenset(self.facts)
        self.neutral_cues = frozenset(self.neutral)
        """The first lemmas of each index, as sets: a clause is tested against them at C
        speed, set to set, before any phrase is matched."""
        self.cues = self.resolution_cues | self.fact_cues | self.choice_values | WINDOW_WORDS
        """Every word a mention can start with (a clause with none of them has none)."""


def _policy_names(rulebook: Rulebook) -> list[Phrase]:
    """A policy named in a message stands for what it grants, when it grants one thing:
    "you don't qualify for a standard return" declines the refund it would give. (Only a
    denial counts: "a standard return needs the item unopened" promises nothing.)"""
    return [
        Phrase(phrase_lemmas(name.replace("_", " ")), resolution, "policy")
        for name, resolution in _named_policies(rulebook)
    ]


def _named_policies(rulebook: Rulebook) -> list[tuple[str, str]]:
    """(policy, its one grant) for each policy a message can name for what it grants."""
    return [(n, p.grants[0].resolution) for n, p in rulebook.policies.items() if len(p.grants) == 1]


def _index(phrases: Any) -> dict[str, list[Phrase]]:
    """Phrases by first lemma, longest first (so the longest match wins)."""
    index: dict[str, list[Phrase]] = defaultdict(list)
    for phrase in phrases:
        if phrase.lemmas:
            index[phrase.lemmas[0]].append(phrase)
    for bucket in index.values():
        bucket.sort(key=lambda p: -len(p.lemmas))
    return dict(index)


KEPT = 64
_BUILT: RecentlyUsed[str, Lexicon] = RecentlyUsed(KEPT)


def lexicon_for(rulebook: Rulebook) -> Lexicon:
    """The lexicon of a rulebook version (built once, then shared; the last 64 are kept)."""
    return _BUILT.get(rulebook.version, lambda: Lexicon(rulebook))
