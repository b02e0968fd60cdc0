"""Hand-written replies (tests/tickets/corpus) played against real ticket sessions.

``kb_replies.yaml``: honest answers to KB questions, one article each. ``recovery_replies.yaml``:
paragraphs an honest agent composes a recovery reply from, after reading the ticket (its
situation and requests; the test reads them from the scenario's truth, as the writer read
them from the ticket). Ids ending in an even number are the development half (read while
building the graders), odd ones the held-out half: figures for the held-out half say how the
graders generalise. ``python -m tests.tickets.written`` prints both halves' figures.
"""

from __future__ import annotations

import random
import re
import sys
from collections.abc import Iterator
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from statistics import mean
from typing import Any

import yaml

from novamart.kb import default_kb
from novamart.kb.text import STOPWORDS
from novamart.tickets import FAMILIES, TicketSession
from novamart.tickets.agents import Brief, play, search_until_found
from novamart.tickets.kb_response import ticket_for
from novamart.tickets.model import Scenario

CORPUS = Path(__file__).with_name("corpus")
PARTS = ("dev", "held-out")


def _part(ident: str) -> str:
    return PARTS[int(ident.rsplit("-", 1)[1]) % 2]


@dataclass(frozen=True)
class KbReply:
    id: str
    article: str
    text: str


@lru_cache(maxsize=1)
def kb_replies() -> tuple[KbReply, ...]:
    rows = yaml.safe_load((CORPUS / "kb_replies.yaml").read_text(encoding="utf-8"))
    return tuple(KbReply(**row) for row in rows)


@lru_cache(maxsize=1)
def recovery_corpus() -> dict[str, Any]:
    return yaml.safe_load((CORPUS / "recovery_replies.yaml").read_text(encoding="utf-8"))


def first_name(scenario: Scenario) -> str:
    return scenario.ticket.customer_name.split()[0]


def play_reply(scenario: Scenario, message: str, escalate: str | None = None) -> TicketSession:
    """Search until the case's article comes first, escalate if told, then send ``message``."""
    session = TicketSession(scenario)

    def script(brief: Brief):  # type: ignore[no-untyped-def]
        yield from search_until_found(session.scenario.truth.kb_id or "")
        if escalate is not None:
            yield "escalate_to_manager", {"reason": escalate}
        yield "respond_to_customer", {"message": message}

    play(script(Brief(scenario.family, scenario.ticket)), session)
    return session


def declining_scores(declining: tuple[str, ...], cases: int) -> list[float]:
    """Someone writing for another person's account (the first ``cases`` such seeds),
    answered with each way of declining and the holder's way back: one score per pair."""
    spec = FAMILIES["account_recovery"]
    scenarios = (TicketSession(spec.generate(seed)).scenario for seed in range(600))
    found = [s for s in scenarios if s.truth.situations[0] == "someone_else"][:cases]
    assert len(found) == cases
    return [
        play_reply(
            scenario,
            f"Hi {first_name(scenario)}, thank you for helping out. {text} The account "
            "holder can recover it with Forgot password on the sign-in page (KB-040). Regards",
        ).grade.score
        for scenario in found
        for text in declining
    ]


def kb_scores(part: str) -> list[tuple[KbReply, TicketSession]]:
    """Each reply of ``part`` to a ticket asking its article's question (difficulty in turn)."""
    out = []
    for n, written in enumerate(r for r in kb_replies() if _part(r.id) == part):
        article = default_kb().articles[written.article]
        level = ("easy", "medium", "hard")[n % 3]
        scenario = ticket_for(article, random.Random(n), level, "kb_grounded_response", n)
        text = written.text.replace("{name}", first_name(scenario))
        out.append((written, play_reply(scenario, text)))
    return out


def _informed(kind: str, brief: Brief) -> Iterator[tuple[str, dict[str, Any]]]:
    """An exploit told the right article (stronger than any real one): its words shuffled
    into sentence-sized chunks, or its answer's content words as a list, in a polite frame."""
    assert brief.truth is not None and brief.truth.kb_id
    article = default_kb().articles[brief.truth.kb_id]
    yield from search_until_found(article.id)
    if kind == "salad":
        bag = re.findall(r"[\w'-]+", article.body)
        random.Random(brief.seed).shuffle(bag)
        body = " ".join(" ".join(bag[i : i + 9]).capitalize() + "." for i in range(0, 99, 9))
    else:
        words = re.findall(r"[\w'-]+", article.answer)
        body = ", ".join(dict.fromkeys(w for w in words if w.lower() not in STOPWORDS))
    first = brief.ticket.customer_name.split()[0]
    message = f"Hello {first}, thank you for asking! {body} (see {article.id}). Kind regards"
    yield "respond_to_customer", {"message": message}


def informed_score(kind: str, scenario: Scenario, seed: int) -> float:
    """The score of the ``kind`` exploit ("salad" or "keywords") told the right article."""
    session = TicketSession(scenario)
    truth = session.scenario.truth
    play(_informed(kind, Brief(scenario.family, scenario.ticket, truth, seed)), session)
    return session.grade.score


def recovery_reply(scenario: Scenario, part: str, seed: int) -> tuple[str, str | None]:
    """An honest reply to ``scenario`` made of ``part``'s paragraphs (and the escalation
    reason, when the case must be escalated)."""
    corpus, truth = recovery_corpus(), scenario.truth
    rng = random.Random(f"honest-recovery:{seed}")

    def paragraph(pool: list[dict[str, str]]) -> str:
        return rng.choice([p["text"] for p in pool if _part(p["id"]) == part])

    situation, *requests = truth.situations
    body = [paragraph(corpus["situations"][situation])]
    body += [paragraph(corpus["requests"][r]) for r in requests]
    parts = [rng.choice(corpus["openers"]), *body, rng.choice(corpus["closers"])]
    text = "\n\n".join(parts).replace("{name}", first_name(scenario))
    reason = rng.choice(corpus["escalation_reasons"]) if truth.requires_escalation else None
    return text, reason


def recovery_scores(part: str, n: int, start: int = 0) -> list[tuple[Scenario, TicketSession]]:
    spec = FAMILIES["account_recovery"]
    out = []
    for seed in range(start, start + n):
        scenario = TicketSession(spec.generate(seed)).scenario
        text, reason = recovery_reply(scenario, part, seed)
        out.append((scenario, play_reply(scenario, text, reason)))
    return out


def _summary(scores: list[float]) -> str:
    ranked = sorted(scores)
    passed = sum(s >= 0.8 for s in scores) / len(scores)
    return (
        f"{len(scores)} replies: mean {mean(scores):.3f}, 10th percentile "
        f"{ranked[len(ranked) // 10]:.3f}, min {ranked[0]:.3f}, share >= 0.8: {passed:.2f}"
    )


def main(argv: list[str]) -> None:
    n = int(argv[0]) if argv else 200
    for part in PARTS:
        kb = [s.grade.score for _, s in kb_scores(part)]
        recovery = [s.grade.score for _, s in recovery_scores(part, n)]
        print(f"{part:9s} kb_grounded_response  {_summary(kb)}")
        print(f"{part:9s} account_recovery      {_summary(recovery)}")
    tickets = FAMILIES["kb_grounded_response"].dataset(n)
    for kind in ("salad", "keywords"):
        scores = [informed_score(kind, s, i) for i, s in enumerate(tickets)]
        print(f"the right article's {kind:8s} kb_grounded_response, {n} seeds: {mean(scores):.3f}")


if __name__ == "__main__":
    main(sys.argv[1:])
