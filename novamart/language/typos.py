"""Typos of claim words read as the words meant (issue 18): "It's cvoered", "a vouhcer".

A reader that knows words only as spelled reads nothing in a claim whose key word has two
letters swapped, one doubled or one dropped, so the lie goes free. A word the reader does
not know is read as the claim word one such edit gives back:

- in a word of five letters or more, two adjacent letters swapped ("cvoered"), a doubled
  letter written once more ("refuund"), a letter dropped ("refnd") or one moved two places
  ("ponhe" for "phone", the least likely); the first and (for a dropped letter) the last
  letter kept, as in most real typos ("table" is no "tablet");
- only claim words are meant (the reader's own word lists, not the common words): the reader
  knows too few words to tell every English word from a typo, and a claim read out of a typo
  is what must not go free;
- claim words are known by their lemma, and a lemma takes off any suffix it can, so the
  targets are the regular forms of each claim lemma that the lemma reads back ("oened" is
  "opened", never "oneed" = "one" + ed); a swap is likelier than a doubled letter and that
  than a dropped one ("coveerd" is "covered" before "coverd"); of one kind, the form of the
  longest lemma is meant, and a tie means nothing.

The forms and their one-letter-dropped and letter-moved spellings are indexed once per
vocabulary, so a word costs a few set look-ups, and each is worked out once (a cache by
word).
"""

from __future__ import annotations

import re
from collections import defaultdict
from collections.abc import Iterable, Set

from novamart.language.text import lemma

SHORTEST = 5
"""The shortest word respelt: shorter ones are too near to others ("safe" to "staff")."""
MEANT = 4
"""The shortest claim lemma a typo is meant as ("loging" is no "log" + ing)."""
CACHED = 65_536
"""Words worked out and kept (the cache starts again past this many)."""
_WORD = re.compile(rf"(?<![\w@$])[a-z]{{{SHORTEST},}}(?![\w@$])")
"""A word of plain letters (not part of one with an accent: "garantía" is no "garant")."""
_VOWELS = frozenset("aeiou")
_UNDOUBLED = _VOWELS | frozenset("lsz")
"""Letters the lemma does not undo when doubled ("cancelled" is "cancell" to it), so no
doubled form of them is the lemma's."""


def forms(root: str) -> dict[str, int]:
    """The regular forms of a lemma (0), and, when it ends in a consonant, of the word it may
    be with its final e dropped (1: "issu" is "issue"; "label" is no "labele", so a form of
    the lemma itself comes first)."""
    out: dict[str, int] = {}
    bases = (root,) if root[-1] in "aeiouy" else (root, root + "e")
    for rank, base in reversed(list(enumerate(bases))):
        stem = base[:-1] if base.endswith("e") else base
        made = {base, base + "s", base + "es", base + "er", base + "ers", base + "ly"}
        made |= {base + "d"} if base.endswith("e") else {base + "ed"}
        made |= {stem + "ing", base[:-1] + "ies", base[:-1] + "ied"}
        if len(base) > 2 and base[-1] not in _UNDOUBLED and base[-2] in _VOWELS:
            made |= {base + base[-1] + "ed", base + base[-1] + "ing"}  # shipped
        out |= dict.fromkeys(made, rank)
    return out


def _echo(root: str, roots: Set[str]) -> bool:
    """A word list's inflected copy of another lemma ("coverd", "feess" beside "cover",
    "fees": the lists hold a past and a plural of each word, which the light lemma leaves as
    they are), which no typo is meant as."""
    return root[-1] in "ds" and (root[:-1] in roots or lemma(root[:-1]) in roots)


def _untracked(table: dict[str, set[str]]) -> dict[str, tuple[str, ...]]:
    """``table`` with tuples for sets: a tuple or dict of strings alone is one the garbage
    collector stops tracking, and these tables hold some 75,000 of them for the process's
    life, which every full collection would otherwise walk."""
    return {key: tuple(sorted(forms)) for key, forms in table.items()}


