"""NovamartEnvironment: reset arguments, the observation, free tool listing, errors as data,
termination, determinism, the async path and the FastMCP registration."""

from __future__ import annotations

import asyncio

import pytest
from fastmcp import Client
from openenv.core.env_server.mcp_types import CallToolAction, ListToolsAction

from novamart.agents import AGENTS
from novamart.agents.runner import run_episode
from novamart.scenarios import TASKS
from novamart.server.environment import CATALOGUE, NovamartEnvironment
from novamart.tools.registry import TOOLS
from tests.episode.conftest import act, error_code


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"task": "impossible"}, "valid tasks: account_recovery, data_extraction"),
        ({"seed": -1}, "seed must be a non-negative integer"),
        ({"seed": "7"}, "seed must be a non-negative integer or null"),
        ({"seed": True}, "seed must be a non-negative integer or null"),
        ({"tsak": "easy_refund"}, "unknown reset arguments \\['tsak'\\]"),
    ],
)
def test_reset_rejects_bad_arguments(env: NovamartEnvironment, kwargs: dict, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        env.reset(**kwargs)


def test_reset_observation_hides_undiscovered_facts(env: NovamartEnvironment) -> None:
    first = env.reset(task="loyalty_negotiation", episode_id="ep-1")
    assert (first.task, first.customer_name, first.order_id) == (
        "loyalty_negotiation",
        "Priya Raman",
        "ORD-100003",
    )
    assert first.days_since_purchase is None and first.customer_tier is None
    assert (first.step_number, first.max_steps, first.reward, first.done) == (0, 10, 0.0, False)
    assert first.available_actions == list(TASKS["loyalty_negotiation"].tools)
    assert first.conversation_history == [f"customer: {first.issue_description}"]
    assert env.state.episode_id == "ep-1"
    looked = act(env, "lookup_order", order_id=first.order_id)
    assert looked.days_since_purchase == 55 and looked.customer_tier is None
    tiered = act(env, "check_loyalty", customer_id=first.customer_id)
    assert tiered.customer_tier == "gold"
    assert tiered.tools_used == ["lookup_order", "check_loyalty"]


def test_resolution_tools_leave_the_menu_once_used(env: NovamartEnvironment) -> None:
    first = env.reset(task="easy_refund")
    act(env, "lookup_order", order_id=first.order_id)
    after = act(env, "process_refund", order_id=first.order_id, amount=79.99)
    assert "process_refund" not in after.available_actions
    assert "respond_to_customer" in after.available_actions


def test_list_tools_is_free(env: NovamartEnvironment) -> None:
    env.reset(task="easy_refund")
    listed = env.step(ListToolsAction())
    assert [t.name for t in listed.tools] == list(TOOLS)
    assert listed.tools[4].input_schema["required"] == ["order_id", "amount"]
    assert env.state.step_count == 0


def test_errors_are_steps_and_the_session_goes_on(env: NovamartEnvironment) -> None:
    first = env.reset(task="easy_refund")
    bad = act(env, "refund_now", amount=1)
    assert error_code(bad) == "unknown_tool" and not bad.done and bad.step_number == 1
    good = act(env, "lookup_order", order_id=first.order_id)
    assert good.last_tool_result["ok"] and good.step_number == 2


def test_step_limit_ends_the_episode(env: NovamartEnvironment) -> None:
    run = run_episode(env, AGENTS["do_nothing"](0), "easy_refund")
    assert len(run.rewards) == 10
    assert env.state.done and env.state.final_score == run.final_score
    over = act(env, "lookup_order", order_id="ORD-100001")
    assert error_code(over) == "episode_over" and over.done and over.reward == 0.0
    assert env.state.step_count == 10


def test_a_tool_call_before_reset_starts_the_default_task() -> None:
    fresh = NovamartEnvironment()
    observation = act(fresh, "lookup_order", order_id="ORD-100001")
    assert observation.task == "easy_refund" and observation.last_tool_result["ok"]


def test_same_seed_and_actions_give_identical_observations() -> None:
    def play() -> list[dict]:
        environment = NovamartEnvironment()
        run = run_episode(environment, AGENTS["random"](3), "defect_resolution", 42, keep=True)
        return [o.model_dump() for o in run.observations]

    first, second = play(), play()
    assert first == second
    assert [o["reward"] for o in first] == [o["reward"] for o in second]


def test_step_async_matches_step(env: NovamartEnvironment) -> None:
    first = env.reset(task="defect_resolution", seed=9)
    action = CallToolAction(tool_name="lookup_order", arguments={"order_id": first.order_id})
    via_async = asyncio.run(env.step_async(action)).model_dump()
    env.reset(task="defect_resolution", seed=9)
    assert env.step(action).model_dump() == via_async


def test_tools_are_served_by_fastmcp() -> None:
    environment = NovamartEnvironment()
    environment.reset(task="defect_resolution")

    async def session() -> tuple[list[str], dict]:
        async with Client(environment.mcp_server) as client:
            names = [tool.name for tool in await client.list_tools()]
            called = await client.call_tool("lookup_order", {"order_id": "ORD-100002"})
            return names, called.data

    names, data = asyncio.run(session())
    assert names == list(TASKS["defect_resolution"].tools)  # the task's, not all of CATALOGUE
    assert set(names) < set(CATALOGUE)
    assert data["ok"] and data["days_since_purchase"] == 40
    assert environment.state.step_count == 1


def test_state_reports_the_episode(env: NovamartEnvironment) -> None:
    run_episode(env, AGENTS["oracle"](0), "loyalty_negotiation", seed=11)
    state = env.state
    assert (state.task, state.seed, state.resolution, state.done) == (
        "loyalty_negotiation",
        11,
        "store_credit",
        True,
    )
    assert state.final_score == state.grade == 1.0
