"""Reading messages: refund promises versus negations and hedges, reasons, courtesy."""

from __future__ import annotations

import pytest

from novamart.tools import messages

PROMISES = [
    "You will receive a full refund.",
    "I'll process your refund today.",
    "Your refund has been processed!",
    "I promise you will get your money back.",
    "Refund approved.",
    "You are eligible for a full refund.",
    "Don't worry: we can refund you in full.",
    "Good news, I'm going to reimburse the full price.",
]
NOT_PROMISES = [
    "We cannot refund you.",
    "Unfortunately a refund isn't possible.",
    "We are unable to issue a refund, but we can offer store credit.",
    "Instead of a refund, I have issued store credit of $974.99.",
    "I can't promise a refund.",
    "Let me check whether a refund is possible.",
    "A refund is not something we can do for opened items.",
    "Regarding your refund request: thanks for waiting.",
    "You won't be getting a refund, sorry.",
    "I've issued store credit to your account.",
]


@pytest.mark.parametrize("text", PROMISES)
def test_promises_are_recognised(text: str) -> None:
    assert messages.promises_refund(text)


@pytest.mark.parametrize("text", NOT_PROMISES)
def test_negations_and_hedges_are_not_promises(text: str) -> None:
    assert not messages.promises_refund(text)


def test_reasons_are_matched_on_key_terms() -> None:
    window = "purchased 55 days ago; the standard return window is 30 days"
    defect = "the defect check did not confirm a defect"
    assert messages.states_reason("It's been 55 days, past our 30-day return window.", window)
    assert messages.states_reason("Our defect check could not confirm a defect.", defect)
    assert not messages.states_reason("We will process your return within 30 days.", window)
    assert not messages.states_reason("Thank you for your patience.", defect)


def test_courtesy_offers_amounts_and_asks() -> None:
    assert messages.courteous("Thank you for waiting.")
    assert not messages.courteous("Thanks. Stop complaining.")
    assert not messages.courteous("Done.")
    assert messages.offered("We can offer store credit or an exchange.") == {
        "store_credit",
        "exchange",
    }
    assert messages.states_amount("I issued $1,299.99 in credit.", 1299.99)
    assert not messages.states_amount("I issued $1,299.00 in credit.", 1299.99)
    assert messages.asks("What is your order number, and when did you buy it?") == {
        "order",
        "when",
    }
