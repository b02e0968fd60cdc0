"""Broken rule files are refused with their file, line and what is wrong."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from novamart.kernel import Facts, PolicyKernel, RulebookError, load_rulebook
from tests.rulefiles import copy_rules, edit, line_of


@pytest.fixture
def rules(tmp_path: Path) -> Path:
    return copy_rules(tmp_path / "rules")


# (file, old text, new text, the line to blame holds this, message fragment)
CASES = {
    "yaml syntax": (
        "standard_return.yaml",
        "conditions:\n",
        "conditions: [\n",
        None,
        "YAML syntax",
    ),
    "unknown fact field": (
        "standard_return.yaml",
        "order.days_since_purchase <= 30",
        "order.days_since_purchas <= 30",
        "days_since_purchas",
        "unknown fact field 'order.days_since_purchas'",
    ),
    "unknown fact kind": (
        "loyalty_goodwill.yaml",
        "customer.tier in",
        "client.tier in",
        "client.tier",
        "unknown fact kind 'client'",
    ),
    "number compared with text": (
        "standard_return.yaml",
        "<= 30",
        "<= thirty",
        "thirty",
        "is a number but is compared with text",
    ),
    "text ordered like a number": (
        "loyalty_goodwill.yaml",
        "customer.tier in [silver, gold]",
        "customer.tier >= silver",
        "customer.tier >=",
        "is a text",
    ),
    "boolean compared with number": (
        "standard_return.yaml",
        "order.opened == false",
        "order.opened == 0",
        "order.opened == 0",
        "is a true/false but is compared with number",
    ),
    "value outside the field's values": (
        "loyalty_goodwill.yaml",
        "[silver, gold]",
        "[silver, platinum]",
        "platinum",
        "is never 'platinum'",
    ),
    "unreadable test": (
        "defective_item.yaml",
        "defect_check.verified == true",
        "defect is verified",
        "defect is verified",
        "cannot read test",
    ),
    "unknown resolution": (
        "defective_item.yaml",
        "resolution: exchange",
        "resolution: swap",
        "resolution: swap",
        "unknown resolution",
    ),
    "duplicate condition": (
        "standard_return.yaml",
        "name: item_unopened",
        "name: within_return_window",
        None,
        "duplicate condition name",
    ),
    "misspelt key": (
        "defective_item.yaml",
        "    reason: the defect check",
        "    reasn: the defect check",
        "reasn",
        "unknown key",
    ),
    "missing clause": (
        "escalation.yaml",
        "clause: When no other policy covers a case, it is passed to a manager for review.\n",
        "",
        None,
        "clause: required but missing",
    ),
    "reason with an unknown placeholder": (
        "standard_return.yaml",
        "purchased {order.days_since_purchase} days",
        "purchased {order.age} days",
        "{order.age}",
        "unknown fact field {order.age}",
    ),
    "amount from a text field": (
        "standard_return.yaml",
        "amount: order.price",
        "amount: order.category",
        "amount: order.category",
        "order.category is not a number",
    ),
    "percent table misses a tier": (
        "loyalty_goodwill.yaml",
        "{silver: 50, gold: 75}",
        "{gold: 75}",
        None,
        "no percent given for customer.tier silver",
    ),
    "quality out of range": (
        "resolutions.yaml",
        "quality: 0.9",
        "quality: 9",
        "quality: 9",
        "less than or equal to 1",
    ),
    "duplicate yaml key": (
        "resolutions.yaml",
        "    tool: process_exchange\n",
        "    tool: process_exchange\n    tool: swap_tool\n",
        "tool: swap_tool",
        "duplicate key 'tool'",
    ),
    "example with a mistyped fact": (
        "standard_return.yaml",
        "days_since_purchase: 20,",
        "days_since_purchase: '20',",
        "days_since_purchase: '20'",
        "valid integer",
    ),
    "example expecting an unknown verdict": (
        "standard_return.yaml",
        "standard_return: eligible}",
        "standard_return: allowed}",
        None,
        "expected one of eligible, blocked, undetermined",
    ),
}


@pytest.mark.parametrize("name", CASES)
def test_broken_rule_file_is_located(rules: Path, name: str):
    file, old, new, blamed, fragment = CASES[name]
    edit(rules, file, old, new)
    with pytest.raises(RulebookError) as caught:
        load_rulebook(rules)
    matching = [i for i in caught.value.issues if fragment in i.message]
    assert matching, f"no issue mentions {fragment!r}: {caught.value}"
    issue = matching[0]
    assert issue.file.endswith(file)
    assert issue.line is not None
    if blamed is not None:
        assert issue.line == line_of(rules, file, blamed), str(issue)


def test_duplicate_policy_names_across_files(rules: Path):
    shutil.copy(rules / "standard_return.yaml", rules / "standard_return_copy.yaml")
    with pytest.raises(RulebookError, match="duplicate policy name"):
        load_rulebook(rules)


def test_two_fallback_policies(rules: Path):
    text = (
        (rules / "escalation.yaml")
        .read_text()
        .replace("policy: escalation", "policy: escalation_two")
    )
    (rules / "escalation_two.yaml").write_text(text)
    with pytest.raises(RulebookError, match="only one policy may use 'no other policy applies'"):
        load_rulebook(rules)


def test_missing_catalogue(rules: Path):
    (rules / "resolutions.yaml").unlink()
    with pytest.raises(RulebookError, match="resolution catalogue is missing"):
        load_rulebook(rules)


def test_empty_folder(tmp_path: Path):
    with pytest.raises(RulebookError, match="no rule files"):
        load_rulebook(tmp_path)


def test_every_problem_is_reported_at_once(rules: Path):
    edit(rules, "standard_return.yaml", "<= 30", "<= thirty")
    edit(rules, "defective_item.yaml", "resolution: exchange", "resolution: swap")
    with pytest.raises(RulebookError) as caught:
        load_rulebook(rules)
    assert len(caught.value.issues) == 2


def test_too_many_conditions_in_one_policy(rules: Path):
    conditions = "\n".join(
        f"  - name: window_{i}\n    test: order.days_since_purchase <= {i}\n    reason: late"
        for i in range(31)
    )
    (rules / "greedy.yaml").write_text(
        f"policy: greedy\nclause: Too many conditions.\nconditions:\n{conditions}\n"
        "grants:\n  - resolution: exchange\n"
    )
    with pytest.raises(RulebookError, match="31 conditions; the engine joins at most 16"):
        load_rulebook(rules)


def test_too_many_conditions_on_one_fact_kind(rules: Path):
    """Past the engine's stack a kind is tested in Python; what stays limited is how many
    conditions may read one kind (limits.MAX_CONDITIONS_PER_KIND)."""
    for p in range(27):
        conditions = "\n".join(
            f"  - name: window_{i}\n    test: order.days_since_purchase <= {i}\n    reason: late"
            for i in range(15)
        )
        (rules / f"greedy_{p}.yaml").write_text(
            f"policy: greedy_{p}\nclause: Many conditions.\nconditions:\n{conditions}\n"
            "grants:\n  - resolution: exchange\n"
        )
    with pytest.raises(RulebookError, match=r"tested by 40[0-9] conditions across") as caught:
        load_rulebook(rules)
    assert "at most 400 conditions may read one fact kind" in str(caught.value)


def test_bad_reload_keeps_the_running_version(rules: Path):
    kernel = PolicyKernel(rules)
    before = kernel.version
    edit(rules, "standard_return.yaml", "<= 30", "<= thirty")
    with pytest.raises(RulebookError):
        kernel.reload()
    assert kernel.version == before


def test_reason_follows_an_edited_limit(rules: Path):
    edit(rules, "standard_return.yaml", "<= 30", "<= 14")
    kernel = PolicyKernel(rules)
    late = Facts(order=dict(order_id="O", days_since_purchase=20, opened=False, price=5.0))
    [failed] = kernel.decide(late).policies["standard_return"].failed()
    assert failed.reason == "purchased 20 days ago; the standard return window is 14 days"
