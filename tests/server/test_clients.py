"""OpenEnv 0.10's own clients play NovaMart: the generic client, the MCP tool client (an HTTP
/mcp session joined by /ws?session_id=), sync and async, and raw /mcp JSON-RPC."""

import asyncio

import httpx
import pytest
from openenv.core.env_server.mcp_types import CallToolAction
from openenv.core.generic_client import GenericEnvClient
from openenv.core.mcp_client import MCPToolClient

from novamart.agents.heuristic import HeuristicAgent
from novamart.agents.runner import run_episode
from novamart.client import NovamartAction, NovamartEnv, NovamartServerError
from novamart.evaluation.sessions import RemoteSession
from novamart.kernel import default_kernel
from novamart.models import NovamartObservation
from novamart.scenarios.tasks import TASKS
from novamart.server.environment import NovamartEnvironment
from novamart.server.launch import RunningServer
from novamart.server.task_api import SPLITS

TASK, SEED = "defect_resolution", 21


def _local_rewards(task: str, seed: int, actions: list[CallToolAction]) -> list[float]:
    """The step rewards of ``actions`` played in-process: what the wire must reproduce."""
    env = NovamartEnvironment()
    env.reset(task=task, seed=seed)
    return [env.step(action).reward for action in actions]


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
        assert plain.observation == parsed.observation.model_dump(exclude={"reward", "done"})
        assert (plain.reward, plain.done) == (parsed.reward, parsed.done)
    assert raw[1].observation["last_tool_result"]["ok"] is True
    assert raw[0].observation["metadata"]["case"]["order_id"] == typed[0].observation.order_id


def test_generic_client_plays_full_episodes_sync_and_async(server: RunningServer) -> None:
    local = run_episode(NovamartEnvironment(), HeuristicAgent(seed=SEED), TASK, SEED, keep=True)
    expected = [o.reward for o in local.observations[1:]]

    def play_sync() -> list[float]:
        with GenericEnvClient(base_url=server.url) as env:
            agent = HeuristicAgent(seed=SEED)
            result = env.reset(task=TASK, seed=SEED)
            agent.start(NovamartObservation.model_validate(result.observation))
            rewards = []
            while not result.done:
                action = agent.act(NovamartObservation.model_validate(result.observation))
                result = env.step({"type": "call_tool", **action.model_dump(exclude={"metadata"})})
                rewards.append(result.reward)
            return rewards

    async def play_async() -> list[float]:
        async with GenericEnvClient(base_url=server.url) as env:
            agent = HeuristicAgent(seed=SEED)
            result = await env.reset(task=TASK, seed=SEED)
            agent.start(NovamartObservation.model_validate(result.observation))
            rewards = []
            while not result.done:
                action = agent.act(NovamartObservation.model_validate(result.observation))
                payload = {"type": "call_tool", **action.model_dump(exclude={"metadata"})}
                result = await env.step(payload)
                rewards.append(result.reward)
            return rewards

    assert play_sync() == expected
    assert asyncio.run(play_async()) == expected
    assert sum(expected) == pytest.approx(local.final_score)


def _refund_actions(order_id: str, price: float) -> list[CallToolAction]:
    """A short easy_refund episode: refund the price, then tell the customer (closes it)."""
    message = f"Thank you for your patience. I have refunded ${price:.2f} in full."
    return [
        CallToolAction(
            tool_name="process_refund", arguments={"order_id": order_id, "amount": price}
        ),
        CallToolAction(tool_name="respond_to_customer", arguments={"message": message}),
    ]


