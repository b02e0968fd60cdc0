"""The policy workbench's JSON API on a real server: the `explain --json` and `rules diff
--json` contracts over HTTP, typed errors, and nothing served without the web UI."""

from __future__ import annotations

import json
import threading
import time
from pathlib import Path

import httpx
import pytest
from typer.testing import CliRunner

from novamart.analyst.cases import policy_tasks
from novamart.cli import app
from novamart.kernel import load_rulebook
from novamart.kernel.rulebook import DEFAULT_RULES_DIR
from novamart.server.launch import RunningServer
from tests.rulefiles import copy_rules

runner = CliRunner()
WINDOW = "order.days_since_purchase <= 30"
WIDER = (
    (DEFAULT_RULES_DIR / "standard_return.yaml")
    .read_text()
    .replace(WINDOW, "order.days_since_purchase <= 45")
)


def cli_json(*args: str) -> dict:
    result = runner.invoke(app, [*args, "--json"])
    assert result.exit_code in (0, 1), result.output
    return json.loads(result.output)


def post(server: RunningServer, path: str, body: dict, timeout: float = 120) -> httpx.Response:
    return httpx.post(f"{server.url}{path}", json=body, timeout=timeout)


def test_the_rules_view_is_the_serving_rule_set(web_server: RunningServer) -> None:
    view = httpx.get(f"{web_server.url}/policy/rules", timeout=30).json()
    rulebook = load_rulebook()
    assert view["version"] == rulebook.version
    assert [p["name"] for p in view["policies"]] == list(rulebook.policies)
    standard = next(p for p in view["policies"] if p["name"] == "standard_return")
    assert standard["clause"] == rulebook.policies["standard_return"].clause
    assert standard["conditions"][0]["test"] == WINDOW
    assert set(view["facts"]["kinds"]) == set(rulebook.facts.kinds)
    assert view["tasks"] == policy_tasks()
    assert (
        view["files"]["standard_return.yaml"]
        == (DEFAULT_RULES_DIR / "standard_return.yaml").read_text()
    )


@pytest.mark.parametrize(
    "case", [("easy_refund", 3, None), ("loyalty_negotiation", 8, "full_refund")]
)
def test_explain_a_case_is_the_cli_contract(web_server: RunningServer, case: tuple) -> None:
    task, seed, resolution = case
    body: dict = {"task": task, "seed": seed}
    args = ["explain", "--task", task, "--seed", str(seed)]
    if resolution:
        body["resolution"] = resolution
        args += ["--resolution", resolution]
    response = post(web_server, "/policy/explain", body)
    assert response.status_code == 200
    assert response.json() == cli_json(*args)


def test_explain_facts_is_the_cli_contract(web_server: RunningServer, tmp_path: Path) -> None:
    facts = {
        "order": {"order_id": "ORD-1", "days_since_purchase": 45, "opened": True, "price": 10.5}
    }
    (tmp_path / "facts.json").write_text(json.dumps(facts))
    response = post(web_server, "/policy/explain", {"facts": facts})
    assert response.status_code == 200
    assert response.json() == cli_json("explain", "--facts", str(tmp_path / "facts.json"))


@pytest.mark.parametrize(
    ("body", "code", "words"),
    [
        ({}, "INVALID_REQUEST", "give either task"),
        ({"task": "easy_refund", "facts": {}}, "INVALID_REQUEST", "give either task"),
        (
            {"facts": {"order": {"order_id": "A", "days_since_purchase": "45"}}},
            "INVALID_FACTS",
            "order.days_since_purchase",
        ),
        ({"facts": {"shipment": {}}}, "INVALID_FACTS", "shipment"),
        ({"task": "easy_refund", "resolution": "voucher"}, "UNKNOWN_CASE", "unknown resolution"),
        ({"task": "ticket_triage"}, "UNKNOWN_CASE", "no policy case"),
    ],
)
def test_bad_questions_get_typed_errors(
    web_server: RunningServer, body: dict, code: str, words: str
) -> None:
    response = post(web_server, "/policy/explain", body)
    assert response.status_code == 422
    assert response.json()["code"] == code and words in response.json()["message"]


