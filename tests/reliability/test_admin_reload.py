"""Reloading rules on a running server (issue 7, item 3; issue 13, item 5), over real
sockets: a good reload applies to new episodes while an episode in flight finishes on the
version it started with; a broken set, a set whose own examples fail, or a resolution naming
a tool that does not exist is refused with located issues and the last good version keeps
serving. A server without ADMIN_TOKEN says so instead of a bare 404."""

from __future__ import annotations

import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from novamart.client import NovamartEnv
from novamart.kernel.rulebook import DEFAULT_RULES_DIR, load_rulebook
from novamart.scenarios import build_scenario
from novamart.server.launch import RunningServer, serve_in_subprocess
from tests.rulefiles import move_window

TOKEN = "test-admin-token"
AUTH = {"Authorization": f"Bearer {TOKEN}"}
RULE = "standard_return.yaml"
THIRTY, FOURTEEN = "order.days_since_purchase <= 30", "order.days_since_purchase <= 14"
SEED = next(
    s
    for s in range(1_000)
    if 15 <= build_scenario("easy_refund", s).order.days_since_purchase <= 30
)


@pytest.fixture(scope="module")
def rules(tmp_path_factory: pytest.TempPathFactory) -> Path:
    copy = tmp_path_factory.mktemp("admin") / "rules"
    shutil.copytree(DEFAULT_RULES_DIR, copy)
    return copy


@pytest.fixture(scope="module")
def admin_server(rules: Path) -> Iterator[RunningServer]:
    env = {"RULES_DIR": str(rules), "ADMIN_TOKEN": TOKEN}
    with serve_in_subprocess(rules.parent / "server.log", env=env) as running:
        yield running


def standard_return(env: Any, order_id: str) -> dict[str, Any]:
    result = env.call_tool("check_policy", policy="standard_return", order_id=order_id)
    return result if isinstance(result, dict) else dict(result)


def reload(server: RunningServer) -> httpx.Response:
    return httpx.post(f"{server.url}/admin/rules/reload", headers=AUTH, timeout=30)


def version(server: RunningServer) -> str:
    response = httpx.get(f"{server.url}/admin/rules/version", headers=AUTH, timeout=10)
    assert response.status_code == 200
    return response.json()["version"]


def test_admin_routes_need_the_token(admin_server: RunningServer) -> None:
    for headers in ({}, {"Authorization": "Bearer wrong"}, {"Authorization": TOKEN + "x"}):
        response = httpx.post(f"{admin_server.url}/admin/rules/reload", headers=headers)
        assert response.status_code == 401
        assert response.json()["code"] == "UNAUTHORIZED"


def test_reload_good_then_bad_while_an_episode_runs(
    admin_server: RunningServer, rules: Path
) -> None:
    start = version(admin_server)
    rule = rules / RULE
    text = rule.read_text()
    assert THIRTY in text
    with NovamartEnv(base_url=admin_server.url).sync() as old:
        order_id = old.reset(task="easy_refund", seed=SEED).observation.order_id
        old.call_tool("lookup_order", order_id=order_id)

        move_window(rules, 30, 14)  # the test and its examples, as an analyst would
        assert FOURTEEN in rule.read_text()
        response = reload(admin_server)
        assert response.status_code == 200
        body = response.json()
        assert body["ok"] and body["changed"] and body["previous_version"] == start
        edited = body["version"]
        assert version(admin_server) == edited != start
        served = load_rulebook(rules)  # what the server now decides (and draws cases) with

        rule.write_text(text.replace(THIRTY, "order.days_since <= 14"))
        response = reload(admin_server)
        assert response.status_code == 422
        refused = response.json()
        assert refused["code"] == "RULEBOOK_INVALID" and refused["version"] == edited
        assert any(i["file"] == RULE and i["line"] for i in refused["issues"])
        assert str(rules) not in response.text and "Traceback" not in response.text
        assert version(admin_server) == edited
        assert httpx.get(f"{admin_server.url}/health").status_code == 200

        assert standard_return(old, order_id)["status"] == "eligible"  # pinned at its reset
        refund = old.call_tool(
            "process_refund",
            order_id=order_id,
            amount=build_scenario("easy_refund", SEED).order.price,
        )
        assert dict(refund)["ok"]

    # new cases follow the new window: the easy case of the same seed now falls inside it
    assert build_scenario("easy_refund", SEED, served).order.days_since_purchase <= 14
    seed, late = next(
        (s, sc)
        for s in range(1_000)
        if (sc := build_scenario("open_case", s, served)).order.opened is False
        and 15 <= (sc.order.days_since_purchase or 0) <= 30
        and not sc.faults
        and not any(v is True for v in sc.record("ticket").values())
    )
    with NovamartEnv(base_url=admin_server.url).sync() as new:
        new.reset(task="open_case", seed=seed)
        new.call_tool("lookup_order", order_id=late.order.order_id)
        verdict = standard_return(new, late.order.order_id)
        assert verdict["status"] == "blocked"
        assert [f["condition"] for f in verdict["failed"]] == ["within_return_window"]
    rule.write_text(text)
    assert reload(admin_server).json()["version"] == start


def test_a_rule_set_whose_examples_fail_is_refused(
    admin_server: RunningServer, rules: Path
) -> None:
    start = version(admin_server)
    rule = rules / RULE
    text = rule.read_text()
    rule.write_text(text.replace(THIRTY, FOURTEEN))  # the examples at days 20-30 now fail
    try:
        response = reload(admin_server)
        assert response.status_code == 422
        refused = response.json()
        assert refused["code"] == "EXAMPLES_FAILED" and refused["version"] == start
        failing = {i["where"] for i in refused["issues"]}
        assert "example 'day 30 is still inside the window'" in failing
        assert all(i["file"] == RULE and i["line"] for i in refused["issues"])
        assert any("expected eligible, got blocked" in i["message"] for i in refused["issues"])
        assert refused["message"].startswith(f"{len(refused['issues'])} of ")
        assert version(admin_server) == start
    finally:
        rule.write_text(text)


def test_a_resolution_without_a_real_tool_is_refused(
    admin_server: RunningServer, rules: Path
) -> None:
    start = version(admin_server)
    catalogue = rules / "resolutions.yaml"
    text = catalogue.read_text()
    catalogue.write_text(text.replace("tool: process_exchange", "tool: process_swap"))
    try:
        response = reload(admin_server)
        assert response.status_code == 422
        [issue] = response.json()["issues"]
        assert issue["file"] == "resolutions.yaml" and issue["where"] == "resolution exchange"
        assert "tool 'process_swap' does not exist" in issue["message"]
        assert version(admin_server) == start
    finally:
        catalogue.write_text(text)


def test_without_admin_token_the_routes_say_they_are_off(server: RunningServer) -> None:
    for method, path in (("POST", "/admin/rules/reload"), ("GET", "/admin/rules/version")):
        response = httpx.request(method, f"{server.url}{path}", headers=AUTH)
        assert response.status_code == 403
        body = response.json()
        assert body["code"] == "ADMIN_DISABLED"
        assert "ADMIN_TOKEN" in body["message"]
