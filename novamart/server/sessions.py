"""OpenEnv's session server, with the idle timeout applied to every session.

OpenEnv 0.10 lets a WebSocket join an HTTP ``/mcp`` session (``/ws?session_id=``: how its
``MCPToolClient`` plays), and its idle reaper then skips the session for as long as the
socket stays open: an idle client would hold its slot forever and idling would beat
MAX_CONCURRENT_ENVS. Here the reaper frees every session idle longer than
SESSION_TIMEOUT_S, joined or not. The environment of a reaped session is closed, so a
socket still open on it is refused from then on (``SessionEnded``), and its ``/mcp``
session id is unknown.

``create_app`` builds its ``HTTPEnvServer`` itself, with or without the web UI;
``sessions_reaped_when_idle`` has it build this one instead, for the duration of the call.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from openenv.core.env_server import http_server
from openenv.core.env_server.exceptions import SessionCapacityError

from novamart.server.metrics import Metrics

log = logging.getLogger(__name__)
MIN_REAP_INTERVAL_S = 1.0


class IdleReapingServer(http_server.HTTPEnvServer):
    """OpenEnv's server whose idle reaper also frees sessions a WebSocket has joined, and
    which counts its sessions (opened, refused, reaped) in ``metrics``."""

    metrics: Metrics | None = None

    async def _create_session(self) -> tuple[str, Any]:
        try:
            created = await super()._create_session()
        except SessionCapacityError:
            if self.metrics is not None:
                self.metrics.sessions_refused.labels("capacity").inc()
            raise
        if self.metrics is not None:
            self.metrics.sessions_open.inc()
        return created

    async def _destroy_session(self, session_id: str) -> None:
        known = session_id in self._sessions
        await super()._destroy_session(session_id)
        if known and self.metrics is not None:
            self.metrics.sessions_open.dec()

    def environments(self) -> list[Any]:
        """The environments of the open sessions (None while one is being built)."""
        return [env for env in self._sessions.values() if env is not None]

    def idle_sessions(self, now: float) -> list[str]:
        """Sessions whose last message is older than the idle timeout."""
        timeout = self._session_idle_timeout_s
        if timeout is None:
            return []
        return [
            sid for sid, info in self._session_info.items() if now - info.last_activity_at > timeout
        ]

    async def _reap_idle_sessions(self) -> None:
        timeout = self._session_idle_timeout_s
        if timeout is None:
            return
        interval = max(timeout / 4, MIN_REAP_INTERVAL_S)
        while True:
            try:
                await asyncio.sleep(interval)
                async with self._session_lock:
                    stale = self.idle_sessions(time.time())
                for session_id in stale:
                    async with self._session_lock:  # activity may have come in meanwhile
                        still_idle = session_id in self.idle_sessions(time.time())
                    if still_idle:
                        await self._destroy_session(session_id)
                        if self.metrics is not None:
                            self.metrics.sessions_reaped.inc()
            except asyncio.CancelledError:
                break
            except Exception as exc:  # the reaper must outlive any one failure
                log.warning("idle-session reaper failed (will retry): %s", exc)


@contextmanager
def sessions_reaped_when_idle(metrics: Metrics | None = None) -> Iterator[list[IdleReapingServer]]:
    """While open, OpenEnv's app factories build an ``IdleReapingServer`` counting into
    ``metrics``; the list it gives holds each server built meanwhile."""
    built: list[IdleReapingServer] = []

    class Recorded(IdleReapingServer):
        def __init__(self, *args: Any, **kwargs: Any) -> None:
            self.metrics = metrics
            super().__init__(*args, **kwargs)
            built.append(self)

    original = http_server.HTTPEnvServer
    http_server.HTTPEnvServer = Recorded  # type: ignore[misc]
    try:
        yield built
    finally:
        http_server.HTTPEnvServer = original  # type: ignore[misc]
