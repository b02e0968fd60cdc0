"""kb_grounded_response (medium): find the right help-centre article and answer from it.

Graded on retrieval (the article appeared in a search, by rank), the reply's coverage of
the article's answer, citing it, politeness, focus (a reply that pastes the whole
knowledge base is not an answer) and paraphrase (quoting the key sentence is fine, pasting
retrieved articles verbatim is not); facts no retrieved article states are penalised.
"""

from __future__ import annotations

import random

from novamart.kb import Article, default_kb
from novamart.kb.policies import article_id
from novamart.tickets import compose, reply
from novamart.tickets.model import Difficulty, Grade, Scenario, Ticket, Truth
from novamart.tickets.state import TicketState

WEIGHTS = {"retrieval": 0.2, "coverage": 0.4, "citation": 0.2, "politeness": 0.2}
HALLUCINATION_PENALTY = 0.15
CATEGORY_OF = {"policy": "returns", "safety": "technical"}
_ASIDES = (
    "By the way, your website looks great.",
    "I've been a customer for years.",
    "My sister recommended NovaMart to me.",
    "Sorry if this is a silly question.",
)


def _articles() -> list[Article]:
    return [a for a in default_kb().articles.values() if a.questions]


def ticket_for(
    article: Article, rng: random.Random, difficulty: Difficulty, task_id: str, seed: int | None
) -> Scenario:
    customer = compose.name(rng)
    index = {
        "easy": 0,
        "medium": rng.randrange(len(article.questions)),
        "hard": len(article.questions) - 1,
    }[difficulty]
    body = [article.questions[index]]
    if difficulty != "easy":
        body.insert(0, f"I bought a {compose.product(rng)} recently ({compose.order_id(rng)}).")
    if difficulty == "hard":
        body.insert(rng.randint(0, len(body)), rng.choice(_ASIDES))
    return Scenario(
        family="kb_grounded_response",
        task_id=task_id,
        difficulty=difficulty,
        seed=seed,
        ticket=Ticket(
            ticket_id=compose.ticket_id(rng),
            customer_name=customer,
            subject="Question",
            text=compose.letter(rng, customer, body),
        ),
        truth=Truth(
            category=CATEGORY_OF.get(article.category, article.category),
            kb_id=article.id,
            reference_answer=article.answer,
            requires_escalation=False,
        ),
    )


def generate(rng: random.Random, difficulty: Difficulty, seed: int | None = None) -> Scenario:
    return ticket_for(rng.choice(_articles()), rng, difficulty, "kb_grounded_response", seed)


def canonical() -> Scenario:
    """A customer asks how long an unopened item can be returned (policy article)."""
    article = default_kb().articles[article_id("standard_return")]
    return ticket_for(article, random.Random(3), "easy", "kb_return_window", None)


def response_sources(state: TicketState) -> list[str]:
    """What a reply may draw on: the retrieved articles and the ticket itself."""
    kb = default_kb()
    return [kb.articles[i].text for i in state.retrieved] + [state.scenario.ticket.text]


def paraphrase(state: TicketState) -> float:
    """How far the reply is the agent's own answer rather than retrieved articles pasted
    verbatim (see ``reply.paraphrase``); 1 before any reply."""
    kb = default_kb()
    bodies = [kb.articles[i].body for i in state.retrieved]
    reference = state.scenario.truth.reference_answer or ""
    return reply.paraphrase(state.response or "", bodies, reference)


def grade(state: TicketState) -> Grade:
    truth = state.scenario.truth
    rank = state.best_rank(truth.kb_id)
    parts = {"retrieval": 1.0 / rank if rank else 0.0}
    notes: list[str] = []
    penalty = 0.0
    if state.response is not None:
        target = default_kb().get(truth.kb_id or "")
        allowed = [
            target.text if target else "",
            truth.reference_answer or "",
            state.scenario.ticket.text,
        ]
        own_words = paraphrase(state)
        factor = reply.fit(state.response, allowed) * own_words
        parts |= {
            "coverage": factor * reply.coverage(state.response, truth.reference_answer or ""),
            "citation": factor * reply.citation_score(state.response, truth.kb_id),
            "politeness": factor * reply.politeness(state.response),
        }
        unsupported = reply.unsupported_facts(state.response, response_sources(state))
        penalty = min(0.6, HALLUCINATION_PENALTY * len(unsupported))
        if unsupported:
            notes.append(f"not in the retrieved articles: {', '.join(unsupported[:8])}")
        parts |= {"focus": factor, "paraphrase": own_words}
    score = sum(WEIGHTS[k] * parts.get(k, 0.0) for k in WEIGHTS) - penalty
    components = {k: round(v, 4) for k, v in parts.items()} | {"hallucination": -penalty}
    return Grade(score=round(min(1.0, max(0.0, score)), 4), components=components, notes=notes)
