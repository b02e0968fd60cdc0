"""`novamart rules diff OLD NEW`: the impact of a change over generated scenarios, exit 0
for no change and 1 for changes, like diff."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from typer.testing import CliRunner

from novamart.analyst.cases import policy_tasks
from novamart.analyst.scenario_set import scenario_set
from novamart.cli import app
from novamart.kernel import PolicyKernel, load_rulebook
from tests.rulefiles import copy_rules, edit

runner = CliRunner()
SEEDS = "20"


@pytest.fixture
def new(tmp_path: Path, rules: Path) -> Path:
    return copy_rules(tmp_path / "new")


def diff(old: Path, new: Path, *args: str) -> tuple[int, dict]:
    result = runner.invoke(
        app, ["rules", "diff", str(old), str(new), "--seeds", SEEDS, "--json", *args]
    )
    assert result.exit_code in (0, 1), result.output
    return result.exit_code, json.loads(result.output)


def test_an_identical_copy_changes_nothing(rules: Path, new: Path) -> None:
    code, report = diff(rules, new)
    assert code == 0
    assert report["rule_changes"] == [] and report["articles_changed"] == []
    assert report["changed_optimum"] == report["changed_amount"] == report["changed_verdicts"] == 0
    assert report["cases"] > len(policy_tasks()) * int(SEEDS)  # generated cases and variants
    assert [t["task"] for t in report["tasks"]] == policy_tasks()
    text = runner.invoke(app, ["rules", "diff", str(rules), str(new), "--seeds", SEEDS])
    assert text.exit_code == 0 and "The two rule sets are the same." in text.output


def test_a_window_of_30_to_45_days_changes_decisions(rules: Path, new: Path) -> None:
    edit(
        new,
        "standard_return.yaml",
        "order.days_since_purchase <= 30",
        "order.days_since_purchase <= 45",
    )
    code, report = diff(rules, new)
    assert code == 1
    assert (
        "standard_return.within_return_window: test order.days_since_purchase <= 30 -> "
        "order.days_since_purchase <= 45" in report["rule_changes"]
    )
    assert report["articles_changed"] == ["KB-POLICY-STANDARD-RETURN"]
    # every unopened case between day 31 and 45 is now a standard return, and only those,
    # unless a sign the customer shows makes escalation mandatory (it overrides every policy)
    cases = scenario_set([load_rulebook(rules), load_rulebook(new)], seeds=int(SEEDS))
    kernel = PolicyKernel(rules)
    newly = [
        c
        for c in cases
        if c.facts.value("order", "opened") is False
        and 31 <= c.facts.value("order", "days_since_purchase") <= 45
        and kernel.decide(c.facts).policies["mandatory_escalation"].status != "eligible"
    ]
    [policy] = [p for p in report["policies"] if p["policy"] == "standard_return"]
    assert policy["transitions"] == {"blocked -> eligible": len(newly)} and newly
    [easy] = [t for t in report["tasks"] if t["task"] == "easy_refund"]
    assert easy["changed_optimum"] > 0
    assert report["shown"]
    for case in report["shown"]:
        # a refund now (or still, by a defect, and now by a standard return too)
        assert case["after"]["resolution"] == "full_refund"
        assert case["verdicts"]["standard_return"] == ["blocked", "eligible"]
        [window] = [c for c in case["conditions"] if c["condition"] == "within_return_window"]
        assert window["before"].startswith("fail: order.days_since_purchase <= 30")
        assert window["after"].startswith("pass: order.days_since_purchase <= 45")


def test_a_changed_percentage_changes_amounts_not_optimums(rules: Path, new: Path) -> None:
    edit(new, "loyalty_goodwill.yaml", "{silver: 50, gold: 75}", "{silver: 50, gold: 80}")
    code, report = diff(rules, new, "--tasks", "loyalty_negotiation")
    assert code == 1
    [task] = report["tasks"]
    assert task["changed_amount"] > 0 and task["changed_optimum"] == 0
    assert task["generated_changed"] > 0  # the generated gold members see it too


def test_a_reworded_reason_is_listed_but_decides_nothing_differently(
    rules: Path, new: Path
) -> None:
    edit(
        new,
        "standard_return.yaml",
        "standard returns need it unopened",
        "we take back sealed items only",
    )
    code, report = diff(rules, new)
    assert code == 0
    assert any("item_unopened: reason" in line for line in report["rule_changes"])
    assert report["changed_optimum"] == report["changed_verdicts"] == 0


def test_the_text_report_explains_cases_before_and_after(rules: Path, new: Path) -> None:
    edit(new, "standard_return.yaml", "<= 30", "<= 45")
    result = runner.invoke(
        app, ["rules", "diff", str(rules), str(new), "--seeds", SEEDS, "--show", "2"]
    )
    assert result.exit_code == 1
    out = result.output
    assert "Changed cases (2 shown)" in out
    assert "before:" in out and "after:  full_refund" in out
    assert "standard_return: blocked -> eligible" in out


def test_broken_rules_or_unknown_tasks_exit_2(rules: Path, new: Path, tmp_path: Path) -> None:
    (new / "defective_item.yaml").write_text("")
    result = runner.invoke(app, ["rules", "diff", str(rules), str(new), "--seeds", SEEDS])
    assert result.exit_code == 2 and "defective_item.yaml:1:" in result.output
    shutil.rmtree(new)
    copy_rules(new)
    result = runner.invoke(app, ["rules", "diff", str(rules), str(new), "--tasks", "ticket_triage"])
    assert result.exit_code == 2 and "unknown tasks ticket_triage" in result.output


@pytest.mark.parametrize(
    ("file", "old", "new_text"),
    [
        ("loyalty_goodwill.yaml", "{silver: 50, gold: 75}", "{silver: 40, gold: 75}"),
        ("defective_item.yaml", "<= 90", "<= 60"),
    ],
)
def test_the_counts_are_those_of_deciding_every_case_in_full(
    rules: Path, new: Path, file: str, old: str, new_text: str
) -> None:
    """The report decides each case on its tested fields only; deciding every case on all
    its facts with both rule sets must count the same changes."""
    edit(new, file, old, new_text)
    _, report = diff(rules, new)
    before, after = PolicyKernel(rules), PolicyKernel(new)
    expected: dict[str, list[int]] = {}
    for case in scenario_set([before.rulebook, after.rulebook], seeds=int(SEEDS)):
        a, b = before.decide(case.facts).optimal, after.decide(case.facts).optimal
        counts = expected.setdefault(case.task, [0, 0])
        if (a and a.resolution) != (b and b.resolution):
            counts[0] += 1
        elif (a and a.amount) != (b and b.amount):
            counts[1] += 1
    measured = {t["task"]: [t["changed_optimum"], t["changed_amount"]] for t in report["tasks"]}
    assert measured == expected
    assert any(sum(c) for c in expected.values())


def test_cases_whose_optimum_changed_are_shown_first(rules: Path, new: Path) -> None:
    edit(new, "standard_return.yaml", "<= 30", "<= 45")
    _, report = diff(rules, new, "--show", "4")
    changed = [c["before"]["resolution"] != c["after"]["resolution"] for c in report["shown"]]
    assert changed[0] and changed == sorted(changed, reverse=True), report["shown"]
    assert report["changed_optimum"] < sum(p["verdicts_changed"] for p in report["policies"])


def test_the_text_report_keeps_names_whole_and_says_which_folder(rules: Path, new: Path) -> None:
    edit(new, "standard_return.yaml", "<= 30", "<= 45")
    args = ["rules", "diff", str(rules), str(new), "--seeds", SEEDS, "--show", "5"]
    out = runner.invoke(app, args, env={"COLUMNS": "80"}).output
    assert "…" not in out
    for task in policy_tasks():
        assert f" {task} " in out
    assert f"--rules-dir {new})" in out and "--rules-dir ...)" not in out
    assert "escalate under escalation" in out  # a manager's review pays nothing
    assert "(0.00)" not in out
