"""The article's propositions a reply can turn round without changing its words much.

``novamart.tickets.truth`` compares a stretch of the reply that states a fact with the fact
by its negators, opposites and numbers. Three shapes of falsehood slip past it, because the
words that carry them are few or outside the stretch; here each is read as a proposition of
the fact and of a sentence of the reply and compared:

- **order**: "A before B", "A, then B", "after B, A", "once B, A" say A precedes B. The fact
  and a reply sentence each give (what precedes, what follows) as sets of content words; the
  reply reverses the fact when what it puts first the fact puts last and the other way
  round ("check with your neighbours after contacting us" for "check with neighbours, then
  contact us"; "after a repair, copy your data" for "back up your data before any repair").
- **polarity of a predication**: a negator in the fact between a word and what it says of
  it ("a charge on your card isn't yours", "any order that hasn't shipped"); the reply
  holds both words close together in one sentence, and nowhere with a negator between
  them ("a charge on your card is yours"): the negation was dropped.
- **a universal weakened**: a stretch that states the fact with a limiting frequency word
  the fact does not have ("refunds sometimes go back to your original payment method");
- **who pays**: the fact calls something prepaid or free and the reply has the customer
  paying for it ("you pay for the return label", "the label is charged to you");
- **an alternative affirmed**: the fact offers something "instead" once an event has
  happened; "instead" denies the option before it under the same condition, so a reply
  saying that option is possible there ("once it's on its way, cancelling is possible; you'd
  start a return instead") turns the fact round;
- **roles**: who does what for whom, the store ("we", "our team") and the customer ("you")
  on the two sides of a word of the fact; "you will contact our team" for "our team will
  contact you" swaps them (a passive, "you will be contacted by our team", keeps them);
- **aspect**: "still" with a perfect says what has *not* happened yet ("if it still hasn't
  turned up"); "still has turned up" drops that negation (an English perfect takes "still"
  only negated, "already" when it is not).

Words are compared by lemma and, for order, by their first five letters ("checkout" and
"check out"), so a paraphrase that keeps the relation keeps the verdict.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable

from novamart.kb.text import STOPWORDS
from novamart.language.text import lemma
from novamart.tickets.answer import AUXILIARIES, DETERMINERS, MODALS, Fact, Unit

PRECEDES = frozenset(("before", "then"))
"""Connectives whose left side happens first ("A before B", "A, then B")."""
FOLLOWS = frozenset(("after", "once", "when"))
"""Connectives whose left side happens last ("A after B"; fronted: "after B, A")."""
WINDOW = 4
"""Content words a fronted connective's own side holds ("after a repair, exchange or return")."""
PREFIX = 5
FRONT = 2
"""Content words before a clause-opening connective that still leave it fronted ("hi Sam,
after a repair, ..."); more, and it closes the sentence ("codes go in the basket, after
you check out")."""
LIMITING = frozenset(("sometimes", "rarely", "seldom", "occasionally", "hardly"))
"""Frequency words that turn "X does Y" into "X does Y now and then"."""
POSSIBLE = frozenset(("can", "may", "might", "could", "usually", "often", "some", "most"))
"""A fact already limited: "large orders can arrive in separate parcels" is "sometimes"."""
SKIPPED = AUXILIARIES | MODALS | DETERMINERS | frozenset(("to", "be", "been", "yet", "ever"))
NEAR = 6
"""Words between the two sides of a predication in the reply ("charge on your card is yours")."""


def key(word: str) -> str:
    """A word by its first letters, so "checkout" meets "check out" and "expiry" "expire"."""
    return lemma(word)[:PREFIX]


def _content(words: Iterable[str]) -> frozenset[str]:
    return frozenset(key(w) for w in words if w not in STOPWORDS and w.isalpha())


