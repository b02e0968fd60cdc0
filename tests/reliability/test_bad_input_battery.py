"""The bad-input battery (issue 7, item 1): hostile frames and bodies over /ws, HTTP and
/mcp, and hostile tool arguments, against a real server (tests/server's uvicorn fixture,
shared through conftest).

Every case gets a typed error (a code, never a 5xx); the WebSocket session that received it
still plays the same episode; /health stays healthy; and no answer carries a traceback or a
file path. tests/server/test_bad_input.py covers the first cases of issue 4; these go on.
"""

from __future__ import annotations

import json
import re
from typing import Any

import httpx
import pytest
from websockets.sync.client import ClientConnection, connect

from novamart.server.launch import RunningServer

ORDER = "ORD-100001"  # the canonical easy_refund order
LEAKS = re.compile(r"Traceback|File \"|site-packages|/work/|/usr/lib|\.py\b")
DEEP = 20_000


def step(tool: str, arguments: Any) -> str:
    return json.dumps({"type": "step", "data": {"tool_name": tool, "arguments": arguments}})


def raw_step(tool: str, arguments_json: str) -> str:
    return f'{{"type": "step", "data": {{"tool_name": "{tool}", "arguments": {arguments_json}}}}}'


def nested(depth: int) -> str:
    return "[" * depth + "]" * depth


def mcp(method: str, params: Any = None) -> dict[str, Any]:
    body: dict[str, Any] = {"jsonrpc": "2.0", "method": method, "id": 1}
    if params is not None:
        body["params"] = params
    return body


VALID = step("lookup_order", {"order_id": ORDER})
RESET = json.dumps({"type": "reset", "data": {"task": "easy_refund"}})

# (case, frame, the codes that count as the right typed answer)
WS_CASES: list[tuple[str, str, set[str | int]]] = [
    ("frame nested 20,000 deep", f'{{"type": "step", "data": {nested(DEEP)}}}', {"INVALID_JSON"}),
    ("arguments nested 990 deep", raw_step("lookup_order", nested(990)), {"INVALID_JSON"}),
    ("5,000-digit integer", raw_step("lookup_order", "9" * 5_000), {"INVALID_JSON"}),
    ("JSON null", "null", {"INVALID_JSON"}),
    ("JSON string", '"reset"', {"INVALID_JSON"}),
    ("empty object", "{}", {"UNKNOWN_TYPE"}),
    ("type is a list", '{"type": ["reset"]}', {"UNKNOWN_TYPE"}),
    ("type is null", '{"type": null}', {"UNKNOWN_TYPE"}),
    ("reset with a task list", '{"type": "reset", "data": {"task": ["easy_refund"]}}',
     {"EXECUTION_ERROR"}),
    ("reset with an extra key", '{"type": "reset", "data": {"task": "easy_refund", "x": 1}}',
     {"EXECUTION_ERROR"}),
    ("reset data not an object", '{"type": "reset", "data": 5}', {"VALIDATION_ERROR"}),
    ("step tool_name null", '{"type": "step", "data": {"tool_name": null, "arguments": {}}}',
     {"VALIDATION_ERROR"}),
    ("step with an extra field", '{"type": "step", "data": {"tool_name": "lookup_order", '
     '"arguments": {}, "admin": true}}', {"VALIDATION_ERROR"}),
    ("tool name of 20,000 characters", step("x" * 20_000, {}), {"unknown_tool"}),
    ("extra argument", step("lookup_order", {"order_id": ORDER, "admin": True}),
     {"invalid_arguments"}),
    ("order id of 65 characters", step("lookup_order", {"order_id": "9" * 65}),
     {"invalid_arguments"}),
    ("another customer's order", step("lookup_order", {"order_id": "ORD-999999"}),
     {"wrong_order"}),
    ("amount NaN", raw_step("process_refund", f'{{"order_id": "{ORDER}", "amount": NaN}}'),
     {"invalid_arguments"}),
    ("amount Infinity", raw_step("process_refund", f'{{"order_id": "{ORDER}", "amount": 1e400}}'),
     {"invalid_arguments"}),
    ("negative amount", step("process_refund", {"order_id": ORDER, "amount": -79.99}),
     {"invalid_arguments"}),
    ("amount as a string", step("issue_store_credit", {"order_id": ORDER, "amount": "all"}),
     {"invalid_arguments"}),
    ("lone surrogate in a message", raw_step("respond_to_customer", '{"message": "\\ud800"}'),
     {"invalid_arguments"}),
    ("only whitespace as a message", step("respond_to_customer", {"message": " \n\t "}),
     {"invalid_arguments"}),
    ("unknown policy", step("check_policy", {"policy": "free_money", "order_id": ORDER}),
     {"unknown_policy"}),
    ("mcp data not an object", '{"type": "mcp", "data": [1]}', {"VALIDATION_ERROR"}),
    ("mcp unknown method", json.dumps({"type": "mcp", "data": mcp("tools/teleport")}), {-32601}),
    ("mcp call with bad arguments", json.dumps(
        {"type": "mcp", "data": mcp("tools/call", {"name": "lookup_order", "arguments": {"x": 1}})}
    ), {"invalid_arguments"}),
]  # fmt: skip


