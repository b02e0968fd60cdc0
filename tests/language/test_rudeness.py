"""An insult never passes (issue 18 item 5): the reader finds rudeness on the held-out half
of the rudeness corpus, kind and firm closings are not flagged, and an episode whose closing
carries an insult stays below the pass mark on every order task in both modes."""

from __future__ import annotations

import pytest

from novamart.evaluation.stats import PASS_THRESHOLD
from novamart.kernel import default_kernel
from novamart.language import lexicon_for, read
from novamart.scenarios.tasks import ORDER_TASKS
from novamart.server.environment import NovamartEnvironment
from tests.language.insults import corpus, insulted, passing, scores


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
