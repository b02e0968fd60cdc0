"""The session cap answers with OpenEnv's capacity error, and idle sessions are reaped.

NovamartEnv plays over one plain /ws per session by default; in production mode (OpenEnv
0.10's MCPToolClient way) a session is an HTTP /mcp session that its WebSocket joins. Either
takes one slot (two fit under a cap of two), a refusal is the same typed CAPACITY_REACHED
(retryable: another server may take it), and the idle timeout frees a slot although its socket
stays open (OpenEnv's own reaper skips joined sessions; NovaMart's does not)."""

import asyncio
import time
from collections.abc import Iterator

import httpx
import pytest

from novamart.client import NovamartEnv, NovamartServerError
from novamart.models import NovamartAction
from novamart.server.launch import RunningServer, serve_in_subprocess
from tests.server.metrics import scrape, total

CAP = 2
IDLE_TIMEOUT_S = 3
REAPED_AFTER_S = 6  # the reaper looks every max(timeout / 4, 1) s


@pytest.fixture(scope="module")
def small_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[RunningServer]:
    log = tmp_path_factory.mktemp("small") / "server.log"
    settings = {"MAX_CONCURRENT_ENVS": str(CAP), "SESSION_TIMEOUT_S": str(IDLE_TIMEOUT_S)}
    with serve_in_subprocess(log, env=settings) as running:
        yield running


async def _open_sessions(url: str, count: int) -> list[NovamartEnv]:
    sessions = [NovamartEnv(base_url=url) for _ in range(count)]
    for env in sessions:
        await env.reset(task="easy_refund")
    return sessions


async def _first_accepted(url: str, deadline_s: float) -> float:
    """Seconds until the server accepts one more session (polling), or fails at the deadline."""
    start = time.monotonic()
    while True:
        env = NovamartEnv(base_url=url)
        try:
            await env.reset(task="easy_refund")
            return time.monotonic() - start
        except NovamartServerError as refused:
            assert refused.code == "CAPACITY_REACHED"
            assert time.monotonic() - start < deadline_s, "no session slot was freed"
            await asyncio.sleep(0.2)
        finally:
            await env.close()


@pytest.mark.parametrize("production_mode", [False, True])
def test_a_session_over_the_cap_gets_the_capacity_error(
    small_server: RunningServer, production_mode: bool
) -> None:
    async def scenario() -> None:
        sessions = await _open_sessions(small_server.url, CAP)
        extra = NovamartEnv(base_url=small_server.url, production_mode=production_mode)
        with pytest.raises(NovamartServerError) as refused:
            await extra.reset(task="easy_refund")
        await extra.close()
        assert refused.value.code == "CAPACITY_REACHED" and refused.value.retryable
        assert total(scrape(small_server.url), "novamart_sessions_refused_total") >= 1
        assert f"{CAP}" in refused.value.message
        await sessions[0].close()
        await _first_accepted(small_server.url, deadline_s=10)  # a closed session frees its slot
        await sessions[1].close()

    asyncio.run(scenario())


def test_idle_sessions_are_reaped(small_server: RunningServer) -> None:
    async def scenario() -> None:
        idle = await _open_sessions(small_server.url, CAP)
        waited = await _first_accepted(small_server.url, deadline_s=30)
        assert waited >= IDLE_TIMEOUT_S - 0.5  # freed by the reaper, not by anything sooner
        for env in idle:
            await env.close()

    asyncio.run(scenario())


def test_a_reaped_session_cannot_go_on_past_the_cap(small_server: RunningServer) -> None:
    """OpenEnv's reaper frees an idle session's slot but leaves its socket open on the old
    environment; that session must not keep playing, or idling would beat the cap."""

    async def scenario() -> bool:
        idle = await _open_sessions(small_server.url, CAP)
        await asyncio.sleep(REAPED_AFTER_S)
        fresh = await _open_sessions(small_server.url, CAP)  # the cap is full again
        # any answer counts as playing on, a refusal of the order id included
        action = NovamartAction(tool_name="lookup_order", arguments={"order_id": "ORD-1"})
        try:
            await idle[0].step(action)
            still_playing = True
        except (NovamartServerError, ConnectionError):
            still_playing = False
        for env in idle + fresh:
            await env.close()
        return still_playing

    assert not asyncio.run(scenario())


def test_a_full_server_is_not_ready(small_server: RunningServer) -> None:
    async def scenario() -> tuple[int, str, int]:
        sessions = await _open_sessions(small_server.url, CAP)
        full = httpx.get(f"{small_server.url}/ready")
        for env in sessions:
            await env.close()
        await _first_accepted(small_server.url, deadline_s=10)
        return (
            full.status_code,
            full.json()["status"],
            httpx.get(f"{small_server.url}/ready").status_code,
        )

    assert asyncio.run(scenario()) == (503, "full", 200)
    assert httpx.get(f"{small_server.url}/health").status_code == 200  # alive all the same
