"""The README's tables are the generated ones, so it never states stale figures."""

from __future__ import annotations

from pathlib import Path

from novamart.reward import reward_table
from novamart.scenarios import TASKS

ROOT = Path(__file__).resolve().parents[1]
README = (ROOT / "README.md").read_text(encoding="utf-8")


def test_reward_table_is_the_code_s():
    assert reward_table().strip() in README, "copy novamart.reward.reward_table() into README.md"


def test_baseline_table_is_the_measured_one():
    baseline = (ROOT / "docs" / "baseline.md").read_text(encoding="utf-8")
    start = baseline.index("| agent |")
    table = baseline[start : baseline.index("\n\n", start)]
    assert table in README, "copy the mean-score table of docs/baseline.md into README.md"
    command = next(line for line in baseline.splitlines() if line.startswith("novamart eval"))
    assert f".venv/bin/{command}" in README


def test_every_task_is_documented():
    for name in TASKS:
        assert f"| `{name}` |" in README