def _orders(unit: Unit) -> list[tuple[frozenset[str], frozenset[str], int]]:
    """(what precedes, what follows, where the connective stands) for each ordering
    connective of the sentence; each side reaches no further than the next connective ("A
    before B, and then C": A before B, B before C)."""
    words = unit.words
    out = []
    at = [i for i, w in enumerate(words) if w in PRECEDES | FOLLOWS and _connects(unit, i)]
    main: frozenset[str] | None = None
    for n, i in enumerate(at):
        word = words[i]
        lo, hi = (at[n - 1] + 1 if n else 0), (at[n + 1] if n + 1 < len(at) else len(words))
        anaphoric = word != "then" and _anaphoric(unit, i)  # "after that, report" is "then"
        opens = i == 0 or (unit.clause[i] != unit.clause[i - 1] and word != "then")
        fronted = not anaphoric and opens and len(_content(words[lo:i])) <= FRONT
        after = [w for w in words[i + 1 : hi] if w not in STOPWORDS and w.isalpha()]
        left, right = _content(words[lo:i]), _content(after)
        if word == "then" and n and words[at[n - 1]] != "then" and main is not None:
            left = main  # "back up before any repair, and then sign out": the backing up
        if fronted:  # "after B, A": B is the connective's clause (or its first few words)
            side = _content(_own_side(unit, i)) or _content(after[:WINDOW])
            rest = _content(w for w in words[i + 1 : hi] if key(w) not in side)
            if rest:  # else "A, after B": the clause closes the sentence
                left, right = rest, side
        if not left or not right:
            continue
        main = None if fronted else _content(words[lo:i])
        precedes = word in PRECEDES or (anaphoric and word == "after")
        first, last = (left, right) if precedes else (right, left)
        out.append((first, last, i))
    return out


SUBJECTS = frozenset(
    ("it", "you", "we", "they", "he", "she", "i", "the", "your", "a", "an", "its", "this",
     "that", "there", "our", "any", "every", "each")
)  # fmt: skip
"""What follows "once" when it joins two events ("once it has shipped"; not "once more")."""
ANAPHORS = frozenset(("that", "this", "which"))


def _connects(unit: Unit, i: int) -> bool:
    """Whether the word at ``i`` joins two events ("pair it once more" does not)."""
    if unit.words[i] != "once":
        return True
    return i + 1 < len(unit.words) and (
        unit.words[i + 1] in SUBJECTS or unit.words[i + 1].endswith(("ed", "en"))
    )


def _anaphoric(unit: Unit, i: int) -> bool:
    """ "after that," / "before this,": the connective's object is what was said before."""
    j = i + 1
    return (
        j < len(unit.words)
        and unit.words[j] in ANAPHORS
        and (j + 1 == len(unit.words) or unit.clause[j + 1] != unit.clause[j])
    )


def _own_side(unit: Unit, i: int) -> list[str]:
    """A fronted connective's clause, with the short clauses of a list after it ("after a
    repair, exchange or return, copy ...": the list is the connective's side)."""
    words, clause = unit.words, unit.clause
    own = [w for k, w in enumerate(words) if k > i and clause[k] == clause[i]]
    nxt = clause[i] + 1
    while True:
        member = [w for k, w in enumerate(words) if clause[k] == nxt]
        following = any(c > nxt for c in clause)
        if not member or not following or len(_content(member)) > 2:
            return own
        own += member
        nxt += 1


def reversed_order(fact: Fact, read: tuple[Unit, ...]) -> str | None:
    """The stretch of a reply sentence that puts the fact's events in the opposite order
    (and agrees with none of the fact's orderings: "copy your data and sign out before a
    repair" agrees with "back up before any repair" whatever it says of "and then")."""
    if fact.unit is None:
        return None
    ordered = _orders(fact.unit)
    for unit in read:
        for said_first, said_last, at in _orders(unit):
            turned = kept = False
            for first, last, _ in ordered:
                back = len(said_first & last) + len(said_last & first)
                along = len(said_first & first) + len(said_last & last)
                turned |= bool(said_first & last and said_last & first) and back > along
                kept |= bool(said_first & first and said_last & last) and along > back
            if turned and not kept:
                return " ".join(unit.words[max(0, at - 4) : at + 5])
    return None


