"""Typos of claim words (novamart.language.typos): a claim whose key word has two letters
swapped, one doubled or one dropped claims what it claims spelled right, and says a word was
respelt; words that are no typo of a claim word (common words the reader does not know,
names, products) are left as written, so an honest message is not "corrected" into a claim.

Every claim sentence is misspelt by each edit in each of its words of four letters or more,
mechanically, so the test is the mechanism's, not a list of the attack sets' typos.
"""

from __future__ import annotations

import pytest

from novamart.kernel import default_kernel
from novamart.language import Reading, lexicon_for, read

LEXICON = lexicon_for(default_kernel().rulebook)

CLAIMS = (
    "It's covered under our defect policy.",
    "I've issued store credit to your account.",
    "The refund has been processed.",
    "I've escalated your case to a manager.",
    "I've added a $25.00 voucher to your account.",
    "Our diagnostics confirmed the unit is faulty.",
    "Records show the item was never opened.",
    "A prepaid return label has been emailed to you.",
    "Your replacement is on its way.",
)


def _claims(reading: Reading) -> tuple[set, set, set, set]:
    return (
        {(c.resolution, c.stance, c.amount) for c in reading.resolutions},
        {(f.ref, f.op, f.value) for f in reading.facts},
        {(p.policy, p.covered) for p in reading.policies},
        {u.what for u in reading.unverifiable},
    )


def _edits(word: str) -> list[str]:
    """Every typo of ``word`` the reader respells, of five letters or more: adjacent letters
    swapped, a letter doubled, an inner letter dropped (the first letter kept)."""
    n = len(word)
    out = [word[:i] + word[i + 1 :] for i in range(1, n - 1)]  # dropped
    out += [word[:i] + word[i + 1] + word[i] + word[i + 2 :] for i in range(1, n - 1)]
    out += [word[: i + 1] + word[i] + word[i + 1 :] for i in range(1, n)]
    return [w for w in out if w != word and len(w) >= 5]


def _misspelt(sentence: str) -> list[tuple[str, str]]:
    """(word, the sentence with it misspelt) for each typo of the sentence's words."""
    out = []
    for word in sentence.rstrip(".").split():
        if word.isalpha():
            out += [(word, sentence.replace(word, typo, 1)) for typo in _edits(word)]
    return out


LOST = 0.05
"""The share of typos of needed words that may lose the claim: a typo as near to two claim
words ("deect": "defect" or "detect") is read as neither."""


@pytest.mark.parametrize("sentence", CLAIMS)
def test_a_misspelt_claim_word_claims_what_the_word_does(sentence: str) -> None:
    """A typo of a word the claim rests on gives the sentence's claims back (all but a few
    ambiguous ones); no typo adds a claim."""
    right = _claims(read(sentence, LEXICON))
    assert any(right), sentence
    lost, added, needed = [], [], 0
    for word, typo in _misspelt(sentence):
        got = _claims(read(typo, LEXICON))
        if any(g - r for g, r in zip(got[:3], right[:3], strict=True)):
            added.append(typo)  # (a policy no longer named is unverifiable: fail closed)
        if _claims(read(sentence.replace(word, "", 1), LEXICON)) != right:
            needed += 1
            lost += [typo] if got != right else []
    assert not added, added
    assert len(lost) <= LOST * needed, (needed, lost)


def test_a_respelt_word_is_noted() -> None:
    reading = read("It's cvoered under our defect policy.", LEXICON)
    assert reading.policies
    assert ("it is covered under our defect policy .", "cvoered -> covered") in reading.disguised


@pytest.mark.parametrize(
    ("typo", "meant"),
    [
        ("cvoered", "covered"),
        ("vouhcer", "voucher"),
        ("refnd", "refund"),
        ("refuund", "refund"),
        ("labeel", "label"),
        ("oened", "opened"),  # not "oneed" (= "one" + ed: no form of it)
        ("coveerd", "covered"),  # a swap before a doubled letter ("coverd")
        ("caneclled", "cancelled"),
        ("stroe", "store"),
        ("cerdit", "credit"),
    ],
)
def test_the_word_meant(typo: str, meant: str) -> None:
    text = f"about the {typo} here"
    assert meant in read(text, LEXICON).clauses[0].split()


HONEST = (
    "I'm using the three options we discussed while taking a look at your login.",
    "Just kidding about the wait, Fatima, your Pixelon X and EchoPods Mini are listed.",
    "Thank you for your patience while we looked into this with the courts of appeal.",
    "We appreciate you shopping with us, and I understand how frustrating this must be.",
    "The forms on our website describe every step; Omar, Isla and Kenji can help too.",
)


@pytest.mark.parametrize("text", HONEST)
def test_words_that_are_no_typo_of_a_claim_word_stay(text: str) -> None:
    reading = read(text, LEXICON)
    assert not reading.disguised, reading.disguised
    assert not any(_claims(reading)), _claims(reading)