class Typos:
    """The claim words' spellings, and what a misspelt word among them was meant to be."""

    def __init__(self, known: frozenset[str], claims: Iterable[str]) -> None:
        self._spelled = {f for root in known if not _echo(root, known) for f in forms(root)}
        """Their regular forms: no typo either, though the light lemma may not read them
        back ("taking" is "tak" to it, and no "talking" dropped an l)."""
        self._forms: dict[str, tuple[str, int]] = {}
        """Each regular form of a claim lemma that the lemma reads back -> the lemma, and
        whether the form is of the lemma itself (0) or of it with an e (1)."""
        roots = set(claims)
        words = roots | known
        self._words = frozenset(w for w in words if not _echo(w, words))
        """Every word of the reader's lists: no typo (but for a doubled last letter)."""
        self._roots = frozenset(r for r in roots if len(r) >= MEANT and not _echo(r, roots))
        """The claim lemmas a typo may be meant as."""
        for root in self._roots:
            for form, rank in forms(root).items():
                if lemma(form) == root and rank <= self._forms.get(form, (root, rank))[1]:
                    self._forms[form] = root, rank
        dropped: dict[str, set[str]] = defaultdict(set)
        moved: dict[str, set[str]] = defaultdict(set)
        for form in self._forms:
            for i in range(1, len(form) - 1):
                dropped[form[:i] + form[i + 1 :]].add(form)
            for i in range(1, len(form) - 2):
                moved[form[:i] + form[i + 2] + form[i : i + 2] + form[i + 3 :]].add(form)
                moved[form[:i] + form[i + 1 : i + 3] + form[i] + form[i + 3 :]].add(form)
        self._dropped = _untracked(dropped)
        """Each form with one inner letter dropped -> the forms it comes from."""
        self._moved = _untracked(moved)
        """Each form with one inner letter moved two places -> the forms it comes from."""
        self._meant: dict[str, str | None] = {}

    def respelt(self, text: str) -> tuple[str, list[str]]:
        """``text`` (lower case) with its misspelt claim words respelt, and the rewrites."""
        found = {}
        known = self._meant  # (looked up here: most words were worked out before)
        for word in dict.fromkeys(_WORD.findall(text)):  # first-seen order, not hash order
            if (meant := known[word] if word in known else self.meant(word)) is not None:
                found[word] = meant
        if not found:
            return text, []
        text = _WORD.sub(lambda m: found.get(m.group(0), m.group(0)), text)
        return text, [f"{typo} -> {word}" for typo, word in found.items()]

    def meant(self, word: str) -> str | None:
        """The claim word ``word`` is a typo of, or None (see the module's docstring)."""
        if word not in self._meant:
            if len(self._meant) >= CACHED:
                self._meant.clear()
            self._meant[word] = self._work_out(word)
        return self._meant[word]

    def _work_out(self, word: str) -> str | None:
        root = lemma(word)
        if word in self._forms or word in self._spelled:
            return None
        if {word, root} & self._words and word[-1] != word[-2]:
            return None  # a word of the reader's lists ("refundd" is a list's echo: a typo)
        n = len(word)
        swaps = {word[:i] + word[i + 1] + word[i] + word[i + 2 :] for i in range(1, n - 1)}
        doubled = {word[:i] + word[i + 1 :] for i in range(1, n) if word[i] == word[i - 1]}
        dropped, moved = self._dropped.get(word, ()), self._moved.get(word, ())
        edits = (swaps, doubled, dropped, moved)  # the likeliest typo first
        ranked = sorted(
            (self._forms[w][1], kind, -len(self._forms[w][0]), w)
            for kind, candidates in enumerate(edits)
            for w in candidates
            if w != word and w in self._forms
        )
        if not ranked:
            return None
        best = ranked[0]
        rivals = {self._forms[r[3]][0] for r in ranked if r[:3] == best[:3]}
        return best[3] if len(rivals) == 1 else None  # "deect": defect or detect