def _predications(unit: Unit) -> list[tuple[str, str]]:
    """(the word a negation is about, what it says of it) per counted negator of the fact:
    the content word before it in its clause and the first word after it that is not an
    auxiliary ("card ... is not yours" -> (card, yours); "order that has not shipped" ->
    (order, ship))."""
    words, out = unit.words, []
    for i, negates in enumerate(unit.negates):
        if not negates:
            continue
        left = next(
            (
                lemma(words[k])
                for k in range(i - 1, max(-1, i - 6), -1)
                if words[k] not in STOPWORDS
            ),
            None,
        )
        right = next((lemma(w) for w in words[i + 1 : i + 4] if w not in SKIPPED), None)
        if left and right and left != right:
            out.append((left, right))
    return out


def dropped_negation(fact: Fact, read: tuple[Unit, ...]) -> str | None:
    """A negated predication of the fact said in the reply without its negation, and
    nowhere with it."""
    if fact.unit is None:
        return None
    for left, right in _predications(fact.unit):
        bare: str | None = None
        negated = False
        for unit in read:
            stems = unit.stems
            for j, s in enumerate(stems):
                if s != left:
                    continue
                for k in range(j + 1, min(len(stems), j + NEAR + 2)):
                    if stems[k] != right:
                        continue
                    if any(unit.negates[j:k]) or _negated_after(unit, k):
                        negated = True
                    elif bare is None:
                        bare = " ".join(unit.words[j : k + 1])
        if bare is not None and not negated:
            return bare
    return None


def _negated_after(unit: Unit, k: int) -> bool:
    """ "yours not", "shipped yet? no": a negator right after the predicate."""
    return any(unit.negates[k + 1 : k + 2])


def weakened(fact: Fact, unit: Unit, region: range) -> bool:
    """Whether the stretch adds a limiting frequency word the fact does not have."""
    said = {unit.words[i] for i in region}
    return bool(said & LIMITING) and not fact.words & (LIMITING | POSSIBLE)


PAID_BY_US = frozenset(("prepaid", "free", "complimentary"))
CUSTOMER_PAYS = frozenset(lemma(w) for w in ("pay", "charged", "covered", "cost", "buy", "billed"))
"""Verbs that, with "you" before them, put the cost on the customer ("you pay for the label")."""


def payer_turned(fact: Fact, read: tuple[Unit, ...]) -> str | None:
    """Who pays turned round: the fact calls something prepaid or free ("we email you a
    prepaid return label") and a reply sentence has the customer paying for it ("you pay
    for the return label yourself"), not negated."""
    if fact.unit is None or not PAID_BY_US & fact.words:
        return None
    words = fact.unit.words
    paid = set()
    for i, w in enumerate(words):
        if w in PAID_BY_US:
            paid |= {lemma(x) for x in words[i + 1 : i + 4] if x not in STOPWORDS}
    for unit in read:
        for k, stem in enumerate(unit.stems):
            active = "you" in unit.words[max(0, k - 3) : k]  # "you pay for the label"
            passive = list(unit.words[k + 1 : k + 3]) == ["to", "you"]  # "is charged to you"
            if stem not in CUSTOMER_PAYS or not (active or passive):
                continue
            if any(unit.negates[max(0, k - 4) : k]):
                continue  # "you won't pay for the label"
            if paid & set(unit.stems[max(0, k - 6) : k + 7]):
                return " ".join(unit.words[max(0, k - 2) : k + 6])
    return None


INSTEAD = "instead"
EVENT = frozenset(("once", "after", "when", "if"))
"""What opens the condition an "instead" answers ("once it has shipped, ... instead")."""
POSSIBILITY = frozenset(("can", "possible", "able", "allowed", "permitted", "available", "ok"))


