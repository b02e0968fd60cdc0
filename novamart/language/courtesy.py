"""Courtesy and rudeness, read in context: "Hi" is polite, "this is not your fault" is not
rude, "whatever you prefer" is not dismissive, "calm down" is."""

from __future__ import annotations

from collections.abc import Sequence

from novamart.language.text import Clause, Phrases

POLITE = Phrases.of_lemmas(
    "hi", "hello", "hey", "dear", "good morning", "good afternoon", "good evening", "thank",
    "thanks", "sorry", "apologies", "apologise", "apologize", "please", "appreciate", "glad",
    "happy to help", "my pleasure", "you are welcome", "regards", "sincerely", "best wishes",
    "take care", "have a great", "have a good", "have a lovely", "have a nice", "hope",
    "understand", "cheers", "kind regards", "welcome", "do not hesitate", "reach out",
    "anything else", "let me know", "let us know", "happy to", "glad to", "kindly",
    "i can help", "help you", "we regret", "respectfully", "best regards", "warm regards",
)  # fmt: skip
RUDE = Phrases.of_lemmas(
    "stupid", "idiot", "dumb", "moron", "shut up", "calm down", "stop complaining",
    "deal with it", "not my problem", "your problem", "your fault", "get over it", "too bad",
    "tough luck", "i do not care", "pathetic", "useless", "you should have known",
    "read the policy", "stop whining", "figure it out", "not our problem", "you are ridiculous",
    "your request is ridiculous", "ridiculous request", "you should have read",
    "you should have", "read the faq", "next time", "sensible person", "repeating myself",
    "not my job", "why you bothered", "do not message", "stop messaging", "ugh",
    "as i already told you", "as i said", "like i said", "obviously", "goodbye",
    "do not contact us again", "waste of time", "your mistake", "your mistakes",
)  # fmt: skip
NEGATORS = frozenset({"not", "never", "no"})


def _negated(lemmas: list[str], i: int) -> bool:
    return any(w in NEGATORS for w in lemmas[max(0, i - 3) : i])


def courtesy(clauses: Sequence[Clause]) -> tuple[bool, bool]:
    """(polite: some courteous word not negated, rude: some rude phrase not negated)."""
    polite = rude = False
    for clause in clauses:
        lemmas = clause.lemmas
        vocabulary = clause.vocabulary  # positions() rules a clause out by it first
        if not polite and any(
            not _negated(lemmas, i) for i in POLITE.positions(lemmas, vocabulary)
        ):
            polite = True
        if clause.quoted:
            continue
        if any(not _negated(lemmas, i) for i in RUDE.positions(lemmas, vocabulary)):
            rude = True
        if clause.words in (["whatever"], ["whatever", "."]):
            rude = True
    return polite, rude
