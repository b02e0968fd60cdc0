"""Graceful drain on SIGTERM, and readiness: what an orchestrator needs to stop a server
without losing an episode.

On SIGTERM a worker stops taking sessions: ``/ready`` answers 503, a new ``/ws`` connection
is refused with the typed error ``SERVER_DRAINING`` (an error frame, then close code 1013),
and so is a reset on an open session (its answer, then close code 1012): the client plays
that episode elsewhere. Episodes under way go on for up to ``DRAIN_SECONDS``. When none is
left, or the time is up, every remaining session is closed between messages with close code
1012 and the reason ``SESSION_DRAINED`` (the typed, retryable error NovamartEnv raises), and
only then does uvicorn shut down. A message the server has taken is answered before its
session closes, so nothing acknowledged is lost; a second SIGTERM stops at once.

The drain is per worker process; so are its sessions (MAX_CONCURRENT_ENVS) and ``/ready``.
"""

from __future__ import annotations

import asyncio
import json
import logging
import signal
import threading
import time
from collections.abc import Callable
from typing import Any

from fastapi import FastAPI
from fastapi.responses import JSONResponse
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from novamart.client import SERVER_DRAINING, SESSION_DRAINED
from novamart.server.metrics import Metrics
from novamart.server.sessions import IdleReapingServer

log = logging.getLogger(__name__)
SERVICE_RESTART, TRY_AGAIN_LATER = 1012, 1013  # WebSocket close codes (RFC 6455, IANA)
POLL_S = 0.05
CLOSE_WAIT_S = 2.0
"""How long the drain waits for closed sessions to be torn down before uvicorn stops."""


def error_frame(code: str, message: str) -> str:
    """OpenEnv's WS error message, as its clients parse it."""
    return json.dumps({"type": "error", "data": {"code": code, "message": message}})


DRAINING_MESSAGE = "this server is shutting down and takes no new episode; play it on another"


class Connection:
    """One ``/ws`` connection, watched so the drain can close it between messages."""

    def __init__(self, receive: Receive, send: Send, drain: Drain) -> None:
        self._receive, self._send, self._drain = receive, send, drain
        self.answering = False  # a message was taken and its answer is not sent yet
        self.closed = False
        self._close_after_answer: str | None = None

    async def receive(self) -> Message:
        message = await self._receive()
        if message["type"] == "websocket.receive":
            if self._drain.draining and _is_reset(message):
                self._drain.metrics.sessions_refused.labels("draining").inc()
                await self._send(
                    {
                        "type": "websocket.send",
                        "text": error_frame(SERVER_DRAINING, DRAINING_MESSAGE),
                    }
                )
                await self.close(SERVER_DRAINING)
                return {"type": "websocket.disconnect", "code": SERVICE_RESTART}
            self.answering = True
        return message

    async def send(self, message: Message) -> None:
        if self.closed:  # OpenEnv closes its side after a disconnect: already done
            return
        await self._send(message)
        if message["type"] == "websocket.send":
            self.answering = False
            if self._close_after_answer is not None:
                await self.close(self._close_after_answer)
        elif message["type"] == "websocket.close":
            self.closed = True

    async def close(self, reason: str) -> None:
        """Close now if no answer is owed, else right after the answer goes out."""
        if self.closed:
            return
        if self.answering:
            self._close_after_answer = reason
            return
        self.closed = True
        await self._send({"type": "websocket.close", "code": SERVICE_RESTART, "reason": reason})


def _is_reset(message: Message) -> bool:
    text = message.get("text")
    if not text or "reset" not in text:
        return False
    try:
        return json.loads(text).get("type") == "reset"
    except (ValueError, AttributeError):
        return False


