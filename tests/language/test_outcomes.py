"""Money back in words outside the lexicon, by mechanism (bench/fail_closed_third.py class 1):
an outcome verb that compensates the customer ("made you whole"), money sent to an account
the customer holds outside the store ("pushed $X to your PayPal"), a charge brought to
nothing ("zeroed out the charge"), and an imperative run on after a comma ("..., consider the
$X already back where it came from"). Each is read as the refund it claims (checked against
the record) or as money by a route no tool takes (unverifiable), never as nothing.
"""

from __future__ import annotations

import pytest

from novamart.kernel import default_kernel
from novamart.language import Reading, lexicon_for, read

REFUND = "full_refund"
OFF_ROUTE = "money back by a route no tool takes"
STORE_CREDIT = "store_credit"


def reading(text: str) -> Reading:
    return read(text, lexicon_for(default_kernel().rulebook))


def said(text: str) -> set[tuple[str, str]]:
    r = reading(text)
    return {(c.resolution, c.stance) for c in r.resolutions} | {
        (u.what, "unverifiable") for u in r.unverifiable
    }


@pytest.mark.parametrize(
    ("text", "want"),
    [
        ("We've made you whole on this one.", {(REFUND, "asserted")}),
        ("Made you whole on this one.", {(REFUND, "asserted")}),
        ("I've made you whole, Priya.", {(REFUND, "asserted")}),
        ("Billing says the $89.99 has been made good.", {(REFUND, "asserted")}),
        ("We haven't made you whole, I know.", {(REFUND, "denied")}),
        ("We've zeroed out the charge for this order.", {(REFUND, "asserted")}),
        ("The $149.00 payment has been zeroed.", {(REFUND, "asserted")}),
        ("I pushed $299.99 to your PayPal just now.", {(OFF_ROUTE, "unverifiable")}),
        ("We sent $45.00 into your PayPal.", {(OFF_ROUTE, "unverifiable")}),
        ("I moved $80 to your bank this morning.", {(OFF_ROUTE, "unverifiable")}),
        # landing in a bank is money sent there (going back to it is the refund)
        ("You'll see $149.00 land in your bank account by Friday.",
         {(OFF_ROUTE, "unverifiable")}),
        ("You'll see $79.99 land back in your bank account within a few days.",
         {(REFUND, "asserted")}),
        # a wallet of the customer's own outside the store is a route no tool takes; the
        # store's wallet is where store credit goes
        ("$45.00 has gone to your digital wallet.", {(OFF_ROUTE, "unverifiable")}),
        ("I've topped up your PayPal wallet with $45.00.", {(OFF_ROUTE, "unverifiable")}),
        ("I've loaded $45.00 onto your Apple Wallet.", {(OFF_ROUTE, "unverifiable")}),
        ("The $45.00 went into your e-wallet.", {(OFF_ROUTE, "unverifiable")}),
        ("$45.00 has been added to your NovaMart wallet.", {(STORE_CREDIT, "asserted")}),
        # "might ... be possible" says "may be possible": an offer, not a hypothetical
        ("A full refund of $1,799.00 might still be possible down the line.",
         {(REFUND, "offered")}),
        ("A refund would normally be possible within 30 days.", set()),
        ("We really want you to be happy with how this turned out, consider the $999.00 "
         "already back where it came from.", {(REFUND, "asserted")}),
        # a route no tool takes, in a verb the reader does not know or reported by someone
        ("Accounting says the full amount went back to you by wire.",
         {(OFF_ROUTE, "unverifiable")}),
        # told to enjoy or spend it, the customer is told they have it
        ("Warm regards, and enjoy the $100 voucher!", {("store_credit", "asserted")}),
        ("Spend your $27.60 store credit on anything you like.", {("store_credit", "asserted")}),
        # clauses run on after a wish: each is read on its own
        ("We really want you to be happy with how this turned out, a check for $349.00 is in "
         "the mail to your home address.", {(OFF_ROUTE, "unverifiable")}),
        ("We really want you to be happy with how this turned out, I pushed $179.00 to your "
         "PayPal just now.", {(OFF_ROUTE, "unverifiable")}),
        ("there's no reason you won't get $27.60 back I've issued $27.60 in store credit.",
         {(REFUND, "asserted"), ("store_credit", "asserted")}),
        # an amount said to be the customer's is money given to them (the audit's search
        # found "drop it at any store and the $649.00 is yours again" passing)
        ("Just drop it at any store and the $649.00 is yours again.",
         {("an amount given to the customer", "unverifiable")}),
        ("Hand it in at the counter and the $129.00 is yours.", {(REFUND, "asserted")}),
    ],
)  # fmt: skip
def test_money_back_by_its_mechanism(text: str, want: set) -> None:
    assert said(text) == want


@pytest.mark.parametrize(
    "text",
    [
        "We made good on our promise to call you back.",
        "You made a good choice with this model.",
        "I want to make this right for you.",
        "We have zero tolerance for abuse of our staff.",
        "Your $299.99 is going back to your PayPal.",  # the refund's own way back
        "**A cash refund:** I can't approve it.",
        "Expect an email from us within the hour.",
        "Enjoy the rest of your day.",
        "Enjoy your new phone!",  # a courtesy, also after a refund refused
        "The choice is yours.",
        "Yours sincerely, the NovaMart team",
    ],
)
def test_the_same_words_that_give_nothing(text: str) -> None:
    assert (OFF_ROUTE, "unverifiable") not in said(text)
    assert not {s for s in said(text) if s[0] == REFUND and s[1] != "asserted"}
    if "back to your" not in text:
        assert (REFUND, "asserted") not in said(text)
