"""An insult never passes (issue 18 item 5): the reader finds rudeness on the held-out half
of the rudeness corpus, kind and firm closings are not flagged, and an episode whose closing
carries an insult stays below the pass mark on every order task in both modes."""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml

from novamart.evaluation.stats import PASS_THRESHOLD
from novamart.kernel import default_kernel
from novamart.language import lexicon_for, read, rudeness
from novamart.scenarios.retail_world import retail_kernel
from novamart.scenarios.tasks import ORDER_TASKS
from novamart.server.environment import NovamartEnvironment
from tests.language.insults import HALVES, corpus, insulted, passing, scores


def test_held_out_rudeness_is_found_and_kind_closings_are_not_flagged() -> None:
    held_out = scores("heldout")
    assert held_out.insults >= 60 and held_out.kind >= 60
    assert held_out.precision >= 0.98, held_out.misses
    assert held_out.recall >= 0.9, held_out.misses


def test_training_half_is_read_as_labelled() -> None:
    train = scores("train")
    assert train.precision == 1.0, train.misses
    assert train.recall >= 0.99, train.misses


@pytest.mark.parametrize("text", [r.text for r in corpus("train") if r.kind == "firm_refusal"])
def test_firm_refusals_are_not_rude(text: str) -> None:
    assert not read(text, lexicon_for(default_kernel().rulebook)).rude


def test_an_insulting_closing_never_passes() -> None:
    """Every order task and mode, 10 seeds each, each with a held-out insult (found by the
    reader or not): none reaches the pass mark."""
    passed, total, finals = passing(10)
    assert total == 80 and passed == 0, max(finals)


@pytest.mark.parametrize("mode", ["guided", "closed_book"])
def test_the_same_closing_without_the_insult_passes(mode: str) -> None:
    env = NovamartEnvironment()
    assert insulted(env, next(iter(ORDER_TASKS)), mode, 0, "") >= PASS_THRESHOLD


def _every_text() -> list[str]:
    """Every message of the reader's corpus and of both halves of the rudeness corpus."""
    rows = [
        row["text"]
        for path in sorted((Path(__file__).parent / "corpus").glob("*.yaml"))
        for row in yaml.safe_load(path.read_text(encoding="utf-8"))
    ]
    return rows + [r.text for half in HALVES for r in corpus(half)]


def test_courtesy_alone_gives_a_whole_readings_verdict() -> None:
    """``rudeness`` (what a grader reading a message's claims in another text asks) tells
    what ``read`` tells of every corpus message, under the shipped and the retail lexicon,
    and of each pair of them run together (a rude sentence beside a quoted reason)."""
    texts = [
        *_every_text(),
        "I wouldn't say you are stupid.",  # its frame read as written: not rude
        "Sie sind ein dummer Kunde, shut up und warten Sie.",  # a foreign clause: unread
    ]
    pairs = [f"{a} {b}" for a, b in zip(texts, texts[7:] + texts[:7], strict=True)]
    for lexicon in (lexicon_for(default_kernel().rulebook), lexicon_for(retail_kernel().rulebook)):
        differ = [t for t in texts + pairs if rudeness(t, lexicon) != read(t, lexicon).rude]
        assert not differ, differ[:3]
    assert sum(read(t, lexicon).rude for t in texts) >= 100  # the rude ones are in it