class Drain:
    """A worker's drain: its state, its open connections, and the SIGTERM that starts it."""

    def __init__(self, seconds: float, server: IdleReapingServer, metrics: Metrics) -> None:
        self.seconds = seconds
        self._server = server
        self.metrics = metrics
        self.draining = False
        self.connections: set[Connection] = set()

    def open_episodes(self) -> int:
        return sum(1 for env in self._server.environments() if getattr(env, "playing", False))

    async def run(self, then: Callable[[], None]) -> None:
        """Drain, then ``then()`` (uvicorn's own shutdown)."""
        self.draining = True
        self.metrics.draining.set(1)
        started = time.monotonic()
        log.warning(
            "draining: %d episode(s) under way, %g s to finish",
            self.open_episodes(),
            self.seconds,
        )
        while time.monotonic() - started < self.seconds and self.open_episodes():
            await asyncio.sleep(POLL_S)
        cut = self.open_episodes()
        for connection in list(self.connections):
            await connection.close(SESSION_DRAINED)
        while self.connections and time.monotonic() - started < self.seconds + CLOSE_WAIT_S:
            await asyncio.sleep(POLL_S)
        log.warning(
            "drained in %.1f s (%d episode(s) cut at the deadline)", time.monotonic() - started, cut
        )
        then()

    def install_signal_handler(self) -> None:
        """Take SIGTERM from uvicorn's handler: drain first, then hand it on. Only in the main
        thread of a process whose SIGTERM uvicorn already handles."""
        previous = signal.getsignal(signal.SIGTERM)
        if threading.current_thread() is not threading.main_thread() or not callable(previous):
            return
        loop = asyncio.get_running_loop()
        tasks: list[asyncio.Task[None]] = []

        def hand_on(signum: int = signal.SIGTERM, frame: Any = None) -> None:
            previous(signum, frame)

        def on_sigterm(signum: int, frame: Any) -> None:
            if self.draining:  # a second SIGTERM: stop now
                hand_on(signum, frame)
                return
            self.draining = True
            loop.call_soon_threadsafe(lambda: tasks.append(loop.create_task(self.run(hand_on))))

        signal.signal(signal.SIGTERM, on_sigterm)


class DrainMiddleware:
    """Tracks the ``/ws`` connections of a worker and refuses new ones while it drains."""

    def __init__(self, app: ASGIApp, drain: Drain) -> None:
        self.app = app
        self.drain = drain

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "websocket":
            await self.app(scope, receive, send)
            return
        if self.drain.draining:
            await self._refuse(receive, send)
            return
        connection = Connection(receive, send, self.drain)
        self.drain.connections.add(connection)
        try:
            await self.app(scope, connection.receive, connection.send)
        finally:
            self.drain.connections.discard(connection)

    async def _refuse(self, receive: Receive, send: Send) -> None:
        self.drain.metrics.sessions_refused.labels("draining").inc()
        await receive()  # websocket.connect
        await send({"type": "websocket.accept"})
        await send(
            {"type": "websocket.send", "text": error_frame(SERVER_DRAINING, DRAINING_MESSAGE)}
        )
        await send({"type": "websocket.close", "code": TRY_AGAIN_LATER, "reason": SERVER_DRAINING})


def install_drain(
    app: FastAPI, server: IdleReapingServer, seconds: float, metrics: Metrics
) -> Drain:
    """The drain on SIGTERM and ``GET /ready`` (200 when this worker takes sessions; 503 when
    it is full or draining, with the reason)."""
    drain = Drain(seconds, server, metrics)
    app.add_middleware(DrainMiddleware, drain=drain)
    app.router.add_event_handler("startup", drain.install_signal_handler)

    @app.get("/ready", tags=["Health"])
    def ready() -> JSONResponse:
        """Readiness: whether this worker takes a new session now."""
        status = server.get_capacity_status()
        body = {"active_sessions": status.active_sessions, "max_sessions": status.max_sessions}
        if drain.draining:
            return JSONResponse(status_code=503, content={"status": "draining", **body})
        if status.is_at_capacity:
            return JSONResponse(status_code=503, content={"status": "full", **body})
        return JSONResponse(content={"status": "ready", **body})

    return drain