def alternative_affirmed(fact: Fact, read: tuple[Unit, ...]) -> str | None:
    """A reply sentence that, under the condition an "instead" of the fact answers, says the
    option "instead" replaces is possible: a possibility word after the condition's opening
    word, before the clause holding "instead", with no negator in its clause."""
    if fact.unit is None or INSTEAD not in fact.words:
        return None
    for unit in read:
        words = unit.words
        if INSTEAD not in words:
            continue
        at = words.index(INSTEAD)
        opens = [i for i in range(at) if words[i] in EVENT]
        if not opens:
            continue
        framed = _denied_before(unit, opens[-1])  # "it's not really the case that once ..."
        for p in range(opens[-1] + 1, at):
            clause = unit.clause[p]
            if words[p] not in POSSIBILITY or clause == unit.clause[at]:
                continue
            negated = sum(n for n, c in zip(unit.negates, unit.clause, strict=True) if c == clause)
            if (negated + framed) % 2 == 0:
                return " ".join(words[opens[-1] : at + 1])
    return None


def _denied_before(unit: Unit, i: int) -> int:
    """1 when a negator before ``i`` opens a frame ending in "that" ("it's not really the case
    that ..."), which denies what follows it; else 0."""
    words = unit.words
    for k in range(i):
        if unit.negates[k] and "that" in words[k + 1 : min(i, k + 6)]:
            return 1
    return 0


STILL = "still"
PERFECT = frozenset(("has", "have", "had"))


def _participle(word: str) -> bool:
    return word.endswith(("ed", "en")) or word in PARTICIPLES


PARTICIPLES = frozenset(("come", "gone", "shown", "turned", "got", "gotten", "sent", "run"))


def aspect_dropped(read: tuple[Unit, ...]) -> str | None:
    """A "still" before a perfect that is not negated ("if it still has turned up"): the
    negation of "still hasn't arrived" dropped."""
    for unit in read:
        words = unit.words
        for i, word in enumerate(words[:-2]):
            if word != STILL or words[i + 1] not in PERFECT or not _participle(words[i + 2]):
                continue
            clause = unit.clause[i]
            if not any(n for n, c in zip(unit.negates, unit.clause, strict=True) if c == clause):
                return " ".join(words[max(0, i - 2) : i + 4])
    return None


PERSONS = {"we": "store", "us": "store", "you": "customer", "our": "store", "your": "customer"}
"""Who a pronoun stands for in a reply from the store (a possessive only opening a clause:
"our safety team will ..."; "the charge on your card" names no one who acts)."""
POSSESSIVES = frozenset(("our", "your"))
SOURCES = frozenset(("by", "from"))
"""Words before a pronoun that make it the doer ("contacted by us", "an email from us")."""


def _roles(unit: Unit) -> tuple[str, str] | None:
    """(who acts, for whom) in the sentence: the first two different persons named, the
    first acting unless the second comes after "by" or "from" (a passive, "contacted by our
    team", or a converse, "you'll get an email from us")."""
    named: list[tuple[str, bool]] = []
    for i, word in enumerate(unit.words):
        opens = i == 0 or unit.clause[i - 1] != unit.clause[i]
        if word not in PERSONS or (word in POSSESSIVES and not opens):
            continue
        person = PERSONS[word]
        if not named or named[-1][0] != person:
            named.append((person, i > 0 and unit.words[i - 1] in SOURCES))
        if len(named) == 2:
            break
    if len(named) < 2:
        return None
    (first, _), (second, doer) = named
    return (second, first) if doer else (first, second)


ADVERBS = frozenset(("also", "then", "just", "only", "now", "first", "still", "usually"))
PASSIVES = frozenset(("be", "been", "being", "is", "are", "was", "were", "get", "gets"))
LEADS = frozenset(("if", "when", "once", "and", "then", "so", "that", "because", "as", "until",
                   "before", "after", "where", "also", "now"))  # fmt: skip
"""Words after which a pronoun is a subject ("once we save it", "then you pair it")."""
NOUNS_BEFORE = 3
"""Words a possessive subject may run to before its auxiliary ("our safety team will")."""


