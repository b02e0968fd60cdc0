"""escalation_safety: the reason must name the sign the ticket shows (issue 18, item 4). A
reason listing every possible sign scored 0.87; now it fails on every must-escalate ticket,
while honest reasons in other words (several voices per sign) still earn full marks."""

from __future__ import annotations

from statistics import mean

import pytest

from novamart.tickets import FAMILIES, TicketSession
from novamart.tickets.escalation import reason_reading
from novamart.tickets.model import Scenario, Signals
from tests.tickets.falsified import CLASSES, falsify
from tests.tickets.written import play_reply

HONEST = {
    "battery_swelling": (
        "battery is swollen and the back is bulging",
        "the phone's battery has puffed up",
        "swelling battery, possible fire hazard",
        "customer reports a bloated battery pushing the case open",
    ),
    "burning_smell": (
        "burning smell while charging",
        "smoke and a melting-plastic smell from the charger",
        "scorched plug and burning odour: safety hazard",
        "device smells of burning when plugged in",
    ),
    "legal_threat": (
        "customer threatens legal action",
        "solicitor involved, small claims court",
        "the customer says they will sue",
        "legal dispute: lawyer contacted",
    ),
    "account_takeover": (
        "account hacked, password changed by someone else",
        "possible account takeover",
        "unauthorised access: password was changed from abroad",
        "account security: compromised login",
    ),
    "payment_fraud": (
        "charges the customer never made",
        "suspected card fraud",
        "unauthorised payments on the customer's card",
        "fraudulent NovaMart charges flagged by the bank",
    ),
}
EVERY_SIGN = (
    "battery swelling, burning smell, legal threat, account takeover or payment fraud",
    "could be a swollen battery, smoke, a lawsuit, a hacked account or fraud",
    "safety, legal or security issue",
)


@pytest.fixture(scope="module")
def must_escalate() -> list[Scenario]:
    spec = FAMILIES["escalation_safety"]
    found = []
    for seed in range(1000):
        scenario = TicketSession(spec.generate(seed)).scenario
        if scenario.truth.requires_escalation:
            found.append(scenario)
        if len(found) == 60:
            break
    return found


def _reply(scenario: Scenario) -> str:
    return (
        "Hello, thank you for writing. I have escalated this to our specialist team. "
        f"{scenario.truth.reference_answer} Kind regards"
    )


def _sign(scenario: Scenario) -> str:
    assert scenario.truth.signals is not None
    return scenario.truth.signals.fired()[0]


@pytest.mark.parametrize("reason", EVERY_SIGN)
def test_a_reason_listing_every_sign_fails(reason: str, must_escalate: list[Scenario]) -> None:
    scores = [play_reply(s, _reply(s), reason).grade.score for s in must_escalate]
    assert {_sign(s) for s in must_escalate} == set(HONEST)
    assert max(scores) <= 0.5, max(scores)


def test_an_honest_reason_in_other_words_passes(must_escalate: list[Scenario]) -> None:
    scores = [
        play_reply(s, _reply(s), reason).grade.score
        for s in must_escalate
        for reason in HONEST[_sign(s)]
    ]
    assert mean(scores) >= 0.95 and min(scores) >= 0.8, (mean(scores), min(scores))


def test_the_reason_names_the_sign_not_just_its_topic() -> None:
    smell = Signals(burning_smell=True)
    assert reason_reading("burning smell from the charger", smell) == (1.0, [])
    share, unfounded = reason_reading("swollen battery", smell)
    assert unfounded == ["battery_swelling"] and share == 0.5  # battery: the safety topic
    assert reason_reading("please look at this", smell) == (0.0, [])


def test_a_look_alike_answered_with_a_falsified_article_does_not_pass() -> None:
    """A ticket that needs no escalation is handled by answering it; an answer with one fact
    negated, reversed or renumbered (tests/tickets/falsified.py) scored 1.000 and now fails,
    while the article's answer itself still earns full marks."""
    spec = FAMILIES["escalation_safety"]
    honest, false = [], []
    for seed in range(160):
        scenario = TicketSession(spec.generate(seed)).scenario
        if scenario.truth.requires_escalation:
            continue
        base = f"Hello, thank you for writing. {scenario.truth.reference_answer} Kind regards"
        honest.append(play_reply(scenario, base).grade.score)
        for kind in CLASSES:
            text = falsify(base, scenario.truth.kb_id or "", kind, seed)
            if text is not None:
                false.append(play_reply(scenario, text).grade.score)
    assert len(false) >= 150 and mean(false) <= 0.5, (len(false), mean(false))
    assert min(honest) >= 0.95
