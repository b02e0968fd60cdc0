"""The typed NovaMart client: one episode per WebSocket session (/ws), async or `.sync()`.

    from novamart.client import NovamartAction, NovamartEnv

    with NovamartEnv(base_url="http://127.0.0.1:8000").sync() as env:
        order_id = env.reset(task="easy_refund", seed=7).observation.order_id
        action = NovamartAction(tool_name="lookup_order", arguments={"order_id": order_id})
        result = env.step(action)
        print(result.reward, result.observation.last_tool_result)

It is OpenEnv's MCPToolClient (so `list_tools()` and `call_tool()` work too) with NovaMart's
typed observation and state, and a typed error when the server refuses a message.
"""

from __future__ import annotations

from contextlib import suppress
from typing import Any

from openenv.core.client_types import StepResult
from openenv.core.mcp_client import MCPToolClient
from websockets.exceptions import ConnectionClosed

from novamart.models import NovamartAction, NovamartObservation, NovamartState

__all__ = ["NovamartAction", "NovamartEnv", "NovamartObservation", "NovamartServerError"]


class NovamartServerError(RuntimeError):
    """The server answered with an error message instead of an observation."""

    def __init__(self, code: str, message: str, details: dict[str, Any]) -> None:
        super().__init__(f"{message} (code: {code})")
        self.code = code
        self.message = message
        self.details = details


class NovamartEnv(MCPToolClient):
    """Async client for NovaMart; `.sync()` gives the blocking version."""

    def _parse_result(self, payload: dict[str, Any]) -> StepResult[Any]:
        fields = payload.get("observation", {})
        if "tools" in fields:  # the answer to ListToolsAction
            return super()._parse_result(payload)
        reward, done = payload.get("reward"), payload.get("done", False)
        observation = NovamartObservation.model_validate({**fields, "reward": reward, "done": done})
        return StepResult(observation=observation, reward=reward, done=done)

    def _parse_state(self, payload: dict[str, Any]) -> NovamartState:
        return NovamartState.model_validate(payload)

    async def _send_and_receive(self, message: dict[str, Any]) -> dict[str, Any]:
        with suppress(ConnectionClosed):  # a server refusing a session says why, then closes
            await self._send(message)
        try:
            response = await self._receive()
        except ConnectionClosed as closed:
            raise ConnectionError(f"the server closed the session: {closed}") from closed
        if response.get("type") == "error":
            data = response.get("data") or {}
            code, text = str(data.get("code", "UNKNOWN")), str(data.get("message", ""))
            raise NovamartServerError(code=code, message=text, details=data)
        return response
