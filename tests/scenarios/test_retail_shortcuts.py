"""The shortcuts that keep a retail reset in a few milliseconds give what the long way gives.

A task's draw tells a candidate's status from the grants alone (``granted_status``), decides a
call explaining only the policies that can grant it (``settle_call``, ``decide_about``), builds a
call's request facts by validating only the request and the members it selects
(``FactSchema.updated``), and keeps each settlement per world (``settle``): each is checked
here against the long way on the requests of real tasks (every status the families draw).
"""

from __future__ import annotations

import gc
import weakref
from collections import Counter

import pytest

from novamart.kernel import requests
from novamart.kernel.decide import CompiledRulebook
from novamart.kernel.effects import REQUEST_KIND, SELECTED
from novamart.kernel.facts import Facts
from novamart.kernel.requests import (
    _frozen,
    _settle_call,
    decide_call,
    granted_status,
    request_facts,
    settle_call,
)
from novamart.scenarios.retail_requests import (
    Request,
    RetailTask,
    _settle,
    build_task,
    case_facts,
    settle,
)
from novamart.scenarios.retail_world import AS_WRITTEN, World, retail_kernel, world_spec

FAMILIES = tuple(world_spec()["requests"]["families"])
SEEDS = range(40)


@pytest.fixture(scope="module")
def tasks() -> list[RetailTask]:
    return [build_task(f, s) for f in FAMILIES for s in SEEDS]


def _cases(task: RetailTask) -> list[tuple[World, Request]]:
    """Each request of ``task`` with the world it is decided on (the ones before it settled)."""
    found, state = [], task.world
    for request in task.requests:
        found.append((state, request))
        state = settle(state, request)[1]
    return found


def test_the_status_from_the_grants_is_the_decisions_status(tasks: list[RetailTask]) -> None:
    kernel = retail_kernel()
    seen: Counter[str] = Counter()
    for task in tasks:
        for state, request in _cases(task):
            facts = kernel.rulebook.facts.validate(case_facts(state, request))
            status = decide_call(kernel, facts, request.call)[0].status
            quick = granted_status(kernel, facts, request.call)
            seen[status] += 1
            assert quick == (status if status in ("carried out", "declined") else None)
    assert {"carried out", "declined", "refused"} <= set(seen)


def test_a_call_settled_on_its_own_policies_has_the_whole_decisions_outcome(
    tasks: list[RetailTask],
) -> None:
    """Status, grant, reasons, missing tools, best answer and the world after: all alike."""
    kernel = retail_kernel()
    seen: Counter[str] = Counter()
    for task in tasks[::2]:
        for state, request in _cases(task):
            facts = kernel.rulebook.facts.validate(case_facts(state, request))
            whole, after = decide_call(kernel, facts, request.call)
            settled, settled_after = settle_call(kernel, facts, request.call)
            seen[whole.status] += 1
            assert settled.model_dump(exclude={"decision"}) == whole.model_dump(
                exclude={"decision"}
            )
            assert settled.decision.optimal == whole.decision.optimal
            assert settled.decision.eligible == whole.decision.eligible
            assert set(settled.decision.policies) < set(whole.decision.policies)
            assert settled_after == after
    assert {"carried out", "declined", "refused"} <= set(seen)


def test_request_facts_equal_the_whole_case_validated_again(tasks: list[RetailTask]) -> None:
    rulebook = retail_kernel().rulebook
    schema = rulebook.facts
    for task in tasks[::3]:
        for state, request in _cases(task):
            raw = case_facts(state, request)
            built = request_facts(rulebook, schema.validate(raw), request.call)
            unchecked = request_facts(rulebook, Facts(**raw), request.call)  # built in code
            whole = built.as_dict()
            assert schema.validate(whole) == built == unchecked
            assert whole[REQUEST_KIND]["resolution"] == request.call.resolution
            chosen = {m["item_id"] for m in whole["item"] if m[SELECTED]}
            assert chosen == set(request.item_ids)


def test_a_settlement_is_kept_per_world_and_equals_one_made_again(
    tasks: list[RetailTask],
) -> None:
    for task in tasks[::5]:
        for state, request in _cases(task):
            kept = settle(state, request)
            assert all(a is b for a, b in zip(settle(state, request), kept, strict=True))
            assert _settle(state, request, AS_WRITTEN, None) == kept
            copy = World(state.seed, state.products, state.customers)  # equal, not the same
            assert settle(copy, request)[0] is not kept[0] and settle(copy, request) == kept


def test_a_kept_settlement_is_the_one_made_again_and_only_for_the_same_typed_call(
    tasks: list[RetailTask],
) -> None:
    """``settle_call`` keeps its result by decider, checked state and call: an equal call on
    equal facts gets it (the write after a draw); another decider, facts built in code (a 1
    that may stand for 1.0) are settled anew, and arguments equal in value but not in type
    are other keys."""
    kernel = retail_kernel()
    schema = kernel.rulebook.facts
    for task in tasks[::4]:
        for state, request in _cases(task):
            facts = schema.built(case_facts(state, request))
            kept = settle_call(kernel, facts, request.call)
            again = settle_call(kernel, schema.built(case_facts(state, request)), request.call)
            assert again is kept
            assert _settle_call(kernel, facts, request.call, 1) == kept
            unchecked = Facts(**case_facts(state, request))
            assert settle_call(kernel, unchecked, request.call) is not kept
    other = CompiledRulebook(kernel.rulebook)  # another decider: its own results
    assert settle_call(other, facts, request.call) is not kept
    assert settle_call(other, facts, request.call) == kept
    freed = weakref.ref(other)
    del other
    gc.collect()
    assert freed() is None  # the memo holds no decider (nor its engine)
    key = (id(kernel), facts, request.call.resolution, _frozen(request.call.arguments), 1)
    gone = CompiledRulebook.__new__(CompiledRulebook)
    requests._settled._entries[key] = (weakref.ref(gone), "a result of a decider since freed")
    del gone  # as if an earlier decider had sat at this address
    assert settle_call(kernel, facts, request.call) == kept
    keys = {_frozen({"quantity": n}) for n in (1, 1.0, True)}
    assert len(keys) == 3  # equal values, not the same argument
