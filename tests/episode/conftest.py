"""Fixtures for the episode tests: one real environment (real rules, real rule engine)."""

from __future__ import annotations

from typing import Any

import pytest
from openenv.core.env_server.mcp_types import CallToolAction

from novamart.models import NovamartObservation
from novamart.server.environment import NovamartEnvironment


@pytest.fixture(scope="module")
def env() -> NovamartEnvironment:
    return NovamartEnvironment()


def act(env: NovamartEnvironment, tool: str, **arguments: Any) -> NovamartObservation:
    observation = env.step(CallToolAction(tool_name=tool, arguments=arguments))
    assert isinstance(observation, NovamartObservation)
    return observation


def error_code(observation: NovamartObservation) -> str | None:
    result = observation.last_tool_result or {}
    return None if result.get("ok") else result["error"]["code"]
