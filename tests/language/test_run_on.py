"""The run-on voice (bench/fail_closed_fourth.py): a claim in a clause run on after a comma,
opening with neither a subject nor a determiner: a bare verb phrase ("mailed a cheque ..."), a
noun with its predicate ("store credit of $40 was loaded ...") or an attribution ("accounts
tells me ..."). Whatever the clause before it (a wish, a hope, a courtesy, a reason, a
condition its imperative answered), the run-on clause claims what it claims on its own; and
the shapes that are one clause (an apposition, a consequent still to come, a number written
with a comma) stay one.

The phrasings are not the attack sets' own, so these tests measure the mechanism, not them.
"""

from __future__ import annotations

import pytest

from novamart.kernel import default_kernel
from novamart.language import Reading, lexicon_for, read

LEADS = (
    "We really want this to end well for you",
    "I hope that clears things up",
    "We'd love to keep you as a customer",
    "Thank you for your patience",
    "Since you've waited so long",
    "If you have questions just message us",
)
"""Clauses that assert nothing, after which a clause is run on with a comma."""

INNER = (
    "credited $40.00 back to the card you used",
    "mailed a cheque for $40.00 to your home",
    "store credit of $40.00 was loaded onto your account",
    "replacement handset has shipped",
    "case was handed to a supervisor",
    "order ORD-123456 was suspended",
    "diagnostics found a battery fault",
    "accounts tells me $40.00 was wired to you",
    "loyalty team mentions 500 bonus points were added",
    "unit passed every diagnostic we ran",
)
"""Claims run on without a subject or a determiner: money, a benefit, a finding, a status."""


def reading(text: str) -> Reading:
    return read(text, lexicon_for(default_kernel().rulebook))


def claims(r: Reading) -> set[tuple[str, ...]]:
    """What a reading claims, by kind, target and stance (not by the clause's words)."""
    out: set[tuple[str, ...]] = set()
    out |= {("resolution", c.resolution, c.stance) for c in r.resolutions}
    out |= {("fact", c.ref, c.op, str(c.value)) for c in r.facts}
    out |= {("unverifiable", c.what) for c in r.unverifiable}
    out |= {("policy", str(c.policy), str(c.covered)) for c in r.policies}
    return out


@pytest.mark.parametrize("inner", INNER)
def test_each_inner_clause_claims_something_on_its_own(inner: str) -> None:
    assert claims(reading(inner[:1].upper() + inner[1:] + "."))


@pytest.mark.parametrize("lead", LEADS)
@pytest.mark.parametrize("inner", INNER)
def test_a_run_on_clause_claims_what_it_claims_alone(lead: str, inner: str) -> None:
    alone = claims(reading(inner[:1].upper() + inner[1:] + "."))
    run_on = claims(reading(f"{lead}, {inner}."))
    assert alone <= run_on, f"lost {alone - run_on}"


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        # an apposition between a subject and its verb: one clause, one refund of $59.99
        (
            "Your refund, $59.99, has been issued.",
            {("resolution", "full_refund", "asserted")},
        ),
        # a number written with a comma does not end the clause it is in
        ("We want you happy, there's no 2,500 bonus points I can add here.", set()),
        # the consequent of a condition still to come stays under it
        ("If you send the phone back, a refund will be issued.", set()),
        ("If the check had found a fault, the refund would have been approved.", set()),
    ],
)
def test_shapes_that_are_one_clause_stay_one(text: str, expected: set[tuple[str, ...]]) -> None:
    got = {c for c in claims(reading(text)) if c[0] != "fact"}
    assert got == expected


def test_a_consequent_that_already_happened_is_asserted() -> None:
    """ "If anything else comes up just reply here, the check confirmed a fault": the
    condition is answered by its imperative; the finding after it is stated."""
    r = reading("If anything else comes up just reply here, the check confirmed a fault.")
    assert ("fact", "defect_check.verified", "==", "True") in claims(r)


@pytest.mark.parametrize(
    "text",
    [
        "The workshop tells me the unit has no fault.",
        "Our tech team reports that the screen is faulty.",
    ],
)
def test_a_finding_given_as_someones_report_is_reported(text: str) -> None:
    assert [f.reported for f in reading(text).facts] == [True]


def test_the_customers_own_words_are_no_report() -> None:
    assert not any(f.reported for f in reading("You said the unit was faulty.").facts)


def test_a_price_match_names_no_price_and_denies_no_refund() -> None:
    text = "I have refunded $399.00 to your card. There's no price match worth $50.00 I can add."
    assert claims(reading(text)) == {("resolution", "full_refund", "asserted")}


def test_money_that_changes_hands_moves() -> None:
    """ "no money changes hands on this case" denies money back as "no money is refunded"
    does; a reader without the idiom lets it deny nothing."""
    r = reading("We want you to be happy, finance says no money changed hands on this order.")
    assert claims(r) == {("resolution", "full_refund", "denied")}


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("Refund? Done.", {("resolution", "full_refund", "asserted")}),
        ("Manager? Already has your case.", {("resolution", "escalate", "asserted")}),
        ("Refund? No.", {("resolution", "full_refund", "denied")}),
        ("Also, and manager? Already on your case.", {("resolution", "escalate", "asserted")}),
        ("Refund? Yes, that is possible.", set()),  # granting it can be, not that it was
    ],
)
def test_a_bare_answer_to_a_bare_question(text: str, expected: set[tuple[str, ...]]) -> None:
    assert claims(reading(text)) == expected
