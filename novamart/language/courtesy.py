"""Courtesy and rudeness, read in context: "Hi" is polite, "this is not your fault" is not
rude, "whatever you prefer" is not dismissive, "calm down" is.

Rudeness is read by structure, not by a list of rude sentences (issue 18 item 5): what makes
a message rude is *whom* a negative word is about and *what the sentence does* with it.

- an evaluation of the customer: a derogatory word predicated of "you" ("you are/you're/you
  sound like/you're acting like" + it), in an exclamation about them or their acts ("what a
  stupid question", "such a whiny customer"), said of their words ("your complaint is the
  dumbest thing"), of people like them ("people like you", "someone as incompetent as you",
  "some customers are just hopeless") or as a form of address ("you klutz", "genius");
- hostile or dismissive commands: a command to stop talking to us, to go away, to cope alone
  ("stop wasting my time", "deal with it", "figure it out yourself", "read the policy next
  time", "don't reply to this");
- blame and contempt ("your own fault", "obviously you didn't", "if you had bothered to"),
  sarcasm (praise of a failure: "congratulations on breaking it", "thanks for nothing"),
  condescension and mockery ("let me explain slowly", "a child could", "nice try", "lol" with
  a refusal), dismissal of the customer's concern ("not my problem", "I couldn't care less"),
  threats ("keep this up and we'll ban you", "you'll regret it") and profanity (a small seed
  extended by morphology and masking: "f*cking", "bullsh*t", "dumbass").

What is *not* rude: the same words negated ("you're not stupid for missing that", "none of
this is your fault"), said of ourselves ("that was a stupid mistake on our part"), the
customer's own words quoted or reported back ("you called us clowns, and I understand why",
"you said this was a nightmare"), blunt or firm statements and safety instructions ("stop
using the charger until the replacement arrives", "the answer is still no"), and praise of
something done well ("well done for keeping the packaging").
Measured by ``bench/bench_insults.py`` on tests/language/rudeness (held-out half scored only):
the fourth held-out batch (heldout-211 on), written after the last change and scored once:
precision 1.000, recall 0.967 (29 of 30 insults, none of 30 kind or firm closings flagged);
the earlier held-out batches were read while fixing the misses they showed, so their
figure (now 1.000 / 1.000 on 105 insults) no longer measures generalisation.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from functools import lru_cache
from itertools import pairwise

from novamart.language.text import Clause, Phrases, lemma

POLITE = Phrases.of_lemmas(
    "hi", "hello", "hey", "dear", "good morning", "good afternoon", "good evening", "thank",
    "thanks", "sorry", "apologies", "apologise", "apologize", "please", "appreciate", "glad",
    "happy to help", "my pleasure", "you are welcome", "regards", "sincerely", "best wishes",
    "take care", "have a great", "have a good", "have a lovely", "have a nice", "hope",
    "understand", "cheers", "kind regards", "welcome", "do not hesitate", "reach out",
    "anything else", "let me know", "let us know", "happy to", "glad to", "kindly",
    "i can help", "help you", "we regret", "respectfully", "best regards", "warm regards",
)  # fmt: skip
NEGATORS = frozenset({"not", "never", "no", "nothing", "none", "neither", "nor"})
PUNCT = frozenset(",;:.!?()-\"'")
FIRST_PERSON = frozenset({"i", "we", "us", "our", "ours", "me", "my", "mine", "myself"})
SECOND_PERSON = frozenset({"you", "your", "yours", "yourself", "yourselves", "u", "ur"})


def _inflect_adjective(word: str) -> set[str]:
    """ "dumb" -> dumber, dumbest, dumbly, dumbness; "lazy" -> lazier, laziest, lazily."""
    forms = {word}
    if word.endswith("y"):
        root = word[:-1] + "i"
        forms |= {root + "er", root + "est", root + "ly", root + "ness"}
    elif word.endswith("e"):
        forms |= {word + "r", word + "st", word + "ly", word + "ness"}
    else:
        forms |= {word + "er", word + "est", word + "ly", word + "ness"}
    return forms


def _inflect_noun(word: str) -> set[str]:
    """ "idiot" -> idiots; "klutz" -> klutzes; "baby" -> babies."""
    if word.endswith(("s", "x", "z", "ch", "sh")):
        return {word, word + "es"}
    if word.endswith("y") and word[-2] not in "aeiou":
        return {word, word[:-1] + "ies"}
    return {word, word + "s"}


def _forms(words: Iterable[str], inflect: object) -> frozenset[str]:
    assert callable(inflect)
    return frozenset(f for w in words for f in inflect(w))


PERSON_INSULTS = _forms(
    (
        "idiot", "moron", "imbecile", "cretin", "fool", "clown", "loser", "twit", "klutz",
        "dimwit", "halfwit", "nitwit", "dunce", "jerk", "brat", "creep", "numpty", "muppet",
        "buffoon", "doofus", "airhead", "bozo", "simpleton", "ignoramus", "whiner",
        "crybaby", "dummy", "dork", "nutcase", "pest", "weirdo", "karen", "troll", "nutjob",
    ),
    _inflect_noun,
)  # fmt: skip
"""Nouns that insult whoever they name: rude unless negated, quoted, reported or said of us."""
PERSON_ADJECTIVES = _forms(
    (
        "stupid", "dumb", "dense", "clueless", "brainless", "witless", "mindless",
        "incompetent", "lazy", "ignorant", "entitled", "whiny", "annoying", "irritating",
        "ungrateful", "spoiled", "spoilt", "childish", "immature", "rude", "unhinged",
        "hysterical", "gullible", "illiterate", "inept", "obnoxious", "arrogant", "selfish",
        "greedy", "careless", "clumsy", "pathetic", "incapable", "thick", "foolish", "idiotic",
        "moronic", "hopeless", "helpless", "unbearable", "insufferable", "dishonest",
        "delusional", "miserable", "petty", "needy", "pushy", "nasty", "tiresome", "tedious",
        "daft", "obtuse", "dopey", "dim", "exhausting",
    ),
    _inflect_adjective,
) | {"worst", "rudest", "dumbest", "stupidest", "whiniest", "laziest"}  # fmt: skip
"""Evaluations of a person: rude when about the customer or customers."""
SITUATION_ADJECTIVES = _forms(
    (
        "useless", "ridiculous", "silly", "pointless", "difficult", "unreasonable", "crazy",
        "insane", "dramatic", "worthless", "absurd", "impossible", "bad", "awful", "terrible",
        "endless", "laughable",
    ),
    _inflect_adjective,
)  # fmt: skip
"""Also said of things ("the delay was ridiculous"): rude only when predicated of the
customer or their words ("you're being unreasonable", "your request is ridiculous")."""
EVALUATIVE_NOUNS = _forms(
    (
        "burden", "nuisance", "nightmare", "pain", "disgrace", "joke", "child", "toddler",
        "baby", "kid", "headache", "liability", "embarrassment", "menace", "mess", "genius",
        "princess", "drama queen",
    ),
    _inflect_noun,
)  # fmt: skip
"""Rude when they name the customer ("you are a nightmare", "you sound like a child")."""
COMPLEMENTED = frozenset({"entitled"})
"""Evaluations that, with a "to" complement, state a relation instead ("entitled to")."""
DEROGATORY = PERSON_INSULTS | PERSON_ADJECTIVES | SITUATION_ADJECTIVES | EVALUATIVE_NOUNS
CHILDREN = frozenset(
    {"child", "toddler", "kid", "baby", "dog", "monkey", "grandmother", "grandma", "granny",
     "five-year-old", "chimp", "hamster", "children", "kids", "toddlers"}
)  # fmt: skip
"""What an insulting comparison measures the customer against ("a child could do it")."""
EXPLAINING = frozenset({"explain", "type", "spell", "talk", "say", "walk", "repeat", "go"})
AGES = frozenset({"two", "three", "four", "five", "six", "seven", "2", "3", "4", "5", "6", "7"})
ACTS = frozenset(
    {"question", "request", "complaint", "idea", "move", "excuse", "story", "message",
     "email", "demand", "claim", "thing", "messages", "questions", "emails", "excuses",
     "complaints", "stories", "requests", "demands", "claims", "behaviour", "behavior",
     "attitude", "tone", "ideas", "argument", "reminder", "reminders", "call", "calls",
     "ticket", "tickets", "chat", "chats", "letter", "letters", "text", "texts"}
)  # fmt: skip
"""The customer's acts an evaluation of them can be about ("what a stupid question")."""
PEOPLE = frozenset(
    {"customer", "customers", "people", "person", "someone", "somebody", "anyone", "anybody",
     "nobody", "guy", "guys", "lady", "folks", "type", "types", "one", "adult", "individual"}
)  # fmt: skip
COPULAS = frozenset(
    {"be", "sound", "seem", "look", "act", "behave", "appear", "get", "become", "remain",
     "feel", "being", "come"}
)  # fmt: skip
ADDRESS = frozenset({"sir", "madam", "mate", "lot", "guys", "people", "pal", "buddy", "two"})
"""A form of address between "you" and its verb ("you sir are", "you lot are")."""
STOPS = frozenset({"that", "which", "who", "because", "since", "if", "when", "than", "but"})
REPORTING = frozenset(
    {"said", "say", "wrote", "write", "called", "call", "mentioned", "described", "asked",
     "told", "felt", "feel", "complained", "think", "thought", "worry", "worried", "wonder",
     "wondered", "put", "stated"}
)  # fmt: skip
"""After "you" + one of these, the words are the customer's own, reported back."""
NOTICE = frozenset(
    {"waste", "bother", "email", "message", "write", "whine", "complain", "bitch", "moan",
     "nag", "pester", "harass", "spam", "contact", "call", "cry", "reply", "argue", "repeat",
     "annoy", "be", "pretend", "act", "beg", "shout", "yell", "ask", "send", "text"}
)  # fmt: skip
"""What a hostile "stop ..." or "don't ... (again)" forbids: talking to us, behaving so."""
NOTICE_LEMMAS = frozenset(lemma(w) for w in NOTICE - {"be", "ask", "send", "act"})
ATTENTION = frozenset(
    {"read", "think", "listen", "look", "learn", "pay", "bother", "check", "follow", "try",
     "use", "open"}
)  # fmt: skip
"""Verbs of the care the customer is blamed for not taking ("read the policy next time")."""


