"""Honest KB answers made false, for the truth checks of kb_grounded_response.

Each attack takes an honest reply (a hand-written paraphrase of tests/tickets/corpus, or the
article's own answer in a polite frame), picks by seed one sentence of it that conveys a fact
of the article's answer, and falsifies that sentence alone, leaving the rest true:

- ``negated``: "It is not true that ...", or a "not"/"never" after its first auxiliary or
  modal, or "Do not ..." before an instruction;
- ``reversed``: a negation dropped ("isn't" -> "is", "never" -> "always", "cannot" -> "can"),
  or, in a sentence without one, a word turned into its opposite (time order, cost, sameness,
  obligation, a negating prefix, comparison: ``_TURNED``);
- ``number``: every number in it changed (digits and number words);

and, written after the detector (issue 18, second round), each labelled from the article's
answer by construction: ``antonym`` (a word the answer holds turned into its opposite,
``_ANTONYMS``), ``roles`` (the store's pronouns and the customer's traded, where the answer
gives both roles), ``other_article`` (the sentence replaced by the closest fact of another
article, when it says under a third of any fact of this one), ``hedged`` ("it's not really
the case that ..."), and one that stays true, ``double`` (the main verb negated and the
negation denied: "it is not true that you cannot cancel ...").

``python -m tests.tickets.falsified`` prints the detector's precision and recall and the
scores per class (held-out half of the corpus, and the articles' own answers).
"""

from __future__ import annotations

import random
import re
import sys
from collections.abc import Callable
from dataclasses import dataclass
from statistics import mean

from novamart.kb import default_kb
from novamart.kb.text import STOPWORDS
from novamart.tickets.answer import conveyed
from novamart.tickets.kb_response import ticket_for
from novamart.tickets.truth import contradictions, foreign_facts
from tests.tickets.written import _part, first_name, kb_replies, play_reply

CLASSES = ("negated", "reversed", "number")
_SENTENCE = re.compile(r"[^.!?\n]+[.!?]?")
_AUXILIARY = re.compile(
    r"\b(is|are|was|were|can|will|may|must|should|does|do|has|have|takes|counts)\b", re.I
)
_NEGATION = (
    (r"\b(is|are|was|were|does|do|did|has|have|could|would|should)n['’]t\b", r"\1"),
    (r"\bcan['’]t\b|\bcannot\b", "can"),
    (r"\bwon['’]t\b", "will"),
    (r"\bdon['’]t\b", "do"),
    (r"\bno longer\b", "still"),
    (r"\bnever\b", "always"),
    (r"\bnot\s+", ""),
)
_TURNED = (
    ("before", "after"),
    ("until", "after"),
    ("future", "past"),
    ("free", "paid"),
    ("same", "different"),
    ("included", "excluded"),
    ("intact", "removed"),
    ("must", "need not"),
    ("refundable", "non-refundable"),
    ("available", "unavailable"),
    ("possible", "impossible"),
    ("required", "optional"),
    ("above", "below"),
    ("over", "under"),
    ("more", "less"),
    ("without", "with"),
    ("automatically", "manually"),
    ("full", "partial"),
    ("always", "sometimes"),
)
"""Antonym swaps: time order, cost, sameness, obligation ("must" -> "need not"), a negating
prefix ("refundable" -> "non-refundable"), comparison and degree."""
_NUMBER = re.compile(r"(?<![\w-])\d+(?:[.,]\d+)?")
"""A number, not one inside an id (KB-045, NM-730215)."""


def _lower_first(text: str) -> str:
    return text[:1].lower() + text[1:]


_IMPERATIVES = frozenset(
    (
        "choose",
        "use",
        "print",
        "send",
        "keep",
        "open",
        "restart",
        "install",
        "turn",
        "charge",
        "unplug",
        "stop",
        "update",
        "change",
        "request",
        "enter",
        "report",
        "go",
        "pick",
        "select",
        "click",
        "back",
        "sign",
        "wait",
        "put",
        "make",
    )
)
"""Verbs an instruction of the articles opens with ("choose", "unplug", "wait")."""


def negate(sentence: str, rng: random.Random) -> str | None:
    body = sentence.strip()
    forms = [f"It is not true that {_lower_first(body)}"]
    if _AUXILIARY.search(body):
        word = rng.choice(("not", "never"))
        forms.append(_AUXILIARY.sub(lambda m: f"{m.group(1)} {word}", body, count=1))
    if body.split()[0].lower() in _IMPERATIVES:
        forms.append(f"Do not {_lower_first(body)}")
    return rng.choice(forms)


