"""The `novamart` command: rules check/test and the explain --json contract."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

from novamart.cli import app
from novamart.kernel.rulebook import DEFAULT_RULES_DIR

runner = CliRunner()
CONTRACT_INPUT = {
    "order": {
        "order_id": "ORD-1001",
        "days_since_purchase": 45,
        "opened": True,
        "price": 899.99,
        "category": "phone",
    },
    "customer": {"customer_id": "CUST-7", "tier": "gold"},
    "defect_check": {"order_id": "ORD-1001", "verified": True},
}


def explain(payload: str, *args: str):
    return runner.invoke(app, ["explain", "--facts", "-", *args], input=payload)


def test_rules_check_passes_on_the_shipped_rules():
    result = runner.invoke(app, ["rules", "check", str(DEFAULT_RULES_DIR)])
    assert result.exit_code == 0, result.output
    assert "5 policies" in result.output


def test_rules_check_lists_every_problem(tmp_path: Path):
    rules = tmp_path / "rules"
    shutil.copytree(DEFAULT_RULES_DIR, rules)
    path = rules / "standard_return.yaml"
    path.write_text(path.read_text().replace("<= 30", "<= thirty"))
    result = runner.invoke(app, ["rules", "check", str(rules)])
    assert result.exit_code == 1
    assert "standard_return.yaml:6:" in result.output
    assert "is a number but is compared with text" in result.output


def test_rules_test_runs_the_examples():
    result = runner.invoke(app, ["rules", "test", str(DEFAULT_RULES_DIR)])
    assert result.exit_code == 0, result.output
    assert "PASS" in result.output
    assert ", 0 failed" in result.output


def test_rules_test_reports_a_failing_example(tmp_path: Path):
    rules = tmp_path / "rules"
    shutil.copytree(DEFAULT_RULES_DIR, rules)
    path = rules / "standard_return.yaml"
    path.write_text(
        path.read_text().replace(
            "expect: {optimal: full_refund, amount: 79.99",
            "expect: {optimal: exchange, amount: 79.99",
        )
    )
    result = runner.invoke(app, ["rules", "test", str(rules)])
    assert result.exit_code == 1
    assert "FAIL" in result.output
    assert "optimal: expected exchange, got full_refund" in result.output


def test_explain_json_contract():
    result = explain(json.dumps(CONTRACT_INPUT), "--json")
    assert result.exit_code == 0, result.output
    out = json.loads(result.output)
    # the Decision's fields, each condition traced, the rules version, the facts decided on
    assert set(out) == {
        "optimal",
        "eligible",
        "policies",
        "rules_version",
        "facts",
        "why_not",
        "case",
    }
    assert out["facts"] == CONTRACT_INPUT and out["case"] is None and out["why_not"] is None
    assert out["optimal"] == {
        "resolution": "full_refund",
        "policy": "defective_item",
        "quality": 1.0,
        "amount": 899.99,
    }
    assert [e["quality"] for e in out["eligible"]] == sorted(
        (e["quality"] for e in out["eligible"]), reverse=True
    )
    assert set(out["policies"]) == {
        "standard_return",
        "defective_item",
        "loyalty_goodwill",
        "mandatory_escalation",
        "escalation",
    }
    for verdict in out["policies"].values():
        assert set(verdict) == {"status", "clause", "file", "grants", "conditions"}
        for c in verdict["conditions"]:
            assert set(c) == {
                *("name", "status", "reason", "needs_tool"),
                *("test", "fact", "observed", "source", "line"),
            }
    reasons = [c["reason"] for c in out["policies"]["standard_return"]["conditions"]]
    assert "purchased 45 days ago; the standard return window is 30 days" in reasons


def test_explain_with_absent_kinds_marks_conditions_unknown():
    out = json.loads(explain(json.dumps({"order": CONTRACT_INPUT["order"]}), "--json").output)
    [unknown] = [
        c for c in out["policies"]["defective_item"]["conditions"] if c["status"] == "unknown"
    ]
    assert unknown["needs_tool"] == "verify_defect"
    assert out["optimal"] is None


def test_explain_table():
    result = explain(json.dumps(CONTRACT_INPUT))
    assert result.exit_code == 0
    assert "Best resolution:" in result.output
    assert "defective_item" in result.output


@pytest.mark.parametrize(
    ("payload", "names"),
    [
        ('{"order": {"order_id": "A", "days_since_purchase": "45"}}', "order.days_since_purchase"),
        ('{"order": {"order_id": "A", "days_since_purchase": -1}}', "order.days_since_purchase"),
        ('{"customer": {"customer_id": "C", "tier": "platinum"}}', "customer.tier"),
        ('{"customer": {"customer_id": "C", "tier": "gold", "vip": true}}', "customer.vip"),
        ('{"shipment": {}}', "shipment"),
        ('{"order": {"order_id": "A", "opened": 0}}', "order.opened"),
        ("not json", "not JSON"),
        ("[1, 2]", "facts"),
    ],
)
def test_invalid_facts_exit_2_with_one_line(payload: str, names: str):
    proc = subprocess.run(
        [sys.executable, "-m", "novamart.cli", "explain", "--facts", "-", "--json"],
        input=payload,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert proc.returncode == 2
    assert proc.stdout == ""
    lines = proc.stderr.strip().splitlines()
    assert len(lines) == 1, proc.stderr
    assert names in lines[0]
    assert "Traceback" not in proc.stderr
