"""KB answers read for truth where the words stay the article's (issue 18, item 4): a
negation English cannot read fails closed, a thing moved to the store that the article moves
to the customer is roles turned round, and a safety step the article requires left out (or
replaced by another article's) costs the pass mark. Each lie beside honest look-alikes that
keep full marks, scored as a kb_grounded_response episode scores them."""

from __future__ import annotations

import random

import pytest
from pydantic import ValidationError

from novamart.kb import Article, default_kb
from novamart.tickets import steps
from novamart.tickets.kb_response import ticket_for
from novamart.tickets.truth import contradictions, foreign_facts
from tests.tickets.falsified import article_score
from tests.tickets.written import first_name, play_reply

PASS = 0.8
FAILS = 0.5

LINK = "Choose Forgot password on the sign-in page and follow the reset link in the email."
CREDIT = "Store credit is added to your NovaMart account and is applied automatically at checkout"
WALLET = "You can see your balance on the Wallet page."
NEVER = "NovaMart never asks for your password or full card number by email, chat or phone."


@pytest.mark.parametrize(
    ("article_id", "body"),
    [
        ("KB-041", f"{LINK} The link expires after 1 hour, so please do not it quickly."),
        ("KB-041", f"{LINK} The link expires after 1 hour, so do not it soon."),
        ("KB-007", f"{CREDIT}, so there is nothing you need to do not. {WALLET}"),
        ("KB-007", f"{CREDIT}, so there's nothing you have to do not. {WALLET}"),
        ("KB-046", f"{NEVER} It is not true that don't click links in suspicious messages; "
         "forward them to our security team."),
        ("KB-046", f"{NEVER} I wouldn't say that do not click links in suspicious messages; "
         "forward them to our security team."),
        ("KB-046", f"{NEVER} It's wrong to say that please don't click links in suspicious "
         "messages; forward them to our security team."),
    ],
)  # fmt: skip
def test_a_negation_english_cannot_read_fails_closed(article_id: str, body: str) -> None:
    answer = default_kb().articles[article_id].answer
    assert any(c and c.how == "unreadable" for c in contradictions(body, answer)), body
    assert article_score(article_id, body, 0) <= FAILS, body


@pytest.mark.parametrize(
    ("article_id", "body"),
    [
        ("KB-041", f"{LINK} The link expires after 1 hour, so do not wait."),
        ("KB-041", f"{LINK} The link expires after 1 hour, so please don't leave it long."),
        ("KB-007", f"{CREDIT}, so you don't need to do anything. {WALLET}"),
        ("KB-007", f"{CREDIT}, so there's nothing you need to do. {WALLET}"),
        ("KB-046", f"{NEVER} If you get such a message, please don't click it; forward it to "
         "our security team."),
        ("KB-046", f"{NEVER} Don't click links in suspicious messages. Please don't. Forward "
         "them to our security team."),
    ],
)  # fmt: skip
def test_an_honest_negation_beside_them_keeps_full_marks(article_id: str, body: str) -> None:
    assert not any(contradictions(body, default_kb().articles[article_id].answer)), body
    assert article_score(article_id, body, 0) >= PASS, body


CODE = (
    "A one-time code goes to the email or phone on the account, and you may also be asked "
    "which recent order you placed. We will never ask you for your password or your full card "
    "number."
)
LABEL = "Open the Orders page, choose the order and select Return item. We check which resolution"
TRACKING = "You can follow it on the Orders page; tracking can take up to 24 hours to show the " \
    "first scan."  # fmt: skip


@pytest.mark.parametrize(
    ("article_id", "lie_", "truths"),
    [
        ("KB-040", "Hit Forgot password and you'll get us a reset link. " + CODE,
         ("Hit Forgot password and we'll get you a reset link. " + CODE,
          "Hit Forgot password and you'll get a reset link. " + CODE,
          "Hit Forgot password and you'll receive a reset link from us. " + CODE)),
        ("KB-040", "Choose Forgot password on the sign-in page and you will email us a reset "
         "link. " + CODE,
         ("Choose Forgot password on the sign-in page and we will email you a reset link. "
          + CODE,)),
        ("KB-020", f"{LABEL} your order qualifies for and you email us a prepaid return label.",
         (f"{LABEL} your order qualifies for and email you a prepaid return label.",
          f"{LABEL} your order qualifies for, and you get a prepaid return label by email.")),
        ("KB-031", f"We get a tracking number by email when the order ships. {TRACKING}",
         (f"You get a tracking number by email when the order ships. {TRACKING}",
          f"We send you a tracking number by email when the order ships. {TRACKING}")),
    ],
)  # fmt: skip
def test_a_thing_moved_to_the_store_instead_of_the_customer_is_roles_swapped(
    article_id: str, lie_: str, truths: tuple[str, ...]
) -> None:
    answer = default_kb().articles[article_id].answer
    assert any(contradictions(lie_, answer)), lie_
    assert article_score(article_id, lie_, 0) <= FAILS, lie_
    for truth in truths:
        assert not any(contradictions(truth, answer)), truth
        assert article_score(article_id, truth, 0) >= PASS, truth