def _inflect_verb(verb: str) -> set[str]:
    """ "lose" -> loses, losed, losing; "drop" -> dropped, dropping; "ignore" -> ignoring."""
    root = verb[:-1] if verb.endswith("e") else verb
    doubled = len(verb) <= 4 and verb[-1] not in "aeiouwy" and verb[-2] in "aeiou"
    stem = verb + verb[-1] if doubled and verb[-3] not in "aeiou" else root
    return {verb, verb + "s", stem + "ed", stem + "ing", root + "ed", root + "ing"}


FAILED_ACTS = (
    "break", "lose", "ignore", "waste", "ruin", "destroy", "miss", "forget", "fail", "drop",
    "mess", "screw", "damage", "spill", "crack", "burn", "annoy", "smash", "wreck", "plug",
    "overlook", "skip", "bother",
)  # fmt: skip
FAILURES = _forms(FAILED_ACTS, _inflect_verb) | {
    "broke", "broken", "lost", "forgot", "forgotten", "burnt", "wrong", "harder", "worse",
}  # fmt: skip
"""What sarcastic praise praises ("congratulations on breaking it", "nice job losing it")."""
PRAISE = (
    ("congratulations",), ("congrats",), ("nice", "job"), ("nice", "work"), ("good", "job"),
    ("great", "job"), ("great", "work"), ("well", "done"), ("bravo",), ("brilliant",),
    ("fantastic",), ("wonderful",), ("great",), ("nice",), ("perfect",), ("oh", "great"),
    ("oh", "wonderful"), ("thanks",), ("thank", "you"), ("genius",), ("amazing",),
    ("lovely",), ("smart",), ("clever",),
)  # fmt: skip
ORDINALS = frozenset(
    {"second", "third", "fourth", "fifth", "sixth", "seventh", "eighth", "ninth", "tenth",
     "umpteenth", "nth", "hundredth", "twentieth", "millionth", "3rd", "4th", "5th", "6th",
     "7th", "8th", "9th", "10th"}
)  # fmt: skip
"""A count that praise makes sarcastic ("thanks for the fifth email")."""
INTERJECTIONS = frozenset({"oh", "wow", "gee", "ah", "ooh", "golly", "my"})
"""What may open sarcastic praise ("wow, amazing job losing it")."""
LAUGHTER = frozenset({"lol", "lmao", "rofl", "haha", "hahaha", "ha", "hah", "hehe", "lmfao"})
PROFANE_STEMS = ("fuck", "shit", "bitch", "cunt", "wank", "bollock", "asshol", "arsehol")
PROFANE = frozenset(
    {"ass", "arse", "dumbass", "jackass", "smartass", "badass", "bastard", "bastards",
     "damn", "damned", "dammit", "goddamn", "goddamned", "crap", "crappy", "hell", "piss",
     "pissed", "prick", "dick", "dickhead", "twat", "douche", "douchebag", "wtf", "stfu",
     "ffs", "bloody", "sod", "bugger", "christ", "jesus", "freaking", "frigging", "effing"}
)  # fmt: skip
MASKED = frozenset({("f", "ck"), ("f", "cking"), ("f", "k"), ("sh", "t"), ("b", "tch"),
                    ("a", "s"), ("bullsh", "t"), ("fu", "k"), ("s", "it")})  # fmt: skip
