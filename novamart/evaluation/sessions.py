"""Where episodes run: the environment in this process, or a server through the client.

Both sessions offer the same four calls, so the runner, ``inference.py`` and ``novamart eval``
never care which one they hold. The tool list always comes from the environment itself
(``ListToolsAction``), after each reset, because a task decides which tools it offers.
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable
from typing import Any, Protocol, TypeVar

from openenv.core.env_server.mcp_types import CallToolAction, ListToolsAction, Tool
from openenv.core.sync_client import SyncEnvClient

from novamart.client import NovamartEnv, NovamartServerError, ServerUrls, pin_url, server_urls
from novamart.episode import CustomerSimulator
from novamart.models import NovamartObservation, NovamartState
from novamart.reward import CommunicationJudge
from novamart.server.environment import NovamartEnvironment
from novamart.server.runs import Hidden

T = TypeVar("T")


class SessionError(RuntimeError):
    """The environment answered something that is not a NovaMart observation."""


Ticket = dict[str, Any]
"""One dataset row, as ``reset(ticket=...)`` takes it."""


class EnvSession(Protocol):
    in_process: bool

    def reset(
        self, task: str, seed: int | None, ticket: Ticket | None = None, **case: Any
    ) -> NovamartObservation:
        """``case``: an order case's ``mode`` and ``policy_variant``, when given."""
        ...

    def step(self, action: CallToolAction) -> NovamartObservation: ...

    def tools(self) -> list[Tool]: ...

    def state(self) -> NovamartState: ...

    def close(self) -> None: ...

    @property
    def episode(self) -> Hidden | None:
        """The hidden episode (an order case or a ticket, truth included) when the environment
        is in this process; None over the wire."""
        ...


def _observation(value: object) -> NovamartObservation:
    if not isinstance(value, NovamartObservation):
        raise SessionError(f"expected a NovamartObservation, got {type(value).__name__}")
    return value


class InProcessSession:
    """A NovamartEnvironment in this process: no server, no sockets. ``customer`` answers
    the agent's messages (None: the deterministic simulator), ``judge`` grades their
    communication (None: the reader)."""

    in_process = True

    def __init__(
        self, customer: CustomerSimulator | None = None, judge: CommunicationJudge | None = None
    ) -> None:
        self._env = NovamartEnvironment(customer=customer, judge=judge)

    def reset(
        self, task: str, seed: int | None, ticket: Ticket | None = None, **case: Any
    ) -> NovamartObservation:
        return _observation(self._env.reset(seed=seed, task=task, ticket=ticket, **case))

    def step(self, action: CallToolAction) -> NovamartObservation:
        return _observation(self._env.step(action))

    def tools(self) -> list[Tool]:
        return list(self._env.step(ListToolsAction()).tools)

    def state(self) -> NovamartState:
        return self._env.state

    def close(self) -> None:
        self._env.close()

    @property
    def episode(self) -> Hidden | None:
        return self._env.episode


class RemoteSession:
    """A NovaMart server at ``base_url``, one WebSocket session at a time.

    ``base_url`` may name several servers (a list or comma-separated): the session pins to
    one of them (``pin_url``: the sessions of a process spread evenly) and moves to the next
    only when its server is full or draining (a retryable ``NovamartServerError``) or cannot
    be reached. It connects at the first reset, and after a failure drops the connection so
    the next reset starts a fresh one: a server that was down for one episode costs only
    that one. A session pickles as its servers and its pin (the connection is not carried).
    """

    in_process = False

    def __init__(self, base_url: ServerUrls, message_timeout_s: float = 60.0) -> None:
        self._urls = server_urls(base_url)
        self._pin = self._urls.index(pin_url(self._urls))
        self._message_timeout_s = message_timeout_s
        self._client: SyncEnvClient | None = None

    @property
    def base_url(self) -> str:
        """The server this session plays on now."""
        return self._urls[self._pin]

    def reset(
        self, task: str, seed: int | None, ticket: Ticket | None = None, **case: Any
    ) -> NovamartObservation:
        row = {} if ticket is None else {"ticket": ticket}
        reset = lambda c: c.reset(task=task, seed=seed, **row, **case)  # noqa: E731
        return _observation(self._call(reset).observation)

    def step(self, action: CallToolAction) -> NovamartObservation:
        return _observation(self._call(lambda c: c.step(action)).observation)

    def tools(self) -> list[Tool]:
        return list(self._call(lambda c: c.list_tools(use_cache=False)))

    def state(self) -> NovamartState:
        state = self._call(lambda c: c.state())
        if not isinstance(state, NovamartState):
            raise SessionError(f"expected a NovamartState, got {type(state).__name__}")
        return state

    def close(self) -> None:
        client, self._client = self._client, None
        if client is not None:
            with contextlib.suppress(Exception):  # a dead connection has nothing to close
                client.close()

    @property
    def episode(self) -> Hidden | None:
        return None

    def __getstate__(self) -> dict[str, Any]:
        return {**self.__dict__, "_client": None}

    def _call(self, request: Callable[[SyncEnvClient], T]) -> T:
        if self._client is None:
            client = NovamartEnv(base_url=self.base_url, message_timeout_s=self._message_timeout_s)
            self._client = client.sync()
            try:
                self._client.connect()
            except BaseException as error:
                self._failed(error)
                raise
        try:
            return request(self._client)
        except BaseException as error:
            self._failed(error)
            raise

    def _failed(self, error: BaseException) -> None:
        """Drop the connection; a server that is full, draining or unreachable hands the
        session on to the next one."""
        self.close()
        unreachable = isinstance(error, ConnectionError | OSError)
        if unreachable or (isinstance(error, NovamartServerError) and error.retryable):
            self._pin = (self._pin + 1) % len(self._urls)


def open_session(
    env_url: ServerUrls | None,
    customer: CustomerSimulator | None = None,
    judge: CommunicationJudge | None = None,
) -> EnvSession:
    """In-process when ``env_url`` is None, else a client session to that server, or one of
    those servers (whose
    environment has its own customer and grader: ``customer`` and ``judge`` are for
    in-process sessions only)."""
    if env_url is None:
        return InProcessSession(customer, judge)
    if customer is not None or judge is not None:
        raise ValueError(
            "the customer and the judge run inside the environment: in-process sessions only"
        )
    return RemoteSession(env_url)
