"""One spelling of the rules directory across the `novamart` commands: --rules-dir. The
older positional form of `rules check` / `rules test` keeps working."""

from __future__ import annotations

from pathlib import Path

import pytest
from typer.testing import CliRunner

from novamart.cli import app
from tests.rulefiles import edit

runner = CliRunner()


@pytest.mark.parametrize("command", [["rules", "check"], ["rules", "test"], ["explain"], ["serve"]])
def test_every_command_reading_rules_offers_rules_dir(command: list[str]) -> None:
    result = runner.invoke(app, [*command, "--help"], env={"COLUMNS": "200"})
    assert result.exit_code == 0
    assert "--rules-dir" in result.output


@pytest.mark.parametrize("command", ["check", "test"])
def test_the_option_and_the_older_argument_read_the_same_rules(rules: Path, command: str) -> None:
    edit(rules, "standard_return.yaml", "<= 30", "<= thirty")
    for args in (
        [str(rules)],
        ["--rules-dir", str(rules)],
        [str(rules), "--rules-dir", str(rules)],
    ):
        result = runner.invoke(app, ["rules", command, *args])
        assert result.exit_code == 1
        assert "standard_return.yaml" in result.output and "thirty" in result.output


def test_two_different_directories_are_refused(rules: Path, tmp_path: Path) -> None:
    result = runner.invoke(app, ["rules", "check", str(tmp_path), "--rules-dir", str(rules)])
    assert result.exit_code == 2
    assert "two rules directories given" in result.output


def test_explain_reads_the_rules_dir_it_is_given(rules: Path) -> None:
    edit(rules, "standard_return.yaml", "<= 30", "<= 14")
    args = ["explain", "--task", "easy_refund", "--seed", "0", "--rules-dir", str(rules)]
    result = runner.invoke(app, args)
    assert result.exit_code == 0, result.output
    assert "order.days_since_purchase <= 14" in result.output
