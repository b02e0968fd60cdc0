"""Coverage: a clause saying that a policy covers the case ("you're covered by our defect
policy", "it falls under the standard return policy", "you don't qualify under the goodwill
policy").

Such a clause claims what the kernel decides: whether that policy is eligible on the case's
facts. The policy is found by its name as the rules write it: the words before "policy" are
matched against each policy's hints (the words of its name and of its conditions' names, as
the lexicon's windows are: "the defect policy" is defective_item). A policy the words do not
single out is no policy of the rules, so the claim is unverifiable (fail closed). Its polarity
is the clause's (the reader counts it, frames included: "there's no way you're not covered").
"""

from __future__ import annotations

from dataclasses import dataclass

from novamart.language.lexicon import Lexicon
from novamart.language.text import Clause, lemmaset, wordset

COVERING = lemmaset("cover covered qualify eligible fall falls apply applies")
"""Predicates saying that a policy takes the case in."""
UNDER = wordset("by under for within")
POLICY = lemmaset("policy policies programme program scheme")
THE_CASE = wordset("you your it this u ur claim case purchase order return item unit device")
"""A subject that is the customer or their case ("you're covered", "it falls under", "ur",
"claim is covered under ..."; a plural, "items with a defect are covered", is a rule)."""
NAME_SPAN = 3
"""How many words before "policy" may name it ("our standard return policy")."""
NAME_STOPS = wordset("the our a an your this that its by under for of")


@dataclass(frozen=True, slots=True)
class Coverage:
    """A policy said to take the case in: the rules' policy its words single out (None: no
    policy of the rules)."""

    policy: str | None


def covering_policy(clause: Clause, lexicon: Lexicon) -> Coverage | None:
    """What policy the clause says covers the case (None: it says nothing of one)."""
    lemmas = clause.lemmas
    if COVERING.isdisjoint(lemmas) or POLICY.isdisjoint(lemmas):
        return None
    verb = next(i for i, w in enumerate(lemmas) if w in COVERING)
    if THE_CASE.isdisjoint(clause.words[:verb]):
        return None  # ("items with a verified defect are covered by ...": a generic rule)
    head = next((i for i in range(verb + 1, len(lemmas)) if lemmas[i] in POLICY), None)
    if head is None or UNDER.isdisjoint(clause.words[verb + 1 : head]):
        return None  # ("the policy covers returns": no case taken in)
    named = set()
    for w in reversed(lemmas[max(verb + 1, head - NAME_SPAN) : head]):
        if w in NAME_STOPS:
            break
        named.add(w)
    overlaps = {p: len(named & hints) for p, hints in lexicon.policy_hints.items()}
    best = max(overlaps.values(), default=0)
    found = [p for p, n in overlaps.items() if n == best]
    return Coverage(found[0] if best and len(found) == 1 else None)
