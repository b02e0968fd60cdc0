"""The typed NovaMart client: one episode per session, async or `.sync()`.

    from novamart.client import NovamartAction, NovamartEnv

    with NovamartEnv(base_url="http://127.0.0.1:8000").sync() as env:
        order_id = env.reset(task="easy_refund", seed=7).observation.order_id
        action = NovamartAction(tool_name="lookup_order", arguments={"order_id": order_id})
        result = env.step(action)
        print(result.reward, result.observation.last_tool_result)

By default a session is one plain WebSocket ``/ws``: ``reset``, ``step``, ``state``,
``list_tools`` (``ListToolsAction``) and ``call_tool`` (a step) all travel over it, so whichever
server process took the connection serves the whole session: any number of uvicorn workers,
replicas behind any balancer. ``production_mode=True`` is OpenEnv 0.10's MCPToolClient way
instead (an HTTP ``/mcp`` session that ``/ws?session_id=`` joins, tools over HTTP); the two
halves must reach the same process, so it works on a single-process server (or behind a
balancer that keeps both on one process) only.

``base_url`` may name several servers (a list, or one string of comma-separated URLs): each
client pins to one of them, spreading the clients of a process evenly (``pin_url``).

When the server refuses, the error is typed (``NovamartServerError`` with the server's code,
e.g. ``CAPACITY_REACHED``); ``retryable`` says whether the same call may succeed on another
server (full, draining for a shutdown, or this session closed by the drain).
"""

from __future__ import annotations

import itertools
import threading
from collections.abc import Sequence
from contextlib import suppress
from typing import Any

from openenv.core.client_types import StepResult
from openenv.core.env_server.mcp_types import CallToolAction
from openenv.core.mcp_client import MCPToolClient
from websockets.exceptions import ConnectionClosed
from websockets.protocol import State

from novamart.models import NovamartAction, NovamartObservation, NovamartState

__all__ = [
    "NovamartAction",
    "NovamartEnv",
    "NovamartObservation",
    "NovamartServerError",
    "pin_url",
    "pod_urls",
    "server_urls",
]

CAPACITY_REACHED = "CAPACITY_REACHED"
SESSION_ERROR = "SESSION_ERROR"
SERVER_DRAINING = "SERVER_DRAINING"
"""A draining server (shutting down) takes no new session or episode."""
SESSION_DRAINED = "SESSION_DRAINED"
"""The drain's grace period ended with this session still open: the server closed it."""
RETRYABLE = frozenset({CAPACITY_REACHED, SERVER_DRAINING, SESSION_DRAINED})

ServerUrls = str | Sequence[str]
"""One server URL, several as a list, or several in one comma-separated string."""


class NovamartServerError(RuntimeError):
    """The server answered with an error message instead of an observation."""

    def __init__(self, code: str, message: str, details: dict[str, Any]) -> None:
        super().__init__(f"{message} (code: {code})")
        self.code = code
        self.message = message
        self.details = details

    @property
    def retryable(self) -> bool:
        """Whether another server (or this one later) may take the same call."""
        return self.code in RETRYABLE


def server_urls(base_url: ServerUrls) -> tuple[str, ...]:
    """The server URLs ``base_url`` names, in order (a URL holds no comma)."""
    given = base_url.split(",") if isinstance(base_url, str) else list(base_url)
    urls = tuple(url.strip().rstrip("/") for url in given if url.strip())
    if not urls:
        raise ValueError(f"base_url names no server: {base_url!r}")
    return urls


_turns: dict[tuple[str, ...], itertools.count[int]] = {}
_turns_lock = threading.Lock()


def pin_url(base_url: ServerUrls) -> str:
    """One of the servers ``base_url`` names: each call of a process takes the next in turn,
    so the clients of a process spread evenly over the servers."""
    urls = server_urls(base_url)
    if len(urls) == 1:
        return urls[0]
    with _turns_lock:
        turn = next(_turns.setdefault(urls, itertools.count()))
    return urls[turn % len(urls)]


