"""`novamart explain --task T --seed N [--resolution R]`: a generated case explained like
`opa eval --explain`: each condition's test, the observed value and the tool it came from."""

from __future__ import annotations

import json

import pytest
from typer.testing import CliRunner

from novamart.cli import app
from novamart.kernel import default_kernel
from novamart.scenarios import build_scenario

runner = CliRunner()


def explain(*args: str) -> dict:
    result = runner.invoke(app, ["explain", "--json", *args])
    assert result.exit_code == 0, result.output
    return json.loads(result.output)


@pytest.mark.parametrize(
    ("task", "seed"), [("easy_refund", 7), ("defect_resolution", 3), ("loyalty_negotiation", None)]
)
def test_each_condition_shows_the_case_value_and_its_tool(task: str, seed: int | None) -> None:
    out = explain("--task", task, *(["--seed", str(seed)] if seed is not None else []))
    schema = default_kernel().rulebook.facts
    facts = schema.check(build_scenario(task, seed).facts())  # with the declared defaults
    assert out["case"]["task"] == task and out["case"]["seed"] == seed
    assert out["facts"] == facts.as_dict()
    traced = [c for p in out["policies"].values() for c in p["conditions"] if c["fact"]]
    assert traced
    for c in traced:
        kind, field = c["fact"].split(".")
        assert c["observed"] == facts.value(kind, field)
        assert c["source"] == (schema.source_tool(kind) or "opening_message")
        assert c["test"].startswith(c["fact"])


def _refund_blocked_by_window_and_defect(seed: int) -> bool:
    """A loyalty case whose refund both refund policies block: late, and no verified defect."""
    decision = default_kernel().decide(build_scenario("loyalty_negotiation", seed).facts())
    failed = {
        c.name
        for verdict in decision.policies_granting("full_refund").values()
        for c in verdict.conditions
        if c.status == "fail"
    }
    allowed = decision.grant_for("full_refund") is not None
    return not allowed and {"within_return_window", "defect_verified"} <= failed


def test_why_not_a_refund_names_the_failed_tests_and_values() -> None:
    seed = next(s for s in range(100) if _refund_blocked_by_window_and_defect(s))
    days = build_scenario("loyalty_negotiation", seed).order.days_since_purchase
    out = explain(
        "--task", "loyalty_negotiation", "--seed", str(seed), "--resolution", "full_refund"
    )
    why = out["why_not"]
    assert why["allowed"] is False and why["optimal"] is False and why["grant"] is None
    assert {p["policy"] for p in why["policies"]} == {"standard_return", "defective_item"}
    failed = {c["name"]: c for p in why["policies"] for c in p["failed"]}
    assert failed["within_return_window"]["observed"] == days
    assert failed["defect_verified"]["source"] == "verify_defect"
    assert "defect_verified needs defect_check.verified == true, observed false" in why["summary"]
    assert f"observed {days} from lookup_order" in why["summary"]


def test_why_this_one_when_it_is_the_best_or_only_allowed() -> None:
    best = explain("--task", "loyalty_negotiation", "--resolution", "store_credit")["why_not"]
    assert best["allowed"] and best["optimal"]
    assert best["summary"].startswith("store_credit is allowed under loyalty_goodwill")
    lesser = explain("--task", "defect_resolution", "--resolution", "exchange")["why_not"]
    assert lesser["allowed"] and not lesser["optimal"]
    assert "but full_refund under defective_item is better" in lesser["summary"]


def test_a_ticket_task_is_explained_from_what_the_ticket_shows() -> None:
    out = explain("--task", "escalation_safety")
    assert out["optimal"]["resolution"] == "escalate"
    swelling = out["policies"]["mandatory_escalation"]["conditions"][0]
    assert swelling["observed"] is True and swelling["source"] == "opening_message"


def test_the_text_report_shows_tests_values_and_sources() -> None:
    result = runner.invoke(
        app, ["explain", "--task", "loyalty_negotiation", "--resolution", "full_refund"]
    )
    assert result.exit_code == 0, result.output
    out = result.output
    days = build_scenario("loyalty_negotiation").order.days_since_purchase
    assert "Case: loyalty_negotiation, canonical case" in out
    assert f"order.days_since_purchase <= 30  observed {days} (from lookup_order)" in out
    assert "Why full_refund?" in out and "full_refund is not allowed" in out


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--task", "easy_refund", "--resolution", "voucher"], "unknown resolution 'voucher'"),
        (["--task", "no_such_task"], "tasks the rules decide: easy_refund"),
        (["--task", "ticket_triage"], "no policy case for task 'ticket_triage'"),
        (["--task", "easy_refund", "--facts", "-"], "give either --facts FILE or --task"),
        (["--seed", "3", "--facts", "-"], "--seed needs --task"),
        ([], "give either --facts FILE or --task"),
    ],
)
def test_bad_requests_exit_2_with_one_line(args: list[str], message: str) -> None:
    result = runner.invoke(app, ["explain", *args], input="{}")
    assert result.exit_code == 2
    assert message in result.output
    assert "Traceback" not in result.output
