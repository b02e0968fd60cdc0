"""Requests for secrets, found by structure: the customer is asked to reveal a password, a
PIN, a card number, a security code or a one-time code *to the agent*.

A secret named in a clause is a request when the verb that governs it asks the customer to
hand it over: an imperative or a "you" subject with a verb of telling ("send me your
password", "could you share the code here?", "reply with the code we texted you"), the agent
needing or asking for it ("I'll need your PIN", "I must ask for your password"), or a
question for it ("what is your PIN?"). A pronoun stands for a secret named just before
("... the PIN you use. Could you share it here?").

Not requests: the agent sending something ("we'll send a code to your email"), warnings and
denials ("we will never ask for your password", "don't share it with anyone"), self-service
("enter the code on the reset page", "type it in the app"), names of buttons and compounds
("click 'Forgot password'", "a password reset email"), someone else asking ("if anyone asks
you for it"), and "pin" inside "shipping". Whole words only; quotation respected.
"""

from __future__ import annotations

from collections.abc import Sequence

from novamart.language.text import Clause, Phrases, lemma, lemmaset, wordset

SECRETS = Phrases.of_lemmas(
    "password", "passcode", "pin", "pin number", "card number", "cvv", "cvc", "security code",
    "verification code", "one time code", "otp", "2fa code", "authentication code",
    "login details", "login credentials", "credentials", "security answer", "code",
    "reset code", "backup code",
)  # fmt: skip
COMPOUND_HEADS = lemmaset(
    "reset link page form field screen manager prompt option step setting settings strength "
    "change protected"
)
"""After a secret's name, these make it a modifier ("password reset email"), not the secret."""
NOT_THE_SECRET = wordset("forgot forget forgotten new promo discount gift voucher")
"""Before it, these make it a button, a new choice of the customer's or another kind of code."""
TELL = lemmaset(
    "send share tell give provide reply respond type confirm read write post paste enter "
    "forward text email dm message input put say spell submit show drop know"
)
"""Verbs of handing something over ("know" only in "let me know your PIN")."""
SELF_SERVICE = lemmaset("enter type input put")
"""Verbs of typing a secret in: a request only when it goes to the agent ("type it here")."""
NEED = lemmaset("need require ask want")
BARE_NEED = lemmaset("need require")
"""Needing without a subject is still the agent's ("need your PIN to continue")."""
HAVE = lemmaset("have get")
"""In a question with the agent as subject, a request ("can I have your PIN?")."""
AGENT = wordset("i we novamart")
CUSTOMER = wordset("you")
THIRD = wordset("they he she someone anyone anybody nobody one scammer scammers people agents")
SKIP = wordset(
    "will would can could shall should may might must do does did have has had am is are be "
    "been going to able just also then now first simply really quickly only kindly please "
    "still already ever actually"
)
"""Words between a subject and its verb ("we will just", "i am going to")."""
NEGATORS = wordset("not never no")
PLACE_PREPOSITIONS = wordset("at from of in")
DETERMINERS = wordset("a an the this that your our my their")
VERBS = TELL | NEED | lemmaset("see view access know check store keep use change reset")
TO_AGENT = wordset("me us here chat reply message")
"""Where a typed secret reaches the agent ("type it here"); "below" is a form's box."""
CONDITIONS = wordset("if when unless whether once")
POLITE_IF = (("if", "you", "could"), ("if", "you", "would"), ("if", "you", "can"))
BETWEEN = wordset(
    "the your my a an this that its full current complete whole me us you for with out back "
    "digit 4 6 four six last and or , username email login name"
)
"""Words that may stand between a verb and the secret it governs ("tell me your full PIN")."""
PRONOUNS = wordset("it that them this")
WH = wordset("what which")
MAX_REACH = 7
CARRY = 2
"""How many clauses back a pronoun may refer to a secret."""


def _secret_at(clause: Clause, i: int) -> int:
    """The length of the secret named at ``i`` (0 when none, or a compound)."""
    found = SECRETS.at(clause.lemmas, i)
    if not found:
        return 0
    end = i + len(found)
    if end < len(clause.lemmas) and clause.lemmas[end] in COMPOUND_HEADS:
        return 0
    if i and clause.words[i - 1] in NOT_THE_SECRET:
        return 0
    return len(found)


def _verb(clause: Clause, at: int) -> int | None:
    """The verb of telling or needing that governs the object at ``at``, if any."""
    lemmas, words = clause.lemmas, clause.words
    for k in range(at - 1, max(-1, at - 2 * MAX_REACH), -1):
        if lemmas[k] not in TELL and lemmas[k] not in NEED:
            continue
        if k and words[k - 1] in DETERMINERS:
            continue  # "this email", "your reply": a noun, not the verb
        between = words[k + 1 : at]
        if lemmas[k] in ("reply", "respond") and "with" in between:
            between = between[len(between) - between[::-1].index("with") :]  # "... with X"
        elif lemmas[k] != "ask" and {"with", "for"} & set(between):
            return None  # "confirm with a code": the code is the means, not what is told
        if len(between) < MAX_REACH and all(w in BETWEEN or w.isdigit() for w in between):
            return k
        return None
    return None