def test_mcp_tool_client_plays_one_episode_over_its_two_halves(server: RunningServer) -> None:
    """reset and step over the joined /ws, list_tools and call_tool over HTTP /mcp: one episode."""
    task, seed = "easy_refund", 5

    async def session() -> tuple[list[str], dict, list[tuple[float, bool]], list[str]]:
        async with MCPToolClient(base_url=server.url) as env:
            first = await env.reset(task=task, seed=seed)
            case = first.metadata["case"]
            names = [tool.name for tool in await env.list_tools()]
            found = await env.call_tool("lookup_order", order_id=case["order_id"])  # HTTP
            steps = []
            for action in _refund_actions(case["order_id"], found["price"]):
                result = await env.step(action)  # WS, same episode: the lookup counts
                steps.append((result.reward, result.done))
            after = [tool.name for tool in await env.list_tools(use_cache=False)]
            return names, found, steps, after

    names, found, steps, after = asyncio.run(session())
    assert names == list(TASKS[task].tools)
    assert found["ok"] is True
    lookup = CallToolAction(tool_name="lookup_order", arguments={"order_id": found["order_id"]})
    local = _local_rewards(
        task, seed, [lookup, *_refund_actions(found["order_id"], found["price"])]
    )
    assert [reward for reward, _ in steps] == local[1:]
    assert steps[-1][1] is True and steps[0][0] > 0.5  # the refund was allowed: one episode
    assert after == list(TASKS[task].tools)


def test_mcp_tool_client_sync_lists_the_task_tools_and_calls_them(server: RunningServer) -> None:
    with MCPToolClient(base_url=server.url).sync() as env:
        first = env.reset(task="ticket_triage", seed=3)
        assert first.metadata["case"]["task"] == "ticket_triage"
        names = [tool.name for tool in env.list_tools()]
        answer = env.call_tool("classify_ticket", category="billing", priority="low")
        closed = env.step(CallToolAction(tool_name="classify_ticket", arguments={}))
    assert names == list(TASKS["ticket_triage"].tools) == ["classify_ticket"]
    assert answer["ok"] is True
    assert closed.done is True  # the classification over HTTP closed the WS episode's ticket


def test_mcp_endpoint_lists_and_calls_tools(server: RunningServer) -> None:
    def rpc(method: str, params: dict, id_: int) -> dict:
        payload = {"jsonrpc": "2.0", "method": method, "params": params, "id": id_}
        response = httpx.post(f"{server.url}/mcp", json=payload)
        assert response.status_code == 200
        return response.json()

    tools = rpc("tools/list", {}, 1)["result"]["tools"]
    # a stateless listing has no task yet: every task's tools, the union of the registry
    assert {tool["name"] for tool in tools} == {t for spec in TASKS.values() for t in spec.tools}
    session = rpc("openenv/session/create", {}, 2)["result"]["session_id"]
    loyalty = {"name": "check_loyalty", "arguments": {"customer_id": "CUST-10001"}}
    called = rpc("tools/call", {**loyalty, "session_id": session}, 3)
    assert called["result"]["structured_content"]["ok"] is True
    # the call started the default task in this session: the listing is now that task's
    listed = rpc("tools/list", {"session_id": session}, 4)["result"]["tools"]
    assert [tool["name"] for tool in listed] == list(TASKS["easy_refund"].tools)
    check = next(tool for tool in listed if tool["name"] == "check_policy")
    policies = list(default_kernel().rulebook.policies)
    assert check["inputSchema"]["properties"]["policy"]["enum"] == policies
    assert rpc("openenv/session/close", {"session_id": session}, 5)["result"]["closed"] is True


def test_the_evaluation_remote_session_offers_the_task_tools(server: RunningServer) -> None:
    """inference.py / novamart eval --env-url list tools over the session's /ws."""
    session = RemoteSession(server.url)
    try:
        for task in ("defect_resolution", "escalation_safety"):
            session.reset(task, 3)
            assert [tool.name for tool in session.tools()] == list(TASKS[task].tools)
    finally:
        session.close()


def test_a_task_api_entry_plays_over_the_wire(server: RunningServer) -> None:
    entry = SPLITS["test"].entry(13)

    async def both() -> tuple[NovamartObservation, int | None, NovamartObservation, str]:
        async with NovamartEnv(base_url=server.url) as env:
            by_index = (await env.reset(split="test", index=13)).observation
            seed = (await env.state()).seed
            by_entry = (await env.reset(**entry)).observation
            try:
                await env.reset(split="test")
            except NovamartServerError as refused:
                return by_index, seed, by_entry, refused.message
            return by_index, seed, by_entry, ""

    by_index, seed, by_entry, refusal = asyncio.run(both())
    assert by_index == by_entry and (by_index.task, seed) == (entry["task"], entry["seed"])
    assert "split and index go together" in refusal
