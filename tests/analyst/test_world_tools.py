"""The analyst's tools on the retail world (issue 19, item 6): tests/kernel/fixtures/
retail_world, whose write tools are generated from its declared resolutions (a look-up tool
not built yet is checked only without --no-tool-check)."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from typer.testing import CliRunner

from novamart.cli import app
from tests.rulefiles import edit, line_of

WORLD = Path(__file__).parents[1] / "kernel" / "fixtures" / "retail_world"
runner = CliRunner()
FACTS = {
    "order": {"order_id": "#W1", "status": "delivered"},
    "item": [
        {"item_id": "I1", "order_id": "#W1", "price": 50, "new_price": 60, "status": "delivered"},
        {"item_id": "I2", "order_id": "#W1", "price": 30, "new_price": 25, "status": "delivered"},
    ],
    "payment": {"payment_id": "gift_card_1", "method": "gift_card", "balance": 100},
    "event": {"event_id": "conversation", "identity_verified": True},
}
CARD = {"order_id": "#W1", "payment_method_id": "gift_card_1"}
REQUESTS = {
    "requests": [
        {"resolution": "exchange_items", **CARD, "item_ids": ["I2"]},
        {"resolution": "return_items", **CARD, "item_ids": ["I1"]},
    ],
    "before_each": ["confirmed"],
}


@pytest.fixture
def world(tmp_path: Path) -> Path:
    return Path(shutil.copytree(WORLD, tmp_path / "world"))


def rules(*args: str) -> tuple[int, str]:
    result = runner.invoke(app, ["rules", *args])
    return result.exit_code, result.output


def test_check_says_which_tools_are_missing_unless_told_not_to_check_them(world: Path) -> None:
    code, output = rules("check", "--rules-dir", str(WORLD))
    assert code == 0 and output.startswith("OK 6 policies, 7 resolutions, 49 examples")
    edit(world, "facts.yaml", "revealed_by: check_payment", "revealed_by: lookup_wallet")
    code, output = rules("check", "--rules-dir", str(world))
    assert code == 1 and "tool 'lookup_wallet' does not exist" in output
    code, output = rules("check", "--rules-dir", str(world), "--no-tool-check")
    assert code == 0 and output.startswith("OK 6 policies, 7 resolutions, 49 examples")


@pytest.mark.parametrize(
    ("file", "old", "new", "message"),
    [
        (
            "resolutions.yaml",
            "- order.status = cancelled",
            "- order.state = cancelled",
            "unknown fact field 'order.state'",
        ),
        (
            "modify_pending.yaml",
            "- {resolution: cancel_order, order_id: '#W2', reason: no longer needed}\n    before",
            "- {resolution: cancel_everything, order_id: '#W2'}\n    before",
            "unknown resolution 'cancel_everything'",
        ),
        ("modify_pending.yaml", "before_each: [confirmed]", "before_each: [smiled]", "'smiled'"),
        (
            "return_delivered.yaml",
            "best_order: [2, 1]",
            "best_order: 2",
            "best_order: expected a list",
        ),
    ],
)
def test_check_locates_each_new_constructs_error(
    world: Path, file: str, old: str, new: str, message: str
) -> None:
    edit(world, file, old, new)
    line = line_of(world, file, new.splitlines()[0].strip())
    code, output = rules("check", "--rules-dir", str(world), "--no-tool-check")
    assert code == 1
    assert any(f"{file}:{line}:" in row and message in row for row in output.splitlines()), output


def test_coverage_counts_each_quantifier_branch_per_item() -> None:
    code, output = rules(
        "test",
        "--rules-dir",
        str(WORLD),
        "--no-tool-check",
        "--coverage",
        "--json",
        "-k",
        "one item alone comes back",
    )
    assert code == 0
    items = json.loads(output)["coverage"]["items"]
    branches = {i["description"]: bool(i["covered_by"]) for i in items if i["kind"] == "branch"}
    quantifier = "items_delivered: a selected item seen"
    assert branches[f"{quantifier} holding 'item.status == delivered and not item.final_sale'"]
    assert not branches[f"{quantifier} failing 'item.status == delivered and not item.final_sale'"]
    assert branches["items_delivered: an item seen left out by 'where item.selected'"]
    code, full = rules("test", "--rules-dir", str(WORLD), "--no-tool-check", "--coverage")
    assert "Every condition, grant and threshold is covered." in full


def test_explain_gives_the_best_plan_per_request_with_its_state_and_events(
    tmp_path: Path,
) -> None:
    facts, asked = tmp_path / "facts.json", tmp_path / "requests.json"
    facts.write_text(json.dumps(FACTS))
    asked.write_text(json.dumps(REQUESTS))
    args = ["explain", "--rules-dir", str(WORLD), "--no-tool-check", "--facts", str(facts)]
    result = runner.invoke(app, [*args, "--requests", str(asked)])
    assert result.exit_code == 0, result.output
    text = result.output
    assert "Best plan: 1 of 2 requests carried out (request 2, request 1)" in text
    assert text.index("step 1: request 2 CARRIED OUT") < text.index("step 2: request 1 DECLINED")
    assert "order #W1: status return requested" in text  # the state step 2 was decided on
    assert "events so far: confirmed, identity_verified" in text
    assert "why: the order is return requested; only delivered orders take exchanges" in text
    document = json.loads(runner.invoke(app, [*args, "--requests", str(asked), "--json"]).output)
    first, second = document["steps"]
    assert (first["request"], first["status"], first["amount"]) == (2, "carried out", 50.0)
    assert second["state"]["order"]["status"] == "return requested"
    assert document["after"]["payment"]["balance"] == 150.0
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps({"requests": [{"resolution": "teleport"}]}))
    refused = runner.invoke(app, [*args, "--requests", str(bad)])
    assert refused.exit_code == 2 and "unknown resolution 'teleport'" in refused.output


def test_diff_shows_the_plans_a_change_moves(world: Path) -> None:
    edit(
        world,
        "cancel_pending.yaml",
        "test: request.reason in ['no longer needed', 'ordered by mistake']",
        "test: request.reason in ['no longer needed', 'ordered by mistake', other]",
    )
    line = line_of(WORLD, "cancel_pending.yaml", "- name: no reason given is the reason other")
    fast = ["--no-tool-check", "--tasks", "easy_refund", "--seeds", "1"]
    code, output = rules("diff", str(WORLD), str(world), *fast)
    assert code == 1
    assert "Plans over " in output
    assert f"cancel_pending.yaml:{line} no reason given is the reason other" in output
    assert "in order: decline 0  ->  cancel_order 40" in output
    assert "payment.balance = 0.0" in output  # a generated case: the gift card emptied
    code, same = rules("diff", str(WORLD), str(WORLD), *fast)
    assert code == 0 and ": 0 changed" in same
