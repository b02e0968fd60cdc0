"""KB answers falsified in ways written after the truth reader (issue 18, item 4, second
round): a word of the article turned into its opposite, the store and the customer swapped,
another article's fact in place of this one's, a hedged denial; and one rewriting that stays
true, a denied negation ("it is not true that you cannot ..."). Each is generated from the
corpus of honest paraphrases and labelled by construction from the article's answer
(tests/tickets/falsified.py); each lie costs, and the honest answer of the same facts passes.
"""

from __future__ import annotations

from statistics import mean

import pytest

from novamart.kb import default_kb
from novamart.tickets.truth import contradictions
from tests.tickets.falsified import (
    NEW_CLASSES,
    Case,
    article_score,
    cases,
    flagged,
    lie,
    score,
    scores_of,
)

ENOUGH = 40
"""Cases a later kind must have on the held-out half (the roles swap applies to the fewest
sentences: 48)."""
STEPS = "Stop using the device, do not charge it, and keep it away from anything flammable."
"""The swollen-battery article's safety steps, which no passing reply leaves out."""


@pytest.fixture(scope="module")
def held_out() -> list[tuple[Case, float]]:
    return [(case, score(case, i)) for i, case in enumerate(cases("held-out"))]


@pytest.mark.parametrize("kind", NEW_CLASSES)
def test_a_later_falsification_fails(kind: str, held_out: list[tuple[Case, float]]) -> None:
    scores = scores_of(held_out, kind, ENOUGH)
    assert mean(scores) <= 0.5, mean(scores)


def test_a_denied_negation_is_true_and_passes(held_out: list[tuple[Case, float]]) -> None:
    scores = [s for case, s in held_out if case.kind == "double"]
    assert len(scores) >= 50, len(scores)
    assert mean(scores) >= 0.9 and min(scores) >= 0.8, (mean(scores), min(scores))


def test_the_detector_reads_the_later_kinds_precisely() -> None:
    found = [(case, flagged(case)) for case in cases("held-out")]
    true_positives = sum(hit and lie(case) for case, hit in found)
    precision = true_positives / sum(hit for _, hit in found)
    recall = true_positives / sum(lie(case) for case, _ in found)
    assert precision >= 0.98 and recall >= 0.95, (precision, recall)