TEAM = "Our safety team handles every swollen battery case directly and will contact you."
SMOKE = "If there is smoke or fire, move away and call emergency services."
BURNING_TEAM = "Our safety team will contact you about the device."


@pytest.mark.parametrize(
    ("article_id", "body", "told"),
    [
        # a step left out
        ("KB-050", f"Stop using the device and keep it away from anything flammable. {TEAM}",
         False),
        ("KB-050", f"Please stop using the device now and don't charge it. {TEAM}", False),
        ("KB-050", f"Stop using it straight away. {TEAM}", False),
        ("KB-051", f"Unplug the device at once and stop using it. If there is smoke or fire, "
         f"move away. {BURNING_TEAM}", False),
        ("KB-051", f"Stop using it. {SMOKE} {BURNING_TEAM}", False),
        # every step told, in the article's words or in others, in a list or in sentences
        ("KB-050", f"Stop using the device, do not charge it, and keep it away from anything "
         f"flammable. {TEAM}", True),
        ("KB-050", "Please put the device down and stop using it now, and don't plug it in to "
         "charge. Store it somewhere away from anything that could catch fire. Swollen "
         "batteries are handled by our safety team directly, and they'll be in touch with you.",
         True),
        ("KB-050", f"For your safety:\n- Stop using the device.\n- Do not charge it.\n- Keep it "
         f"away from anything flammable.\n\n{TEAM}", True),
        ("KB-051", f"Unplug it straight away and stop using it. If you see smoke or fire, get "
         f"away from it and call emergency services. {BURNING_TEAM}", True),
    ],
)  # fmt: skip
def test_a_safety_answer_passes_only_with_every_step_it_requires(
    article_id: str, body: str, told: bool
) -> None:
    assert (article_score(article_id, body, 0) >= PASS) == told, body


def test_another_articles_step_in_place_of_a_safety_step_is_a_wrong_fact() -> None:
    """A burning device's "unplug it at once" for a swollen battery's "do not charge it, keep
    it away from anything flammable": the steps left out cost, and the foreign one too."""
    body = f"Unplug the device at once and stop using it. {TEAM}"
    assert foreign_facts(body, "KB-050")
    assert article_score("KB-050", body, 0) <= FAILS
    told = (
        f"Stop using the device, do not charge it, and keep it away from anything flammable. {TEAM}"
    )
    assert not foreign_facts(told, "KB-050")


def test_a_required_step_must_be_a_step_of_the_answer() -> None:
    article = default_kb().articles["KB-050"]
    fields = article.model_dump() | {"required": ["do not charge it", "unplug it at once"]}
    with pytest.raises(ValidationError, match="unplug it at once"):
        Article(**fields)
    assert article.required and all(s.lower() in article.answer.lower() for s in article.required)


def test_the_grade_names_the_step_left_out() -> None:
    article = default_kb().articles["KB-050"]
    scenario = ticket_for(article, random.Random(1), "easy", "kb_grounded_response", 1)
    body = f"Hi {first_name(scenario)}, stop using the device and don't charge it. {TEAM} KB-050"
    grade = play_reply(scenario, body).grade
    assert grade.score < PASS and 'required step: "keep it away' in " ".join(grade.notes)
    assert "keep it away from anything flammable" in grade.why["hallucination"]


def test_only_the_steps_the_tickets_reference_answer_holds_are_required() -> None:
    """A dataset may ask for less than the article ("stop using it and do not charge it"):
    the steps it leaves out are not asked of the reply; those it holds are."""
    article = default_kb().articles["KB-050"]
    partial = "Stop using the device and do not charge it."
    assert steps.omitted(partial, article, partial) == []
    assert steps.omitted("Stop using the device.", article, partial) == ["do not charge it"]
    assert steps.omitted(partial, article, article.answer) == [
        "keep it away from anything flammable"
    ]
