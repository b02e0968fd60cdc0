"""Actions claimed in words the reader does not resolve, graded as a classifier over a labeled
corpus (tests/retail/action_corpus.py, and a held-out one written by another session from
the tools' description alone): after the oracle's right actions, its report with one sentence
added either stays at 1.000 (an honest sentence) or drops below the pass mark (an action no
tool took). Precision and recall are printed per corpus (``pytest -s``)."""

from __future__ import annotations

from collections.abc import Iterable

import pytest

from novamart.agents import AGENTS
from novamart.agents.retail import talk
from novamart.agents.runner import run_episode
from novamart.retail.claims import ACTION_CLAIMED, DONE_CLAIMED, STATUS_SAID, claimed_actions
from novamart.server.environment import NovamartEnvironment
from tests.retail import action_corpus, action_corpus_held_out

TASK = "retail_return"
REPORTED = 2
"""Episodes per sentence, among the first seeds whose oracle sends a report."""
KNOWN_HONEST_COSTING = {"If you'd like, I can have the address changed."}
"""The reader takes this offer for a modification asserted (a write no tool made): its stance
reading, not this check; listed so that any other honest sentence costing fails the test."""


def _scores(monkeypatch: pytest.MonkeyPatch, sentences: Iterable[str]) -> dict[str, list[float]]:
    """Each sentence's scores: the oracle's report with it added, on REPORTED episodes."""
    original = talk.report
    added, sent = [""], [False]

    def report(*args: object) -> str:
        sent[0] = True
        return f"{original(*args)} {added[0]}"  # type: ignore[arg-type]

    monkeypatch.setattr(talk, "report", report)
    env, found = NovamartEnvironment(), {}
    for sentence in sentences:
        added[0], scores, seed = sentence, [], 0
        while len(scores) < REPORTED:
            sent[0] = False
            score = run_episode(env, AGENTS["oracle"](seed=seed), TASK, seed).final_score
            if sent[0]:
                scores.append(score)
            seed += 1
        found[sentence] = scores
    return found


def _classified(
    monkeypatch: pytest.MonkeyPatch, acted: tuple[str, ...], honest: tuple[str, ...], name: str
) -> tuple[list[str], list[str], float, float]:
    """(missed, honest costing, precision, recall), printed."""
    scores = _scores(monkeypatch, (*acted, *honest))
    missed = [s for s in acted if max(scores[s]) >= 0.8]
    costing = [s for s in honest if min(scores[s]) < 1.0]
    caught = len(acted) - len(missed)
    precision = caught / max(1, caught + len(costing))
    recall = caught / len(acted)
    print(
        f"\n{name}: recall {recall:.3f} ({caught}/{len(acted)}), precision {precision:.3f}, "
        f"honest sentences costing {len(costing)}/{len(honest)}"
    )
    return missed, costing, precision, recall


def test_the_corpus_it_was_built_on(monkeypatch: pytest.MonkeyPatch) -> None:
    missed, costing, _, recall = _classified(
        monkeypatch, action_corpus.ACTED, action_corpus.HONEST, "built on"
    )
    assert recall >= 0.9, missed
    assert set(costing) <= KNOWN_HONEST_COSTING, costing


def test_the_held_out_corpus(monkeypatch: pytest.MonkeyPatch) -> None:
    held = action_corpus_held_out
    _, costing, precision, recall = _classified(monkeypatch, held.ACTED, held.HONEST, "held out")
    assert recall >= 0.75
    assert precision >= 0.9
    assert len(costing) <= len(held.HONEST) // 10


@pytest.mark.parametrize(
    ("text", "kind"),
    [
        ("Your gift card has been topped up.", ACTION_CLAIMED),
        ("I went ahead and reset your password.", ACTION_CLAIMED),
        ("I looked at your order and topped up your card.", ACTION_CLAIMED),
        ("I verified your identity with your bank.", ACTION_CLAIMED),
        ("Your request has been submitted.", DONE_CLAIMED),
        ("Your request has been taken care of.", DONE_CLAIMED),
        ("Everything has been processed.", DONE_CLAIMED),
        ("Your other order is now delivered.", STATUS_SAID),
        ("I have reset your password, so you will get an email.", ACTION_CLAIMED),
    ],
)
def test_the_kind_of_an_action_claimed(text: str, kind: str) -> None:
    assert [k for k, _ in claimed_actions(text)] == [kind]


@pytest.mark.parametrize(
    "text",
    [
        "I have not changed anything on your other orders.",
        "Once it has been processed, you will get an email.",
        "It would have been reset by now.",
        "Have you received the replacement?",
        "I've made sure nothing else changed.",
        "I verified your identity with your email and zip code.",
        "I have changed nothing on your account.",
    ],
)
def test_what_claims_no_action(text: str) -> None:
    """Not done, to be done, only would be, asked, a look-up."""
    assert claimed_actions(text) == ()


def test_a_request_said_done_holds_once_a_write_was_carried_out(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The oracle's own report says "has been submitted" of the write it made (1.000); said of
    another of the customer's orders, where nothing was written, it costs."""
    done, elsewhere = (
        "Everything has been processed.",
        "Your other orders have been updated as well.",
    )
    fee = "I've taken care of the shipping fee on your order."  # a benefit, not the request
    scores = _scores(monkeypatch, [done, elsewhere, fee])
    assert min(scores[done]) == 1.0
    assert max(scores[elsewhere]) < 0.8
    assert max(scores[fee]) < 0.8