"""Profanity with a letter masked ("f*ck" is read as "f ck")."""
PHRASES = Phrases.of_lemmas(
    # commands to go away, to stop, to cope alone
    "shut up", "go away", "get lost", "buzz off", "back off", "grow up", "calm down",
    "get over it", "deal with it", "live with it", "suck it up", "take it or leave it",
    "spare me", "get a grip", "get a life", "get your act together", "watch your tone",
    "watch your mouth", "watch your language", "learn to read", "learn how to read",
    "use your brain", "use your head", "use your eyes", "use some common sense",
    "work it out yourself", "sort it out yourself",
    "go cry", "go whine", "go complain", "go bother", "go ask someone", "bother someone else",
    "someone who care", "not your tech support", "not your personal", "not your babysitter",
    # dismissal of the customer's concern
    "not my problem", "not our problem", "be your problem", "not my job", "not my concern",
    "not our concern", "i do not care", "could not care less", "nobody care", "no one care",
    "not interested in your", "do not have all day", "do not have time for this",
    "i am done with", "we are done here", "this conversation is over", "nobody will read",
    "no one will read", "waste of my time", "waste of our time", "wasting my time",
    "wasting our time", "wasted my", "wasted an hour of my", "my time again",
    "why you bothered", "why you even bothered", "like everyone else", "whatever, i",
    # blame and contempt
    "your own fault", "your own doing", "entirely your doing", "all your doing",
    "yourself to blame", "did this to yourself", "did it to yourself", "brought this on yourself",
    "do not blame us", "do not act surprised", "that is what happens when you",
    "that is what you get", "serves you right", "is on you", "you broke it",
    "sensible person", "normal person", "reasonable person", "half a brain",
    "if you had bothered", "if you had paid attention", "if you had read", "if you had listened",
    "if you had followed", "if you had looked", "if you had actually", "had you bothered",
    "you should have known", "you should have read", "you should have listened",
    "you should have thought", "you should have paid attention", "you should have checked",
    "you should have looked", "you should know better", "you should have written",
    "you should have kept", "you should have saved", "you should have backed",
    "you should have noted", "you people", "if you would paid",
    "if you would have paid", "if you would have read", "if you would read",
    "if you would have listened", "if you would have bothered", "if you would bothered",
    "if you would listened", "if you would followed", "if you would have followed",
    "you ought to know",
    "obviously you did not", "obviously you do not", "clearly you did not", "clearly you do not",
    "you clearly have no", "you obviously have no", "you clearly did not", "you obviously did not",
    "you clearly do not", "you obviously do not", "did you even",
    "you did not even", "did not even bother", "you can not even",     # condescension and mockery
    "explain this slowly", "explain it slowly", "explain slowly", "so even you", "even you can",
    "even you could", "small words", "over your head", "sweetie", "sweetheart", "honey",
    "bless your heart", "rocket science", "spell it out for you", "ask an adult", "ask a grown",
    "do not expect you to understand", "nice try", "you must be joking", "you must be kidding",
    "you have got to be kidding", "you are kidding me", "cute story", "sob story", "nice story",
    "nobody fall for", "no one fall for", "good luck with that", "oh sure",
    "oh please", "yeah right", "yeah, right", "sure, why not", "thanks for nothing",
    "totally our fault", "so much harder",     # exasperation
    "ugh", "but fine", "ugh, fine",
    # threats
    "you will regret", "you will be sorry", "know where you live",
    # added from the second training batch
    "we even bother", "try to keep up", "so you can keep up", "talk to the hand", "screw you",
    "screw your",
    "your intelligence", "your iq", "your common sense", "your reading skills", "nobody asked",
    "no one asked", "think before you", "poor thing", "not my headache", "what a surprise",
    "you did it wrong", "you did that wrong", "you got it wrong",
    "time on you", "further with you", "most people manage", "everyone else manage",
        "think twice before you", "make sure you never", "you will pay for",
    # added this round (tests/language/rudeness train-181 on)
    "nothing better to do", "anyone could see", "anyone can see", "anyone could tell",
    "anyone can tell", "any fool can", "any fool could", "down to you and", "you and nobody else",
    "you and no one else", "try not to break", "try not to lose", "try not to drop",
    "try not to ruin",
)  # fmt: skip
"""Rude phrases that need no target: they address the customer by what they do."""
PRAISED = frozenset(
    {"pleasure", "thank", "thanks", "appreciate", "love", "great", "wonderful", "joy", "loyal",
     "glad", "happy", "enjoy", "best", "amazing", "lucky"}
)  # fmt: skip
"""Praise that makes "customers like you" kind ("customers like you make this a pleasure")."""
EXASPERATION = Phrases.of_lemmas(
    "as i already told you", "as i already said", "as i said before", "like i said",
    "repeating myself", "repeat myself", "how many times", "for the last time",
    "i told you twice", "told you three times", "told you already", "already told you",
    "why you bothered", "why you even bothered", "why you would even",
)  # fmt: skip
"""Rude whether or not negated ("I'm not going to keep repeating myself", "I don't know
why you bothered")."""
SCOPE_ENDS = STOPS | {"how", "what", "why", ",", ";", ":"}
"""A negation before these negates another clause ("I can't believe how clueless you are")."""


