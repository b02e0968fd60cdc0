"""``explain`` on a plan of rules/retail: per request and per item, with the state it was
decided on, the events its call requires and what carrying it out changed; an example of
the rulebook is explained by name (issue 19, item 6)."""

from __future__ import annotations

import json
from pathlib import Path

from typer.testing import CliRunner

from novamart.cli import app
from novamart.kernel.rulebook import DEFAULT_RULES_DIR, load_rulebook

RETAIL = DEFAULT_RULES_DIR / "retail"
ARGS = ["explain", "--rules-dir", str(RETAIL), "--no-tool-check"]
THREE = "a plan of three requests"
runner = CliRunner()


def _steps(text: str) -> list[str]:
    return text.split("\nstep ")[1:]


def test_an_example_plan_is_explained_per_item_with_events_and_changes() -> None:
    result = runner.invoke(app, [*ARGS, "--example", THREE])
    assert result.exit_code == 0, result.output
    assert "Plan in the order written: 1 of 3 requests carried out" in result.output
    exchange, ret, cancel = _steps(result.output)
    # the exchange of a final-sale item: that item named, and why
    assert (
        "item I3: FAIL exchange_delivered.items_exchangeable (all item: item.status == "
        "delivered and not item.final_sale): item.final_sale is true"
    ) in exchange
    assert (
        "item I3: MATCHES decline_out_of_policy.ruled_out (any item: item.final_sale)" in exchange
    )
    assert "  changed: " not in exchange  # a decline changes nothing
    # the return: each item it names passes, and what it did to the world
    for item in ("I1", "I2"):
        assert f"item {item}: PASS return_delivered.items_delivered" in ret
    assert "changed: order #W1 status: delivered -> return requested" in ret
    assert "changed: item I2 status: delivered -> return requested" in ret
    assert "changed: payment gift_card_1 balance: 100.0 -> 180.0" in ret
    assert "changed: event conversation confirmed: true -> false" in ret
    assert "selected" not in ret.split("  changed: ", 1)[1]  # naming an item is no effect
    # the cancellation, on the state the return left: the yes was used up
    assert "order #W1: paid_with gift_card_1, status return requested" in cancel
    assert "requires: identity_verified yes, confirmed MISSING" in cancel
    assert "item I3: FAIL cancel_pending.no_final_sale" in cancel
    assert "item I1: PASS cancel_pending.no_final_sale" in cancel


def test_the_json_contract_carries_members_requires_and_changes() -> None:
    result = runner.invoke(app, [*ARGS, "--example", THREE, "--json"])
    assert result.exit_code == 0, result.output
    document = json.loads(result.output)
    assert document["how"] == "in order"
    exchange, ret, cancel = document["steps"]
    checked = {
        m["condition"]: (m["member"], m["status"])
        for m in exchange["members"]
        if m["quantifier"] == "all"
    }
    assert checked == {
        "items_exchangeable": ("I3", "fail"),
        "variants_available": ("I3", "pass"),
        "within_return_window": ("I3", "pass"),
    }
    assert {"fact": "payment gift_card_1", "field": "balance", "before": 100.0, "after": 180.0} in (
        ret["changed"]
    )
    assert cancel["requires"] == {"identity_verified": True, "confirmed": False}
    assert cancel["changed"] == []
    assert document["after"]["order"]["status"] == "return requested"


def test_the_best_plan_of_requests_explains_each_item(tmp_path: Path) -> None:
    facts, asked = tmp_path / "facts.json", tmp_path / "requests.json"
    rulebook = load_rulebook(RETAIL)
    named = "a final-sale item named is a correct refusal, and the decline is the best answer"
    example = next(e for e in rulebook.examples if e.name == named)
    facts.write_text(json.dumps(example.facts.as_dict()))  # items I1 and I3 (final sale)
    card = {"order_id": "#W1", "payment_method_id": "gift_card_1"}
    asked.write_text(
        json.dumps(
            {
                "requests": [
                    {"resolution": "return_items", **card, "item_ids": ["I3"]},
                    {"resolution": "return_items", **card, "item_ids": ["I1"]},
                ],
                "before_each": ["confirmed"],
            }
        )
    )
    result = runner.invoke(app, [*ARGS, "--facts", str(facts), "--requests", str(asked)])
    assert result.exit_code == 0, result.output
    # a decline changes nothing, so the customer's order stands
    assert "Best plan: 1 of 2 requests carried out (request 1, request 2)" in result.output
    first, second = _steps(result.output)
    assert "item I3: FAIL return_delivered.items_delivered" in first
    assert "item I1" not in first.split("decided on:", 1)[1].split("events so far", 1)[1]
    assert "item I1: PASS return_delivered.items_delivered" in second
    assert "requires: identity_verified yes, confirmed yes" in second
    assert "changed: item I1 status: delivered -> return requested" in second


def test_an_unknown_or_ambiguous_example_is_refused_with_one_line() -> None:
    unknown = runner.invoke(app, [*ARGS, "--example", "no such example anywhere"])
    assert unknown.exit_code == 2
    assert "no example is called 'no such example anywhere'" in unknown.output
    several = runner.invoke(app, [*ARGS, "--example", "declined"])
    assert several.exit_code == 2 and "examples match 'declined'" in several.output
    both = runner.invoke(app, [*ARGS, "--example", THREE, "--task", "easy_refund"])
    assert both.exit_code == 2 and "give no --facts or --task" in both.output


def test_a_request_of_a_family_says_what_its_other_calls_would_have_done(tmp_path: Path) -> None:
    rulebook = load_rulebook(RETAIL)
    example = next(e for e in rulebook.examples if e.name.startswith("two delivered items"))
    facts, asked = tmp_path / "facts.json", tmp_path / "requests.json"
    facts.write_text(json.dumps(example.facts.as_dict()))
    family = ["return_items", "exchange_items"]
    card = {"order_id": "#W1", "payment_method_id": "gift_card_1"}
    asked.write_text(json.dumps({"requests": [{"resolution": family, **card, "item_ids": ["I2"]}]}))
    args = [*ARGS, "--facts", str(facts), "--requests", str(asked)]
    result = runner.invoke(app, args)
    assert result.exit_code == 0, result.output
    (step,) = _steps(result.output)
    assert "1: request 1 CARRIED OUT, amount 30.0" in step  # the return is worth the most
    assert "instead: exchange_items" in step and "-> exchange_items -5" in step
    document = json.loads(runner.invoke(app, [*args, "--json"]).output)
    (other,) = document["steps"][0]["alternatives"]
    assert (other["resolution"], other["status"], other["amount"]) == (
        "exchange_items",
        "carried out",
        -5.0,
    )
