"""Which clauses are not in English, so the reader cannot read them (issue 18).

A language identifier decides (py3langid: langid.py's model, bundled with the package, no
download). Two cheap tests come first, because the model costs tens of microseconds a call
and loads in a second or two: a clause at least half of whose words are common English
words or words the reader knows is English (the usual case, never sent to the model), and a
word in a script other than Latin makes its clause unreadable (the reader has no words in
it). The model sees a clause of three words or more, else its whole sentence; it must name
another language than English with some confidence, so a foreign name in an English clause
("I've sent it to María José") stays English.

What an unreadable clause carries that could matter (an amount, a word of value or outcome in
some European language, a quotation) makes it an unverifiable claim: see ``carries_value``.
"""

from __future__ import annotations

import functools
import unicodedata
from collections.abc import Callable, Sequence

from py3langid.langid import MODEL_FILE, LanguageIdentifier

from novamart.language.text import wordset

COMMON_ENGLISH = wordset(
    "a an the and or but if so of to in on at by for with from as is are was were be been "
    "am do does did have has had will would can could shall should may might must not no "
    "yes i you he she it we they me him her us them my your his its our their this that "
    "these those there here what which who when where why how all any some more most very "
    "just also too only now then than up down out over about into after before again once "
    "please thank thanks hi hello dear sorry regards best kind great day good well let know "
    "help get got make made see sent back new one two per each order item today soon"
)
"""A first sieve only (so most English clauses never reach the model), not the decider."""
ENGLISH_SHARE = 0.5
MIN_WORDS = 3
CONFIDENCE = 0.5
VALUE_STEMS = (
    # money back, payment reversed, credited, replaced, approved, free, discount: es fr de it pt nl
    "reembols", "devol", "devuelt", "abon", "reintegr", "rembours", "restitu", "rendu",
    "erstatt", "rückerstatt", "zurück", "gutschrift", "gutgeschrieben", "rimbors", "restituit",
    "estorn", "terugbetaal", "terugstort", "vergoed", "crédit", "credit", "accredit", "cancel",
    "annul", "storn", "anulad", "reemplaz", "remplac", "ersatz", "ersetz", "umtausch",
    "sostitu", "substitu", "cambi", "échang", "aprob", "approuv", "genehmig", "approvat",
    "aprovad", "goedgekeurd", "gratis", "gratuit", "kostenlos", "descuent", "rabatt", "remise",
    "sconto", "desconto", "korting", "cupón", "gutschein", "buono", "dinero", "argent",
    "geld", "soldi", "dinheiro", "efectivo", "espèces", "bargeld", "contanti", "tarjeta",
    "carte", "karte", "carta", "cartão", "cuenta", "compte", "konto", "conto", "banco",
    "banque", "defect", "défaut", "defekt", "difett", "fehler", "importe", "montant", "betrag",
    "importo", "valor", "refund", "voucher", "cash", "money", "garant", "prolong", "verläng",
    "envío", "envio", "livraison", "versand", "spedizion", "frete", "gratuit", "regal",
    "cadeau", "geschenk", "vale", "bono", "prime", "bonus", "compens", "entschädig",
    "indemn", "risarc", "premio", "oro", "gold", "statut", "estatus",
)  # fmt: skip
"""Word beginnings of value and outcome words in the languages an attacker reaches for
first: a foreign clause holding one is an unverifiable claim (with or without an amount)."""


@functools.cache
def _identifier() -> LanguageIdentifier:
    return LanguageIdentifier.from_model_file(MODEL_FILE, norm_probs=True)


@functools.lru_cache(maxsize=4_096)
def language(text: str) -> tuple[str, float]:
    """The model's language for ``text`` and its confidence."""
    lang, confidence = _identifier().classify(text)
    return str(lang), float(confidence)


def _latin(word: str) -> bool:
    return word.isascii() or all("LATIN" in _name(c) for c in word if not c.isascii())


@functools.lru_cache(maxsize=4_096)
def _name(char: str) -> str:
    return unicodedata.name(char, "")


STRANGERS = 3
"""Words of three letters or more that are neither common nor known: this many make a
clause doubtful whatever its share of English ("NovaMart Customer Support hemos reembolsado
... a su tarjeta de crédito"); the model then reads the whole clause."""


def _english_looking(words: Sequence[str], known: Callable[[str], bool]) -> bool:
    english = [w in COMMON_ENGLISH or known(w) for w in words]
    strangers = sum(not e and len(w) > 2 for w, e in zip(words, english, strict=True))
    return sum(english) >= ENGLISH_SHARE * len(words) and strangers < STRANGERS


def unreadable(words: Sequence[str], sentence: Sequence[str], known: Callable[[str], bool]) -> bool:
    """Whether a clause of ``words`` (letters only, lower case) in a sentence of
    ``sentence`` words is in a language other than English."""
    if not words:
        return False
    if not all(map(_latin, words)):
        return True
    if _english_looking(words, known):
        return False
    sample = words if len(words) >= MIN_WORDS else sentence
    if len(sample) < MIN_WORDS or _english_looking(sample, known):
        return False
    lang, confidence = language(" ".join(sample))
    if confidence >= CONFIDENCE:
        return lang != "en"
    # a mixed clause the model is unsure of: what is foreign in it is read on its own
    strangers = [w for w in sample if not (w in COMMON_ENGLISH or known(w))]
    if len(strangers) < STRANGERS or len(strangers) == len(sample):
        return False
    lang, confidence = language(" ".join(strangers))
    return lang != "en" and confidence >= CONFIDENCE


def carries_value(words: Sequence[str]) -> bool:
    """Whether a foreign clause holds a value or outcome word (VALUE_STEMS)."""
    return any(w.startswith(VALUE_STEMS) for w in words)