@pytest.mark.parametrize(
    ("article_id", "lie_", "truth"),
    [
        # a negation inserted into the fact's later clause, said in other words
        ("KB-050", f"{STEPS} Our safety team handles every swollen battery case directly and "
         "will never be in touch with you.", f"{STEPS} Our safety team handles every swollen "
         "battery case directly and will be in touch with you."),
        # "instead" denies the option before it under the same condition
        ("KB-037", "You can cancel it on the Orders page until it ships. Once it's on its way, "
         "cancelling is possible; you'd start a return instead.", "You can cancel it on the "
         "Orders page until it ships. Once it's on its way, cancelling isn't possible; you'd "
         "start a return instead."),
        # a hedged denial of the reply's own negation affirms the option "instead" denies
        ("KB-037", "You can cancel it on the Orders page until it ships. It's not really the "
         "case that once it's on its way, cancelling isn't possible; you'd start a return "
         "instead.", "You can cancel it on the Orders page until it ships. Once it's on its "
         "way, cancelling isn't possible; you'd start a return instead."),
        # "still" with a perfect takes a negation
        ("KB-032", "Wait 24 hours and check with your neighbours. If it still has turned up, "
         "contact us and we will open an investigation with the carrier and update you within "
         "5 business days.", "Wait 24 hours and check with your neighbours. If it still hasn't "
         "turned up, contact us and we will open an investigation with the carrier and update "
         "you within 5 business days."),
        # a restriction lifted by naming its opposite, not negated
        ("KB-047", "Update your name, phone number and saved addresses in Account > Profile. "
         "The change is only for future orders, the ones already made.", "Update your name, "
         "phone number and saved addresses in Account > Profile. The change is only for future "
         "orders, not the ones already made."),
        # who acts for whom: the customer doing the store's verb (a passive keeps the roles)
        ("KB-051", "Unplug the device at once and stop using it. If there is smoke or fire, "
         "move away and call emergency services. You will contact our safety team about the "
         "device.", "Unplug the device at once and stop using it. If there is smoke or fire, "
         "move away and call emergency services. You will be contacted by our safety team "
         "about the device."),
        # a thing given to the other owner
        ("KB-052", "If someone else changed your password or placed orders, your security team "
         "locks the account and investigates.", "If someone else changed your password or "
         "placed orders, our security team locks the account and investigates."),
        # a limit passed for a window
        ("KB-036", "Large orders can arrive in separate parcels, so check your shipping email. "
         "If something is still missing, tell us after 7 days of delivery.", "Large orders can "
         "arrive in separate parcels, so check your shipping email. If something is still "
         "missing, tell us within 7 days of delivery."),
        # another article's fact in place of the answer
        ("KB-044", "Change your email in Account > Profile. Your data is deleted within 30 days, "
         "except order records we must keep for tax purposes.", "Request closure in Account > "
         "Privacy. Your data is deleted within 30 days, except order records we must keep for "
         "tax purposes."),
        # another article's fact written as a list, in place of the answer's last fact
        ("KB-005", "Enter a promo code in the basket before checkout; only one promo code can be "
         "used per order. NovaMart accepts Visa, Mastercard, American Express, PayPal and "
         "NovaMart gift cards.", "Enter a promo code in the basket before checkout; only one "
         "promo code can be used per order. Gift cards never expire and can be combined with a "
         "promo code."),
        # a negation dropped where the fact's words stand without its negator
        ("KB-005", "Promo codes go in the basket, before you check out, and you can only use one "
         "per order. Gift cards are different: they do have an expiry date and you can use "
         "them alongside a promo code.", "Promo codes go in the basket, before you check out, "
         "and you can only use one per order. Gift cards are different: they don't have an "
         "expiry date and you can use them alongside a promo code."),
        # a negation inserted in a paraphrase holding just over half of the fact's words
        ("KB-026", "Gift cards, downloaded software and opened earbud ear tips cannot be "
         "returned. All other items are never covered by our return, defect and goodwill "
         "policies.", "Gift cards, downloaded software and opened earbud ear tips cannot be "
         "returned. All other items are covered by our return, defect and goodwill policies."),
        # "with no interest" says "interest-free", so only the inserted "not" negates
        ("KB-008", "Orders over $200 can not be paid in 4 instalments with no interest, one "
         "every 2 weeks. Choose Pay in 4 at checkout.", "Orders over $200 can be paid in 4 "
         "instalments with no interest, one every 2 weeks. Choose Pay in 4 at checkout."),
        # roles swapped in the sentence telling the fact, the true owner named in another
        ("KB-006", "A declined card usually means the billing address doesn't match what your "
         "bank has, or the bank stopped the payment. Double-check the address and try once "
         "more; if it still fails, our bank can tell us why, since you're never told the "
         "reason.", "A declined card usually means the billing address doesn't match what "
         "your bank has, or the bank stopped the payment. Double-check the address and try "
         "once more; if it still fails, your bank can tell you why, since we're never told the "
         "reason."),
        # an opposite where another fact of the answer has the same word elsewhere
        ("KB-018", "Please use a different charger and cable, or certified ones, and gently "
         "clean the charging port with a soft, dry brush. Try a different wall socket before "
         "reporting a defect.", "Please use the original charger and cable, or certified "
         "ones, and gently clean the charging port with a soft, dry brush. Try a different "
         "wall socket before reporting a defect."),
        # the fact's own word said once more in its opposite's place
        ("KB-017", "Turn Wi-Fi off and off, restart your router, and forget the network before "
         "joining it again. Updating the device software also fixes many connection "
         "problems.", "Turn Wi-Fi off and on, restart your router, and forget the network "
         "before joining it again. Updating the device software also fixes many connection "
         "problems."),
        # an instruction of a fact told over two sentences, negated in one conjunct
        ("KB-013", "Please install the latest updates and restart the laptop. Do not keep "
         "minimum 10 percent of the storage free, and disable the startup apps you don't "
         "need.", "Please install the latest updates and restart the laptop. Keep minimum 10 "
         "percent of the storage free, and disable the startup apps you don't need."),
        # a negated instruction given bare, in words of its own
        ("KB-046", "We never ask anyone for a password or full card number, not by email, not "
         "in chat, not on the phone. Do click anything in that message; please forward it to "
         "our security team.", "We never ask anyone for a password or full card number, not "
         "by email, not in chat, not on the phone. Don't click anything in that message; "
         "please forward it to our security team."),
        # a restriction negated ("not only")
        ("KB-047", "You can update it in Account > Profile: name, phone number and the saved "
         "addresses. The change is not only for the future orders.", "You can update it in "
         "Account > Profile: name, phone number and the saved addresses. The change is only "
         "for the future orders."),
        # a comparison bounded the other way ("not more than" is "at most")
        ("KB-036", "Large orders can come in separate parcels. Please look in your shipping "
         "email if there is not more than one tracking number. If the item is still missing, "
         "tell us within 7 days of delivery.", "Large orders can come in separate parcels. "
         "Please look in your shipping email if there is more than one tracking number. If "
         "the item is still missing, tell us within 7 days of delivery."),
        # a noun made of the fact's verb holds it ("payments" for "paid")
        ("KB-008", "Anything over $200 can not be spread across 4 payments with no interest, "
         "one every 2 weeks. At checkout, just go for the Pay in 4 option.", "Anything over "
         "$200 can be spread across 4 payments with no interest, one every 2 weeks. At "
         "checkout, just go for the Pay in 4 option."),
        # the one a passive is done to doing the verb ("you may ask" for "you may be asked")
        ("KB-040", "Hit Forgot password and we'll get you a reset link. A one-time code goes to "
         "the email or phone on the account, and you may also ask which recent order you "
         "placed. We will never ask you for your password or your full card number.", "Hit "
         "Forgot password and we'll get you a reset link. A one-time code goes to the email "
         "or phone on the account, and you may also be asked which recent order you placed. "
         "We will never ask you for your password or your full card number."),
        # another article's step among the article's own in a numbered list
        ("KB-023", "\n\n1. Go to the Orders page and choose Report a defect.\n2. Check the "
         "address, try again, or contact your bank; we never see the reason for a decline.\n"
         "3. Once the defect is confirmed, you pick a resolution.\n\n", "\n\n1. Go to the "
         "Orders page and choose Report a defect.\n2. We run a remote defect check on the "
         "device.\n3. Once the defect is confirmed, you pick a resolution.\n\n"),
    ],
)  # fmt: skip
def test_each_mechanism_costs_the_lie_and_keeps_the_truth(
    article_id: str, lie_: str, truth: str
) -> None:
    assert article_score(article_id, lie_, 0) <= 0.5, lie_
    assert article_score(article_id, truth, 0) >= 0.8, truth


