"""Reading the agent's messages: promises, courtesy, stated reasons, confirmations, offers.

Plain text heuristics, deterministic and fast. A message is cut into clauses (at sentence
ends, semicolons, colons, dashes and "but"/"however"), and a clause that mentions a refund
counts as a promise only when it is affirmative: a negation ("we cannot refund", "a refund
isn't possible", "instead of a refund") or a hedge ("let me check whether a refund is
possible") makes it not a promise. Commas do not split: "if it is confirmed, we will refund"
stays hedged.
"""

from __future__ import annotations

import re
from functools import lru_cache

_CLAUSE_SPLIT = re.compile(r"[.!?;:\n\u2014]+|\s-\s|,?\s+\b(?:but|however|although|though)\b", re.I)
_START = r"(?<![a-z])"  # a word start, where "full_refund" counts too
_REFUND = re.compile(rf"{_START}(?:refund\w*|money back\b|reimburs\w*)", re.I)
_NEGATION = re.compile(
    r"\b(?:not|no|never|cannot|unable|ineligible|instead of|decline[sd]?|deny|denied|"
    r"reject(?:ed)?|outside|beyond|blocked|neither|nor|without)\b|n't\b|\bcan not\b",
    re.I,
)
_HEDGE = re.compile(r"\b(?:if|whether|once|unless|check|verify|see|determine|might|may)\b", re.I)
_PROMISE_CUE = re.compile(
    r"\b(?:will|shall|going to|have|has|been|processed|processing|issued|issuing|approved?|"
    r"initiated?|promise|guarantee[ds]?|can|could|eligible|entitled|qualif\w*|offer\w*|"
    r"arrang\w*|get|receive|give|giving|grant\w*)\b|'ll\b",
    re.I,
)
_POLITE = re.compile(
    r"\b(?:thank\w*|sorry|apolog\w*|please|glad|happy to|appreciate\w*|understand\w*|"
    r"welcome|pleasure|regards|hope)\b",
    re.I,
)
_RUDE = re.compile(
    r"\b(?:stupid|idiot\w*|dumb|shut up|your fault|whatever|ridiculous|calm down|"
    r"not my problem|stop complaining)\b",
    re.I,
)
_AMOUNT = re.compile(r"\d[\d,]*(?:\.\d+)?")
_WORD = re.compile(r"[a-z]+|\d+(?:\.\d+)?")

RESOLUTION_WORDS: dict[str, re.Pattern[str]] = {
    "full_refund": _REFUND,
    "store_credit": re.compile(rf"{_START}(?:credit|voucher)", re.I),
    "exchange": re.compile(rf"{_START}(?:exchang|replace)", re.I),
    "escalate": re.compile(rf"{_START}(?:escalat|manager\b|supervisor\b)", re.I),
}

ASKS: dict[str, re.Pattern[str]] = {
    "order": re.compile(r"\border (?:number|id)\b", re.I),
    "problem": re.compile(r"\b(?:what(?:'s| is) wrong|describe|what happened|symptom)", re.I),
    "when": re.compile(r"\b(?:when did|how long ago|date of purchase|purchase date)\b", re.I),
    "tier": re.compile(r"\b(?:tier|membership|member)\b", re.I),
    "email": re.compile(r"\bemail\b", re.I),
}

_STOPWORDS_TEXT = """
a an the is are was were be been being has have had it its this that these those of for to in
on at and or but not no did does do with by as your you we our us i my me they their them from
so than then can will would could should there here which who what
"""
_STOPWORDS = frozenset(_STOPWORDS_TEXT.split())


def clauses(text: str) -> list[str]:
    return [c.strip() for c in _CLAUSE_SPLIT.split(text) if c and c.strip()]


def promises_refund(text: str) -> bool:
    """True when some clause affirmatively promises or announces a refund."""
    return any(
        _REFUND.search(c)
        and _PROMISE_CUE.search(c)
        and not _NEGATION.search(c)
        and not _HEDGE.search(c)
        for c in clauses(text)
    )


def offered(text: str) -> set[str]:
    """Resolutions the message mentions affirmatively (offers, announcements)."""
    found = set()
    for c in clauses(text):
        if _NEGATION.search(c):
            continue
        found.update(name for name, pattern in RESOLUTION_WORDS.items() if pattern.search(c))
    return found


def mentions(text: str, resolution: str) -> bool:
    pattern = RESOLUTION_WORDS.get(resolution)
    words = resolution.replace("_", " ")
    return bool(pattern.search(text)) if pattern else words in text.lower()


def amounts(text: str) -> list[float]:
    values = []
    for raw in _AMOUNT.findall(text):
        try:
            values.append(float(raw.replace(",", "")))
        except ValueError:
            continue
    return values


def states_amount(text: str, amount: float) -> bool:
    return any(abs(value - amount) < 0.005 for value in amounts(text))


def courteous(text: str) -> bool:
    return bool(_POLITE.search(text)) and not rude(text)


def rude(text: str) -> bool:
    return bool(_RUDE.search(text))


def asks(text: str) -> set[str]:
    """The details the message asks the customer for."""
    return {topic for topic, pattern in ASKS.items() if pattern.search(text)}


@lru_cache(maxsize=4096)
def key_terms(text: str) -> frozenset[str]:
    """Content words of ``text``, crudely stemmed (plural s dropped, cut to 4 letters)."""
    terms = set()
    for word in _WORD.findall(text.lower()):
        if word in _STOPWORDS:
            continue
        if word[0].isdigit():
            terms.add(word.rstrip("0").rstrip(".") if "." in word else word)
            continue
        word = word[:-1] if len(word) > 3 and word.endswith("s") else word
        terms.add(word[:4])
    return frozenset(terms)


def states_reason(text: str, reason: str) -> bool:
    """True when the message carries enough of ``reason``'s key terms (half, at least two)."""
    wanted = key_terms(reason)
    need = min(len(wanted), max(2, (len(wanted) + 1) // 2))
    return len(wanted & key_terms(text)) >= need


def contains_any(text: str, needles: tuple[str, ...]) -> bool:
    lowered = text.lower()
    return any(n and n.lower() in lowered for n in needles)
