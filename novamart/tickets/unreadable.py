"""Negations English cannot read, so a sentence holding one says nothing for sure.

A negator inserted where no English puts it leaves its clause without a reading: "please do
not it quick" (a do-support "not" before no verb), "nothing you need to do not" (a "not" after
an infinitive's verb), "it is not true that don't click anything" (a denial of an instruction,
which states nothing to deny). Such a sentence may have meant the article's fact or its
opposite; a grader that cannot tell fails closed: every fact the sentence states counts as
contradicted (``novamart.tickets.truth``). The honest shapes stay readable: "do not wait",
"you don't need to do anything", "please don't click it", "please don't."
"""

from __future__ import annotations

from novamart.tickets.answer import DETERMINERS, MODALS, PREPOSITIONS, Unit

DO = frozenset(("do", "does", "did"))
NO_VERB = (
    DETERMINERS
    | PREPOSITIONS
    | MODALS
    | frozenset(("it", "them", "us", "me", "him", "her", "anything", "something", "everything"))
)
"""Words a do-support "not" cannot stand before: it negates a verb, and none of these opens
one ("do not it", "do not the", "do not to")."""
INSTRUCTING = frozenset(("please",))
"""Words opening an instruction, which a denying frame cannot deny ("... that please ...")."""


def unreadable(unit: Unit, frames: list[int]) -> str | None:
    """The stretch of ``unit`` holding a negation English cannot read, or None; ``frames``
    are the positions of its denying frames' "that" ("it is not true that ...")."""
    words, clause = unit.words, unit.clause
    for i, negates in enumerate(unit.negates):
        if not negates or i == 0 or words[i - 1] not in DO:
            continue
        nxt = words[i + 1] if i + 1 < len(words) and clause[i + 1] == clause[i] else None
        infinitive = i >= 2 and words[i - 2] == "to"  # "to do not": not after the verb
        if infinitive or (nxt is not None and nxt in NO_VERB):
            return " ".join(words[max(0, i - 3) : i + 3])
    for that in frames:
        opening = words[that + 1 : that + 3]
        instruction = len(opening) == 2 and opening[0] in DO and unit.negates[that + 2]
        if instruction or (opening and opening[0] in INSTRUCTING):
            return " ".join(words[max(0, that - 4) : that + 5])
    return None