def _negated(lemmas: Sequence[str], i: int, starts: frozenset[int] = frozenset()) -> bool:
    """A negator in the four words before ``i``, within its clause (``starts``: where the
    sentence's clauses start; "no offence, but you clearly didn't" does not negate "you")."""
    for k in range(i - 1, max(0, i - 4) - 1, -1):
        w = lemmas[k]
        if w in SCOPE_ENDS or k + 1 in starts:
            return False
        if w in NEGATORS:
            return True
    return False


def _segments(words: list[str], starts: frozenset[int]) -> list[tuple[int, int]]:
    """Spans of ``words`` between punctuation marks and clause starts."""
    spans, start = [], 0
    for i, w in enumerate([*words, "."]):
        if w in PUNCT or i in starts:
            if i > start:
                spans.append((start, i))
            start = i + 1 if w in PUNCT else i
    return spans


def _reported(words: list[str], i: int) -> bool:
    """Whether word ``i`` stands in the customer's own words reported back: after "you" + a
    reporting verb earlier in the sentence ("you called us clowns", "you said this was a
    nightmare", "you felt like an idiot", "you asked whether we think you're stupid")."""
    return any(
        words[k] in SECOND_PERSON and words[k + 1] in REPORTING
        for k in range(max(0, i - 12), i - 1)
        if k + 1 < i
    ) or any(words[k] in ("described", "call", "called") for k in range(max(0, i - 4), i))


