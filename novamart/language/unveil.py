"""Disguised letters undone before a message is read (issue 18): what every detector sees.

- Unicode NFKC (full-width and styled letters are letters), then format characters (zero
  width spaces and joiners, bidi controls, soft hyphens: Unicode category Cf) removed, and
  combining marks left on a plain Latin letter (NFKC composes every real accent: what stays
  is a disguise, like the grapheme joiner in "r\u034fe\u034ff").
- Look-alike letters of other scripts folded to the Latin letter they imitate, by the
  Unicode confusables table as the confusable-homoglyphs package maintains it, in words
  that mix scripts or that fold to Latin whole (a Cyrillic "е" in "refund"; "рау"). A word
  of another script that does not fold whole stays as written: it is another language.
- Dashes of every kind (Unicode category Pd: the hyphen U+2010, the figure dash, the
  full-width hyphen ...) are a hyphen inside a word and a dash elsewhere.
- Letters spaced out by any separator ("r e f u n d", "r. e. f. u. n. d", "r_e_f", "r-e-f")
  joined; letters split by a hyphen ("re-fund", "re- fund") and digits or signs standing for
  letters ("r3fund", "cr3d1t", "c@sh") read as the word they spell when that word is one
  the reader knows (so "mp3", "e-mail" and "follow-up" stay).

- Typos of claim words ("cvoered", "vouhcer"), when the caller gives a respeller
  (novamart.language.typos).

Each rewritten word is reported, so the grader can say a claim was disguised.
"""

from __future__ import annotations

import functools
import json
import re
import unicodedata
from collections.abc import Callable
from importlib import resources
from itertools import product

LEET = {
    "0": "o", "1": "il", "3": "e", "4": "a", "5": "s", "6": "g", "7": "t", "8": "b", "9": "g",
    "@": "a", "$": "s",
    "v": "vu",
}  # fmt: skip
"""What a digit or sign may stand for inside a word (1 is i or l), and in a word spelled
with one, the letters that stand for others ("r3fvnd")."""
_GAP = r"(?:[ \t]*(?:[^\w\s$€£%]|_)[ \t]*|[ \t]+)"
"""What may separate spaced-out letters: spaces, or one sign (a dot, a dash, a star, an
underscore ...) with spaces around it, but never a line break, a digit or a currency."""
_SPACED_OUT = re.compile(rf"(?<![a-z0-9])[a-z](?:{_GAP}[a-z]){{2,}}(?:{_GAP}[a-z]+)?(?![a-z0-9])")
"""Letters spaced out: r. e. f. u. n. d"""
_HYPHENATED = re.compile(r"[a-z]+(?:(?:-[ \t]?|[ \t]-)[a-z]+)+")
"""A word broken by a hyphen: re-fund, re- fund"""
_MIXED = r"[a-z0-9@$]*(?:[a-z][0-9@$]|[0-9@][a-z])[a-z0-9@$]*"
"""A word of letters mixed with digits or signs: r3fund, 1ssued, c@sh"""
_SUSPECT = re.compile(f"{_SPACED_OUT.pattern}|{_HYPHENATED.pattern}|{_MIXED}")
_MIXED_RUN = re.compile(r"(?<![a-z0-9@$])[a-z0-9@$]*?(?:[a-z][0-9@$]|[0-9@][a-z])[a-z0-9@$]*")
"""What _SUSPECT finds in a text where neither of its first two alternatives matches: the
third's matches, each a whole run of ``[a-z0-9@$]`` holding a letter beside a digit or sign
(its greedy scan takes the run from its start), found in one pass instead of trying three
alternatives at every character (an order's ids and amounts make most replies suspect)."""
_LETTERS = re.compile(r"[a-z]+")
_FORMAT, _DASH = "Cf", "Pd"


@functools.cache
def _confusables() -> dict[int, str]:
    """Each non-ASCII letter the confusables table says imitates one Latin letter, to it."""
    raw = resources.files("confusable_homoglyphs").joinpath("confusables.json").read_text("utf-8")
    table: dict[int, str] = {}
    for char, looks in json.loads(raw).items():
        if len(char) != 1 or char.isascii() or not char.isalpha():
            continue
        latin = [
            x["c"] for x in looks if len(x["c"]) == 1 and x["c"].isascii() and x["c"].isalpha()
        ]
        if latin:
            table[ord(char)] = latin[0].lower()
    return table


_WORD = re.compile(r"[^\W\d_]+")


_OVERRIDE = re.compile("\u202e([^\u202c\n]*)\u202c?")
"""A right-to-left override: what it shows is its text reversed ("\u202etnemecalper")."""


