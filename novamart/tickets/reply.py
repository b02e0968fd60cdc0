"""Deterministic checks on a written reply, shared by the families that grade one.

Every check is a plain function of the reply text and some reference text; none calls a
model, so the same reply always gets the same grade. What a reply *says* (courtesy, requests
for secrets, claims of an escalation) is read by the message reader of novamart.language, the
same one that reads order-case messages; whether it conveys an answer or a required step is
checked sentence by sentence (novamart.tickets.answer), so keywords alone earn nothing.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from functools import lru_cache
from itertools import product

from novamart.kb import default_kb
from novamart.kb.text import numbers, stem, tokens, words
from novamart.kernel import default_kernel
from novamart.language import Lexicon, Reading, lexicon_for, read
from novamart.language.text import lemma
from novamart.tickets.answer import CITATION, Unit, units
from novamart.tickets.model import Concept
from novamart.tickets.state import TicketState

COURTESY = frozenset(
    tokens(
        "hello hi dear good morning afternoon evening hey thank thanks sorry apologise "
        "understand appreciate regards best wishes kind let us know me happy help anything "
        "else take care have great all novamart support team customer glad hope please contact "
        "reach message inconvenience frustrating patience welcome day soon assist ticket"
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


def reading(state: TicketState) -> Reading:
    """The reader's reading of the reply (empty before one), with the words of the rules
    version the ticket runs under."""
    rules = state.rules or default_kernel().snapshot()
    return _read(state.response or "", lexicon_for(rules.rulebook))


@lru_cache(maxsize=1024)
def _read(text: str, lexicon: Lexicon) -> Reading:
    return read(text, lexicon)


def politeness(said: Reading) -> tuple[float, str]:
    """1 for a courteous reply with nothing rude in it ("Hi" is courteous, "this is not your
    fault" is not rude), and why."""
    if said.rude:
        return 0.0, "something in the reply is rude"
    if said.courteous:
        return 1.0, "polite (a greeting, thanks or a kind close, nothing rude)"
    return 0.0, "no greeting, thanks, apology or kind close"


MIN_FLUENCY = 0.5
"""A required step counts only in a sentence that reads as one (not in a keyword list)."""
NEAR = 6
"""How many words a phrase's words may stand apart, per word of the phrase."""


@lru_cache(maxsize=512)
def _groups(phrase: str) -> tuple[frozenset[str], ...]:
    return tuple(frozenset(lemma(w) for w in alts.split("|")) for alts in phrase.lower().split())


def _in_unit(unit: Unit, groups: tuple[frozenset[str], ...]) -> bool:
    """Whether every group has a word in ``unit``, at distinct places close together."""
    places = [
        [i for i, s in enumerate(unit.stems) if s in group and unit.fluency[i] >= MIN_FLUENCY]
        for group in groups
    ]
    if not all(places):
        return False
    reach = NEAR * len(groups)
    for start in sorted({i for found in places for i in found}):
        near = [[i for i in found if start <= i <= start + reach] for found in places]
        if all(near) and any(len(set(c)) == len(c) for c in product(*near)):
            return True
    return False


def conveys(reply: str, concept: Concept) -> bool:
    """Whether some sentence of ``reply`` conveys ``concept`` (one of its phrases)."""
    found = units(reply)
    return any(_in_unit(u, _groups(p)) for p in concept.phrases for u in found)


def missing_concepts(reply: str, concepts: Iterable[Concept]) -> list[str]:
    return [c.name for c in concepts if not conveys(reply, c)]


def concepts_covered(reply: str, concepts: list[Concept]) -> float:
    """Share of ``concepts`` the reply conveys in sentences (1 when none are required)."""
    if not concepts:
        return 1.0
    return 1 - len(missing_concepts(reply, concepts)) / len(concepts)


def citations(reply: str) -> list[str]:
    return list(dict.fromkeys(m.upper() for m in CITATION.findall(reply)))


def citation_score(reply: str, article_id: str | None, also: Iterable[str] = ()) -> float:
    """1 when the reply cites the right article (and, if any, only articles it may draw on);
    diluted by other citations; 0 without the right one."""
    cited = citations(reply)
    if not article_id or article_id.upper() not in cited:
        return 0.0
    fitting = {article_id.upper(), *(a.upper() for a in also)}
    return sum(c in fitting for c in cited) / len(cited)


def citation_note(reply: str, article_id: str | None, also: Iterable[str] = ()) -> str:
    cited = citations(reply)
    right = article_id or "?"
    if not cited:
        return f"cites no article; the answer is in {right}"
    if right.upper() not in cited:
        return f"cited {', '.join(cited)}; the answer is in {right}"
    others = [c for c in cited if c != right.upper() and c not in {a.upper() for a in also}]
    if others:
        return f"cited {right}, the right article, but also {', '.join(others)}"
    return f"cited {right}, the right article"


@lru_cache(maxsize=1)
def _kb_vocabulary() -> frozenset[str]:
    return frozenset().union(*(_token_set(a.text) for a in default_kb().articles.values()))


def focus(reply: str, sources: list[str]) -> float:
    """Share of the reply's content words that are not drawn from elsewhere in the knowledge
    base: words of its sources, courtesy, and the writer's own words count; words of other
    articles do not. A reply that pastes the whole knowledge base scores low here, whatever
    it covers; a paraphrase in the writer's own words does not.
    """
    said = tokens(CITATION.sub(" ", reply))
    if not said:
        return 0.0
    allowed = COURTESY.union(*map(_token_set, sources))
    elsewhere = _kb_vocabulary() - allowed
    return sum(t not in elsewhere for t in said) / len(said)


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


_LIST_NUMBER = re.compile(r"^\s*\d{1,2}[.)]\s+", re.MULTILINE)


def unsupported_facts(reply: str, support: list[str]) -> list[str]:
    """Numbers and policy claims in the reply that no supporting text states (the numbers of
    a numbered list are not facts)."""
    text = "\n".join(support)
    known = numbers(text)
    body = _LIST_NUMBER.sub("", CITATION.sub(" ", reply))
    facts = [n for n in sorted(numbers(body)) if n not in known]
    facts += [c for c in CLAIMS if _has(body, c) and not _has(text, c)]
    return facts


def has_any(text: str, phrases: tuple[str, ...] | list[str]) -> bool:
    return any(_has(text, p) for p in phrases)