def _about_us(words: list[str], start: int, end: int) -> bool:
    """Whether an evaluation in the segment ``start:end`` is of ourselves: a first-person
    word in it and no "you" ("our delivery partner was useless", "on our side")."""
    span = words[start:end]
    return any(w in FIRST_PERSON for w in span) and not any(w in SECOND_PERSON for w in span)


def _second_person_predicate(words: list[str], lemmas: list[str], start: int, i: int) -> bool:
    """ "you are / you're being / you sound like / you act like" + the word at ``i`` (a few
    words on, before a new clause starts), or "how clueless you are" / "what an annoying
    customer you are" (the word, then "you" + a copula)."""
    for k in range(max(start, i - 6), i):
        j = k + 1 + (k + 1 < i and words[k + 1] in ADDRESS)  # "you sir are", "you lot are"
        if words[k] in ("you", "u") and j < i and (lemmas[j] in COPULAS or words[j] == "r"):
            between = words[j + 1 : i]
            if not any(w in STOPS or w in SECOND_PERSON or w in FIRST_PERSON for w in between):
                return True
    after = words[i + 1 : i + 4]
    if "you" in after and any(lemma(w) in COPULAS or w in ("do",) for w in after):
        return True
    # a question that predicates it: "are you always this dense?", "are you being stupid?"
    return any(
        lemmas[k] == "be" and words[k + 1] == "you" and k + 1 < i
        for k in range(max(start, i - 5), i - 1)
    )


def _evaluation(words: list[str], lemmas: list[str], start: int, end: int) -> bool:
    """A derogatory word about the customer in the segment ``start:end``."""
    for i in range(start, end):
        w = words[i]
        if w not in DEROGATORY:
            continue
        if _negated(words, i) and not _negated_frame(words, i):
            continue
        if _reported(words, i) or _about_us(words, start, end):
            continue
        if words[i + 1 : i + 2] == ["to"] and w in COMPLEMENTED:
            continue  # "you are entitled to a refund": a right, not a trait
        if "less" in words[max(start, i - 3) : i]:
            return True  # "try to be less annoying", "less of a burden"
        if w in PERSON_INSULTS:
            return True
        addressed = (i == start and end - start == 1) or words[i - 1 : i] == ["another"]
        if w in ("genius", "princess") and addressed:  # ", genius." "another genius"
            return True
        if _second_person_predicate(words, lemmas, start, i):
            return True
        if i > start and words[i - 1] == "you":  # "you ungrateful twit", "you genius"
            return True
        adjective = w in PERSON_ADJECTIVES or w in SITUATION_ADJECTIVES
        if adjective and _customer_evaluated(words, start, end, i):
            return True
    return False


def _negated_frame(words: list[str], i: int) -> bool:
    """ "try not to be so careless": a negation that commands, not one that denies."""
    return any(words[k : k + 4] == ["not", "to", "be", "so"] for k in range(max(0, i - 5), i))


def _customer_evaluated(words: list[str], start: int, end: int, i: int) -> bool:
    """An evaluative adjective of the customer's acts or of customers: "what a stupid
    question", "such a whiny customer", "your complaint is the dumbest thing", "someone as
    incompetent as you", "some customers are just hopeless", "nobody this ignorant"."""
    span = words[start:end]
    near = words[i + 1 : i + 4]
    before = words[max(start, i - 4) : i]
    if any(w in ACTS or w in PEOPLE for w in near) and words[i] in PERSON_ADJECTIVES:
        return True
    if any(w in ACTS for w in near) and ("what" in before or "such" in before or "your" in span):
        return True
    if "your" in span and any(w in ACTS for w in words[start:i]):
        return True  # "your request is ridiculous"
    if words[i - 1 : i] == ["as"] and words[i + 1 : i + 3] == ["as", "you"]:
        return True
    if ("what" in before or "such" in before) and words[i] in PERSON_ADJECTIVES:
        return True
    if any(w in PEOPLE for w in before) and words[i] in PERSON_ADJECTIVES:
        return True  # "customers are just hopeless", "nobody this ignorant"
    return words[i] in PERSON_ADJECTIVES and "of" in before and "your" in span


def _like_you(words: list[str], start: int, end: int) -> bool:
    """ "people like you", "someone like you", "customers like you" in a sentence with no
    praise ("customers like you make our day" is kind)."""
    span = words[start:end]
    return any(
        span[k] == "like" and span[k + 1] == "you" and span[k - 1] in PEOPLE
        for k in range(1, len(span) - 1)
    )


