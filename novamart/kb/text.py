"""Plain-Python text handling shared by retrieval and grading: tokens, stems, numbers.

One tokenizer for both sides means a grader and the search index always agree on what
"the same word" is.
"""

from __future__ import annotations

import re
from functools import lru_cache

_STOPWORDS = """a about above after again all also am an and any are as at be because been before
    being below between both but by can could did do does doing don done down during each
    even few for from further get got had has have having he her here hers him his how i if
    in into is it its itself just let me more most my myself no nor not now of off on once
    only or other our ours out over own same she should so some such than that the their
    them then there these they this those through to too under until up upon us very was we
    were what when where which while who whom why will with would you your yours yourself
    ve ll re s t d m"""
STOPWORDS = frozenset(_STOPWORDS.split())
_WORD = re.compile(r"[a-z0-9]+(?:[.'’][a-z0-9]+)*")
_NUMBER = re.compile(r"(?<![\w.])\$?(\d{1,3}(?:,\d{3})+|\d+)(\.\d+)?(?![\w])")
_SUFFIXES = (
    "ational",
    "ization",
    "ations",
    "ation",
    "ings",
    "ing",
    "edly",
    "ies",
    "ied",
    "ness",
    "ment",
    "ers",
    "er",
    "ed",
    "es",
    "ly",
    "s",
)


_PLURALS = ("s", "es")
_DERIVED = ("ational", "ization", "ation", "ness", "ment")
"""Suffixes that stay on a word after its plural is taken off ("payments" -> "payment"):
the plural's root is stemmed again, so "payments" and "payment" both stem to "pay"."""


@lru_cache(maxsize=65536)
def stem(word: str) -> str:
    """A light suffix stripper: enough to match 'charged'/'charge'/'charges' and
    'payment'/'payments'."""
    if word.isdigit() or len(word) <= 3:
        return word
    for suffix in _SUFFIXES:
        if word.endswith(suffix) and len(word) - len(suffix) >= 3:
            root = word[: -len(suffix)]
            if suffix in ("ies", "ied"):
                return root + "y"
            if suffix in _PLURALS and root.endswith(_DERIVED):
                return stem(root)
            return _drop_e(root)
    return _drop_e(word)


def _drop_e(root: str) -> str:
    return root[:-1] if root.endswith("e") and len(root) > 4 else root


def words(text: str) -> list[str]:
    """Lower-cased word tokens, punctuation removed, nothing dropped."""
    return [w.replace("’", "'").split("'")[0] for w in _WORD.findall(text.lower())]


def tokens(text: str) -> list[str]:
    """Content tokens: stemmed words without stopwords (numbers are kept)."""
    return [stem(w) for w in words(text) if w not in STOPWORDS]


def numbers(text: str) -> set[str]:
    """Every number stated in ``text``, normalised ('$1,299.00' -> '1299', '9.99' -> '9.99')."""
    found = set()
    for whole, fraction in _NUMBER.findall(text):
        value = float(whole.replace(",", "") + (fraction or ""))
        found.add(f"{value:g}" if value != int(value) else str(int(value)))
    return found