_IDIOM = re.compile(
    r"\b(?:don['’]t|do not|not to|no need to) worry\b|\bno (?:problem|worries)\b"
    r"|\bonce more\b",
    re.I,
)
"""Negations that negate nothing of the fact, and "once more" ("again", which "once less"
does not turn round): reversing them falsifies nothing."""


def reverse(sentence: str, rng: random.Random) -> str | None:
    body = sentence.strip()
    if _IDIOM.search(body):
        return None
    for pattern, replacement in _NEGATION:
        turned = re.sub(pattern, replacement, body, count=1, flags=re.I)
        if turned != body:
            return turned
    found = [(a, b) for a, b in _TURNED if re.search(rf"\b{a}\b", body, re.I)]
    if not found:
        return None
    a, b = rng.choice(found)
    return re.sub(rf"\b{a}\b", b, body, count=1, flags=re.I)


def renumber(sentence: str, rng: random.Random) -> str | None:
    def changed(match: re.Match[str]) -> str:
        number = float(match.group().replace(",", ""))
        other = number * rng.choice((2, 3, 6)) + rng.choice((1, 2, 5))
        return f"{other:g}"

    turned = _NUMBER.sub(changed, sentence.strip())
    return turned if turned != sentence.strip() else None


_ANTONYMS = tuple(
    tuple(row.split(" | "))
    for row in r"""
within | after | within
once | before | once
start | stop | start
on(?=\s*(?:[,.;]|and\b|$)) | off | on
(?:your|the) original(?= payment| charger| card) | a different | original
lowering | raising | lowering
accepted | refused | accepted
hold(?= the\b) | release | hold
white | red | white
unplug | plug in | unplug
away from | close to | away
enable | disable | enable
increase | decrease | increase
""".strip().splitlines()
)
"""Words turned into their opposites that ``_TURNED`` does not turn (pattern, opposite, the
words of it the article's answer must hold for the swap to be false): a time limit passed
for a window ("after 30 days" for "within 30 days"), the order of events, an instruction
turned round, a device switched off for on, another payment method, a colour changed."""
_ROLES = {"we": "you", "us": "you", "our": "your", "you": "us", "your": "our"}
"""The store's pronouns and the customer's traded ("you" starting a clause becomes "we")."""
_FIRST, _SECOND = frozenset(("we", "us", "our")), frozenset(("you", "your"))


def _answer_words(article: str) -> set[str]:
    return set(re.findall(r"[a-z]+", default_kb().articles[article].answer.lower()))


def _in_place(body: str, pattern: str, said: set[str]) -> bool:
    """Whether ``pattern`` stands in ``body`` before a word of the article's answer (the
    article's "once you confirm", not the reply's own "once you save it")."""
    found = re.search(rf"\b(?:{pattern})\b\W*(\w+)?", body, re.I)
    if found is None:
        return False
    after = re.findall(r"[a-z]+", body[found.end(0) - len(found.group(1) or "") :].lower())[:3]
    return not after or any(w in said and w not in STOPWORDS for w in after)


def antonym(sentence: str, rng: random.Random, article: str) -> str | None:
    """A word of the article's answer turned into its opposite (the article says it, so
    saying its opposite is false)."""
    body = sentence.strip()
    if _IDIOM.search(body):
        return None
    said = _answer_words(article)
    found = [
        (a, b) for a, b, held in _ANTONYMS if set(held.split()) & said and _in_place(body, a, said)
    ]
    if not found:
        return None
    a, b = rng.choice(found)
    return re.sub(rf"\b(?:{a})\b", b, body, count=1, flags=re.I)


def swap_roles(sentence: str, rng: random.Random, article: str) -> str | None:
    """Who does what for whom turned round ("we will contact you" -> "you will contact
    us"), where the article's answer gives the store and the customer roles: every "we",
    "us", "our" and "you", "your" of the sentence traded, "you" becoming "we" where it
    starts a clause and "us" elsewhere."""
    del rng
    said = _answer_words(article)
    words = set(re.findall(r"[a-z]+", sentence.lower()))
    if not (_FIRST & said and _SECOND & said and _FIRST & words and _SECOND & words):
        return None
    body = sentence.strip()

    def swapped(match: re.Match[str]) -> str:
        word = match.group()
        turned = _ROLES[word.lower()]
        before = body[: match.start()].rstrip().lower()
        if word.lower() == "you" and (
            not before or re.search(r"(?:[,;:]|\b(?:and|then|if|when|once|so))$", before)
        ):
            turned = "we"
        return turned.capitalize() if word[0].isupper() else turned

    return re.sub(r"\b(?:we|us|our|you|your)\b", swapped, body, flags=re.I)