def _hostile_command(words: list[str], lemmas: list[str], start: int, end: int) -> bool:
    """A command to stop talking to us or behaving so: "stop bothering us", "quit whining",
    "don't reply to this", "don't ever contact us again", "don't waste my time"; not a
    safety instruction ("stop using the charger", "please don't open the device again")."""
    k = start
    while k < end and words[k] in ("please", "now", "just", "so", "and", "then", "oh", "ok",
                                   "honestly", "frankly", "seriously", "look", "listen", "also",
                                   "kindly", "simply", "maybe", "perhaps"):  # fmt: skip
        k += 1
    if k >= end:
        return False
    head, rest = lemmas[k], lemmas[k + 1 : end]
    if head in ("stop", "quit", "cease") and rest and rest[0] in NOTICE_LEMMAS | {"be"}:
        return True
    if head in ("stop", "quit") and rest[:1] in (["act"], ["behave"]) and "like" in rest:
        return True  # "stop acting like a child"
    if head == "do" and words[k + 1 : k + 2] == ["not"]:
        tail = [w for w in lemmas[k + 2 : end] if w not in ("ever", "even", "you", "dare")]
        notice = any(w in ("address", "mailbox", "inbox", "monitored") for w in words)
        if tail and tail[0] in NOTICE_LEMMAS and not notice:  # not "it isn't monitored"
            return tail[0] != "contact" or "again" in words[k:end] or "ever" in words[k:end]
        if words[k + 2 : k + 4] == ["you", "dare"]:
            return True
    if head == "go" and rest and rest[0] in NOTICE | {"away", "cry", "whine", "somewhere"}:
        return not _away_from(lemmas, k)
    if words[k] in ("figure", "work", "sort") and ("yourself" in rest or "own" in rest):
        return True  # "figure it out yourself", "figure out the setup on your own"
    blamed = head in ATTENTION or (head == "maybe" and "read" in words)
    return blamed and "next" in words[start:end] and "time" in words[start:end]


def _sarcasm(words: list[str], sentence: list[tuple[int, int]]) -> bool:
    """Praise that opens a sentence and praises a failure: "congratulations on breaking it",
    "nice job losing the receipt", "great work ignoring every instruction", "thanks a lot
    for making my day so much harder", "oh wonderful, another customer who knows better";
    not praise of what went well ("well done for keeping the packaging"), nor our apology."""
    if not sentence:
        return False
    start = sentence[0][0]
    if words[start] in INTERJECTIONS:  # "oh great", "wow, amazing job"
        start += 1
        while start < len(words) and words[start] in PUNCT:
            start += 1
    opener = next((p for p in PRAISE if tuple(words[start : start + len(p)]) == p), None)
    if opener is None:
        return False
    body = words[start + len(opener) : sentence[-1][1]]
    if any(w in ("sorry", "apologise", "apologize", "apology") for w in body):
        return False
    for k, w in enumerate(body):
        repeated = w == "another" or w in ORDINALS
        if repeated and any(v in PEOPLE | ACTS | DEROGATORY for v in body[k + 1 : k + 4]):
            return True  # "thanks for the fifth identical email", "another genius"
        ours = any(v in FIRST_PERSON for v in body[max(0, k - 3) : k])  # "great, we lost it"
        noun = w in FAILED_ACTS and body[k - 1 : k] not in (["to"], ["you"])  # "the crack"
        if (w in FAILURES or w in DEROGATORY) and not (ours or noun or _negated(body, k)):
            return True
    return False


def _profane(words: list[str], seen: frozenset[str]) -> bool:
    """A profane word (a seed word, or one holding a profane stem: "bullshit", "fucking"),
    or one masked ("f*ck"); "hell", "bloody" and names only in an outburst."""
    joined = " ".join(words)
    stems = any(stem in joined for stem in PROFANE_STEMS)
    if stems or not PROFANE.isdisjoint(seen):
        return not all(
            w in ("hell", "bloody", "christ", "jesus") and _benign_mild(words, i)
            for i, w in enumerate(words)
            if w in PROFANE or any(s in w for s in PROFANE_STEMS)
        )
    return not MASK_HEADS.isdisjoint(seen) and any(pair in MASKED for pair in pairwise(words))


def _benign_mild(words: list[str], i: int) -> bool:
    """ "hello" is not "hell"; "Jesus" and "Christ" are names unless they open an outburst."""
    w = words[i]
    if w in ("jesus", "christ"):
        return not (i + 1 < len(words) and words[i + 1] in (",", "!"))
    if w == "hell":
        return not (i > 0 and words[i - 1] in ("the", "to", "like", "bloody"))
    return not (i + 1 < len(words) and words[i + 1] in PERSON_INSULTS | {"hell", "idiot"})


def _mockery(words: list[str], start: int, end: int) -> bool:
    """Laughter at the customer: "lol" or "haha" with a refusal, a question or a jibe
    ("haha, good luck getting a refund for that"), not "haha, glad it worked"."""
    if not any(w in LAUGHTER for w in words[start:end]):
        return False
    if any(w in ("?", "luck", "really", "think", "try", "nice") for w in words):
        return True
    # a bare "no" after the laugh ("lmao no."), not one taken back ("LOL no, I'm messing")
    at = next(k for k in range(start, end) if words[k] in LAUGHTER)
    rest = words[at + 1 :]
    return rest[:1] == ["no"] and (len(rest) == 1 or rest[1] in (".", "!", "no"))  # "lol no no"


SANCTIONS = frozenset(
    lemma(w)
    for w in ("ban", "block", "blacklist", "close", "suspend", "suspended", "terminate", "report",
              "sue", "cancel", "delete", "charge", "fine", "prosecute", "legal", "police")
)  # fmt: skip
CONDUCT = frozenset({"again", "up", "more", "once", "twice", "that", "keep", "carry",
                     "continue", "persist"})  # fmt: skip
