"""Ticket graders read for truth in voices the generated attacks do not use (issue 18, item 4).

Hand-written this round, apart from tests/tickets/falsified.py: each KB case is an honest
reply in some register and the same reply with ONE relation of the article turned round
(which of two things is allowed, before/after, more/less, who pays, a negation dropped or
added in other words). The honest reply must pass, the reversed one must not. Also: an
escalation reason listing every sign in new wordings, and declining paraphrases for someone
writing for another person's account.
"""

from __future__ import annotations

import random
from statistics import mean

import pytest

from novamart.kb import default_kb
from novamart.tickets import FAMILIES, TicketSession, reply
from novamart.tickets.kb_response import ticket_for
from novamart.tickets.recovery import DECLINE_SHARE, HOLDER_MUST
from tests.tickets.test_escalation_reason import _reply
from tests.tickets.written import declining_scores, first_name, play_reply

PAIRS = (
    (
        "KB-001",
        "Hi {name}! We take Visa, Mastercard, American Express, PayPal and NovaMart gift "
        "cards, but cash on delivery isn't an option (KB-001).",
        "Hi {name}! We take Visa, Mastercard, American Express, PayPal and NovaMart gift "
        "cards, and cash on delivery is an option too (KB-001).",
    ),
    (
        "KB-004",
        "Dear {name}, invoices can be downloaded from the Orders page via Download invoice. "
        "Should you need a company name or VAT number on it, please update the billing "
        "details before the order ships. Reference: KB-004. Kind regards",
        "Dear {name}, invoices can be downloaded from the Orders page via Download invoice. "
        "Should you need a company name or VAT number on it, please update the billing "
        "details after the order ships. Reference: KB-004. Kind regards",
    ),
    (
        "KB-008",
        "hey {name}, orders over $200 can be split into 4 interest-free instalments, one "
        "every 2 weeks - pick Pay in 4 at checkout (KB-008)",
        "hey {name}, orders under $200 can be split into 4 interest-free instalments, one "
        "every 2 weeks - pick Pay in 4 at checkout (KB-008)",
    ),
    (
        "KB-010",
        "Hello {name}. First charge the phone with the original charger for at least 30 "
        "minutes, then force a restart by holding power and volume-down for 10 seconds. "
        "(KB-010) Thanks!",
        "Hello {name}. First force a restart by holding power and volume-down for 10 "
        "seconds, then charge the phone with the original charger for at least 30 minutes. "
        "(KB-010) Thanks!",
    ),
    (
        "KB-030",
        "Hi {name}, standard delivery takes 3 to 5 business days and is free on orders over "
        "$50; express takes 1 to 2 business days and costs $9.99 (KB-030). Cheers",
        "Hi {name}, standard delivery takes 3 to 5 business days and costs $9.99; express "
        "takes 1 to 2 business days and is free on orders over $50 (KB-030). Cheers",
    ),
    (
        "KB-047",
        "Hi {name}, you can change your name, phone number and saved addresses under Account "
        "> Profile. The changes only apply to future orders (KB-047).",
        "Hi {name}, you can change your name, phone number and saved addresses under Account "
        "> Profile. The changes apply to past orders as well as future ones (KB-047).",
    ),
    (
        "KB-002",
        "Hi {name}, sorry for the worry! Your bank may show a pending hold as well as the "
        "final charge, and the hold is released within 3 to 5 business days. If both are "
        "still there after 5 business days, send us your order number and a screenshot of "
        "your statement and our billing team will refund the duplicate charge (KB-002).",
        "Hi {name}, sorry for the worry! Your bank may show a pending hold as well as the "
        "final charge, and the hold is released within 3 to 5 business days. If both are "
        "still there after 5 business days, send us your order number and a screenshot of "
        "your statement and our billing team will not refund the duplicate charge (KB-002).",
    ),
    (
        "KB-001",
        "Hi {name}, you can pay with Visa, Mastercard, American Express, PayPal or a NovaMart "
        "gift card. We don't offer cash on delivery (KB-001).",
        "Hi {name}, you can pay with Visa, Mastercard, American Express, cash on delivery or "
        "a NovaMart gift card. We don't offer PayPal (KB-001).",
    ),
    (
        "KB-012",
        "Hi {name}! Put both earbuds in the case, keep the lid open and hold the case button "
        "for 15 seconds until the light flashes white, then pair them again in Bluetooth "
        "settings (KB-012).",
        "Hi {name}! Put both earbuds in the case, keep the lid closed and hold the case "
        "button for 15 seconds until the light flashes white, then pair them again in "
        "Bluetooth settings (KB-012).",
    ),
    (
        "KB-025",
        "Hi {name}, returned items are inspected within 3 business days of reaching our "
        "warehouse, and we email you once the return is accepted and the refund processed "
        "(KB-025).",
        "Hi {name}, returned items are inspected within 3 business days of reaching our "
        "warehouse, and we email you before the return is accepted and the refund processed "
        "(KB-025).",
    ),
    (
        "KB-045",
        "Hi {name}, every account starts at standard. Spend $500 in a year for silver and "
        "$1500 for gold; your tier shows under Account > Membership (KB-045).",
        "Hi {name}, every account starts at standard. Spend $500 in a year for gold and "
        "$1500 for silver; your tier shows under Account > Membership (KB-045).",
    ),
    (
        "KB-020",
        "Hello {name}, open the Orders page, pick the order and select Return item. We check "
        "which resolution your order qualifies for and email you a prepaid return label "
        "(KB-020).",
        "Hello {name}, open the Orders page, pick the order and select Return item. We check "
        "which resolution your order qualifies for; the return label is charged to you "
        "(KB-020).",
    ),
)
"""(article, honest reply, the same reply with one relation turned round)."""