HEDGES = ("It's not really the case that {}", "I wouldn't say that {}", "It's wrong to say that {}")


@pytest.mark.parametrize("hedge", HEDGES)
def test_a_hedged_denial_of_the_answer_fails_on_every_article(hedge: str) -> None:
    articles = [a for a in default_kb().articles.values() if a.questions]
    scores = [
        article_score(a.id, hedge.format(a.answer[0].lower() + a.answer[1:]), i)
        for i, a in enumerate(articles)
    ]
    assert max(scores) <= 0.5, max(scores)


def test_a_condition_left_to_a_question_keeps_the_instruction_true() -> None:
    """ "Still no sync? Unpair the watch ..." states the instruction; its condition's negation
    stands in the question, not in the instruction."""
    body = (
        "Make sure Bluetooth is on and the NovaWatch app is open, then restart the watch and "
        "the phone. Still no sync? Unpair the watch in the app and pair it once more."
    )
    assert article_score("KB-014", body, 0) >= 0.8


def test_a_negated_conjunct_left_out_is_an_omission_not_a_reversal() -> None:
    """Leaving out "do not charge it" whole says nothing false; saying "charge it" does."""
    answer = default_kb().articles["KB-050"].answer
    rest = "and keep it away from anything flammable. Our safety team will contact you."
    assert not any(contradictions(f"Stop using the device {rest}", answer))
    assert any(contradictions(f"Stop using the device, charge it, {rest}", answer))


def test_a_negated_instruction_with_an_opposite_says_the_fact() -> None:
    """ "Don't keep it near" says "keep it away"; "don't keep it away" and "keep it near" lie."""
    answer = default_kb().articles["KB-050"].answer
    said = "Stop using it, do not charge it, and {} anything flammable."
    assert not any(contradictions(said.format("don't keep it near"), answer))
    assert any(contradictions(said.format("don't keep it away from"), answer))
    assert any(contradictions(said.format("keep it near"), answer))
