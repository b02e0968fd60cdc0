"""Bad input gets a clear, typed error; the session goes on and the server stays healthy.

Each case is sent over /ws inside a live episode (then a valid step must still work on the
same connection) and over HTTP (no 500, a JSON error). No answer may carry a traceback.
"""

import json
from typing import Any

import httpx
import pytest
from websockets.sync.client import ClientConnection, connect

from novamart.server.launch import RunningServer

ONE_MB = 1_000_000
ORDER = "ORD-100001"  # the canonical easy_refund order
VALID_STEP = {
    "type": "step",
    "data": {"tool_name": "lookup_order", "arguments": {"order_id": ORDER}},
}


def _step(tool: str, arguments: Any) -> str:
    return json.dumps({"type": "step", "data": {"tool_name": tool, "arguments": arguments}})


# (case, frame sent over /ws, expected code, a word the error message must contain); the code
# is a WS error's code, or the tool error's code inside an observation
WS_CASES: list[tuple[str, str | bytes, str, str]] = [
    ("invalid JSON", '{"type": "step", "data": ', "INVALID_JSON", "JSON"),
    ("JSON but not an object", "[1, 2, 3]", "INVALID_JSON", "JSON object"),
    ("unknown message type", '{"type": "teleport"}', "UNKNOWN_TYPE", "teleport"),
    ("step without data", '{"type": "step"}', "VALIDATION_ERROR", "Invalid message"),
    ("unknown tool", _step("refund_everything", {}), "unknown_tool", "refund_everything"),
    ("missing arguments", _step("lookup_order", {}), "invalid_arguments", "order_id"),
    (
        "mistyped argument",
        _step("process_refund", {"order_id": ORDER, "amount": "lots"}),
        "invalid_arguments",
        "amount",
    ),
    ("arguments not an object", _step("lookup_order", ORDER), "VALIDATION_ERROR", "Invalid"),
    (
        "1 MB message",
        _step("respond_to_customer", {"message": "x" * ONE_MB}),
        "MESSAGE_TOO_LARGE",
        "too large",
    ),
    ("non-UTF-8 bytes", b'{"type": "state"}\xff\xfe', "INVALID_ENCODING", "UTF-8"),
    (
        "unknown task",
        '{"type": "reset", "data": {"task": "free_money"}}',
        "EXECUTION_ERROR",
        "free_money",
    ),
    (
        "negative seed",
        '{"type": "reset", "data": {"task": "easy_refund", "seed": -1}}',
        "EXECUTION_ERROR",
        "seed",
    ),
    ("mistyped seed", '{"type": "reset", "data": {"seed": "seven"}}', "EXECUTION_ERROR", "seed"),
    ("unknown mode", '{"type": "reset", "data": {"mode": "open_book"}}', "EXECUTION_ERROR", "mode"),
    (
        "negative policy variant",
        '{"type": "reset", "data": {"policy_variant": -2}}',
        "EXECUTION_ERROR",
        "policy_variant",
    ),
]


def _exchange(ws: ClientConnection, frame: str | bytes) -> dict[str, Any]:
    ws.send(frame)
    answer = ws.recv(timeout=30)
    assert "Traceback" not in answer
    return json.loads(answer)


def _error(answer: dict[str, Any]) -> tuple[str, str]:
    """Code and message of a protocol error, or of the tool error inside an observation."""
    if answer["type"] == "error":
        return answer["data"]["code"], answer["data"]["message"]
    error = answer["data"]["observation"]["last_tool_result"]["error"]
    return error["code"], error["message"]


@pytest.mark.parametrize(
    ("frame", "code", "word"), [c[1:] for c in WS_CASES], ids=[c[0] for c in WS_CASES]
)
def test_bad_ws_input_gets_a_typed_error_and_the_session_goes_on(
    server: RunningServer, frame: str | bytes, code: str, word: str
) -> None:
    with connect(server.url.replace("http", "ws") + "/ws", max_size=None) as ws:
        first = _exchange(ws, json.dumps({"type": "reset", "data": {"task": "easy_refund"}}))
        assert first["type"] == "observation"

        got_code, message = _error(_exchange(ws, frame))
        assert got_code == code
        assert word in message

        after = _exchange(ws, json.dumps(VALID_STEP))
        assert after["type"] == "observation"
        assert after["data"]["observation"]["last_tool_result"]["ok"] is True
        assert after["data"]["observation"]["task"] == "easy_refund"  # the same episode goes on
    assert httpx.get(f"{server.url}/health").json() == {"status": "healthy"}