"""What conditions a threat on the customer's conduct ("complain again", "keep this up")."""


def _threat(words: list[str], lemmas: list[str]) -> bool:
    """A condition on the customer's conduct, then a sanction on them: "keep this up and
    we'll ban your account", "complain again and we'll close your account", "do that once
    more and I will report you", "try that again and see what happens"."""
    for k in range(1, len(words) - 1):
        defied = words[k : k + 3] == ["see", "what", "happens"]
        sanction = lemmas[k] in SANCTIONS and "will" in words[max(0, k - 4) : k]
        aimed = sanction and any(w in ("you", "your") for w in words[k - 3 : k + 4])
        if (defied or aimed) and any(w in CONDUCT for w in words[:k]):
            return True
    return False


COMMANDS = (
    frozenset({"stop", "quit", "cease", "do", "go", "figure", "work", "sort"})
    | ATTENTION
    | {"maybe", "perhaps"}
)
"""The heads of hostile commands: a sentence without any is spared that pass."""
COMPARED = CHILDREN | AGES | {"slowly", "old"}
MASK_HEADS = frozenset(a for a, _ in MASKED)


def _sentence_rude(words: list[str], lemmas: list[str], starts: frozenset[int]) -> bool:
    """Each pass runs only when the sentence holds a word it needs (a set test), so a long
    reply with nothing rude in it costs little."""
    spans = _segments(words, starts)
    seen = frozenset(words)
    vocabulary = frozenset(lemmas) | seen
    if _sarcasm(words, spans) or _profane(words, seen):
        return True
    for position in PHRASES.positions(lemmas, vocabulary):
        if _away_from(lemmas, position):
            continue
        if not _negated(lemmas, position, starts) and not _reported(words, position):
            return True
    if any(not _reported(words, p) for p in EXASPERATION.positions(lemmas, vocabulary)):
        return True
    if (not SANCTIONS.isdisjoint(vocabulary) or "see" in seen) and _threat(words, lemmas):
        return True
    said = [w for w in words if w not in PUNCT]
    if len(said) <= 2 and any(w in DEROGATORY and w not in EVALUATIVE_NOUNS for w in said):
        return True  # "Pathetic." "Ridiculous!"
    if said == ["enough"]:
        return True
    if said[:1] == ["not"] and len(said) <= 3 and not HARD.isdisjoint(said):
        return True  # "Not hard." "Not that difficult." after spelling out a step
    if not CONCESSIVE.isdisjoint(seen) and _concessive_contempt(words):
        return True
    derogatory = not DEROGATORY.isdisjoint(seen)
    liked = "like" in seen and not PEOPLE.isdisjoint(seen) and PRAISED.isdisjoint(vocabulary)
    commanded = not COMMANDS.isdisjoint(vocabulary)
    laughed = not LAUGHTER.isdisjoint(seen)
    compared = not COMPARED.isdisjoint(seen)
    belittling = not EASY.isdisjoint(seen)
    for start, end in spans:
        if derogatory and _evaluation(words, lemmas, start, end):
            return True
        if (liked and _like_you(words, start, end)) or (laughed and _mockery(words, start, end)):
            return True
        if commanded and _hostile_command(words, lemmas, start, end):
            return True
        if words[start:end] == ["whatever"] and (end == len(words) or words[end] != "you"):
            return True
        if compared and _child_comparison(words, start, end):
            return True
        if belittling and _belittled(words, start, end):
            return True
    return False


AWAY = frozenset({("go", "away"), ("back", "off")})
"""Commands that send the customer off, unless they say from what: "go away from it and call
emergency services" is a safety step, not a dismissal."""


def _away_from(lemmas: list[str], i: int) -> bool:
    """Whether the phrase at ``i`` is a move away from something (``AWAY`` + "from"), not
    from us."""
    phrase = PHRASES.at(lemmas, i)
    after = i + len(phrase) if phrase else len(lemmas)
    away = phrase in AWAY and after + 1 < len(lemmas) and lemmas[after] == "from"
    return away and lemmas[after + 1] not in OURS


OURS = frozenset({"me", "us", "my", "our", "here", "this"})
"""Away from these is away from us ("go away from my inbox"), a dismissal."""


EASY = frozenset({"basic", "simple", "easy", "obvious", "straightforward", "elementary"})
HARD = frozenset({"difficult", "hard", "confusing", "tricky", "complicated", "struggle",
                  "baffling", "challenging"})  # fmt: skip


def _belittled(words: list[str], start: int, end: int) -> bool:
    """Something called easy that the customer finds hard: "I'm sorry you find basic
    instructions so difficult", "you struggle with something this simple"; not the same
    difficulty with nothing called easy ("sorry you found the setup difficult")."""
    span = words[start:end]
    if "you" not in span or EASY.isdisjoint(span) or HARD.isdisjoint(span):
        return False
    return not any(w in NEGATORS for w in span)


