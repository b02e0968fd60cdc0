"""The runner runs a ruleset's actions itself (``RulesetRunner._act``): on the shipped
rulebooks' real decisions it derives exactly what durable's own host derives on the same
facts, and a consequence that fails stops the evaluation as the host's would not."""

from __future__ import annotations

import copy
from pathlib import Path
from typing import Any

import pytest

from novamart.kernel import CompiledRulebook, EngineError, PolicyKernel
from novamart.kernel.compile import CLOSE_PHASE, PHASES, compile_rulebook, ruleset_name
from novamart.kernel.decide import forget_decisions
from novamart.kernel.engine import QuietHost, RulesetRunner, _action
from novamart.scenarios.retail_customer import case
from novamart.scenarios.retail_world import retail_kernel

REPO = Path(__file__).resolve().parents[2]
Run = tuple[dict[str, dict[str, Any]], list[dict[str, Any]]]


def recorded_runs(compiled: CompiledRulebook, decide: Any, monkeypatch: Any) -> list[Run]:
    """The engine runs ``decide()`` makes on ``compiled``, with no run memoised before."""
    runs: list[Run] = []
    run = compiled.runner.run

    def recording(facts: dict[str, dict[str, Any]], derived: Any = ()) -> list[dict[str, Any]]:
        runs.append((copy.deepcopy(facts), [dict(d) for d in derived]))
        return run(facts, runs[-1][1])

    forget_decisions()
    monkeypatch.setattr(compiled.runner, "run", recording)
    try:
        decide()
    finally:
        monkeypatch.undo()
        forget_decisions()
    return runs


def by_host(compiled: CompiledRulebook, runs: list[Run]) -> list[list[dict[str, Any]]]:
    """The same runs through durable's host (``Host.assert_fact``, its actions bound by
    name), each in its own session, without ids: what the engine derives unaided."""
    name = ruleset_name(compiled.rulebook)
    host = QuietHost(_action)
    host.register_rulesets({name: compile_rulebook(compiled.rulebook)})
    found = []
    for number, (facts, derived) in enumerate(runs, 1):
        sid = str(number)
        batch = [{**f, "kind": k, "id": k, "sid": sid} for k, f in facts.items()]
        host.assert_fact(name, batch + [{**d, "sid": sid} for d in derived])
        for phase in (*PHASES, CLOSE_PHASE):
            host.assert_fact(name, {"kind": "phase", "name": phase, "id": f"phase:{phase}",
                                    "sid": sid})  # fmt: skip
        assert "exception" not in host.get_state(name, sid)
        found.append(host.get_facts(name, sid))
        host.delete_state(name, sid)
    return [_without_sessions(facts) for facts in found]


def _without_sessions(facts: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Facts without their session id, and without the close phase (the runner reads its
    facts before it closes the session), sorted as the runner sorts them."""
    shown = [{k: v for k, v in f.items() if k != "sid"} for f in facts]
    return sorted((f for f in shown if f["id"] != f"phase:{CLOSE_PHASE}"), key=lambda f: f["id"])


def test_the_runner_derives_what_the_host_derives_on_retail_cases(monkeypatch: Any) -> None:
    compiled = retail_kernel()
    tasks = ("retail_compound", "retail_late_return", "retail_refusal", "retail_exchange")
    runs = recorded_runs(
        compiled, lambda: [case(t, 910_000 + s) for t in tasks for s in range(6)], monkeypatch
    )
    assert len(runs) >= 20, len(runs)  # several distinct engine runs, not one memoised
    ours = [_without_sessions(compiled.runner.run(f, d)) for f, d in runs]
    assert ours == by_host(compiled, runs)
    assert any(f["kind"] == "grant" for facts in ours for f in facts)
    statuses = {f.get("status") for facts in ours for f in facts if f["kind"] == "condition"}
    assert statuses == {"pass", "fail"}


def test_the_runner_derives_what_the_host_derives_on_order_cases(monkeypatch: Any) -> None:
    from novamart.scenarios.generator import build_scenario

    kernel = PolicyKernel(REPO / "rules")
    compiled = kernel.snapshot()
    tasks = ("easy_refund", "defect_resolution", "loyalty_negotiation", "open_case")

    def decide() -> None:
        for task in tasks:
            for seed in range(8):
                compiled.decide(build_scenario(task, 920_000 + seed).facts())

    runs = recorded_runs(compiled, decide, monkeypatch)
    assert len(runs) >= 8, len(runs)
    ours = [_without_sessions(compiled.runner.run(f, d)) for f, d in runs]
    assert ours == by_host(compiled, runs)


def test_a_consequence_asserting_an_unstored_fact_is_an_engine_error() -> None:
    """The host swallows this into the session's state (test_engine_hazards); the runner
    raises, and frees the session."""
    rules = {
        "r": {"all": [{"m": {"kind": "order"}}], "run": 'assert:{"id": "x", "kind": "orphan"}'},
        "store:order": {"all": [{"m": {"kind": "order"}}, {"n": {"kind": "__never__"}}],
                        "run": "sink"},
    }  # fmt: skip
    runner = RulesetRunner("orphan_consequence", rules, ["order", "x"])
    with pytest.raises(EngineError, match=r"a rule consequence failed.*orphan"):
        runner.run({"order": {"order_id": "O"}})
    assert runner.live_sessions() == 0