def test_a_pasted_change_gets_the_rules_diff_report(
    web_server: RunningServer, tmp_path: Path
) -> None:
    response = post(
        web_server, "/policy/diff", {"files": {"standard_return.yaml": WIDER}, "seeds": 10}
    )
    assert response.status_code == 200
    new = copy_rules(tmp_path / "new")
    (new / "standard_return.yaml").write_text(WIDER)
    expected = cli_json(
        "rules", "diff", str(DEFAULT_RULES_DIR), str(new), "--seeds", "10", "--show", "5"
    )
    assert response.json() == expected
    assert expected["changed_optimum"] > 0
    outcomes = [o for c in expected["shown"] for o in (c["before"], c["after"]) if o["resolution"]]
    for outcome in outcomes:  # a manager's review or an exchange carries no amount
        paid = outcome["resolution"] not in ("escalate", "exchange")
        assert outcome["pays"] is paid and (outcome["amount"] is not None) is paid, outcome
    assert any(not o["pays"] for o in outcomes)


def test_the_rules_view_says_what_pays_what_is_a_fallback_and_how_to_deploy(
    web_server: RunningServer,
) -> None:
    view = httpx.get(f"{web_server.url}/policy/rules", timeout=30).json()
    grants = {
        (p["name"], g["resolution"]): g["pays"] for p in view["policies"] for g in p["grants"]
    }
    assert (
        grants[("defective_item", "full_refund")] and grants[("loyalty_goodwill", "store_credit")]
    )
    assert not grants[("defective_item", "exchange")] and not grants[("escalation", "escalate")]
    fallbacks = [p["name"] for p in view["policies"] if p["fallback"]]
    assert fallbacks == ["escalation"]
    assert view["reload_enabled"] is False  # the test server runs without ADMIN_TOKEN


def test_a_broken_paste_is_refused_with_located_issues(web_server: RunningServer) -> None:
    response = post(web_server, "/policy/diff", {"files": {"defective_item.yaml": "   \n"}})
    assert response.status_code == 422
    body = response.json()
    assert body["code"] == "RULEBOOK_INVALID"
    assert body["issues"] == [
        {
            "file": "defective_item.yaml",
            "line": 1,
            "where": "",
            "message": body["issues"][0]["message"],
        }
    ]
    assert "novamart-workbench" not in response.text and "/tmp" not in response.text


@pytest.mark.parametrize(
    "body",
    [
        {"files": {"../escape.yaml": "policy: x"}},
        {"files": {"standard_return.yaml": WIDER}, "tasks": ["ticket_triage"]},
        {"files": {"standard_return.yaml": WIDER}, "seeds": 100_000},
        {"files": {}},
    ],
)
def test_bad_diff_requests_are_refused(web_server: RunningServer, body: dict) -> None:
    response = post(web_server, "/policy/diff", body)
    assert response.status_code == 422


def test_one_impact_report_at_a_time(web_server: RunningServer) -> None:
    first: dict = {}

    def long_diff() -> None:
        body = {"files": {"standard_return.yaml": WIDER}, "seeds": 300}
        first["response"] = post(web_server, "/policy/diff", body, timeout=300)

    worker = threading.Thread(target=long_diff)
    worker.start()
    time.sleep(0.5)
    second = post(
        web_server, "/policy/diff", {"files": {"standard_return.yaml": WIDER}, "seeds": 1}
    )
    worker.join()
    assert second.status_code == 429 and second.json()["code"] == "BUSY"
    assert first["response"].status_code == 200
    assert httpx.get(f"{web_server.url}/health").status_code == 200


def test_without_the_web_ui_there_is_no_workbench(server: RunningServer) -> None:
    assert httpx.get(f"{server.url}/policy/rules").status_code == 404
    assert httpx.get(f"{server.url}/workbench").status_code == 404


def test_a_body_over_the_message_limit_is_refused(web_server: RunningServer) -> None:
    huge = "# padding\n" * 10_000  # 100 KB, over MAX_MESSAGE_BYTES (64 KiB)
    response = post(web_server, "/policy/diff", {"files": {"standard_return.yaml": huge}})
    assert response.status_code == 413
    assert response.json()["code"] == "MESSAGE_TOO_LARGE"
    assert httpx.get(f"{web_server.url}/health").status_code == 200
