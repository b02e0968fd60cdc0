"""kb_grounded_response (medium): find the right help-centre article and answer from it.

Graded once the reply is sent (so no step before it tells which search result is the answer):
how far the reply conveys the article's answer *in sentences* (novamart.tickets.answer: a
shuffled bag of the article's words or a keyword list conveys nothing), whether the article
surfaced in a search (by rank), citing it, politeness (read by the message reader); times
focus (a reply that pastes the whole knowledge base is not an answer) and paraphrase (quoting
the key sentence is fine, pasting retrieved articles verbatim is not). Searching, citing and
politeness count in full only once the reply answers; facts no retrieved article states are
penalised, and so is every fact of the article the reply contradicts (novamart.tickets.truth:
negated, reversed or with a number changed), which then conveys nothing, every fact of
another article a sentence states in place of this one's (an answer about the wrong thing),
and every step the article requires (its safety instructions) the reply leaves out.
"""

from __future__ import annotations

import random
from statistics import mean

from novamart.kb import Article, default_kb
from novamart.kb.policies import article_id
from novamart.kb.text import words
from novamart.tickets import answer, compose, reply, steps
from novamart.tickets import truth as truth_check
from novamart.tickets.model import Difficulty, Grade, Scenario, Ticket, Truth
from novamart.tickets.state import TicketState

WEIGHTS = {"retrieval": 0.2, "coverage": 0.4, "citation": 0.2, "politeness": 0.2}
HALLUCINATION_PENALTY = 0.15
WRONG_FACT_PENALTY = 0.5
"""Per fact of the article the reply contradicts (negated, reversed, a number changed): a
wrong answer fails whatever else it gets right."""
OMITTED_STEP_PENALTY = 0.25
"""Per required step of the article (a safety instruction) the reply leaves out: more than
the 0.2 a perfect reply stands above the pass mark, so it cannot pass without it."""
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


ANSWERED = 0.5
"""Share of the answer conveyed from which a reply counts as answering: retrieval, citation
and politeness count in proportion up to it (they are part of an answer, not one alone)."""


def retrieval(state: TicketState, article: str | None) -> tuple[float, str]:
    """Credit for the best rank ``article`` reached in the searches, and why."""
    rank = state.best_rank(article)
    searches = len(state.searches)
    if rank is None:
        return 0.0, f"{article} came up in none of {searches} search(es)"
    return 1.0 / rank, f"{article} came up at rank {rank} (1 / rank)"


def conveyed_note(found: list[float], facts: list[str], article: str | None) -> str:
    full = sum(f >= 1.0 for f in found)
    missing = [t for f, t in zip(found, facts, strict=True) if f < 0.5]
    note = f"conveys {full} of the {len(found)} facts of {article}'s answer in sentences"
    return note + (f"; not said: {'; '.join(missing)}" if missing else "")


def fit_notes(reply_text: str, sources: list[str], own_words: float) -> dict[str, str]:
    focus = reply.focus(reply_text, sources)
    return {
        "focus": f"{focus:.0%} of its content words come from the article, the ticket or "
        f"courtesy; {len(words(reply_text))} words",
        "paraphrase": "in its own words"
        if own_words == 1.0
        else "pastes retrieved articles verbatim beyond quoting the key sentence",
    }


def grade(state: TicketState) -> Grade:
    truth = state.scenario.truth
    if state.response is None:
        return Grade(score=0.0)
    text = state.response
    target = default_kb().get(truth.kb_id or "")
    reference = truth.reference_answer or ""
    source = target.text if target else reference
    allowed = [source, reference, state.scenario.ticket.text]
    own_words = paraphrase(state)
    factor = reply.fit(text, allowed) * own_words
    found, contradicted = truth_check.truly_conveyed(text, reference, source)
    said = factor * (mean(found) if found else 1.0)
    answers = min(1.0, said / ANSWERED)
    rank, rank_why = retrieval(state, truth.kb_id)
    polite, polite_why = reply.politeness(reply.reading(state))
    parts = {
        "retrieval": rank * answers,
        "coverage": said,
        "citation": reply.citation_score(text, truth.kb_id) * answers,
        "politeness": polite * answers,
        "focus": factor,
        "paraphrase": own_words,
    }
    unsupported = reply.unsupported_facts(text, response_sources(state))
    foreign = truth_check.foreign_facts(text, target.id) if target else ()
    wrong = len(contradicted) + len(foreign)
    left_out = steps.omitted(text, target, reference) if target else []
    penalty = min(
        1.0,
        min(0.6, HALLUCINATION_PENALTY * len(unsupported))
        + WRONG_FACT_PENALTY * wrong
        + OMITTED_STEP_PENALTY * len(left_out),
    )
    scaled = "" if answers == 1.0 else f"; counts {answers:.0%} as the reply answers so little"
    why = {
        "retrieval": rank_why + scaled,
        "coverage": conveyed_note(found, [f.text for f in answer.facts(reference)], truth.kb_id),
        "citation": reply.citation_note(text, truth.kb_id) + scaled,
        "politeness": polite_why + scaled,
        **fit_notes(text, allowed, own_words),
        "hallucination": f"states {', '.join(unsupported[:8])}, which no retrieved article says"
        if unsupported
        else "states nothing the retrieved articles do not",
    }
    notes = [f"not in the retrieved articles: {', '.join(unsupported[:8])}"] if unsupported else []
    notes += [f'{w.how} fact: "{w.said}" contradicts "{w.fact}"' for w in contradicted]
    notes += [f'another article\'s fact: "{f}" answers something else' for f in foreign]
    why["truth"] = (
        "; ".join(f'"{w.said}" contradicts "{w.fact}" ({w.how})' for w in contradicted)
        if contradicted
        else "states every fact it conveys with the article's polarity and numbers"
    )
    if contradicted:  # the penalty counts both: facts no article states, facts it contradicts
        why["hallucination"] += f"; contradicts {len(contradicted)} fact(s) of the article"
    if foreign:
        why["hallucination"] += f"; states {len(foreign)} fact(s) of other articles instead"
    if left_out:  # the penalty counts them too: a safety step left out is no full answer
        why["hallucination"] += f"; leaves out the required step(s): {'; '.join(left_out)}"
    notes += [f'leaves out a required step: "{s}"' for s in left_out]
    score = sum(WEIGHTS[k] * parts[k] for k in WEIGHTS) - penalty
    components = {k: round(v, 4) for k, v in parts.items()} | {"hallucination": -penalty}
    return Grade(
        score=round(min(1.0, max(0.0, score)), 4), components=components, notes=notes, why=why
    )
