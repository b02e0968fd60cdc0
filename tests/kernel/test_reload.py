"""Reloading rule files: known versions are reused, forgotten ones free their engine ruleset."""

from __future__ import annotations

import gc
import shutil
from pathlib import Path

import pytest

from novamart.kernel import PolicyKernel, RulebookError
from novamart.kernel.decide import KEPT_VERSIONS, ExamplesFailed
from novamart.kernel.rulebook import DEFAULT_RULES_DIR


@pytest.fixture
def rules(tmp_path: Path) -> Path:
    target = tmp_path / "rules"
    shutil.copytree(DEFAULT_RULES_DIR, target)
    return target


def set_window(rules: Path, days: int) -> None:
    path = rules / "standard_return.yaml"
    lines = path.read_text().splitlines(keepends=True)
    lines = [
        f"    test: order.days_since_purchase <= {days}\n"
        if "days_since_purchase <=" in line
        else line
        for line in lines
    ]
    path.write_text("".join(lines))


def test_switching_back_reuses_the_loaded_version(rules: Path):
    kernel = PolicyKernel(rules)
    first = kernel.snapshot()
    set_window(rules, 14)
    kernel.reload()
    assert kernel.snapshot() is not first
    set_window(rules, 30)
    kernel.reload()
    assert kernel.snapshot() is first  # same engine ruleset, same memo


def test_forgotten_versions_free_their_engine_ruleset(rules: Path):
    kernel = PolicyKernel(rules)
    freed = kernel.snapshot().runner._free
    for days in range(31, 32 + KEPT_VERSIONS):
        set_window(rules, days)
        kernel.reload()
    gc.collect()
    assert not freed.alive


def test_a_pinned_version_outlives_being_forgotten(rules: Path):
    kernel = PolicyKernel(rules)
    pinned = kernel.snapshot()  # an episode in flight holds it
    for days in range(31, 32 + KEPT_VERSIONS):
        set_window(rules, days)
        kernel.reload()
    gc.collect()
    assert pinned.runner._free.alive
    decision = pinned.decide(kernel.rulebook.examples[0].facts)
    assert decision.optimal is not None


def test_a_reload_whose_examples_fail_is_refused_when_asked(rules: Path):
    kernel = PolicyKernel(rules)
    before = kernel.snapshot()
    set_window(rules, 14)
    with pytest.raises(ExamplesFailed) as refused:
        kernel.reload(examples_must_pass=True)
    assert kernel.snapshot() is before
    assert refused.value.total == len(before.rulebook.examples)
    where = {issue.where for issue in refused.value.issues}
    assert "example 'day 30 is still inside the window'" in where
    assert kernel.reload() != before.rulebook.version  # without the gate it loads


def test_a_reload_naming_a_missing_tool_is_refused(rules: Path):
    kernel = PolicyKernel(rules)
    before = kernel.version
    catalogue = rules / "resolutions.yaml"
    catalogue.write_text(catalogue.read_text().replace("process_refund", "process_price_match"))
    with pytest.raises(RulebookError, match="tool 'process_price_match' does not exist"):
        kernel.reload(tools={"process_refund", "process_exchange"})
    assert kernel.version == before
