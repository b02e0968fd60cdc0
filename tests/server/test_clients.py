"""OpenEnv's own clients work against NovaMart: the generic client, the MCP tool client, /mcp."""

import asyncio

import httpx
from openenv.core.generic_client import GenericEnvClient
from openenv.core.mcp_client import MCPToolClient

from novamart.client import NovamartAction, NovamartEnv
from novamart.scenarios.tasks import TASKS
from novamart.server.launch import RunningServer

TASK, SEED = "defect_resolution", 21


def test_generic_client_sees_what_the_typed_client_sees(server: RunningServer) -> None:
    async def both() -> tuple[list, list]:
        async with GenericEnvClient(base_url=server.url) as generic:
            first = await generic.reset(task=TASK, seed=SEED)
            order = {"order_id": first.observation["order_id"]}
            action = {"type": "call_tool", "tool_name": "verify_defect", "arguments": order}
            raw = [first, await generic.step(action)]
        async with NovamartEnv(base_url=server.url) as typed:
            first = await typed.reset(task=TASK, seed=SEED)
            order = {"order_id": first.observation.order_id}
            action = NovamartAction(tool_name="verify_defect", arguments=order)
            parsed = [first, await typed.step(action)]
        return raw, parsed

    raw, typed = asyncio.run(both())
    for plain, parsed in zip(raw, typed, strict=True):
        fields = parsed.observation.model_dump(exclude={"reward", "done", "metadata"})
        assert plain.observation == fields
        assert (plain.reward, plain.done) == (parsed.reward, parsed.done)
    assert raw[1].observation["last_tool_result"]["ok"] is True


def test_mcp_tool_client_lists_and_calls_tools(server: RunningServer) -> None:
    async def session() -> tuple[list[str], dict]:
        async with MCPToolClient(base_url=server.url) as env:
            first = await env.reset(task=TASK, seed=SEED)
            assert first.done is False
            names = [tool.name for tool in await env.list_tools()]
            order = await env.call_tool("lookup_order", order_id="ORD-000000")
            return names, order

    names, refused = asyncio.run(session())
    assert names == list(TASKS[TASK].tools)
    assert refused["ok"] is False and refused["error"]["code"] == "wrong_order"


def test_mcp_endpoint_lists_and_calls_tools(server: RunningServer) -> None:
    def rpc(method: str, params: dict, id_: int) -> dict:
        payload = {"jsonrpc": "2.0", "method": method, "params": params, "id": id_}
        response = httpx.post(f"{server.url}/mcp", json=payload)
        assert response.status_code == 200
        return response.json()

    tools = rpc("tools/list", {}, 1)["result"]["tools"]
    # /mcp serves every task's tools: the union of the registry
    assert {tool["name"] for tool in tools} == {t for spec in TASKS.values() for t in spec.tools}
    session = rpc("openenv/session/create", {}, 2)["result"]["session_id"]
    loyalty = {"name": "check_loyalty", "arguments": {"customer_id": "CUST-10001"}}
    called = rpc("tools/call", {**loyalty, "session_id": session}, 3)
    assert called["result"]["structured_content"]["ok"] is True
    assert rpc("openenv/session/close", {"session_id": session}, 4)["result"]["closed"] is True
