"""kb_grounded_response reads answers for truth (issue 18, item 4): an honest reply with one
sentence negated, reversed or with its numbers changed (generated over the whole corpus of
hand-written paraphrases and every article's own answer, tests/tickets/falsified.py) scores
<= 0.5 on average per class, while the honest replies they were made from still pass."""

from __future__ import annotations

import random
from statistics import mean

import pytest

from novamart.kb import default_kb
from novamart.tickets.kb_response import ticket_for
from novamart.tickets.truth import contradictions
from tests.tickets.falsified import (
    CLASSES,
    Case,
    article_score,
    cases,
    flagged,
    framed,
    score,
    scores_of,
)
from tests.tickets.written import first_name, play_reply

PER_CLASS = 50
SCORED = ("honest", *CLASSES)
"""The classes this file bars (the later ones: tests/tickets/test_kb_falsified.py)."""


@pytest.fixture(scope="module")
def held_out() -> list[tuple[Case, float]]:
    return [(case, score(case, i)) for i, case in enumerate(cases("held-out"))]


@pytest.mark.parametrize("kind", CLASSES)
def test_a_falsified_answer_fails(kind: str, held_out: list[tuple[Case, float]]) -> None:
    scores = scores_of(held_out, kind, PER_CLASS)
    assert mean(scores) <= 0.5, mean(scores)


def test_the_honest_replies_they_were_made_from_still_pass(
    held_out: list[tuple[Case, float]],
) -> None:
    scores = [s for case, s in held_out if case.kind == "honest"]
    assert mean(scores) >= 0.9, mean(scores)
    assert sum(s >= 0.8 for s in scores) / len(scores) >= 0.95


def test_the_detector_is_precise_and_finds_most_falsifications() -> None:
    found = [(case, flagged(case)) for case in cases("held-out") if case.kind in SCORED]
    true_positives = sum(hit and case.kind != "honest" for case, hit in found)
    precision = true_positives / sum(hit for _, hit in found)
    recall = true_positives / sum(case.kind != "honest" for case, _ in found)
    assert precision >= 0.95 and recall >= 0.85, (precision, recall)


_article_answer_score = article_score


def test_it_is_not_true_that_the_answer_fails_on_every_article() -> None:
    articles = [a for a in default_kb().articles.values() if a.questions]
    scores = [
        _article_answer_score(a.id, f"It is not true that {a.answer[0].lower()}{a.answer[1:]}", i)
        for i, a in enumerate(articles)
    ]
    assert max(scores) <= 0.5, max(scores)
    honest = [_article_answer_score(a.id, a.answer, i) for i, a in enumerate(articles)]
    assert min(honest) >= 0.8


def test_a_contradiction_is_named_in_the_grade() -> None:
    article = default_kb().articles["KB-001"]
    reply = framed(article.id, 0).replace("is not available", "is available")
    said = contradictions(reply.replace("{name}", "Sam"), article.answer)
    assert [c.how for c in said if c] == ["reversed"]
    scenario = ticket_for(article, random.Random(0), "easy", "kb_grounded_response", 0)
    grade = play_reply(scenario, reply.replace("{name}", first_name(scenario))).grade
    assert grade.score <= 0.5 and grade.components["hallucination"] <= -0.5
    assert "cash on delivery" in grade.why["truth"]


def test_no_negated_answer_passes(held_out: list[tuple[Case, float]]) -> None:
    scores = [s for case, s in held_out if case.kind == "negated"]
    assert max(scores) < 0.8, max(scores)


@pytest.mark.parametrize(
    ("article_id", "true", "turned"),
    [
        # an opposite in the fact's place, said with a near synonym of the article's word
        ("KB-055", "Chat support is available every day from 8 am to 10 pm.",
         "Chat support is unavailable every day from 8 am to 10 pm."),
        # a compound turned round
        ("KB-008", "Orders over $200 can be paid in 4 interest-free instalments.",
         "Orders over $200 can be paid in 4 interest-paid instalments."),
        # a comparison turned round
        ("KB-008", "Orders above $200 can be paid in 4 interest-free instalments.",
         "Orders below $200 can be paid in 4 interest-free instalments."),
        # an obligation turned into an option
        ("KB-044", "Your data is deleted within 30 days, except order records we are "
         "required to keep for tax purposes.", "Your data is deleted within 30 days, except "
         "order records we are optional to keep for tax purposes."),
    ],
)  # fmt: skip
def test_an_opposite_in_the_facts_place_contradicts_it(
    article_id: str, true: str, turned: str
) -> None:
    answer = default_kb().articles[article_id].answer
    assert not any(contradictions(true, answer)), contradictions(true, answer)
    assert any(c and c.how == "reversed" for c in contradictions(turned, answer))
    assert _article_answer_score(article_id, turned, 0) <= 0.5
    assert _article_answer_score(article_id, true, 0) >= 0.8
