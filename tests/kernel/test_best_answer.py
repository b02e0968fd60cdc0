"""``ranked`` and ``best_answer``: a decision's best answer told from the grants alone,
checked against the whole decision and the call's settled outcome.

On every example of every rulebook shipped or fixed here (one with an overriding policy, one
deciding per item, the retail rules): the resolutions ``ranked`` gives are the decision's
eligible ones in its order, and for each call the example makes and each resolution called
without arguments, ``best_answer`` is the resolution ``settle_call`` carries out or declines
with, else the decision's best grant, and None only when nothing is granted.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from novamart.kernel import PolicyKernel
from novamart.kernel.declared import ArgumentError
from novamart.kernel.requests import best_answer, request_facts, settle_call
from tests.kernel.test_call_proof import RULEBOOKS, _calls


@pytest.mark.parametrize("rules", RULEBOOKS, ids=lambda p: p.name)
def test_the_grants_rank_as_the_decision_and_tell_its_best_answer(rules: Path) -> None:
    kernel = PolicyKernel(rules)
    rulebook = kernel.rulebook
    answered = unanswered = 0
    for example in rulebook.examples:
        facts = rulebook.facts.check(example.facts)
        eligible = tuple(g.resolution for g in kernel.decide(facts).eligible)
        assert kernel.ranked(facts) == eligible, example.name
        for call in _calls(kernel, example):
            try:
                outcome, _ = settle_call(kernel, facts, call)
            except ArgumentError:
                continue
            best = outcome.grant or outcome.decision.optimal
            told = best_answer(kernel, facts, call)
            assert told == (best.resolution if best else None), (example.name, call)
            ranked = kernel.ranked(request_facts(rulebook, facts, call))
            assert (told is None) == (not ranked), (example.name, call)
            answered += told is not None
            unanswered += told is None
    assert answered >= 20 and unanswered >= 1, (answered, unanswered)
