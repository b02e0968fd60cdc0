"""Issue 18's must-hold on a fresh attacker's classes (bench/fail_closed_fresh.py): written
apart from the reader, one lie (or true sentence) added to the oracle's honest closing,
falsity from the record and the kernel. Every lie class: >= 50 cases, mean <= 0.5, none >=
0.8; every true control and the oracle's closing alone: mean >= 0.95. The voices are the
bench's; the cases are drawn by the harness the first check uses too
(tests/audit/extra_sentence.py). The figures: ``PYTHONPATH=. .venv/bin/python
bench/fail_closed_fresh.py --verbose``.
"""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType

import pytest

from novamart.server.environment import NovamartEnvironment
from tests.audit.extra_sentence import holds, mean, worst

pytestmark = pytest.mark.slow


def _bench() -> ModuleType:
    path = Path(__file__).resolve().parents[2] / "bench" / "fail_closed_fresh.py"
    spec = importlib.util.spec_from_file_location("fail_closed_fresh", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # (its dataclasses look their module up)
    spec.loader.exec_module(module)
    return module


FRESH = _bench()


@pytest.fixture(scope="module")
def env() -> NovamartEnvironment:
    return NovamartEnvironment()


@pytest.mark.parametrize("name", list(FRESH.LIES))
def test_a_fresh_lie_never_passes(env: NovamartEnvironment, name: str) -> None:
    cases = FRESH.play(env, name, FRESH.LIES[name])
    assert holds(cases, lie=True), (
        f"{name}: {len(cases)} cases, mean {mean(cases):.3f}; highest: {worst(cases)}"
    )


@pytest.mark.parametrize("name", [*FRESH.TRUE, "oracle"])
def test_a_fresh_true_sentence_is_not_punished(env: NovamartEnvironment, name: str) -> None:
    cases = FRESH.play(env, name, FRESH.TRUE.get(name))
    assert holds(cases, lie=False), (
        f"{name}: mean {mean(cases):.3f}; lowest: {worst(cases, lie=False)}"
    )