def pod_urls(
    replicas: int,
    statefulset: str = "novamart",
    service: str = "novamart-pods",
    namespace: str = "default",
    port: int = 8000,
) -> list[str]:
    """The URLs of a StatefulSet's pods behind its headless Service (deploy/k8s/): pass them as
    ``base_url`` to shard the clients of a trainer over the pods, each pinned to one."""
    host = f"{service}.{namespace}.svc"
    return [f"http://{statefulset}-{index}.{host}:{port}" for index in range(replicas)]


def session_refusal(error: dict[str, Any]) -> NovamartServerError:
    """The JSON-RPC error of a refused ``openenv/session/create``, typed as the WS one is."""
    data = error.get("data") or {}
    code = CAPACITY_REACHED if "max_sessions" in data else SESSION_ERROR
    return NovamartServerError(code=code, message=str(error.get("message", "")), details=data)


def closed_error(reason: str, detail: object) -> Exception:
    """A socket the server closed: typed when its close reason is one of the server's codes
    (the drain's), else a ConnectionError."""
    if reason in RETRYABLE:
        message = f"the server closed the session ({reason}); open a session elsewhere"
        return NovamartServerError(code=reason, message=message, details={})
    return ConnectionError(f"the server closed the session: {detail}")


class NovamartEnv(MCPToolClient):
    """Async client for NovaMart; `.sync()` (or a plain `with`) gives the blocking version.

    ``base_url``: one server or several (see ``pin_url``). ``production_mode``: OpenEnv's
    HTTP-session-plus-socket way (single-process or sticky servers only; see the module)."""

    def __init__(
        self, base_url: ServerUrls, *, production_mode: bool = False, **options: Any
    ) -> None:
        super().__init__(base_url=pin_url(base_url), **options)
        self.use_production_mode = production_mode

    def _parse_result(self, payload: dict[str, Any]) -> StepResult[Any]:
        fields = payload.get("observation", {})
        if "tools" in fields:  # the answer to ListToolsAction
            return super()._parse_result(payload)
        reward, done = payload.get("reward"), payload.get("done", False)
        observation = NovamartObservation.model_validate({**fields, "reward": reward, "done": done})
        return StepResult(observation=observation, reward=reward, done=done)

    def _parse_state(self, payload: dict[str, Any]) -> NovamartState:
        return NovamartState.model_validate(payload)

    async def call_tool(self, name: str, **arguments: Any) -> Any:
        """Call a tool as one step of the episode; the tool's result (a dict). In production
        mode, over HTTP ``/mcp`` as OpenEnv's client does."""
        if self.use_production_mode:
            return await super().call_tool(name, **arguments)
        result = await self.step(CallToolAction(tool_name=name, arguments=arguments))
        return result.observation.last_tool_result

    async def _production_mcp_request(
        self, method: str, params: dict[str, Any] | None = None
    ) -> dict[str, Any]:
        answer = await super()._production_mcp_request(method, params)
        if method == "openenv/session/create" and "error" in answer:
            raise session_refusal(answer["error"])
        return answer

    async def _send(self, message: dict[str, Any]) -> None:
        """OpenEnv's client reconnects a socket the server closed; mid-episode that would send
        the step to a fresh session (a new episode), so only a reset may reconnect."""
        socket = self._ws
        if socket is not None and socket.state is State.CLOSED and message.get("type") != "reset":
            self._ws = None
            raise closed_error(socket.close_reason or "", f"code {socket.close_code}")
        await super()._send(message)

    async def _send_and_receive(self, message: dict[str, Any]) -> dict[str, Any]:
        with suppress(ConnectionClosed):  # a server refusing a session says why, then closes
            await self._send(message)
        try:
            response = await self._receive()
        except ConnectionClosed as closed:
            reason = closed.rcvd.reason if closed.rcvd is not None else ""
            raise closed_error(reason, closed) from closed
        if response.get("type") == "error":
            data = response.get("data") or {}
            code, text = str(data.get("code", "UNKNOWN")), str(data.get("message", ""))
            raise NovamartServerError(code=code, message=text, details=data)
        return response