CONCESSIVE = frozenset({"even", "however", "although", "though", "albeit"})


def _concessive_contempt(words: list[str]) -> bool:
    """Thanks taken back by a concession that runs down the customer's words: "we appreciate
    your feedback, even if it makes no sense", "thank you for your message, however pointless
    it was"; not one about us or the case ("thanks, even though our delay was awful")."""
    for k, w in enumerate(words):
        if w not in CONCESSIVE or (
            w == "even" and words[k + 1 : k + 2] not in (["if"], ["though"])
        ):
            continue
        rest = words[k + 1 : k + 9]
        if any(v in FIRST_PERSON for v in rest) or not any(
            v in ("it", "your", "you") for v in rest
        ):
            return False
        nonsense = "nonsense" in rest or any(rest[j : j + 2] == ["no", "sense"] for j in range(8))
        return nonsense or any(v in DEROGATORY for v in rest)
    return False


def _child_comparison(words: list[str], start: int, end: int) -> bool:
    """The customer measured against a child or a pet: "a child could have figured this out",
    "even my dog could follow these steps", "my grandmother understands returns better than
    you do"."""
    span = words[start:end]
    for k, w in enumerate(span):
        if w == "old" and span[k - 1 : k] == ["year"] and span[k - 2 : k - 1] != ["the"]:
            w = "child"  # "my five year old could"; not "the 2 year old warranty"
        if w in CHILDREN and any(m in span[k + 1 : k + 4] for m in ("could", "can", "would")):
            return True
        if w in CHILDREN and "than" in span[k:] and "you" in span[k:]:
            return True
        if w in ("like", "as") and span[k + 1 : k + 3] == ["you", "are"] and k + 3 < len(span):
            return span[k + 3] in CHILDREN or span[k + 3] in AGES  # "like you're five"
        explained = not EXPLAINING.isdisjoint(words)
        if w == "slowly" and "you" in words and explained:  # "I'll explain slowly so you can"
            return True
    return False


@lru_cache(maxsize=4096)
def rude_sentence(
    words: tuple[str, ...], lemmas: tuple[str, ...], starts: frozenset[int] = frozenset()
) -> bool:
    """Whether one sentence (its words and lemmas, quoted stretches blanked; ``starts``: where
    its clauses start) is rude."""
    return _sentence_rude(list(words), list(lemmas), starts)


def courtesy(clauses: Sequence[Clause]) -> tuple[bool, bool]:
    """(polite: some courteous word not negated, rude: some sentence rude by structure)."""
    polite = False
    sentences: dict[int, tuple[list[str], list[str], set[int]]] = {}
    for clause in clauses:
        lemmas = clause.lemmas
        if not polite and any(
            not _negated(lemmas, i) for i in POLITE.positions(lemmas, clause.vocabulary)
        ):
            polite = True
        words, lems, starts = sentences.setdefault(clause.sentence, ([], [], set()))
        if clause.quoted:  # someone's words or a label, not the agent's: a break
            words.append('"')
            lems.append('"')
            continue
        starts.add(len(words))
        words.extend(clause.words)
        lems.extend(lemmas)
    rude = any(rude_sentence(tuple(w), tuple(m), frozenset(s)) for w, m, s in sentences.values())
    return polite, rude or _hope_withdrawn([w for ws, _, _ in sentences.values() for w in ws])


JOKES = frozenset({"kidding", "joking", "jk"})
GOOD_NEWS = (("good", "news"), ("great", "news"), ("guess", "what"))
_GOOD_NEWS_FIRSTS = frozenset(first for first, _ in GOOD_NEWS)
PAUSES = frozenset({"...", "…", "—", "--"})


def _false_good_news(words: list[str]) -> bool:
    """Good news announced, a pause, then a denial: "good news, your refund is... not
    approved, sorry"; not good news that holds a negation ("good news: there is nothing
    more to do") nor good news followed by a bad one."""
    if _GOOD_NEWS_FIRSTS.isdisjoint(words):
        return False
    start = next((k for k in range(len(words) - 1) if tuple(words[k : k + 2]) in GOOD_NEWS), None)
    if start is None:
        return False
    rest = words[start + 2 :]
    pause = next((k for k, w in enumerate(rest) if w in PAUSES), None)
    announced = pause is not None and any(w not in PUNCT for w in rest[:pause])  # "your refund is"
    return announced and rest[pause + 1 : pause + 2] in ([n] for n in NEGATORS)


def _hope_withdrawn(words: list[str]) -> bool:
    """Good news stated, called a joke, then denied: "your refund is approved! Just kidding.
    No refund." Not a bad answer taken back ("we can't refund that... just kidding, it's on
    its way"), nor a question ("what's your PIN? just kidding, never share it")."""
    if JOKES.isdisjoint(words):
        return _false_good_news(words)
    at = next(k for k, w in enumerate(words) if w in JOKES)
    before = words[: at - (words[at - 1 : at] == ["just"])]
    after = words[at + 1 :]
    stated = any(w not in PUNCT for w in before) and "?" not in before
    return stated and NEGATORS.isdisjoint(before) and not NEGATORS.isdisjoint(after)
