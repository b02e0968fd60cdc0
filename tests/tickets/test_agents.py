"""Per family: the oracle reaches >= 0.95, every exploit stays at or below its bound (0.3; one
fixed recovery reply 0.5), the heuristic lands in between (and writes whole sentences);
rewards sum to the final score, grades stay in [0, 1], and no step before the reply tells
which search result is the answer."""

from __future__ import annotations

import re
from statistics import mean

import pytest

from novamart.kb import default_kb
from novamart.tickets import FAMILIES, TicketSession
from novamart.tickets.agents import AGENTS, EXPLOITS, Brief, bound, play, run, summary

N = 60
CASES = [(family, name) for family in FAMILIES for name in EXPLOITS]


@pytest.fixture(scope="module")
def scenarios() -> dict:
    return {name: spec.dataset(N) for name, spec in FAMILIES.items()}


@pytest.mark.parametrize("family", list(FAMILIES))
def test_oracle_solves_the_family(family: str, scenarios: dict) -> None:
    scores = [run(AGENTS["oracle"], s)[0] for s in scenarios[family]]
    assert mean(scores) >= 0.95, family


@pytest.mark.parametrize(("family", "exploit"), CASES)
def test_exploits_score_low(family: str, exploit: str, scenarios: dict) -> None:
    scores = [run(EXPLOITS[exploit], s)[0] for s in scenarios[family]]
    assert mean(scores) <= bound(exploit, family), (family, exploit, mean(scores))


@pytest.mark.parametrize("family", list(FAMILIES))
def test_heuristic_is_between_exploits_and_oracle(family: str, scenarios: dict) -> None:
    score = mean(run(AGENTS["heuristic"], s)[0] for s in scenarios[family])
    print(f"heuristic {family}: {score:.3f}")
    assert 0.3 < score < 0.95, (family, score)


@pytest.mark.parametrize("family", list(FAMILIES))
def test_rewards_sum_to_the_final_score_and_stay_in_range(family: str, scenarios: dict) -> None:
    for agent in (*AGENTS.values(), *EXPLOITS.values()):
        for scenario in scenarios[family][:15]:
            score, rewards = run(agent, scenario)
            assert 0.0 <= score <= 1.0
            assert sum(rewards) == pytest.approx(score, abs=1e-9)


def test_grading_is_deterministic() -> None:
    for spec in FAMILIES.values():
        for scenario in spec.dataset(10):
            first = run(AGENTS["heuristic"], scenario)
            second = run(AGENTS["heuristic"], scenario)
            assert first == second
            session = TicketSession(scenario)
            play(AGENTS["heuristic"](Brief(spec.name, scenario.ticket)), session)
            assert spec.grade(session.state) == spec.grade(session.state)


@pytest.mark.parametrize("family", ["kb_grounded_response", "account_recovery"])
def test_searching_earns_nothing_until_the_reply(family: str, scenarios: dict) -> None:
    """A search step's reward would tell a client whether the right article was among the
    results; its credit counts when the ticket closes, so the step rewards still sum."""
    for scenario in scenarios[family][:20]:
        session = TicketSession(scenario)
        right = session.scenario.truth.kb_id or ""
        for query in (default_kb().articles[right].title, "earbuds bluetooth pairing"):
            outcome = session.step("search_kb", {"query": query})
            assert outcome.reward == 0.0 and outcome.grade.components == {}
        if session.scenario.truth.requires_escalation:
            session.step("escalate_to_manager", {"reason": "account takeover"})
        message = f"Hello, thank you. {session.scenario.truth.reference_answer} ({right})"
        closing = session.step("respond_to_customer", {"message": message})
        assert closing.grade.components["retrieval"] == 1.0
        assert sum(session.rewards) == pytest.approx(closing.score, abs=1e-9)
        assert closing.score > 0.5


@pytest.mark.parametrize("family", ["ticket_triage", "data_extraction", "kb_grounded_response"])
def test_hard_tickets_are_harder_than_easy_ones(family: str) -> None:
    spec = FAMILIES[family]

    def level(difficulty: str) -> float:
        return mean(run(AGENTS["heuristic"], spec.generate(s, difficulty))[0] for s in range(200))

    assert level("easy") > level("hard") + 0.15


def test_the_heuristic_answers_in_whole_sentences() -> None:
    """Its reply is the top article's first sentences: never a heading, a list marker or a
    bare number cut out of a numbered list ("... is shared. 1. (see KB-040)")."""
    for article in default_kb().articles.values():
        sentences = re.split(r"(?<=[.!?])\s+", summary(article.body))
        assert all(s[:1].isupper() and s[-1:] in ".!?" for s in sentences), article.id
    assert summary(default_kb().articles["KB-040"].body).endswith(
        "Choose Forgot password on the sign-in page to get a reset link."
    )
    for family in ("kb_grounded_response", "escalation_safety", "account_recovery"):
        for scenario in FAMILIES[family].dataset(N):
            session = TicketSession(scenario)
            play(AGENTS["heuristic"](Brief(family, scenario.ticket)), session)
            reply = session.state.response or ""
            cited = re.search(r"\n\n(.*) \(see [\w-]+\)\n\n", reply)
            assert cited, reply
            assert not re.search(r"(^|\s)(\d+[.)]|-)(\s|$)", cited[1]), reply