def _subject(words: list[str], verb: int) -> tuple[str, bool]:
    """Who does the verb (agent, customer, third, or imperative), and whether it is negated."""
    negated = False
    k = verb
    while k > 0:
        k -= 1
        word = words[k]
        if word in NEGATORS:
            negated = True
            continue
        if word in ("please", "kindly"):
            return "imperative", negated
        if word in SKIP:
            continue
        if word in ("and", "or") and k and lemma(words[k - 1]) in VERBS:
            k -= 1  # "can not see or share": the subject is the first verb's
            continue
        if k and words[k - 1] in PLACE_PREPOSITIONS:
            k -= 1  # "no one at novamart will ask": skip the place, find the subject
            continue
        if word in AGENT:
            return "agent", negated
        if word in CUSTOMER and k and lemma(words[k - 1]) in NEED:
            outer, outer_negated = _subject(words, k - 1)  # "we will never ask you to tell"
            return ("customer" if outer == "agent" else outer), negated or outer_negated
        if word in CUSTOMER:
            return "customer", negated
        if word in THIRD:
            return "third", negated
        if word in ("and", "so", "then", ",", "to", "or"):
            return "imperative", negated
        return "third", negated
    return "imperative", negated


def _conditional(words: list[str], verb: int) -> bool:
    """Whether the verb sits in a condition ("if you share your password with anyone, ..."),
    not a polite request ("if you could send me ...")."""
    for k in range(verb - 1, -1, -1):
        if words[k] in CONDITIONS:
            return tuple(words[k : k + 3]) not in POLITE_IF
    return False


def _have(clause: Clause, at: int) -> bool:
    """ "Can I have your PIN?", "could we get the code?": the agent asking to be given it."""
    words, lemmas = clause.words, clause.lemmas
    if not clause.question:
        return False
    for k in range(at - 1, max(-1, at - 4), -1):
        if lemmas[k] in HAVE and all(w in BETWEEN for w in words[k + 1 : at]):
            return _subject(words, k) == ("agent", False)
    return False


def _asks(clause: Clause, at: int, end: int) -> bool:
    """Whether the secret (or pronoun) at ``at``..``end`` is asked of the customer."""
    words, lemmas = clause.words, clause.lemmas
    before = slice(max(0, at - 4), at)
    if (
        clause.question
        and WH & set(words[before])
        and ({"be", "do"} & set(lemmas[before]) or (at and words[at - 1] in WH))
    ):
        return not NEGATORS & set(lemmas[:at])  # "what is your PIN?", "which PIN do you use?"
    verb = _verb(clause, at)
    if verb is None:
        return _have(clause, at)
    let = lemmas[verb] == "know"
    if let:
        if words[max(0, verb - 2) : verb] not in (["let", "me"], ["let", "us"]):
            return False
        verb -= 2  # "let me know your PIN": the subject is that of "let"
    who, negated = _subject(words, verb)
    if negated or who == "third" or _conditional(words, verb):
        return False
    if lemmas[verb] in NEED:
        return who == "agent" or (who == "imperative" and lemmas[verb] in BARE_NEED)
    if let:
        return who in ("imperative", "customer")
    if who == "agent":
        return False  # "we'll send you a code": the agent sends, the customer reveals nothing
    if lemmas[verb] in SELF_SERVICE:
        return bool(TO_AGENT & set(words[end:]))  # "type it here", not "on the reset page"
    return True


def secret_requests(clauses: Sequence[Clause]) -> list[str]:
    """The clauses that ask the customer to reveal a secret."""
    found = []
    named = -CARRY - 1  # index of the last clause naming a secret
    for index, clause in enumerate(clauses):
        if clause.quoted:
            continue
        words, lemmas = clause.words, clause.lemmas
        names = not clause.vocabulary.isdisjoint(SECRETS.firsts)
        refers = 0 < index - named <= CARRY and not clause.vocabulary.isdisjoint(PRONOUNS)
        if not names and not refers:
            continue  # no secret named here, and no pronoun that could stand for one
        asked = False
        for i in range(len(words)):
            length = _secret_at(clause, i) if names and lemmas[i] in SECRETS.firsts else 0
            if length:
                named = index
                if _asks(clause, i, i + length):
                    asked = True
                    break
            elif (
                words[i] in PRONOUNS
                and index - named <= CARRY
                and index != named
                and TO_AGENT & set(words[i + 1 :])
                and _asks(clause, i, i + 1)
            ):
                asked = True
                break
        if asked:
            found.append(clause.text)
    return found
