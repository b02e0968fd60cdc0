"""The SkyRL-gym and verl adapters, in the shapes those trainers call them (BaseTextEnv's
init/step/close; BaseTool's create/execute/release per call, keyed by the trajectory), in
process and on the Ray pool: oracle trajectories earn what they earn in process."""

from __future__ import annotations

import asyncio
import json
import uuid
from types import SimpleNamespace
from typing import Any

import pytest

from novamart.agents.runner import EpisodeRun
from novamart.scale.skyrl import NovamartTextEnv, parse_tool_call
from novamart.scale.verl import NovamartTool, tool_config, verl_row
from novamart.training.episode import ToolEpisode
from tests.scale.conftest import CPUS_PER_ACTOR, oracle_runs

RUNS = oracle_runs(9, start=75_000)  # each task once
PROMPT = [
    {"role": "system", "content": "You are NovaMart's agent."},
    {"role": "user", "content": ""},
]


@pytest.fixture(params=["in process", "ray pool"])
def config(request: pytest.FixtureRequest) -> dict[str, Any]:
    if request.param == "in process":
        return {}
    request.getfixturevalue("ray_cluster")
    return {"ray_actors": 2, "cpus_per_actor": CPUS_PER_ACTOR}


def brief_of(run: EpisodeRun) -> str:
    return ToolEpisode().reset(task=run.task, seed=run.seed)


def as_text(name: str, arguments: dict[str, Any]) -> str:
    call = json.dumps({"name": name, "arguments": arguments})
    return f"Let me do that.\n<tool_call>\n{call}\n</tool_call>"


# ---- SkyRL-gym: BaseTextEnv ---------------------------------------------------------------


def test_skyrl_trajectories_earn_the_in_process_grade(config: dict[str, Any]) -> None:
    for run in RUNS:
        env = NovamartTextEnv(
            {"max_turns": 30, **config}, {"extra_info": {"task": run.task, "seed": run.seed}}
        )
        prompt, _ = env.init(PROMPT)
        assert prompt[:1] == PROMPT[:1] and prompt[1]["content"] == brief_of(run)
        outputs = [env.step(as_text(a.tool_name, a.arguments)) for a in run.actions]
        assert [o["done"] for o in outputs] == [False] * (len(outputs) - 1) + [True]
        assert sum(o["reward"] for o in outputs) == pytest.approx(run.final_score)
        assert outputs[-1]["metadata"]["grade"] == run.final_score
        assert all(
            o["observations"][0]["content"].startswith("<tool_response>") for o in outputs[:-1]
        )
        env.close()


def test_skyrl_a_reply_without_a_tool_call_ends_and_a_bad_call_costs_a_turn() -> None:
    run = RUNS[0]
    env = NovamartTextEnv({"max_turns": 2}, {"task": run.task, "seed": run.seed})
    env.init(PROMPT)
    bad = env.step("<tool_call>{not json}</tool_call>")
    assert not bad["done"] and bad["reward"] == 0.0
    assert '"ok": false' in bad["observations"][0]["content"]
    last = env.step("Thanks, all done!")
    assert (
        last["done"] and last["observations"] == [] and last["metadata"]["ended"] == "no tool call"
    )
    assert parse_tool_call("no call here") is None
    with pytest.raises(ValueError, match="arguments"):
        parse_tool_call('<tool_call>{"name": "x", "arguments": [1]}</tool_call>')


def test_skyrl_max_turns_cuts_the_trajectory_at_its_running_grade() -> None:
    run = next(r for r in RUNS if len(r.actions) >= 3)
    env = NovamartTextEnv({"max_turns": 2}, {"task": run.task, "seed": run.seed})
    env.init(PROMPT)
    outputs = [env.step(as_text(a.tool_name, a.arguments)) for a in run.actions[:2]]
    assert outputs[-1]["done"] and not outputs[-1]["metadata"]["episode_done"]
    assert sum(o["reward"] for o in outputs) == pytest.approx(sum(run.rewards[:2]))


# ---- verl: BaseTool in the agent loop ------------------------------------------------------


async def play_verl(
    run: EpisodeRun, tools: dict[str, NovamartTool], request_id: str
) -> list[float]:
    """One trajectory as ToolAgentLoop makes its calls: create, execute, release, per call."""
    row = verl_row({"task": run.task, "seed": run.seed})
    assert row["prompt"][1]["content"] == brief_of(run)
    kwargs = row["extra_info"]["tools_kwargs"]
    agent_data = SimpleNamespace(request_id=request_id, tools_kwargs=kwargs)
    rewards = []
    for action in run.actions:
        tool = tools[action.tool_name]
        instance_id, _ = await tool.create(create_kwargs=kwargs[tool.name]["create_kwargs"])
        response, reward, metrics = await tool.execute(
            instance_id, action.arguments, agent_data=agent_data
        )
        assert json.loads(response.text)  # the report the model reads
        rewards.append(reward)
        await tool.release(instance_id)
    assert metrics["done"]
    assert await tool.calc_reward(instance_id, agent_data=agent_data) == run.final_score
    return rewards


def verl_tools(task: str, config: dict[str, Any]) -> dict[str, NovamartTool]:
    entries = tool_config(task, **config)["tools"]
    assert {e["class_name"] for e in entries} == {"novamart.scale.verl.NovamartTool"}
    return {
        e["tool_schema"]["function"]["name"]: NovamartTool(e["config"], e["tool_schema"])
        for e in entries
    }


def test_verl_trajectories_interleaved_earn_the_in_process_grade(config: dict[str, Any]) -> None:
    async def everyone() -> list[list[float]]:
        plays = [play_verl(run, verl_tools(run.task, config), uuid.uuid4().hex) for run in RUNS]
        return await asyncio.gather(*plays)

    for run, rewards in zip(RUNS, asyncio.run(everyone()), strict=True):
        assert sum(rewards) == pytest.approx(run.final_score)


def test_verl_a_tool_without_a_case_says_what_is_missing() -> None:
    tool = verl_tools("easy_refund", {})["lookup_order"]

    async def call() -> None:
        instance_id, _ = await tool.create()
        await tool.execute(instance_id, {})

    with pytest.raises(ValueError, match="create_kwargs"):
        asyncio.run(call())
