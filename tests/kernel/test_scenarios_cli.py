"""``novamart scenarios``: per task, how conditions pass and fail, the optimum's distribution
and its entropy, under the shipped rules, an edited copy or a policy variant."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

from typer.testing import CliRunner

from novamart.cli import app
from novamart.kernel.rulebook import DEFAULT_RULES_DIR

runner = CliRunner()


def test_the_report_of_every_order_task(tmp_path: Path) -> None:
    out = tmp_path / "report.json"
    result = runner.invoke(app, ["scenarios", "--cases", "150", "--json", str(out)])
    assert result.exit_code == 0, result.output
    reports = {r["task"]: r for r in json.loads(out.read_text())}
    assert set(reports) == {"easy_refund", "defect_resolution", "loyalty_negotiation", "open_case"}
    assert reports["easy_refund"]["entropy_bits"] == 0.0
    assert reports["open_case"]["entropy_bits"] > 1.3
    window = reports["easy_refund"]["conditions"]["standard_return.within_return_window"]
    assert (window["passed"], window["failed"], window["can_fail"]) == (150, 0, False)
    assert "optimum entropy" in result.output and "standard_return.item_unopened" in result.output


def test_an_edited_copy_and_a_variant(tmp_path: Path) -> None:
    rules = tmp_path / "rules"
    shutil.copytree(DEFAULT_RULES_DIR, rules)
    path = rules / "standard_return.yaml"
    path.write_text(path.read_text().replace("<= 30", "<= 45"))
    result = runner.invoke(
        app, ["scenarios", "--tasks", "easy_refund", "--cases", "40", "--rules-dir", str(rules)]
    )
    assert result.exit_code == 0, result.output
    moved = runner.invoke(app, ["scenarios", "--tasks", "open_case", "--cases", "40",
                                "--policy-variant", "3"])  # fmt: skip
    assert moved.exit_code == 0 and "open_case" in moved.output


def test_bad_arguments_are_usage_errors(tmp_path: Path) -> None:
    result = runner.invoke(app, ["scenarios", "--tasks", "ticket_triage"])
    assert result.exit_code == 2 and "not an order task: ticket_triage" in result.output
    empty = tmp_path / "none"
    empty.mkdir()
    result = runner.invoke(app, ["scenarios", "--rules-dir", str(empty)])
    assert result.exit_code == 1 and "no rule files" in result.output
