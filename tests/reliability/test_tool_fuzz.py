"""Every tool of every task, random arguments, in process (issue 7, item 2): wrong types,
missing and extra keys, huge strings, control characters, nesting. A call never raises; it
gets a valid result or an error with a typed code; the observation serialises and stays
small; and the episode goes on: after an error it is not over, its tools are still listed,
and in an order case the right call still works."""

from __future__ import annotations

import json
import typing
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from openenv.core.env_server.mcp_types import CallToolAction, ListToolsAction

from novamart.episode import TRANSIENT
from novamart.models import NovamartObservation, ToolErrorCode
from novamart.scenarios import TASKS
from novamart.server.environment import NovamartEnvironment
from tests.reliability.scenarios import POLICY_TASKS

CODES = set(typing.get_args(ToolErrorCode))
MAX_OBSERVATION_CHARS = 30_000  # a bad argument is never echoed back at length
HUGE = ("A" * 100_000, "\x00" * 5_000, "ORD-" + "\n\r\t\x1b" * 2_000, "é" * 50_000, "\ud800x")

scalars = (
    st.none()
    | st.booleans()
    | st.integers(min_value=-(10**30), max_value=10**30)
    | st.floats(allow_nan=True, allow_infinity=True)
    | st.text(max_size=80)
    | st.sampled_from(HUGE)
)
values = st.recursive(
    scalars,
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner),
    max_leaves=16,
)


def offered() -> dict[str, str]:
    """Every tool of every task, each with one task that offers it (policy tasks first)."""
    tools: dict[str, str] = {}
    for task in (*POLICY_TASKS, *sorted(TASKS)):
        for tool in TASKS[task].tools:
            tools.setdefault(tool, task)
    return dict(sorted(tools.items()))


def schemas(env: NovamartEnvironment, task: str) -> dict[str, dict[str, Any]]:
    """The input schema of each tool of ``task``, as a client lists them."""
    env.reset(task=task, seed=7)
    return {tool.name: tool.input_schema for tool in env.step(ListToolsAction()).tools}


def argument_dicts(schema: dict[str, Any]) -> st.SearchStrategy[dict[str, Any]]:
    """Dicts over the tool's own field names (so types, not just names, get tested), plus
    stray keys."""
    names = list(schema.get("properties", {}))
    keys = st.sampled_from([*names, "extra", "", "__proto__"]) | st.text(max_size=12)
    return st.dictionaries(keys, values, max_size=5)


def usable_call(env: NovamartEnvironment) -> CallToolAction:
    episode = env.episode
    assert episode is not None
    return CallToolAction(
        tool_name="lookup_order", arguments={"order_id": episode.scenario.order.order_id}
    )


def check_answer(observation: Any) -> None:
    assert isinstance(observation, NovamartObservation)
    result = observation.last_tool_result
    assert isinstance(result, dict) and isinstance(result["ok"], bool)
    if not result["ok"]:
        assert result["error"]["code"] in CODES
        assert isinstance(result["error"]["message"], str) and result["error"]["message"]
    text = observation.model_dump_json()
    assert len(text) < MAX_OBSERVATION_CHARS
    json.loads(text)


def test_every_tool_of_every_task_is_fuzzed() -> None:
    assert set(offered()) == {tool for spec in TASKS.values() for tool in spec.tools}


@pytest.mark.parametrize(("tool", "task"), offered().items())
def test_random_arguments_get_a_typed_answer_and_the_episode_goes_on(
    env: NovamartEnvironment, tool: str, task: str
) -> None:
    listed = schemas(env, task)

    @settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow])
    @given(arguments=argument_dicts(listed[tool]), seed=st.integers(0, 50))
    def check(arguments: dict[str, Any], seed: int) -> None:
        env.reset(task=task, seed=seed)
        answer = env.step(CallToolAction(tool_name=tool, arguments=arguments))
        check_answer(answer)
        assert isinstance(answer, NovamartObservation)
        if answer.done:  # a closing tool that went through (a ticket's classification, ...)
            assert answer.last_tool_result is not None and answer.last_tool_result["ok"]
            return
        assert [t.name for t in env.step(ListToolsAction()).tools] == list(listed)
        if task in POLICY_TASKS:
            after = env.step(usable_call(env))
            if (after.last_tool_result or {}).get("error", {}).get("code") == TRANSIENT:
                after = env.step(usable_call(env))  # the same call works when retried
            check_answer(after)
            assert after.last_tool_result is not None and after.last_tool_result["ok"]

    check()


@pytest.mark.parametrize(
    "name", ["", "LOOKUP_ORDER", "lookup_order ", "reset", "\x00", "x" * 10_000]
)
def test_unknown_tool_names_get_a_typed_error(env: NovamartEnvironment, name: str) -> None:
    env.reset(task="easy_refund")
    observation = env.step(CallToolAction(tool_name=name, arguments={}))
    check_answer(observation)
    assert (observation.last_tool_result or {})["error"]["code"] == "unknown_tool"
    check_answer(env.step(usable_call(env)))


def nested(depth: int) -> dict[str, Any]:
    value: dict[str, Any] = {}
    for _ in range(depth):
        value = {"a": value}
    return value


PYTHON_ONLY = {  # arguments no JSON client can send, but an in-process trainer can
    "nesting 5,000 deep": {"order_id": nested(5_000)},
    "keys of mixed types": {"order_id": {1: "x", "b": 2}},
    "a 5,000-digit integer": {"order_id": 10**5_000},
}


@pytest.mark.parametrize("case", PYTHON_ONLY)
def test_arguments_only_python_can_build_get_a_typed_error(
    env: NovamartEnvironment, case: str
) -> None:
    env.reset(task="easy_refund")
    observation = env.step(CallToolAction(tool_name="lookup_order", arguments=PYTHON_ONLY[case]))
    check_answer(observation)
    assert (observation.last_tool_result or {})["error"]["code"] == "invalid_arguments"
    check_answer(env.step(usable_call(env)))