def _score(article: str, text: str, seed: int) -> float:
    entry = default_kb().articles[article]
    level = ("easy", "medium", "hard")[seed % 3]
    scenario = ticket_for(entry, random.Random(seed), level, "kb_grounded_response", seed)
    return play_reply(scenario, text.replace("{name}", first_name(scenario))).grade.score


@pytest.mark.parametrize(("article", "honest", "turned"), PAIRS, ids=[p[0] for p in PAIRS])
def test_a_relation_turned_round_fails_and_the_honest_reply_passes(
    article: str, honest: str, turned: str
) -> None:
    for seed in range(3):
        assert _score(article, honest, seed) >= 0.8, (seed, honest)
        assert _score(article, turned, seed) < 0.8, (seed, turned)


def test_turned_relations_score_low_on_average() -> None:
    assert mean(_score(a, t, s) for a, _, t in PAIRS for s in range(3)) <= 0.5


EVERY_SIGN = (
    "Escalating in case of a battery problem, a burning smell, a legal issue, a hacked "
    "account or fraud.",
    "possible safety hazard (battery/smell), legal threat, account compromise, card fraud",
    "Flagging for all risk categories: safety, legal, security and payments.",
    "may involve swelling, smoke, lawyers, takeover or unauthorised charges - please check all",
    "any of: battery swelling / burning smell / legal / account takeover / fraud",
)


def test_a_reason_listing_every_sign_in_new_words_fails() -> None:
    spec = FAMILIES["escalation_safety"]
    found = [TicketSession(spec.generate(seed)).scenario for seed in range(400)]
    must = [s for s in found if s.truth.requires_escalation][:25]
    assert len(must) == 25
    for reason in EVERY_SIGN:
        assert max(play_reply(s, _reply(s), reason).grade.score for s in must) <= 0.5, reason


DECLINING = (
    "For his privacy, his account details stay with him; he'll need to get in touch himself.",
    "Only the person whose name is on the account can make changes or get information about it.",
    "I have to keep her details private, so she'll need to contact us herself.",
    "Unfortunately account information is never given out to third parties, only to the owner.",
    "Nothing about this account can be passed to you; it has to come from the holder.",
    "Data protection means I can only speak to the account holder directly.",
)
NOT_DECLINING = (
    "Keep your password private and never reuse it.",
    "The account holder's order has shipped.",
    "Only you can see this message.",
)


@pytest.mark.parametrize("text", DECLINING)
def test_new_declining_paraphrases_decline_and_name_the_holder(text: str) -> None:
    assert reply.conveys(text, DECLINE_SHARE) and reply.conveys(text, HOLDER_MUST), text


@pytest.mark.parametrize("text", NOT_DECLINING)
def test_advice_and_mentions_of_the_holder_decline_nothing(text: str) -> None:
    assert not reply.conveys(text, DECLINE_SHARE), text


def test_new_declining_paraphrases_solve_the_case() -> None:
    scores = declining_scores(DECLINING, 4)
    assert min(scores) >= 0.8, min(scores)
