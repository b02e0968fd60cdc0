"""Deterministic checks on a written reply, shared by the families that grade one.

Every check is a plain function of the reply text and some reference text; none calls a
model, so the same reply always gets the same grade.
"""

from __future__ import annotations

import re
from functools import lru_cache

from novamart.kb.text import numbers, stem, tokens, words
from novamart.tickets.model import Concept

CITATION = re.compile(r"\bKB-[A-Z0-9]+(?:-[A-Z0-9]+)*\b", re.IGNORECASE)
_GREETING = ("hello", "hi", "dear", "good morning", "good afternoon", "good evening", "hey")
_EMPATHY = ("thank", "thanks", "sorry", "apologi", "apologise", "understand", "appreciate")
_CLOSING = (
    "regards",
    "best wishes",
    "kind regards",
    "let us know",
    "let me know",
    "happy to help",
    "anything else",
    "take care",
    "have a great",
    "all the best",
)
_RUDE = ("stupid", "idiot", "shut up", "your fault", "not our problem", "whatever", "dumb")
COURTESY = frozenset(
    tokens(
        " ".join(_GREETING + _EMPATHY + _CLOSING)
        + " novamart support team customer help glad hope please contact reach message "
        "inconvenience frustrating patience welcome day soon assist ticket"
    )
)
# Commitments that are facts about policy: a reply may only state them when the articles
# it drew on (or the customer) say them.
CLAIMS = (
    "full refund",
    "refund",
    "store credit",
    "exchange",
    "replacement",
    "free shipping",
    "free return",
    "discount",
    "compensation",
    "voucher",
    "warranty",
    "guarantee",
    "price match",
    "waive",
    "express delivery",
    "cash",
)
_SENTENCE = re.compile(r"(?<=[.!?])\s+|\n+")


@lru_cache(maxsize=4096)
def _stemmed(text: str) -> str:
    """The text as space-separated stems, padded, for whole-word phrase lookups."""
    return f" {' '.join(stem(w) for w in words(text))} "


@lru_cache(maxsize=4096)
def _token_set(text: str) -> frozenset[str]:
    return frozenset(tokens(text))


def _has(text: str, phrase: str) -> bool:
    """Whether ``phrase`` occurs in ``text`` as whole stemmed words, in order."""
    return _stemmed(phrase) in _stemmed(text)


def politeness(reply: str) -> float:
    """Share of greeting, thanks/empathy and closing present; 0 for a rude reply."""
    low = reply.lower()
    if any(r in low for r in _RUDE):
        return 0.0
    parts = [
        any(_has(reply, p) or p in low for p in group) for group in (_GREETING, _EMPATHY, _CLOSING)
    ]
    return sum(parts) / len(parts)


def concepts_covered(reply: str, concepts: list[Concept]) -> float:
    """Share of ``concepts`` the reply conveys (1 when none are required)."""
    if not concepts:
        return 1.0
    hit = sum(any(_has(reply, p) for p in c.phrases) for c in concepts)
    return hit / len(concepts)


def missing_concepts(reply: str, concepts: list[Concept]) -> list[str]:
    return [c.name for c in concepts if not any(_has(reply, p) for p in c.phrases)]


def coverage(reply: str, reference: str) -> float:
    """Recall of the reference answer's content words in the reply."""
    wanted = _token_set(reference)
    return len(wanted & _token_set(reply)) / len(wanted) if wanted else 1.0


def citations(reply: str) -> list[str]:
    return list(dict.fromkeys(m.upper() for m in CITATION.findall(reply)))


def citation_score(reply: str, article_id: str | None) -> float:
    """1 when the reply cites exactly the right article; diluted by extra citations."""
    cited = citations(reply)
    if not article_id or article_id.upper() not in cited:
        return 0.0
    return 1.0 / len(cited)


def focus(reply: str, sources: list[str]) -> float:
    """Share of the reply's content words found in its sources or in courtesy phrases.

    A reply that pastes the whole knowledge base scores low here, whatever it covers.
    """
    said = tokens(CITATION.sub(" ", reply))
    if not said:
        return 0.0
    allowed = COURTESY.union(*map(_token_set, sources))
    return sum(t in allowed for t in said) / len(said)


def focus_factor(reply: str, sources: list[str], floor: float = 0.4, full: float = 0.75) -> float:
    """``focus`` mapped to a multiplier: 0 at or below ``floor``, 1 from ``full`` on."""
    return min(1.0, max(0.0, (focus(reply, sources) - floor) / (full - floor)))


def brevity(reply: str, plenty: int = 150, too_long: int = 350) -> float:
    """1 up to ``plenty`` words, falling linearly to 0 at ``too_long``: support replies are
    short, and pasting articles is not answering."""
    n = len(words(reply))
    return min(1.0, max(0.0, (too_long - n) / (too_long - plenty)))


def fit(reply: str, sources: list[str]) -> float:
    """How much of a reply's content can count: focused on its sources and brief."""
    return focus_factor(reply, sources) * brevity(reply)


VERBATIM_RUN = 8
QUOTE_SLACK = 10


def copied_words(reply: str, sources: list[str], run: int = VERBATIM_RUN) -> int:
    """How many of the reply's words sit in a run of ``run`` or more words that a source
    has verbatim."""
    said = words(reply)
    grams = {tuple(ws[i : i + run]) for ws in map(words, sources) for i in range(len(ws) - run + 1)}
    copied = [False] * len(said)
    for i in range(len(said) - run + 1):
        if tuple(said[i : i + run]) in grams:
            copied[i : i + run] = [True] * run
    return sum(copied)


def paraphrase(reply: str, sources: list[str], reference: str) -> float:
    """1 while the reply quotes its sources verbatim for no more words than the reference
    answer has (plus a little), falling to 0 at one and a half times that: quoting the key
    sentence is answering, pasting articles is not."""
    allowed = len(words(reference)) + QUOTE_SLACK
    copied = copied_words(reply, sources)
    return min(1.0, max(0.0, (1.5 * allowed - copied) / (0.5 * allowed)))


def unsupported_facts(reply: str, support: list[str]) -> list[str]:
    """Numbers and policy claims in the reply that no supporting text states."""
    text = "\n".join(support)
    known = numbers(text)
    body = CITATION.sub(" ", reply)
    facts = [n for n in sorted(numbers(body)) if n not in known]
    facts += [c for c in CLAIMS if _has(body, c) and not _has(text, c)]
    return facts


def sentences(text: str) -> list[str]:
    return [s for s in _SENTENCE.split(text) if s.strip()]


def has_any(text: str, phrases: tuple[str, ...] | list[str]) -> bool:
    return any(_has(text, p) for p in phrases)
