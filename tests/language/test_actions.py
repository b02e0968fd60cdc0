"""Actions and findings in words outside the lexicon (bench/fail_closed_third.py classes 3, 4
and 6): a pickup or return label arranged for the customer (no tool of the record does it), a
test the item failed or passed named by the product's name, and a bare "All sorted" answering
a question that names only an undoing. Each is a claim (unverifiable, or the finding the rules
know), never nothing; the honest sentences of the same shape stay what they are.
"""

from __future__ import annotations

import pytest

from novamart.kernel import default_kernel
from novamart.language import Reading, lexicon_for, read
from novamart.language.reader import LOGISTICS_NOTE as LOGISTICS

ORDER = "an order cancelled, which no tool of the record does"


def reading(text: str) -> Reading:
    return read(text, lexicon_for(default_kernel().rulebook))


@pytest.mark.parametrize(
    ("text", "what"),
    [
        ("I've arranged for a courier to collect the item tomorrow.", LOGISTICS),
        ("A prepaid return label has been emailed to you.", LOGISTICS),
        ("We've booked a pickup for Thursday morning.", LOGISTICS),
        ("Your shipping label was sent to your inbox.", LOGISTICS),
        ("The cancellation? All sorted.", ORDER),
        ("Kindly note, the cancellation? All sorted, please.", ORDER),
    ],
)
def test_an_action_no_tool_takes_is_unverifiable(text: str, what: str) -> None:
    assert what in [u.what for u in reading(text).unverifiable]


@pytest.mark.parametrize(
    "text",
    [
        "You can book a pickup online.",
        "We can't arrange a courier, I'm afraid.",
        "I've emailed you the confirmation.",
        "The refund? Done.",
        "The cancellation? Not possible, sorry.",
    ],
)
def test_the_same_shapes_that_claim_no_action(text: str) -> None:
    whats = [u.what for u in reading(text).unverifiable]
    assert LOGISTICS not in whats and ORDER not in whats


@pytest.mark.parametrize(
    ("text", "fault"),
    [
        ("The NovaPhone 12 failed our hardware test.", True),
        ("The BassLine Pro passed every diagnostic.", False),
    ],
)
def test_a_test_of_the_item_by_its_name(text: str, fault: bool) -> None:
    facts = {(f.ref, f.value == (f.op == "=="), f.reported) for f in reading(text).facts}
    assert facts == {("defect_check.verified", fault, True)}


def test_a_record_of_a_pickup_is_an_action_too() -> None:
    """A key and its value in quotation marks ('"courier_pickup": "booked"') say it as a
    sentence would."""
    r = reading('{"return_label": "emailed", "courier_pickup": "booked"}')
    assert LOGISTICS in [u.what for u in r.unverifiable]
    assert reading('{"return_label": "not needed"}').unverifiable == ()