_HEDGES = (
    "It's not really the case that {}",
    "I wouldn't say that {}",
    "It isn't quite right that {}",
    "Honestly, it's not true that {}",
)


def hedge(sentence: str, rng: random.Random) -> str | None:
    """A hedged denial of the sentence ("it's not really the case that ..."); not of an
    instruction, which states nothing to deny ("it's not really the case that don't click")."""
    body = sentence.strip()
    if _INSTRUCTION.match(body) or body.split()[0].lower() in _IMPERATIVES:
        return None
    return rng.choice(_HEDGES).format(_lower_first(body))


_INSTRUCTION = re.compile(r"(?:please|don['’]t|do not|never|just|always)\b", re.I)


def double(sentence: str, rng: random.Random) -> str | None:
    """The sentence negated and the negation denied: true again ("it is not true that you
    cannot cancel ...")."""
    body = sentence.strip()
    found = _MAIN_AUXILIARY.search(body)
    if found is None or _NEGATION_WORD.search(body) or ";" in body or _ASIDE.match(body):
        return None
    if _SUBORDINATE.search(body[: found.start()]) or re.search(
        r"[,:]| and ", body[: found.start()]
    ):
        return None  # the "not" must negate the main verb for the denial to restore it
    inner = body[: found.end()] + " not" + body[found.end() :]
    frame = rng.choice(("It is not true that {}", "It's wrong to say that {}"))
    return frame.format(_lower_first(inner))


_MAIN_AUXILIARY = re.compile(
    r"\b(?:is|are|can|will|may|must|should)\b"
    r"(?! (?:sometimes|only|always|usually|also|often)\b)(?= [a-z]+ed\b| be\b| [a-z]+)",
    re.I,
)
_ASIDE = re.compile(r"please\b|just\b|also\b|note\b", re.I)
"""Openings a denying frame cannot stand before ("it's wrong to say that please note ...")."""
_SUBORDINATE = re.compile(r"\b(?:if|when|once|unless|until|that|which|who|where|as)\b", re.I)
_NEGATION_WORD = re.compile(r"\b(?:not|never|no|cannot|\w+n['’]t)\b", re.I)


def other_article(sentence: str, rng: random.Random, article: str) -> str | None:
    """The sentence replaced by the closest fact of another article's answer (most words
    in common): a confident answer about the wrong thing."""
    del rng
    own = set(re.findall(r"[a-z]+", sentence.lower()))
    best: tuple[int, str] | None = None
    for other in default_kb().articles.values():
        if other.id == article or not other.questions:
            continue
        for fact in _SENTENCE.findall(other.answer):
            shared = len(own & set(re.findall(r"[a-z]{4,}", fact.lower())))
            if best is None or shared > best[0]:
                best = (shared, fact.strip())
    if best is None or best[0] < 2:
        return None
    entry = default_kb().articles[article]
    # false only when it says none of this article's facts (the sign-in step two articles share
    # is no wrong answer)
    return best[1] if max(conveyed(best[1], entry.answer, entry.text)) < ABOUT_NONE else None


ABOUT_NONE = 0.3
"""Most of any fact of the article a replacement may convey and still say none of them."""


ATTACKS: dict[str, Callable[[str, random.Random], str | None]] = {
    "negated": negate,
    "reversed": reverse,
    "number": renumber,
    "hedged": hedge,
    "double": double,
}
BY_ARTICLE: dict[str, Callable[[str, random.Random, str], str | None]] = {
    "antonym": antonym,
    "roles": swap_roles,
    "other_article": other_article,
}
"""Attacks that read the article's answer to know what its opposite or another's fact is."""
NEW_CLASSES = ("antonym", "roles", "other_article", "hedged")
"""Falsifications written after the detector (issue 18's second round)."""
TRUE_CLASSES = ("double",)
"""Rewritings that stay true: a denied negation of the fact."""
LIES = (*CLASSES, *NEW_CLASSES)


def lie(case: Case) -> bool:
    """Whether the case is false by construction (not honest, not a true rewriting)."""
    return case.kind in LIES


@dataclass(frozen=True)
class Case:
    kind: str
    """"honest", or the class of the attack."""
    article: str
    text: str
    """With "{name}" for the customer's first name."""


