"""Requests for secrets, found by structure: the customer is asked to reveal a password, a
PIN, a card number, a security code or a one-time code *to the agent*.

"Send me your password" and "what is your PIN?" are requests; "we will never ask for your
password", "click 'Forgot password'", "we'll send a code to your email", "enter the code on
the sign-in page" and "shipping" are not. Whole words only, negation and quotation respected.
"""

from __future__ import annotations

from collections.abc import Sequence

from novamart.language.text import Clause, Phrases, lemma, wordset

SECRETS = (
    ("password",), ("passcode",), ("pin",), ("pin", "number"), ("card", "number"),
    ("cvv",), ("cvc",), ("security", "code"), ("verification", "code"), ("one", "time", "code"),
    ("otp",), ("2fa", "code"), ("authentication", "code"), ("login", "detail"),
    ("login", "credential"), ("credential",), ("code", "we", "sent"), ("code", "we", "text"),
    ("code", "we", "email"), ("code", "you", "receiv"), ("security", "answer"),
)  # fmt: skip
REVEAL = wordset(
    "send share tell give provid reply type confirm read write post past enter forward text "
    "email dm message"
)
ASKERS = (
    ("can", "you"), ("could", "you"), ("would", "you"), ("will", "you"), ("please",),
    ("i", "need"), ("we", "need"), ("i", "will", "need"), ("we", "will", "need"),
    ("i", "requir"), ("we", "requir"), ("i", "just", "need"), ("kindly",),
)  # fmt: skip
RECIPIENT = frozenset({"me", "us", "here", "chat", "reply", "below", "message", "email"})
ON_THE_SITE = frozenset({"site", "website", "page", "app", "screen", "form", "field", "box"})
NEGATORS = frozenset({"not", "never", "no"})


_REVEAL_LEMMAS = frozenset(lemma(w) for w in REVEAL)
_SECRETS = Phrases(tuple(lemma(w) for w in secret) for secret in SECRETS)


def _secret_at(words: list[str], lemmas: list[str], i: int) -> int:
    """The length of the secret named at ``i`` (0 when none), compared by lemma."""
    secret = _SECRETS.at(lemmas, i)
    return len(secret) if secret else 0


def _asks(words: list[str], lemmas: list[str], at: int) -> bool:
    """Whether the secret at ``at`` is the object of a request made to the customer."""
    head = lemmas[:at]
    if any(w in NEGATORS for w in head):
        return False
    what_is = (
        any(lemmas[k : k + 2] == ["what", "be"] for k in range(max(0, at - 4), at))
        and "your" in words[max(0, at - 3) : at]
    )
    if what_is:
        return True
    verb = next(
        (k for k in range(at - 1, max(-1, at - 6), -1) if lemmas[k] in _REVEAL_LEMMAS), None
    )
    if verb is None:
        return False
    if (
        words[verb] in ("send", "email", "text")
        and "you" in words[verb + 1 : at]
        and ("we" in words[:verb] or "i" in words[:verb])
    ):
        return False  # "we'll send you a code": the agent sends, the customer reveals nothing
    subject = words[verb - 1] if verb else ""
    if subject in ("we", "i", "they", "will") and not any(
        tuple(words[k : k + len(a)]) == a for a in ASKERS for k in range(verb)
    ):
        return False
    rest = set(words[at:])
    if words[verb] == "enter" and (rest & ON_THE_SITE) and not (rest & RECIPIENT):
        return False  # enter it on the sign-in page: that is how the customer proves it
    asked = verb == 0 or any(
        tuple(words[k : k + len(a)]) == a for a in ASKERS for k in range(verb + 1)
    )
    return asked or bool(set(words[verb + 1 :]) & RECIPIENT)


def secret_requests(clauses: Sequence[Clause]) -> list[str]:
    """The clauses that ask the customer to reveal a secret."""
    found = []
    for clause in clauses:
        if clause.quoted or not clause.vocabulary & _SECRETS.firsts:
            continue
        words, lemmas = clause.words, clause.lemmas
        for i in range(len(words)):
            if _secret_at(words, lemmas, i) and _asks(words, lemmas, i):
                found.append(clause.text)
                break
    return found
