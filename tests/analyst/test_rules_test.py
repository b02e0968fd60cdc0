"""`novamart rules test`: coverage like `opa test --coverage`, -k selection, a JSON report."""

from __future__ import annotations

import json
from pathlib import Path

from typer.testing import CliRunner

from novamart.cli import app
from novamart.kernel import load_rulebook
from tests.rulefiles import edit, line_of

runner = CliRunner()


def report(rules: Path, *args: str) -> dict:
    result = runner.invoke(app, ["rules", "test", "--rules-dir", str(rules), "--json", *args])
    assert result.exit_code in (0, 1), result.output
    return json.loads(result.output)


def uncovered(data: dict) -> list[str]:
    return [i["description"] for i in data["coverage"]["items"] if not i["covered_by"]]


def drop_example(rules: Path, file: str, name: str) -> None:
    """Delete the example called ``name`` (its block of lines) from ``file``."""
    lines = (rules / file).read_text().splitlines(keepends=True)
    start = next(i for i, line in enumerate(lines) if line.strip() == f"- name: {name}")
    end = next(
        (i for i in range(start + 1, len(lines)) if lines[i].lstrip().startswith("- name:")),
        len(lines),
    )
    (rules / file).write_text("".join(lines[:start] + lines[end:]))


def test_every_kind_of_item_is_counted(rules: Path) -> None:
    data = report(rules, "--coverage")
    kinds = {i["kind"] for i in data["coverage"]["items"]}
    assert kinds == {"condition_pass", "condition_fail", "grant", "boundary"}
    boundaries = [
        i["description"]
        for i in data["coverage"]["items"]
        if i["kind"] == "boundary" and i["policy"] == "standard_return"
    ]
    assert boundaries == [
        "within_return_window at order.days_since_purchase = 29 (n-1)",
        "within_return_window at order.days_since_purchase = 30 (n)",
        "within_return_window at order.days_since_purchase = 31 (n+1)",
    ]
    covered = sum(bool(i["covered_by"]) for i in data["coverage"]["items"])
    assert data["coverage"]["covered"] == covered
    assert data["coverage"]["percent"] == round(100 * covered / data["coverage"]["total"], 1)


def test_a_missing_boundary_example_is_listed_at_its_condition(rules: Path) -> None:
    before = uncovered(report(rules, "--coverage"))
    drop_example(rules, "standard_return.yaml", "day 29 is inside the window")
    after = uncovered(report(rules, "--coverage"))
    assert set(after) - set(before) == {
        "within_return_window at order.days_since_purchase = 29 (n-1)"
    }
    text = runner.invoke(app, ["rules", "test", "--rules-dir", str(rules), "--coverage"]).output
    line = line_of(rules, "standard_return.yaml", "name: within_return_window")
    assert f"standard_return.yaml:{line} standard_return: within_return_window at" in text


def test_a_grant_never_offered_is_uncovered(rules: Path) -> None:
    for name in (
        "a verified defect on day 40 gets a refund, exchange also allowed",
        "day 89 is inside the defect window",
        "day 90 is still inside the defect window",
    ):
        drop_example(rules, "defective_item.yaml", name)
    missing = uncovered(report(rules, "--coverage"))
    assert "grant of exchange seen offered" in missing
    assert "grant of full_refund seen offered" in missing


def test_a_moved_threshold_loses_its_boundaries_and_its_examples_fail(rules: Path) -> None:
    edit(rules, "standard_return.yaml", "<= 30", "<= 45")
    data = report(rules, "--coverage")
    assert data["failed"] > 0
    assert {f"within_return_window at order.days_since_purchase = {d}" for d in (44, 46)} <= {
        u.split(" (")[0] for u in uncovered(data)
    }


def test_min_coverage_sets_the_exit_status(rules: Path) -> None:
    drop_example(rules, "standard_return.yaml", "day 29 is inside the window")
    args = ["rules", "test", "--rules-dir", str(rules), "--min-coverage"]
    assert runner.invoke(app, [*args, "100"]).exit_code == 1
    assert runner.invoke(app, [*args, "50"]).exit_code == 0


def test_k_selects_examples_by_policy_or_name(rules: Path) -> None:
    examples = load_rulebook(rules).examples
    data = report(rules, "-k", "LOYALTY")
    assert {e["policy"] for e in data["examples"]} == {"loyalty_goodwill"}
    assert len(data["examples"]) == sum(e.policy == "loyalty_goodwill" for e in examples)
    assert data["deselected"] == len(examples) - len(data["examples"])
    named = report(rules, "-k", "day 90")
    assert [e["name"] for e in named["examples"]] == ["day 90 is still inside the defect window"]


def test_k_runs_only_what_it_selects(rules: Path) -> None:
    edit(rules, "standard_return.yaml", "optimal: full_refund, amount: 79.99", "optimal: exchange")
    failing = runner.invoke(app, ["rules", "test", "--rules-dir", str(rules)])
    assert failing.exit_code == 1
    assert "optimal: expected exchange, got full_refund" in failing.output
    result = runner.invoke(app, ["rules", "test", "--rules-dir", str(rules), "-k", "loyalty"])
    assert result.exit_code == 0, result.output
    assert "deselected by -k" in result.output


def test_k_matching_nothing_is_an_error(rules: Path) -> None:
    result = runner.invoke(app, ["rules", "test", "--rules-dir", str(rules), "-k", "no such"])
    assert result.exit_code == 1
    assert "no example matches -k 'no such'" in result.output


def test_the_json_report_matches_the_text_report(rules: Path) -> None:
    data = report(rules, "--coverage")
    text = runner.invoke(app, ["rules", "test", "--rules-dir", str(rules), "--coverage"]).output
    assert f"{data['passed']} passed, {data['failed']} failed" in text
    for e in data["examples"]:
        assert set(e) == {"name", "policy", "file", "line", "passed", "mismatches"}
        assert f"{e['file']}:{e['line']} {e['name']}" in text
    for item in data["coverage"]["items"]:
        if not item["covered_by"]:
            assert item["description"] in text


def test_the_shipped_rules_are_fully_covered() -> None:
    result = runner.invoke(app, ["rules", "test", "--coverage", "--min-coverage", "100"])
    assert result.exit_code == 0, result.output
    assert "Every condition, grant and threshold is covered." in result.output
