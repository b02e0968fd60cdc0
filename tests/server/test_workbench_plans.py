"""The workbench's plans on a real server: rules/retail studied beside the serving rules,
an example's plan and the best plan for facts and requests explained per request and per
item (the ``explain --json`` contract over HTTP), typed errors, the serving rules untouched."""

from __future__ import annotations

import json
from pathlib import Path

import httpx
import pytest
from typer.testing import CliRunner

from novamart.cli import app
from novamart.kb.handbook import handbook
from novamart.kernel import load_rulebook
from novamart.kernel.rulebook import DEFAULT_RULES_DIR
from novamart.server.launch import RunningServer
from novamart.server.workbench_plans import StudiedRulebooks
from tests.rulefiles import copy_rules

RETAIL = DEFAULT_RULES_DIR / "retail"
EXPLAIN = ["explain", "--rules-dir", str(RETAIL), "--no-tool-check"]
THREE = "a plan of three requests, each on the state the one before left"
runner = CliRunner()


def cli_json(*args: str) -> dict:
    result = runner.invoke(app, [*args, "--json"])
    assert result.exit_code == 0, result.output
    return json.loads(result.output)


def plan(server: RunningServer, body: dict) -> httpx.Response:
    return httpx.post(f"{server.url}/policy/plan", json=body, timeout=60)


def test_the_retail_rulebook_is_offered_with_its_examples_and_handbook(
    web_server: RunningServer,
) -> None:
    listed = httpx.get(f"{web_server.url}/policy/rulebooks", timeout=60).json()
    retail = next(r for r in listed if r["name"] == "retail")
    rulebook = load_rulebook(RETAIL)
    assert retail["version"] == rulebook.version and retail["issues"] == []
    assert list(retail["policies"]) == list(rulebook.policies)
    assert [e["name"] for e in retail["examples"]] == [e.name for e in rulebook.examples]
    three = next(e for e in retail["examples"] if e["name"] == THREE)
    assert (three["how"], three["file"]) == ("in order", "escalation.yaml")
    assert retail["handbook"] == handbook(rulebook)
    serving = httpx.get(f"{web_server.url}/policy/rules", timeout=60).json()
    assert serving["version"] == load_rulebook().version  # the serving rules are not retail's


def test_an_example_plan_is_the_cli_contract(web_server: RunningServer) -> None:
    response = plan(web_server, {"rulebook": "retail", "example": THREE})
    assert response.status_code == 200, response.text
    document = response.json()
    assert document == cli_json(*EXPLAIN, "--example", THREE)
    exchange, ret, cancel = document["steps"]
    assert (exchange["granted"], ret["status"], ret["amount"]) == ("decline", "carried out", 80.0)
    failed = [(m["member"], m["condition"]) for m in exchange["members"] if m["status"] == "fail"]
    assert ("I3", "items_exchangeable") in failed
    assert {"fact": "order #W1", "field": "status", "before": "delivered",
            "after": "return requested"} in ret["changed"]  # fmt: skip
    assert cancel["requires"]["confirmed"] is False


def test_facts_and_requests_get_the_best_plan(web_server: RunningServer, tmp_path: Path) -> None:
    rulebook = load_rulebook(RETAIL)
    named = "two delivered items come back to the gift card"
    facts = next(e for e in rulebook.examples if e.name == named).facts.as_dict()
    card = {"order_id": "#W1", "payment_method_id": "gift_card_1"}
    asked = {
        "requests": [
            {"resolution": ["exchange_items", "return_items"], **card, "item_ids": ["I2"]},
            {"resolution": "return_items", **card, "item_ids": ["I1"]},
        ],
        "before_each": ["confirmed"],
    }
    response = plan(web_server, {"rulebook": "retail", "facts": facts, **asked})
    assert response.status_code == 200, response.text
    (tmp_path / "facts.json").write_text(json.dumps(facts))
    (tmp_path / "asked.json").write_text(json.dumps(asked))
    expected = cli_json(
        *EXPLAIN,
        "--facts",
        str(tmp_path / "facts.json"),
        "--requests",
        str(tmp_path / "asked.json"),
    )
    assert response.json() == expected
    assert expected["how"] == "best plan"


@pytest.mark.parametrize(
    ("body", "code", "words"),
    [
        ({"rulebook": "retail"}, "INVALID_REQUEST", "give either example or facts"),
        ({"rulebook": "atlantis", "example": THREE}, "UNKNOWN_CASE", "no rulebook 'atlantis'"),
        ({"rulebook": "retail", "example": "no such one"}, "UNKNOWN_CASE", "no example"),
        ({"rulebook": "retail", "facts": {}}, "INVALID_REQUEST", "requests"),
        (
            {"rulebook": "retail", "facts": {"order": {"status": 3}}, "requests": [{}]},
            "INVALID_FACTS",
            "order",
        ),
        (
            {"rulebook": "retail", "facts": {}, "requests": [{"resolution": "teleport"}]},
            "INVALID_REQUEST",
            "teleport",
        ),
        (
            {
                "rulebook": "retail",
                "facts": {},
                "requests": [
                    {
                        "resolution": ["return_items", "exchange_items"],
                        "order_id": "#W1",
                        "item_ids": ["I1"],
                        "choices": {"payment_method_id": [f"gift_card_{n}" for n in range(10)]},
                    }
                ]
                * 4,
            },
            "INVALID_REQUEST",
            "plans to search",
        ),
    ],
)
def test_bad_plan_questions_get_typed_errors(
    web_server: RunningServer, body: dict, code: str, words: str
) -> None:
    response = plan(web_server, body)
    assert response.status_code == 422, response.text
    assert response.json()["code"] == code and words in response.json()["message"]


def test_every_example_comes_back_as_an_editable_case(web_server: RunningServer) -> None:
    """An example's facts and calls as a plan body: the best plan for its calls as requests,
    with the events among them before each (what the page fills in for the analyst)."""
    listed = httpx.get(f"{web_server.url}/policy/rulebooks", timeout=60).json()
    retail = next(r for r in listed if r["name"] == "retail")
    planned = [e for e in retail["examples"] if e["how"] != "facts"]
    assert planned
    for example in planned:
        response = plan(web_server, {"rulebook": "retail", **example["case"]})
        assert response.status_code == 200, (example["name"], response.text)
        assert len(response.json()["steps"]) == len(example["case"]["requests"])
    three = next(e for e in planned if e["name"] == THREE)["case"]
    assert [r["resolution"] for r in three["requests"]] == [
        "exchange_items",
        "return_items",
        "cancel_order",
    ]
    assert three["before_each"] == [] and three["facts"]["item"][2]["final_sale"] is True


def test_a_rulebook_folder_that_does_not_load_says_why(tmp_path: Path) -> None:
    """A studied folder is loaded apart: its problems are listed, the others still served."""
    rules = copy_rules(tmp_path / "rules")
    broken = rules / "broken"
    broken.mkdir()
    (broken / "resolutions.yaml").write_text("resolutions: {refund: {quality: 2}}\n")
    studied = StudiedRulebooks(rules)
    assert studied.names() == ["broken", "retail"]
    view = studied.view("broken")
    assert view.version is None and view.issues
    assert any(i.file.endswith("resolutions.yaml") for i in view.issues)
    assert studied.view("retail").version == load_rulebook(RETAIL).version
    with pytest.raises(KeyError):
        studied.kernel("atlantis")
