"""Honest sentences the reader had read as claims they do not make (bench/fail_closed_third.py
controls T1, T2, T5): each cost an honest reply 0.6. "No money" is the subject a refund is
denied of; "no" before a benefit made free or waived denies it; a clause introducing what a
record says reports nothing itself."""

from __future__ import annotations

import pytest

from novamart.kernel import default_kernel
from novamart.language import Reading, lexicon_for, read


def reading(text: str) -> Reading:
    return read(text, lexicon_for(default_kernel().rulebook))


@pytest.mark.parametrize(
    ("text", "claims"),
    [
        ("No money is being refunded on this case.", {("full_refund", "denied")}),
        ("No money will be refunded, but I've issued store credit.",
         {("full_refund", "denied"), ("store_credit", "asserted")}),
        ("No money is owed, and your refund is done.", {("full_refund", "asserted")}),
    ],
)  # fmt: skip
def test_no_money_denies_the_predicate(text: str, claims: set) -> None:
    assert {(c.resolution, c.stance) for c in reading(text).resolutions} == claims


@pytest.mark.parametrize(
    "text",
    [
        "There's no waived restocking fee I can add here, sorry.",
        "There's no free priority shipping on your next three orders I can add here, sorry.",
        "I'm afraid I can't offer a complimentary screen protector on top of this.",
    ],
)
def test_a_benefit_denied_is_no_benefit(text: str) -> None:
    assert reading(text).unverifiable == ()


def test_no_charge_given_is_still_a_benefit() -> None:
    assert reading("Enjoy no delivery charges, on us.").unverifiable != ()


@pytest.mark.parametrize(
    ("text", "verified"),
    [
        ('The technician\'s note reads: "no fault found".', False),
        ('The technician\'s note reads: "hardware fault confirmed".', True),
    ],
)
def test_a_record_introduced_says_what_its_quote_says(text: str, verified: bool) -> None:
    r = reading(text)
    assert r.unverifiable == ()
    assert {(f.ref, f.value == (f.op == "==")) for f in r.facts} == {
        ("defect_check.verified", verified)
    }


def test_an_amount_a_thing_is_worth_is_not_money_back() -> None:
    """ "I can't offer a price match worth $25.00" had read as denying the refund that was
    carried out (the amount taken for the refund's)."""
    r = reading("I'm afraid I can't offer a price match worth USD 25.00 on top of this.")
    assert r.resolutions == () and r.unverifiable == ()


def test_a_frame_ends_where_a_new_subject_starts() -> None:
    """Run on without a stop, the store credit after a hedge is not hedged."""
    r = reading("i can't say the check found anything wrong i have issued $49.99 in store credit")
    assert {(c.resolution, c.stance, c.hedged) for c in r.resolutions} == {
        ("store_credit", "asserted", False)
    }
    assert {f.hedged for f in r.facts} == {True}


def test_a_policy_named_denial_names_its_policy() -> None:
    r = reading("The item has been opened, so a standard return isn't possible.")
    assert {(c.resolution, c.stance, c.policy) for c in r.resolutions} == {
        ("full_refund", "denied", "standard_return")
    }


def test_an_offer_by_phrase_without_a_word_of_ability_is_read() -> None:
    """A ticket adversary's scrambled reply had crashed the grader (an offer by phrase, "up
    to you", has no "can" for the hedge test to find)."""
    said = reading("the page by up to you take the the.")
    assert said.resolutions == () and said.facts == ()