def _skeleton(word: str) -> str:
    """The Latin letters a word is written with, marks taken off and small capitals read as
    letters ("rẽplac̃ément" -> "replacement", "ʀᴇꜰᴜɴᴅ" -> "refund")."""
    out = []
    for char in unicodedata.normalize("NFD", word):
        if unicodedata.category(char)[0] == "M":
            continue
        if not char.isascii():
            name = unicodedata.name(char, "")
            if "LATIN" in name and "LETTER" in name and len(name.split()[-1]) == 1:
                char = name.split()[-1].lower()  # LATIN LETTER SMALL CAPITAL R
        out.append(char)
    return "".join(out)


def fold_scripts(text: str, known: Callable[[str], bool] | None = None) -> tuple[str, list[str]]:
    """NFKC, right-to-left overrides undone, format characters dropped, look-alike letters
    folded (and, when ``known`` says the result is a word the reader knows, accents and
    small capitals read as plain letters); and the words folded."""
    if "\u202e" in text:
        text = _OVERRIDE.sub(lambda m: m.group(1)[::-1], text)
    text = unicodedata.normalize("NFKC", text)
    text = "".join(_plain(text, i, c) for i, c in enumerate(text))
    changes: list[str] = []

    def fold(match: re.Match[str]) -> str:
        word = match.group(0)
        if word.isascii():
            return word
        folded = word.translate(_confusables())
        if folded != word and folded.isascii():
            changes.append(f"{word} -> {folded}")
            return folded
        if known is not None:  # (look-alikes and marks together: "с̈r̰eḏiṭ")
            plain = _skeleton(folded).translate(_confusables())
            if plain.isascii() and known(plain.lower()):
                changes.append(f"{word} -> {plain}")
                return plain
        if folded != word and any(c.isascii() for c in word):
            changes.append(f"{word} -> {folded}")
            return folded
        return word

    return _WORD.sub(fold, text), changes


def _latin_alike(char: str) -> bool:
    """A Latin letter, or a letter of another script that imitates one (Cyrillic "с")."""
    return char.isascii() or ord(char) in _confusables() or "LATIN" in unicodedata.name(char, "")


def _after_latin(text: str, i: int) -> bool:
    """Whether the letter a run of marks at ``i`` sits on is Latin or imitates one."""
    k = i - 1
    while k >= 0 and unicodedata.category(text[k])[0] == "M":
        k -= 1
    return k >= 0 and _latin_alike(text[k])


def _plain(text: str, i: int, char: str) -> str:
    """A format character dropped; a dash of any kind a hyphen between letters or digits
    ("sto\u2010re"), a dash between words otherwise."""
    if char.isascii():
        return char
    category = unicodedata.category(char)
    if category == _FORMAT or (category[0] == "M" and _after_latin(text, i)):
        return ""  # invisible, or a mark NFKC could not compose with a Latin letter
    if category != _DASH:
        return char
    inside = 0 < i < len(text) - 1 and text[i - 1].isalnum() and text[i + 1].isalnum()
    return "-" if inside else " - "


def _spellings(word: str) -> list[str]:
    """The words a leet spelling may stand for (every digit read each way it can be)."""
    options = [LEET.get(c, c) for c in word]
    if sum(len(o) > 1 for o in options) > 3:
        options = [o[0] for o in options]
    return ["".join(p) for p in product(*options)]


_LOWER = "abcdefghijklmnopqrstuvwxyz"
_SHAPES = str.maketrans(dict.fromkeys(_LOWER, "a") | dict.fromkeys("0123456789@$", "0"))
"""Letters to "a", digits and the signs a mixed word holds to "0": a letter beside one is "a0"
or "0a" (a superset of what _MIXED matches), and a hyphen between letters "a-a", "a- a",
"a-\ta", "a -a" or "a\t-a" (each a match of _HYPHENATED), told at C speed."""
_HYPHENS = ("a-a", "a- a", "a-\ta", "a -a", "a\t-a")
_SINGLES = str.maketrans(
    dict.fromkeys(_LOWER, "a")
    | dict.fromkeys("0123456789", "0")
    | {c: " " for c in map(chr, range(128)) if not c.isalnum()}
)
"""An ASCII text's letters to "a", digits to "0", every other character to a space: letters
spaced out are three one-letter words in a row, " a a a " (_SPACED_OUT's gaps are spaces and
signs, and its letters stand alone)."""
_THREE_SINGLES = re.compile(r" a +a +a ")


