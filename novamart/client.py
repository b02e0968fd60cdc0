"""The typed NovaMart client: one episode per session, async or `.sync()`.

    from novamart.client import NovamartAction, NovamartEnv

    with NovamartEnv(base_url="http://127.0.0.1:8000").sync() as env:
        order_id = env.reset(task="easy_refund", seed=7).observation.order_id
        action = NovamartAction(tool_name="lookup_order", arguments={"order_id": order_id})
        result = env.step(action)
        print(result.reward, result.observation.last_tool_result)

It is OpenEnv 0.10's MCPToolClient with NovaMart's typed observation and state: it opens an
HTTP ``/mcp`` session and joins its WebSocket to it (``/ws?session_id=``), so ``reset``,
``step`` and ``state`` (over the socket) and ``list_tools`` and ``call_tool`` (over HTTP) act
on one episode; ``list_tools`` lists the current task's tools. When the server refuses, the
error is typed (``NovamartServerError`` with OpenEnv's code, e.g. ``CAPACITY_REACHED``), the
session cap refusing the HTTP session included.
"""

from __future__ import annotations

from contextlib import suppress
from typing import Any

from openenv.core.client_types import StepResult
from openenv.core.mcp_client import MCPToolClient
from websockets.exceptions import ConnectionClosed

from novamart.models import NovamartAction, NovamartObservation, NovamartState

__all__ = ["NovamartAction", "NovamartEnv", "NovamartObservation", "NovamartServerError"]

CAPACITY_REACHED = "CAPACITY_REACHED"
SESSION_ERROR = "SESSION_ERROR"


class NovamartServerError(RuntimeError):
    """The server answered with an error message instead of an observation."""

    def __init__(self, code: str, message: str, details: dict[str, Any]) -> None:
        super().__init__(f"{message} (code: {code})")
        self.code = code
        self.message = message
        self.details = details


def session_refusal(error: dict[str, Any]) -> NovamartServerError:
    """The JSON-RPC error of a refused ``openenv/session/create``, typed as the WS one is."""
    data = error.get("data") or {}
    code = CAPACITY_REACHED if "max_sessions" in data else SESSION_ERROR
    return NovamartServerError(code=code, message=str(error.get("message", "")), details=data)


class NovamartEnv(MCPToolClient):
    """Async client for NovaMart; `.sync()` (or a plain `with`) gives the blocking version."""

    def _parse_result(self, payload: dict[str, Any]) -> StepResult[Any]:
        fields = payload.get("observation", {})
        if "tools" in fields:  # the answer to ListToolsAction
            return super()._parse_result(payload)
        reward, done = payload.get("reward"), payload.get("done", False)
        observation = NovamartObservation.model_validate({**fields, "reward": reward, "done": done})
        return StepResult(observation=observation, reward=reward, done=done)

    def _parse_state(self, payload: dict[str, Any]) -> NovamartState:
        return NovamartState.model_validate(payload)

    async def _production_mcp_request(
        self, method: str, params: dict[str, Any] | None = None
    ) -> dict[str, Any]:
        answer = await super()._production_mcp_request(method, params)
        if method == "openenv/session/create" and "error" in answer:
            raise session_refusal(answer["error"])
        return answer

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
