"""Full episodes over /ws with the typed client serve exactly what the environment computes."""

import asyncio

import pytest

from novamart.agents.heuristic import HeuristicAgent
from novamart.agents.runner import run_episode
from novamart.client import NovamartEnv
from novamart.models import NovamartObservation, NovamartState
from novamart.scenarios.retail_world import RetailRules, retail_kernel
from novamart.scenarios.tasks import TASKS
from novamart.server.environment import NovamartEnvironment
from novamart.server.launch import RunningServer
from tests.server.remote import observations, play_session

SEED = 11


@pytest.mark.parametrize("task", sorted(TASKS))
def test_a_full_episode_of_each_task_over_ws(server: RunningServer, task: str) -> None:
    results, state = asyncio.run(play_session(server.url, task, SEED))
    local = run_episode(NovamartEnvironment(), HeuristicAgent(seed=SEED), task, SEED, keep=True)

    assert all(isinstance(o, NovamartObservation) for o in observations(results))
    assert observations(results) == local.observations
    first, last = results[0].observation, results[-1].observation
    assert first.task == task and first.step_number == 0 and not results[0].done
    assert results[-1].done and last.final_score == local.final_score
    assert sum(r.reward for r in results[1:]) == pytest.approx(last.final_score)
    assert isinstance(state, NovamartState)
    assert (state.task, state.seed, state.episode_id) == (task, SEED, f"{task}-{SEED}")
    assert state.done and state.final_score == last.final_score
    assert state.step_count == len(results) - 1


@pytest.mark.parametrize("production_mode", [False, True])
def test_the_sync_client_lists_and_calls_tools(
    server: RunningServer, production_mode: bool
) -> None:
    """Over one /ws (any worker count), or in production mode (HTTP /mcp tools; one process)."""
    with NovamartEnv(base_url=server.url, production_mode=production_mode).sync() as env:
        first = env.reset(task="defect_resolution", seed=SEED).observation
        tools = [tool.name for tool in env.list_tools()]
        found = env.call_tool("lookup_order", order_id=first.order_id)
        state = env.state()

    assert tools == list(TASKS["defect_resolution"].tools)
    assert found["ok"] and found["order_id"] == first.order_id
    assert found["days_since_purchase"] > 30
    assert state.task == "defect_resolution" and state.step_count == 1


def test_a_retail_policy_variant_over_ws(server: RunningServer) -> None:
    case = {"mode": "closed_book", "policy_variant": 3}
    results, state = asyncio.run(play_session(server.url, "retail_late_return", SEED, **case))
    local_env = NovamartEnvironment()
    local = run_episode(
        local_env, HeuristicAgent(seed=SEED), "retail_late_return", SEED, keep=True, **case
    )
    written = NovamartEnvironment().reset(task="retail_late_return", seed=SEED, mode="closed_book")

    assert observations(results) == local.observations
    first, last = results[0].observation, results[-1].observation
    moved = retail_kernel(RetailRules(variant=3))
    assert moved.version in first.instructions and moved.version not in written.instructions
    assert first.instructions != written.instructions
    assert results[-1].done and last.final_score == local.final_score
    assert last.ground_truth is not None and last.ground_truth.expected["requests"]
    assert (state.task, state.mode, state.policy_variant) == ("retail_late_return", *case.values())
    assert state.done and state.final_score == last.final_score


def test_modes_and_policy_variants_over_ws(server: RunningServer) -> None:
    async def play() -> tuple[NovamartObservation, NovamartObservation, NovamartState]:
        async with NovamartEnv(base_url=server.url) as env:
            closed = await env.reset(task="open_case", seed=4, mode="closed_book", policy_variant=2)
            await env.reset(task="ticket_triage", seed=1)
            bad = await env.reset(task="easy_refund", seed=1)
            state = await env.state()
            return closed.observation, bad.observation, state

    closed, _, state = asyncio.run(play())
    local = NovamartEnvironment().reset(
        task="open_case", seed=4, mode="closed_book", policy_variant=2
    )
    assert closed == local
    assert "check_policy" not in closed.available_actions and "handbook" in closed.instructions
    assert (state.mode, state.policy_variant) == ("guided", None)