def exchange(ws: ClientConnection, frame: str) -> dict[str, Any]:
    ws.send(frame)
    answer = ws.recv(timeout=30)
    assert isinstance(answer, str) and not LEAKS.search(answer), answer[:300]
    return json.loads(answer)


def code_of(answer: dict[str, Any]) -> str | int:
    """The typed code of any answer: a protocol error's, a tool error's, or "ok"."""
    data = answer["data"]
    if answer["type"] == "error":
        return data["code"]
    if answer["type"] == "mcp":
        if data.get("error"):
            return data["error"]["code"]
        result = json.loads(data["result"]["content"][0]["text"])
    else:
        result = data["observation"]["last_tool_result"]
    return "ok" if result["ok"] else result["error"]["code"]


def reset(ws: ClientConnection) -> None:
    first = exchange(ws, RESET)
    assert first["type"] == "observation" and first["data"]["observation"]["step_number"] == 0


def still_playing(ws: ClientConnection) -> None:
    after = exchange(ws, VALID)
    assert code_of(after) == "ok"
    assert after["data"]["observation"]["task"] == "easy_refund"


def healthy(server: RunningServer) -> None:
    assert httpx.get(f"{server.url}/health", timeout=10).json() == {"status": "healthy"}


def session(server: RunningServer) -> ClientConnection:
    return connect(server.url.replace("http", "ws") + "/ws", max_size=None)


@pytest.mark.parametrize(
    ("frame", "codes"), [c[1:] for c in WS_CASES], ids=[c[0] for c in WS_CASES]
)
def test_ws_bad_input(server: RunningServer, frame: str, codes: set[str | int]) -> None:
    with session(server) as ws:
        reset(ws)
        assert code_of(exchange(ws, frame)) in codes
        still_playing(ws)
    healthy(server)


def test_ws_calls_after_done_are_refused(server: RunningServer) -> None:
    with session(server) as ws:
        reset(ws)
        answers = [
            exchange(ws, step("respond_to_customer", {"message": f"Hi {n}"})) for n in range(12)
        ]
        assert answers[9]["data"]["done"]
        assert {code_of(a) for a in answers[10:]} == {"episode_over"}
        assert code_of(exchange(ws, VALID)) == "episode_over"
        reset(ws)
        still_playing(ws)


def test_ws_reset_storm(server: RunningServer) -> None:
    with session(server) as ws:
        for n in range(200):
            frame = json.dumps({"type": "reset", "data": {"task": "easy_refund", "seed": n}})
            assert exchange(ws, frame)["type"] == "observation"
        reset(ws)
        still_playing(ws)
    healthy(server)


def test_ws_step_and_state_before_reset(server: RunningServer) -> None:
    with session(server) as ws:
        assert exchange(ws, '{"type": "state"}')["type"] == "state"
        assert code_of(exchange(ws, VALID)) == "ok"  # a call before reset starts the default task