JSON = {"content-type": "application/json"}
# (case, path, body bytes, expected HTTP status)
HTTP_CASES: list[tuple[str, str, bytes, int]] = [
    ("invalid JSON", "/step", b'{"action": ', 422),
    ("unknown action type", "/step", b'{"action": {"type": "teleport"}}', 422),
    (
        "arguments not an object",
        "/step",
        b'{"action": {"tool_name": "lookup_order", "arguments": 5}}',
        422,
    ),
    (
        "1 MB body",
        "/step",
        json.dumps({"action": {"tool_name": "x", "arguments": {"m": "x" * ONE_MB}}}).encode(),
        413,
    ),
    ("non-UTF-8 bytes", "/reset", b'{"task": "easy_refund\xff"}', 400),
    ("unknown task", "/reset", b'{"task": "free_money"}', 422),
    ("negative seed", "/reset", b'{"seed": -1}', 422),
    ("mistyped seed", "/reset", b'{"seed": "seven"}', 422),
    ("unknown mode", "/reset", b'{"mode": "open_book"}', 422),
]


@pytest.mark.parametrize(
    ("path", "body", "status"), [c[1:] for c in HTTP_CASES], ids=[c[0] for c in HTTP_CASES]
)
def test_bad_http_input_gets_a_typed_4xx(
    server: RunningServer, path: str, body: bytes, status: int
) -> None:
    response = httpx.post(f"{server.url}{path}", content=body, headers=JSON)
    assert response.status_code == status
    assert "Traceback" not in response.text
    assert response.json()["detail"]
    assert httpx.post(f"{server.url}/reset").status_code == 200


@pytest.mark.parametrize(
    ("tool", "arguments", "error_type", "code"),
    [
        ("refund_everything", {}, "tool_not_found", "unknown_tool"),
        ("lookup_order", {}, "invalid_args", "invalid_arguments"),
        ("lookup_order", {"order_id": 100001}, "invalid_args", "invalid_arguments"),
    ],
    ids=["unknown tool", "missing arguments", "mistyped argument"],
)
def test_a_bad_tool_call_over_http_is_a_typed_error_in_the_observation(
    server: RunningServer, tool: str, arguments: dict, error_type: str, code: str
) -> None:
    action = {"tool_name": tool, "arguments": arguments}
    response = httpx.post(f"{server.url}/step", json={"action": action})
    assert response.status_code == 200  # a scored mistake of the agent, not a protocol error
    observation = response.json()["observation"]
    assert observation["error"]["error_type"] == error_type
    assert observation["last_tool_result"]["error"]["code"] == code


@pytest.mark.parametrize(
    ("case", "body", "code"),
    [
        ("invalid JSON", b'{"jsonrpc": "2.0", ', -32700),
        ("non-UTF-8 bytes", b'{"jsonrpc": "2.0", "method": "tools/list\xff"}', -32700),
        ("unknown method", b'{"jsonrpc": "2.0", "method": "tools/teleport", "id": 1}', -32601),
        ("1 MB message", b'{"jsonrpc": "2.0", "method": "' + b"x" * ONE_MB + b'"}', -32600),
    ],
)
def test_bad_mcp_input_gets_a_json_rpc_error(
    server: RunningServer, case: str, body: bytes, code: int
) -> None:
    response = httpx.post(f"{server.url}/mcp", content=body, headers=JSON)
    assert response.status_code == 200, case
    assert "Traceback" not in response.text
    assert response.json()["error"]["code"] == code


def test_unknown_tool_over_mcp_is_an_error_not_a_crash(server: RunningServer) -> None:
    payload = {
        "jsonrpc": "2.0",
        "method": "tools/call",
        "params": {"name": "teleport", "arguments": {}},
        "id": 7,
    }
    response = httpx.post(f"{server.url}/mcp", json=payload)
    assert response.status_code == 200
    assert "teleport" in response.json()["error"]["message"]
