"""Frames: the words opening a clause that say how its writer stands to the rest of it.

"It's not as if no gift card was added" asserts a gift card; "I wouldn't say the unit isn't
faulty" says, hedged, that it is faulty. A reader that counts only the clause's own
negations reads both backwards, and the frame's words fool its modality too ("as if" reads
as a condition, "would" as a hypothetical). So a frame is taken off the clause before it is
read: the clause is read as what the frame governs, with the frame's negations counted toward
its polarity (``Clause.framed``: a clause's polarity is the parity of its frame's negations
and its own).

Frames, by structure:
- a denial of truth: "it/this is not (the case | true | as if | as though | like | that)",
  "there is no (way | reason | chance | question)", "nobody can say";
- a denial of knowing or saying, in the writer's own voice: "I can't say", "I wouldn't
  say", "we cannot confirm (that)". It asserts nothing either way, so what it governs is
  read by parity and marked ``hedged``: a hedged claim never earns credit, and still costs
  when the record contradicts it (fail closed);
- an affirmation followed by "that": "it is true that", "I can confirm that" (no negation).

A frame is one only when what follows is a clause (it has a finite or past verb): "I can't
promise a refund" and "it's not that simple" keep their words.
"""

from __future__ import annotations

from dataclasses import replace

from novamart.language.text import Clause, has_verb, wordset

LEADS = wordset("and so but oh well also honestly frankly look kindly note please , : - *")
"""Words a frame may follow at the start of a clause ("Kindly note, there's no way ...")."""
MAX_LEAD = 4
NEGATORS = wordset("not no nobody never nothing none")
TRUTH_SUBJECTS = wordset("it this that")
COPULAS = wordset("is was")
SOFTENERS = wordset("really actually exactly quite just simply honestly")
TRUTH_HEADS = (("the", "case"), ("true",), ("as", "if"), ("as", "though"), ("like",), ("that",))
AFFIRMED_HEADS = (("the", "case"), ("true",))
THERE_HEADS = wordset("way reason chance question")
NOBODY = (("nobody",), ("no", "one"))
NOBODY_FIRSTS = frozenset(n[0] for n in NOBODY)
MODALS = wordset("can could will would do did")
AFFIRMING_MODALS = frozenset({None, "can"})
"""Affirmative frames assert now ("I can confirm that"); "I'll confirm that" promises."""
SAYING = wordset("say claim confirm tell promise guarantee verify pretend argue")
"""Verbs of asserting or knowing: negated in the writer's voice, they hedge."""
DENYING = wordset("deny")
"""A verb of saying that is itself a negation ("nobody can deny ...")."""
WRITER = wordset("i we")


def unframed(clause: Clause) -> Clause:
    """The clause its frame governs, with the frame's negations and hedge recorded (the
    clause itself when it opens with no frame); the words leading to the frame ("Kindly
    note, ...") stay, so what it governs reads as it would after them. Its text stays the
    whole clause's."""
    words = clause.words
    lead = 0
    while lead < min(MAX_LEAD, len(words)) and words[lead] in LEADS:
        lead += 1
    found = _frame(words, lead)
    if found is None:
        return clause
    end, flips, hedged = found
    if end < len(words) and words[end] == "that":
        end += 1
    if not has_verb(words[end:]):
        return clause
    tokens = clause.tokens[:lead] + clause.tokens[end:]
    kept = clause.words[:lead] + clause.words[end:]
    lemmas = clause.lemmas[:lead] + clause.lemmas[end:]
    return replace(
        clause,
        tokens=tokens,
        words=kept,
        lemmas=lemmas,
        vocabulary=frozenset(kept).union(lemmas),
        kinds=frozenset(t.kind for t in tokens),
        framed=clause.framed + flips,
        hedged=clause.hedged or hedged,
    )


def _frame(words: list[str], i: int) -> tuple[int, int, bool] | None:
    """(where the frame ends, its negations, whether it hedges) for a frame at ``i``."""
    first = words[i] if i < len(words) else ""
    if first in TRUTH_SUBJECTS:
        return _truth(words, i + 1)
    if first == "there":
        return _there(words, i + 1)
    for nobody in NOBODY if first in NOBODY_FIRSTS else ():
        if tuple(words[i : i + len(nobody)]) == nobody:
            return _said(words, i + len(nobody), 1, False)
    if first in WRITER:
        return _said(words, i + 1, 0, True)
    return None


def _truth(words: list[str], j: int) -> tuple[int, int, bool] | None:
    """After "it": "is not (really) the case", "was not that", "is true"."""
    if j >= len(words) or words[j] not in COPULAS:
        return None
    j += 1
    negated = j < len(words) and words[j] == "not"
    j += negated
    while j < len(words) and words[j] in SOFTENERS:
        j += 1
    for head in TRUTH_HEADS if negated else AFFIRMED_HEADS:
        if tuple(words[j : j + len(head)]) == head:
            end = j + len(head)
            if not negated and words[end : end + 1] != ["that"]:
                return None  # "it is true" alone is not a frame
            return end, int(negated), False
    return None


def _there(words: list[str], j: int) -> tuple[int, int, bool] | None:
    """After "there": "is no way", "was no reason"."""
    after = words[j : j + 3]
    if len(after) == 3 and after[0] in COPULAS and after[1] == "no" and after[2] in THERE_HEADS:
        return j + 3, 1, False
    return None


def _said(words: list[str], j: int, flips: int, own: bool) -> tuple[int, int, bool] | None:
    """After a subject: "can not say", "would not really say", "can confirm" + "that".
    In the writer's own voice (``own``), a negated verb of saying hedges."""
    modal = words[j] if j < len(words) and words[j] in MODALS else None
    j += modal is not None
    negated = j < len(words) and words[j] == "not"
    j += negated
    while j < len(words) and words[j] in SOFTENERS:
        j += 1
    if j >= len(words) or words[j] not in SAYING | DENYING:
        return None
    denying = words[j] in DENYING
    end = j + 1
    if words[j] == "tell" and words[end : end + 1] == ["you"]:
        end += 1
    flips += int(negated) + int(denying)
    if not flips and (words[end : end + 1] != ["that"] or modal not in AFFIRMING_MODALS):
        return None  # "I can confirm your refund", "I'll confirm that ...": no frame
    hedged = own and negated and not denying
    return end, flips, hedged