def _rare(text: str, shapes: str) -> bool:
    """Whether spaced-out letters or a hyphenated word match somewhere in ``text`` (``shapes``:
    it translated by _SHAPES). A search for spaced-out letters scans every letter of a long
    reply (0.1 ms in 4,000 characters), so an ASCII text is searched only when its one-letter
    words hold three in a row; the hyphen's shapes are its matches."""
    if any(h in shapes for h in _HYPHENS):
        return True
    if text.isascii() and not _THREE_SINGLES.search(f" {text.translate(_SINGLES)} "):
        return False
    return _SPACED_OUT.search(text) is not None


Respell = Callable[[str], tuple[str, list[str]]]
"""Misspelt words read as the words meant, and those rewrites (novamart.language.typos)."""


def unveil(
    text: str, known: Callable[[str], bool], respell: Respell | None = None
) -> tuple[str, list[str]]:
    """``text`` (lower case) with disguised words read as the words they spell (and, with
    ``respell``, misspelt ones as the words meant), and those rewrites ("r3fund -> refund").
    ``known`` says whether a word is one the reader knows."""
    text, changes = _undisguised(text, known)
    if respell is None:
        return text, changes
    text, respelt = respell(text)
    return text, changes + respelt


def _undisguised(text: str, known: Callable[[str], bool]) -> tuple[str, list[str]]:
    """``text`` with disguised letters read as the words they spell, and those rewrites.
    Whether a word is read so depends on it alone, never on what else the text holds: each
    alternative of _SUSPECT is ruled out only when it cannot match anywhere (``_rare``, and a
    mixed word by the text's shapes)."""
    shapes = text.translate(_SHAPES)
    rare = _rare(text, shapes)
    if not rare and "a0" not in shapes and "0a" not in shapes:
        return text, []
    changes: list[str] = []

    def rewrite(match: re.Match[str]) -> str:
        raw = match.group(0)
        letters = _LETTERS.findall(raw)
        if len(letters) > 2 and all(len(x) == 1 for x in letters[:3]):
            return _spaced(raw, known, changes)
        if "-" in raw:
            word = "".join(letters)
            if not known(word):
                return raw
        else:
            word = next((w for w in _spellings(raw) if w.isalpha() and known(w)), "")
            if not word:
                return raw
        changes.append(f"{raw} -> {word}")
        return word

    return (_SUSPECT if rare else _MIXED_RUN).sub(rewrite, text), changes


def _spaced(raw: str, known: Callable[[str], bool], changes: list[str]) -> str:
    """Letters spaced out, read as the word they spell with or without the run of letters
    after them ("r. e. f. u. n. ded"), the first letter perhaps an article ("a r e f u n d")."""
    words = _words_apart(raw, known)
    if words is not None:
        changes.append(f"{raw} -> {words}")
        return words
    runs = list(_LETTERS.finditer(raw))
    cuts = [len(runs), len(runs) - 1] if len(runs[-1].group(0)) > 1 else [len(runs)]
    for cut in cuts:
        spelled, rest = runs[:cut], raw[runs[cut - 1].end() :]
        for article in (False, True):
            if article and spelled[0].group(0) not in ("a", "i"):
                continue
            word = "".join(m.group(0) for m in spelled[article:])
            if len(word) > 2 and known(word):
                changes.append(f"{raw[spelled[article].start() : len(raw) - len(rest)]} -> {word}")
                lead = f"{spelled[0].group(0)} " if article else ""
                return lead + word + rest
    return raw


_WORD_BREAK = re.compile(r"(?<=[a-z])[ \t]+(?=[a-z])")
"""Only spaces between two letters: where one spelled-out word ends and the next begins,
when the letters of a word are parted by a sign ("f|u|l|l r*e*f*u*n*d")."""


def _words_apart(raw: str, known: Callable[[str], bool]) -> str | None:
    """Several words spelled out with a sign between their letters and spaces between the
    words: each spelled word joined when every one is a word the reader knows; a plain word
    before or after (an article, the next word the match took) stays as written."""
    chunks = _WORD_BREAK.split(raw)
    if len(chunks) < 2:
        return None
    out, spelled = [], 0
    for chunk in chunks:
        letters = _LETTERS.findall(chunk)
        if len(letters) == 1 and letters[0] == chunk:
            out.append(chunk)  # a plain word
        elif len(letters) > 1 and all(len(x) == 1 for x in letters):
            word = "".join(letters)
            if not known(word):
                return None
            out.append(word)
            spelled += 1
        else:
            return None
    return " ".join(out) if spelled else None
