"""Fixtures for the episode tests: one real environment (real rules, real rule engine)."""

from __future__ import annotations

from typing import Any

import pytest
from openenv.core.env_server.mcp_types import CallToolAction

from novamart.models import NovamartObservation
from novamart.scenarios import Scenario, build_scenario
from novamart.scenarios.tasks import ORDER_TASKS
from novamart.server.environment import NovamartEnvironment

DRAWN = 2_000
"""Seeded cases per order task that the scenario and wording tests share."""


@pytest.fixture(scope="module")
def env() -> NovamartEnvironment:
    return NovamartEnvironment()


@pytest.fixture(scope="session")
def drawn() -> dict[str, list[Scenario]]:
    """Seeds 0..DRAWN-1 of every order task, drawn once."""
    return {task: [build_scenario(task, s) for s in range(DRAWN)] for task in ORDER_TASKS}


def act(env: NovamartEnvironment, tool: str, **arguments: Any) -> NovamartObservation:
    observation = env.step(CallToolAction(tool_name=tool, arguments=arguments))
    assert isinstance(observation, NovamartObservation)
    return observation


def error_code(observation: NovamartObservation) -> str | None:
    result = observation.last_tool_result or {}
    return None if result.get("ok") else result["error"]["code"]