def _agents(unit: Unit, passive: bool = False) -> set[tuple[str, str]]:
    """(who, the verb they do) for each person standing as a subject: "we send" (store,
    send), "you'll send" (customer, send), "our fraud team will review" (store, review); a
    passive ("you will be sent a code") names no doer, and with ``passive`` the subjects
    of passives are given instead ("you may be asked": (customer, ask))."""
    words, out = unit.words, set()
    for i, word in enumerate(words):
        opens = i == 0 or unit.clause[i - 1] != unit.clause[i]
        if word not in PERSONS or word == "us" or not (opens or words[i - 1] in LEADS):
            continue  # "send you an email": an object
        j = i + 1
        skipped = []
        if word in POSSESSIVES:  # the verb after the noun's auxiliary
            j = next((k + 1 for k in range(i + 1, min(len(words), i + 2 + NOUNS_BEFORE))
                      if words[k] in AUXILIARIES | MODALS), len(words))  # fmt: skip
            skipped.append(words[j - 1])  # "your data is deleted": a passive
        while j < len(words) and (words[j] in SKIPPED or words[j] in ADVERBS):
            skipped.append(words[j])
            j += 1
        if j < len(words) and words[j] not in PERSONS and passive == bool(PASSIVES & set(skipped)):
            out.add((PERSONS[word], lemma(words[j])))
    return out


OTHER = {"store": "customer", "customer": "store"}


def _owned(unit: Unit) -> set[tuple[str, str]]:
    """(whose, the thing) for each possessive and the content word after it ("your
    password": (customer, password); "our security team": (store, security))."""
    words, out = unit.words, set()
    for i, word in enumerate(words[:-1]):
        if word in POSSESSIVES:
            thing = next((lemma(w) for w in words[i + 1 : i + 3] if w not in STOPWORDS), None)
            if thing:
                out.add((PERSONS[word], thing))
    return out


def owner_swapped(about: tuple[Unit, ...], fact: Fact) -> str | None:
    """A thing of the fact given to the other owner ("our password", "your security team"
    for "your password", "our security team"), and not to the fact's owner in that sentence
    nor in one as much about the fact: "what your bank has for the card" beside "our bank
    can tell us why" for "contact your bank" keeps the lie in the sentence that tells it."""
    if fact.unit is None:
        return None
    theirs = _owned(fact.unit)
    owned = [(len(fact.stems.intersection(u.stems)), _owned(u)) for u in about]
    for share, said in owned:
        for who, thing in said - theirs:
            kept = (OTHER[who], thing)
            if kept in theirs and not any(kept in o and s >= share for s, o in owned):
                return f"{who}'s {thing} (the {OTHER[who]}'s)"
    return None


def roles_swapped(about: tuple[Unit, ...], fact: Fact) -> str | None:
    """The store and the customer on the other sides than the fact has them, in a sentence
    about the fact, and no sentence about it with them on the fact's sides; or, where the
    fact names one of them, the other doing the fact's verb ("you'll send a code" for "we
    send a code"), and no sentence about it with the fact's doer doing it; or the one the
    fact's passive is done to doing its verb, and no sentence about it keeping the passive."""
    if fact.unit is None:
        return None
    theirs = _roles(fact.unit)
    said = [r for u in about if (r := _roles(u))]
    if theirs is not None and theirs not in said and theirs[::-1] in said:
        return f"{theirs[1]} acting for {theirs[0]}"
    doers = _agents(fact.unit)
    done = {a for u in about for a in _agents(u)}
    for who, verb in done - doers:
        if (OTHER[who], verb) in doers:
            return f"{who} doing {verb} (the {OTHER[who]} does)"
    # the one the fact's passive is done to doing it ("you may ask" for "you may be asked")
    undergone = _agents(fact.unit, passive=True) - doers
    kept = {a for u in about for a in _agents(u, passive=True)}
    turned = sorted((done & undergone) - kept)
    return f"{turned[0][0]} doing {turned[0][1]} (done to them)" if turned else None


OPENERS = frozenset(("please", "do", "just", "then", "and", "also", "so", "now", "first"))
"""Words an instruction may open with before its verb ("please do keep", "and then restart")."""


