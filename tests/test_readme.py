"""The README's tables are the generated ones, so it never states stale figures."""

from __future__ import annotations

import json
import re
from pathlib import Path

from typer.testing import CliRunner

from novamart.analyst.scenario_set import DEFAULT_SEEDS
from novamart.cli import app
from novamart.kernel.rulebook import DEFAULT_RULES_DIR
from novamart.reward import reward_table
from novamart.scenarios import TASKS
from tests.container import run_image
from tests.rulefiles import copy_rules, edit

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


def _rules_diff(old: Path, new: Path) -> dict:
    """`novamart rules diff OLD NEW --json` over the default scenario set, as the README ran it."""
    result = CliRunner().invoke(app, ["rules", "diff", str(old), str(new), "--json"])
    assert result.exit_code in (0, 1), result.output
    return json.loads(result.output)


def _count(text: str) -> int:
    return int(text.replace(",", ""))


def test_rules_diff_figures_are_the_command_s(tmp_path: Path) -> None:
    """The README's scenario-set figures and rules/README.md's transition count, from the
    command itself (its timings are measured by bench/bench_rules_diff.py)."""
    figure = re.search(
        r"over the default scenario set \((\d+) tasks × (\d+) seeds and their boundary "
        r"variants: ([\d,]+) cases, ([\d,]+) distinct decisions per rule set with the window "
        r"30 → 45, whose new threshold adds variants; ([\d,]+) and ([\d,]+) for an "
        r"identical copy\)",
        README,
    )
    assert figure, "the README's rules diff figure is not where this test reads it"
    tasks, seeds, wider_cases, wider_sets, same_cases, same_sets = map(_count, figure.groups())
    same, wider = copy_rules(tmp_path / "same"), copy_rules(tmp_path / "wider")
    edit(wider, "standard_return.yaml", "<= 30", "<= 45")
    unchanged, changed = _rules_diff(DEFAULT_RULES_DIR, same), _rules_diff(DEFAULT_RULES_DIR, wider)
    assert (len(changed["tasks"]), seeds) == (tasks, DEFAULT_SEEDS)
    assert (changed["cases"], changed["distinct_fact_sets"]) == (wider_cases, wider_sets)
    assert (unchanged["cases"], unchanged["distinct_fact_sets"]) == (same_cases, same_sets)
    [window] = [p for p in changed["policies"] if p["policy"] == "standard_return"]
    analysts = (ROOT / "rules" / "README.md").read_text(encoding="utf-8")
    moved = window["transitions"]["blocked -> eligible"]
    assert f"`blocked -> eligible: {moved:,}` for the window 30 → 45" in analysts


def test_container_paragraph_states_what_the_container_test_checks() -> None:
    """The Docker paragraph's install line, limits and run flags are run_image.py's own."""
    paragraph = README[README.index("**Docker / Hugging Face Space.**") :]
    paragraph = paragraph[: paragraph.index("**Validation.**")]
    flat = " ".join(paragraph.split())
    assert f"--no-install-recommends {run_image.PODMAN_PACKAGES} debootstrap" in flat
    assert f"at most {run_image.MAX_IMAGE_BYTES / 1e9:.1f} GB" in flat
    assert f"`/health` within {run_image.HEALTH_WITHIN_S:.0f} s" in flat
    assert f"`{run_image.KEEP_IMAGE}=1`" in flat
    assert f"--user 1000:1000 -p {run_image.app_port()}:" in flat
    validator = run_image.validator_flags()
    for flag in ("--init", "--read-only", "--cap-drop ALL", "--user 65532:65532"):
        assert flag.split()[0] in validator and flag in flat
    assert all(f"`{page}`" in flat for page in run_image.PAGES)
