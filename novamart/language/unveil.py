"""Disguised letters undone before a message is read (issue 18): what every detector sees.

- Unicode NFKC (full-width and styled letters are letters), then format characters (zero
  width spaces and joiners, bidi controls, soft hyphens: Unicode category Cf) removed.
- Look-alike letters of other scripts folded to the Latin letter they imitate, by the
  Unicode confusables table as the confusable-homoglyphs package maintains it, in words
  that mix scripts or that fold to Latin whole (a Cyrillic "е" in "refund"; "рау"). A word
  of another script that does not fold whole stays as written: it is another language.
- Letters spaced out ("r e f u n d") joined; letters split by hyphens ("re-fund") and
  digits or signs standing for letters ("r3fund", "cr3d1t", "c@sh") read as the word they
  spell when that word is one the reader knows (so "mp3", "e-mail" and "follow-up" stay).

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
    "0": "o", "1": "il", "3": "e", "4": "a", "5": "s", "7": "t", "8": "b", "@": "a", "$": "s",
    "v": "vu",
}  # fmt: skip
"""What a digit or sign may stand for inside a word (1 is i or l), and in a word spelled
with one, the letters that stand for others ("r3fvnd")."""
_SUSPECT = re.compile(
    r"(?<![a-z0-9])[a-z](?: [a-z]){2,}(?![a-z0-9])"  # r e f u n d
    r"|[a-z]+(?:-[a-z]+)+"  # re-fund
    r"|[a-z0-9@$]*(?:[a-z][0-9@$]|[0-9@][a-z])[a-z0-9@$]*"  # r3fund, 1ssued, c@sh
)
_FORMAT = "Cf"


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


def fold_scripts(text: str) -> tuple[str, list[str]]:
    """NFKC, format characters dropped, look-alike letters folded; and the words folded."""
    text = unicodedata.normalize("NFKC", text)
    text = "".join(c for c in text if unicodedata.category(c) != _FORMAT)
    changes: list[str] = []

    def fold(match: re.Match[str]) -> str:
        word = match.group(0)
        if word.isascii():
            return word
        folded = word.translate(_confusables())
        if folded != word and (folded.isascii() or any(c.isascii() for c in word)):
            changes.append(f"{word} -> {folded}")
            return folded
        return word

    return _WORD.sub(fold, text), changes


def _spellings(word: str) -> list[str]:
    """The words a leet spelling may stand for (every digit read each way it can be)."""
    options = [LEET.get(c, c) for c in word]
    if sum(len(o) > 1 for o in options) > 3:
        options = [o[0] for o in options]
    return ["".join(p) for p in product(*options)]


_SHAPES = str.maketrans(
    dict.fromkeys("abcdefghijklmnopqrstuvwxyz", "a") | dict.fromkeys("0134578@", "0")
)


def _may_be_disguised(text: str) -> bool:
    """False only when _SUSPECT cannot match: no digit or sign beside a letter, no hyphen
    between letters, no run of single letters. The text's shape (every letter "a", every
    digit "0") tells at C speed, where the full scan of 4,000 characters costs most of a
    millisecond."""
    shapes = text.translate(_SHAPES)
    return "a0" in shapes or "0a" in shapes or "a-a" in shapes or " a a a" in shapes


def unveil(text: str, known: Callable[[str], bool]) -> tuple[str, list[str]]:
    """``text`` (lower case) with disguised words read as the words they spell, and those
    rewrites ("r3fund -> refund"). ``known`` says whether a word is one the reader knows."""
    if not _may_be_disguised(text):
        return text, []
    changes: list[str] = []

    def rewrite(match: re.Match[str]) -> str:
        raw = match.group(0)
        if " " in raw:
            word = raw.replace(" ", "")
            if not known(word) and raw[0] in "ai" and known(word[1:]):
                changes.append(f"{raw[2:]} -> {word[1:]}")
                return f"{raw[0]} {word[1:]}"  # "a r e f u n d": an article, then the word
        elif "-" in raw:
            word = raw.replace("-", "")
            if not known(word):
                return raw
        else:
            word = next((w for w in _spellings(raw) if w.isalpha() and known(w)), "")
            if not word:
                return raw
        changes.append(f"{raw} -> {word}")
        return word

    return _SUSPECT.sub(rewrite, text), changes