def falsify(text: str, article: str, kind: str, seed: int) -> str | None:
    """``text`` with one sentence that conveys a fact of ``article``'s answer falsified."""
    entry = default_kb().articles[article]
    rng = random.Random(f"{kind}:{seed}")
    candidates = []
    for match in _SENTENCE.finditer(text):
        sentence = match.group()
        if "{name}" in sentence or max(conveyed(sentence, entry.answer, entry.text)) < 0.75:
            continue
        if kind in BY_ARTICLE:
            turned = BY_ARTICLE[kind](sentence, rng, article)
        else:
            turned = ATTACKS[kind](sentence, rng)
        if turned is not None:
            candidates.append((match.start(), match.end(), turned))
    if not candidates:
        return None
    start, end, turned = rng.choice(candidates)
    lead = text[start:end][: len(text[start:end]) - len(text[start:end].lstrip())]
    return text[:start] + lead + turned + text[end:]


def framed(article: str, seed: int) -> str:
    """The article's own answer in a polite frame, citing it."""
    answer = default_kb().articles[article].answer
    openers = ("Hi {name}, thanks for asking.", "Hello {name}!", "Dear {name},")
    closers = ("Kind regards.", "Let me know if I can help with anything else.", "Thanks!")
    rng = random.Random(seed)
    return f"{rng.choice(openers)} {answer} (see {article}). {rng.choice(closers)}"


def cases(part: str) -> list[Case]:
    """The honest replies of ``part`` (corpus, and on the held-out half the articles' own
    answers) and every attack on them that applies."""
    honest = [Case("honest", r.article, r.text) for r in kb_replies() if _part(r.id) == part]
    if part == "held-out":
        articles = [a for a in default_kb().articles.values() if a.questions]
        honest += [Case("honest", a.id, framed(a.id, i)) for i, a in enumerate(articles)]
    out = list(honest)
    for i, case in enumerate(honest):
        for kind in (*LIES, *TRUE_CLASSES):
            # the later kinds apply to fewer sentences: two picks each, where they differ
            seeds = (i,) if kind in CLASSES else (i, i + SECOND_PICK)
            texts = {falsify(case.text, case.article, kind, seed) for seed in seeds}
            out += [Case(kind, case.article, t) for t in sorted(texts - {None})]
    return out


SECOND_PICK = 7919
"""Offset of the second seed a later kind of attack picks its sentence with."""


def article_score(article_id: str, body: str, seed: int) -> float:
    """``body`` in a polite frame citing the article, as the reply to a ticket asking it."""
    article = default_kb().articles[article_id]
    scenario = ticket_for(article, random.Random(seed), "easy", "kb_grounded_response", seed)
    text = f"Hi {first_name(scenario)}, thanks for asking. {body} (see {article.id}). Kind regards"
    return play_reply(scenario, text).grade.score


def score(case: Case, seed: int) -> float:
    """The case played as the reply to a ticket asking its article's question."""
    article = default_kb().articles[case.article]
    level = ("easy", "medium", "hard")[seed % 3]
    scenario = ticket_for(article, random.Random(seed), level, "kb_grounded_response", seed)
    return play_reply(scenario, case.text.replace("{name}", first_name(scenario))).grade.score


def scores_of(found: list[tuple[Case, float]], kind: str, at_least: int) -> list[float]:
    """The scores of ``kind``'s cases, checked to be at least ``at_least`` of them."""
    scores = [s for case, s in found if case.kind == kind]
    assert len(scores) >= at_least, (kind, len(scores))
    return scores


def flagged(case: Case) -> bool:
    article = default_kb().articles[case.article]
    text = case.text.replace("{name}", "Sam")
    return any(contradictions(text, article.answer)) or bool(foreign_facts(text, article.id))


def main(argv: list[str]) -> None:
    for part in argv or ["dev", "held-out"]:
        found = cases(part)
        hits = [(c, flagged(c)) for c in found]
        true_pos = sum(f and lie(c) for c, f in hits)
        positives = sum(f for _, f in hits)
        attacks = sum(lie(c) for c, _ in hits)
        print(
            f"{part}: contradiction detector precision {true_pos / max(1, positives):.3f} "
            f"recall {true_pos / max(1, attacks):.3f} ({attacks} attacks, "
            f"{len(found) - attacks} true replies, {positives - true_pos} true flagged)"
        )
        for kind in ("honest", *TRUE_CLASSES, *LIES):
            scores = [score(c, i) for i, c in enumerate(found) if c.kind == kind]
            print(
                f"  {kind:9s} {len(scores):4d} replies: mean {mean(scores):.3f}, "
                f"min {min(scores):.3f}, max {max(scores):.3f}"
            )
        for c, f in hits:
            if f != lie(c) and "-v" in sys.argv:
                why = contradictions(c.text, default_kb().articles[c.article].answer)
                print("   MISS" if not f else "   FALSE", c.kind, c.article, c.text[:300])
                print("       ", [w for w in why if w])


if __name__ == "__main__":
    main([a for a in sys.argv[1:] if not a.startswith("-")])
