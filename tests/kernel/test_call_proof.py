"""``CallProof``: what part of a case proves of a call's status, checked against the kernel.

On every example of every rulebook shipped or fixed here (one with an overriding policy, one
deciding per item, the retail rules), each call the example makes and each resolution called
without arguments: the statuses the proof leaves on the example's facts, on their single
records alone (every collection unknown) and with a member in focus (which a call's decision
does not keep), hold the one ``granted_status`` tells; so do those of the proof of the call's
resolution with its arguments unknown (``CallProof.unasked``), which rules nothing out that
the call's own proof does not.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from novamart.kernel import PolicyKernel
from novamart.kernel.decide import DEFAULT_RULES_DIR
from novamart.kernel.declared import ArgumentError, Call
from novamart.kernel.requests import EVERY_STATUS, CallProof, granted_status, request_facts
from novamart.kernel.rulebook import Example

FIXTURES = Path(__file__).parent / "fixtures"
RULEBOOKS = [
    DEFAULT_RULES_DIR,
    DEFAULT_RULES_DIR / "retail",
    FIXTURES / "retail_world",
    FIXTURES / "retail_items",
]


def _calls(kernel: PolicyKernel, example: Example) -> list[Call]:
    steps = [s for s in example.steps if isinstance(s, Call)]
    bare = [Call(resolution=r, arguments={}) for r in kernel.rulebook.declared]
    return steps + bare


@pytest.mark.parametrize("rules", RULEBOOKS, ids=lambda p: p.name)
def test_a_proof_holds_the_status_the_grants_tell(rules: Path) -> None:
    kernel = PolicyKernel(rules)
    rulebook = kernel.rulebook
    singles = [k for k, spec in rulebook.facts.kinds.items() if not spec.many]
    proven = checked = 0
    for example in rulebook.examples:
        facts = rulebook.facts.check(example.facts)
        for call in _calls(kernel, example):
            try:
                told = granted_status(kernel, facts, call)
            except ArgumentError:
                continue  # the proof speaks of calls the case accepts
            focused = [facts.focus(k, 0) for k, m in facts.collections().items() if m]
            for case in (facts, facts.only(singles), *focused):
                proof = CallProof(kernel, case, call)
                statuses = proof.statuses()
                assert told in statuses, (example.name, call, told, statuses)
                unasked = CallProof.unasked(kernel, case, call.resolution)  # any arguments
                assert told in unasked.statuses(), (example.name, call, told)
                for resolution in rulebook.resolutions:  # it rules out no more than the call's
                    assert unasked.may_grant(resolution) or not proof.may_grant(resolution)
            for other in (c for c in _calls(kernel, example) if c.arguments and c != call):
                try:  # a case still holding another call's request: unasked reads none
                    stale = request_facts(rulebook, facts, other)
                    told_there = granted_status(kernel, stale, call)
                except ArgumentError:
                    continue
                unasked = CallProof.unasked(kernel, stale, call.resolution)
                assert told_there in unasked.statuses(), (example.name, call, other)
            proven += len(CallProof(kernel, facts, call).statuses()) == 1
            checked += 1
    assert checked >= 20 and proven >= 1, (checked, proven)


def test_an_overriding_policy_that_may_apply_proves_nothing() -> None:
    """A hazard's mandatory review sets every other grant aside: while it may apply, no
    status is proven, whatever the other policies say."""
    kernel = PolicyKernel()
    rulebook = kernel.rulebook
    example = next(e for e in rulebook.examples if "swell" in e.name.lower())
    case = rulebook.facts.check(example.facts)
    for resolution in rulebook.declared:
        proof = CallProof(kernel, case, Call(resolution=resolution, arguments={}))
        assert proof.statuses() == EVERY_STATUS
