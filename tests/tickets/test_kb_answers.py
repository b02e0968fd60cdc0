"""kb_grounded_response conveys facts in sentences: hand-written paraphrases (208, several
voices, tests/tickets/corpus/kb_replies.yaml) score well, a shuffled bag of the right
article's words and a keyword list of its answer score <= 0.3 over >= 100 seeds, and the
older checks (focus, paraphrase-not-paste, citation, invented facts) still bite."""

from __future__ import annotations

from statistics import mean

import pytest

from novamart.kb import default_kb
from novamart.tickets import FAMILIES, TicketSession
from novamart.tickets.agents import EXPLOITS, Brief, play, run
from novamart.tickets.answer import conveyed, fluency
from novamart.tickets.model import Scenario
from tests.tickets.written import PARTS, informed_score, kb_scores, play_reply

N = 120
PARAPHRASE_PASS = 0.8


@pytest.fixture(scope="module")
def kb_tickets() -> list[Scenario]:
    return FAMILIES["kb_grounded_response"].dataset(N)


@pytest.mark.parametrize("part", PARTS)
def test_hand_written_paraphrases_score_well(part: str) -> None:
    scores = [session.grade.score for _, session in kb_scores(part)]
    assert len(scores) >= 100
    assert mean(scores) >= 0.9, mean(scores)
    assert sum(s >= PARAPHRASE_PASS for s in scores) / len(scores) >= 0.95


@pytest.mark.parametrize("kind", ["salad", "keywords"])
def test_the_right_articles_words_without_sentences_score_low(
    kind: str, kb_tickets: list[Scenario]
) -> None:
    scores = [informed_score(kind, s, i) for i, s in enumerate(kb_tickets)]
    assert mean(scores) <= 0.3, mean(scores)
    honest = mean(session.grade.score for _, session in kb_scores("dev"))
    assert honest - mean(scores) >= 0.6


@pytest.mark.parametrize("exploit", ["word_salad", "keyword_stuffed"])
def test_the_reference_exploits_score_low(exploit: str, kb_tickets: list[Scenario]) -> None:
    assert mean(run(EXPLOITS[exploit], s)[0] for s in kb_tickets) <= 0.3


def test_a_keyword_list_or_shuffle_is_not_a_sentence() -> None:
    def score(text: str) -> float:
        words = text.lower().replace(",", " ,").split()
        return fluency([w for w in words if w != ","], words)

    assert score("Unopened items can be returned within 30 days of purchase for a full refund") == 1
    assert score("Install latest updates restart laptop keep least 10 percent storage free") == 0
    assert score("unopened, items, returned, 30, days, purchase, full, refund") == 0  # a list
    assert score("the within a refund for can purchase of be returned 30 days unopened") == 0


def test_a_negated_fact_is_conveyed_only_by_a_negation() -> None:
    article = default_kb().articles["KB-001"]
    said = "Hello! We accept Visa, Mastercard and PayPal. Cash on delivery is available."
    denied = said.replace("is available", "is not available")
    assert conveyed(said, article.answer, article.text)[1] == 0.0
    assert conveyed(denied, article.answer, article.text)[1] == 1.0


def _answer(message: str, kb_id: str = "KB-041") -> TicketSession:
    article = default_kb().articles[kb_id]
    scenario = next(
        s for s in FAMILIES["kb_grounded_response"].dataset(300) if s.truth.kb_id == article.id
    )
    return play_reply(scenario, message)


GOOD = (
    "Hi Sam, no problem at all. Pick Forgot password on the sign-in page and follow the "
    "reset link we email you. Heads up: that link expires after 1 hour (KB-041)."
)


def test_honest_courtesy_is_read_in_context() -> None:
    assert _answer(GOOD).grade.components["politeness"] == 1.0  # "Hi" is polite
    kind = GOOD.replace("no problem at all", "this is not your fault, it happens to everyone")
    assert _answer(kind).grade.components["politeness"] == 1.0
    rude = GOOD.replace("no problem at all", "you should have read the FAQ")
    assert _answer(rude).grade.components["politeness"] == 0.0


def test_the_older_checks_still_bite() -> None:
    good = _answer(GOOD).grade
    assert good.score >= 0.95 and good.why["citation"] == "cited KB-041, the right article"
    invented = _answer(GOOD + " We'll add a $25 voucher too.").grade
    assert invented.score <= good.score - 0.25 and "voucher" in invented.why["hallucination"]
    uncited = _answer(GOOD.replace(" (KB-041)", "")).grade
    assert uncited.components["citation"] == 0.0 and "cites no article" in uncited.why["citation"]
    pasted = "\n\n".join(f"{a.title}\n{a.body}" for a in default_kb().articles.values())
    assert _answer(f"Hi Sam, {pasted[:3500]} (KB-041)").grade.score == 0.0


def test_every_component_says_why(kb_tickets: list[Scenario]) -> None:
    for scenario in kb_tickets[:10]:
        session = TicketSession(scenario)
        truth = session.scenario.truth
        play(EXPLOITS["word_salad"](Brief(scenario.family, scenario.ticket, None, 1)), session)
        assert set(session.grade.components) <= set(session.grade.why)
        assert truth.kb_id in session.grade.why["coverage"]