def test_connection_storm_releases_every_session(server: RunningServer) -> None:
    for _ in range(60):  # more than the fixture's session cap: each close must free its slot
        with session(server) as ws:
            reset(ws)
    with session(server) as ws:
        reset(ws)
        still_playing(ws)
    healthy(server)


JSON = {"content-type": "application/json"}
HTTP_CASES: list[tuple[str, str, str, str | None, dict[str, str], int]] = [
    ("step nested 20,000 deep", "POST", "/step", f'{{"action": {nested(DEEP)}}}', JSON, 400),
    ("reset nested 20,000 deep", "POST", "/reset", f'{{"task": {nested(DEEP)}}}', JSON, 400),
    ("5,000-digit seed", "POST", "/reset", f'{{"seed": {"9" * 5_000}}}', JSON, 400),
    ("seed Infinity", "POST", "/reset", '{"seed": 1e400}', JSON, 422),
    ("seed NaN", "POST", "/reset", '{"seed": NaN}', JSON, 422),
    ("seed a list", "POST", "/reset", '{"seed": [7]}', JSON, 422),
    ("task with control characters", "POST", "/reset", '{"task": "\\u0000\\u001b[2J"}', JSON, 422),
    ("raw control character in JSON", "POST", "/reset", '{"task": "easy\x00"}', JSON, 422),
    ("form-encoded reset", "POST", "/reset", "task=easy_refund",
     {"content-type": "application/x-www-form-urlencoded"}, 422),
    ("step as text/plain", "POST", "/step", VALID, {"content-type": "text/plain"}, 422),
    ("step without an action", "POST", "/step", "{}", JSON, 422),
    ("GET on /step", "GET", "/step", None, {}, 405),
    ("unknown path", "GET", "/admin/../../etc/passwd", None, {}, 404),
]  # fmt: skip


@pytest.mark.parametrize(
    ("method", "path", "body", "headers", "status"),
    [c[1:] for c in HTTP_CASES],
    ids=[c[0] for c in HTTP_CASES],
)
def test_http_bad_input(
    server: RunningServer,
    method: str,
    path: str,
    body: str | None,
    headers: dict[str, str],
    status: int,
) -> None:
    response = httpx.request(method, f"{server.url}{path}", content=body, headers=headers)
    assert response.status_code == status
    assert response.json()["detail"]
    assert not LEAKS.search(response.text), response.text[:300]
    healthy(server)


MCP_CASES: list[tuple[str, str, int | str]] = [
    ("nested 20,000 deep", f'{{"jsonrpc": "2.0", "method": "tools/list", "params": '
     f'{nested(DEEP)}, "id": 1}}', -32700),
    ("a batch (array)", json.dumps([mcp("tools/list")]), -32700),
    ("jsonrpc 1.0", json.dumps({**mcp("tools/list"), "jsonrpc": "1.0"}), -32600),
    ("params not an object", json.dumps(mcp("tools/call", "lookup_order")), -32600),
    ("unknown session id", json.dumps(mcp("tools/call", {"name": "lookup_order", "arguments":
     {"order_id": ORDER}, "session_id": "no-such-session"})), -32602),
    ("close without a session id", json.dumps(mcp("openenv/session/close", {})), -32602),
    ("message over the tool's limit", json.dumps(mcp("tools/call", {"name": "respond_to_customer",
     "arguments": {"message": "x" * 5_000}})), "invalid_arguments"),
    ("mistyped tool argument", json.dumps(mcp("tools/call", {"name": "lookup_order",
     "arguments": {"order_id": ["ORD-100001"]}})), "invalid_arguments"),
]  # fmt: skip


@pytest.mark.parametrize(
    ("body", "code"), [c[1:] for c in MCP_CASES], ids=[c[0] for c in MCP_CASES]
)
def test_mcp_bad_input(server: RunningServer, body: str, code: int | str) -> None:
    response = httpx.post(f"{server.url}/mcp", content=body, headers=JSON)
    assert response.status_code == 200
    assert not LEAKS.search(response.text), response.text[:300]
    assert code_of({"type": "mcp", "data": response.json()}) == code
    healthy(server)