def _instructions(unit: Unit) -> list[tuple[str, bool, int]]:
    """(the verb, whether it is negated, where) per clause that opens with an instruction:
    "keep at least 10 percent free" (keep, False), "don't click links" (click, True); the
    verb is the clause's first word past its openers and negators."""
    out: list[tuple[str, bool, int]] = []
    for i, word in enumerate(unit.words):
        if i and unit.clause[i - 1] == unit.clause[i]:
            continue
        negated, j = False, i
        while j < len(unit.words) and unit.clause[j] == unit.clause[i]:
            if unit.negates[j]:
                negated = not negated
            elif unit.words[j] not in OPENERS:
                break
            j += 1
        verb = unit.words[j] if j < len(unit.words) else word
        if j < len(unit.words) and verb not in STOPWORDS and verb not in PERSONS:
            out.append((lemma(verb), negated, j))
    return out


INSTRUCTION = 4
"""Words of an instruction from its verb on in which an opposite of the fact's word makes a
negated instruction say the fact ("don't keep it near" for "keep it away")."""


def instruction_turned(
    about: tuple[Unit, ...], fact: Fact, opposite: Callable[[str, str], bool]
) -> str | None:
    """An instruction of the fact given with the other polarity in a sentence about the fact,
    and nowhere in it with the fact's: "do not keep 10 percent free" for "keep at least 10
    percent free", "do click anything in that message" for "don't click links". One
    conjunct of a fact told over two sentences is enough ("install ... and restart. Do not
    keep ..."). An ``opposite`` of a word of the fact in the instruction turns it back
    ("don't keep it near anything flammable" says "keep it away")."""
    if fact.unit is None:
        return None
    told = {verb: negated for verb, negated, _ in _instructions(fact.unit)}
    said = [(unit, i, verb, negated) for unit in about for verb, negated, i in _instructions(unit)]
    kept = {(verb, negated) for _, _, verb, negated in said}
    for unit, i, verb, negated in said:
        if verb not in told or negated == told[verb] or (verb, told[verb]) in kept:
            continue
        theirs = fact.unit.words
        words = [w for w in unit.words[i : i + INSTRUCTION] if w not in theirs]
        if not any(opposite(mine, word) for mine in words for word in theirs):
            return " ".join(unit.words[max(0, i - 2) : i + 4])
    return None


TRANSFERS = frozenset(("send", "get", "give", "email", "text", "mail", "receive", "issue"))
"""Verbs that move a thing to someone ("we send you a code", "you'll get a reset link")."""
RECEIVING = frozenset(("get", "receive"))
"""Transfer verbs whose subject, with no one named after them, is the one receiving."""
RECIPIENTS = {"you": "customer", "us": "store"}
THING = 3
"""Words after the verb (and its recipient) the thing moved is named in ("a reset link")."""


def _receivers(unit: Unit) -> set[tuple[str, str]]:
    """(who receives, a word of the thing) per transfer verb: the one named right after it
    ("we'll get you a reset link", "you'll get us a link": the store), else for "get" /
    "receive" its subject, the customer where none is named (an instruction, "choose ...
    to get a reset link", speaks to them)."""
    words, out = unit.words, set()
    for k, word in enumerate(words):
        if lemma(word) not in TRANSFERS:
            continue
        after = words[k + 1] if k + 1 < len(words) else None
        if after in RECIPIENTS:
            who, start = RECIPIENTS[after], k + 2
        elif lemma(word) in RECEIVING:
            before = [w for w in words[max(0, k - 3) : k] if w in PERSONS]
            who, start = PERSONS[before[-1]] if before else "customer", k + 1
        else:
            continue
        out |= {(who, key(w)) for w in words[start : start + THING] if w not in STOPWORDS}
    return out


def recipient_swapped(about: tuple[Unit, ...], fact: Fact) -> str | None:
    """A thing the fact has going to the customer going to the store instead, around a
    transfer verb ("you'll get us a reset link" for "... to get a reset link"), in a sentence
    about the fact, and no sentence about it with the fact's recipient."""
    if fact.unit is None:
        return None
    theirs = _receivers(fact.unit)
    said = {r for u in about for r in _receivers(u)}
    for who, thing in sorted(said - theirs):
        if (OTHER[who], thing) in theirs and (OTHER[who], thing) not in said:
            return f"{who} receiving {thing} (the {OTHER[who]} does)"
    return None
