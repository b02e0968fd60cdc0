"""The session cap holds against idle clients (issue 7, item 4): once the idle-session reaper
has freed a session's slot and given it to someone else, the reaped session must not go on
playing, or idling past SESSION_TIMEOUT_S would let any client exceed MAX_CONCURRENT_ENVS.

FAILS with OpenEnv 0.3 as served today: its reaper destroys the session's bookkeeping but
leaves the WebSocket open on the old environment, which keeps answering steps.
"""

from __future__ import annotations

import asyncio
from collections.abc import Iterator

import pytest

from novamart.client import NovamartEnv, NovamartServerError
from novamart.models import NovamartAction
from novamart.server.launch import RunningServer, serve_in_subprocess

CAP = 2
IDLE_TIMEOUT_S = 2
REAPED_AFTER_S = 8  # OpenEnv's reaper looks every max(timeout / 4, 5) s


@pytest.fixture(scope="module")
def idle_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[RunningServer]:
    log = tmp_path_factory.mktemp("idle") / "server.log"
    settings = {"MAX_CONCURRENT_ENVS": str(CAP), "SESSION_TIMEOUT_S": str(IDLE_TIMEOUT_S)}
    with serve_in_subprocess(log, env=settings) as running:
        yield running


async def _reaped_session_steps(url: str) -> bool:
    """Whether a reaped session still plays after its slot went to a new session."""
    idle = [NovamartEnv(base_url=url) for _ in range(CAP)]
    first = [(await env.reset(task="easy_refund")).observation for env in idle]
    await asyncio.sleep(REAPED_AFTER_S)
    fresh = [NovamartEnv(base_url=url) for _ in range(CAP)]
    for env in fresh:
        await env.reset(task="easy_refund")  # the cap is full again, with new sessions
    action = NovamartAction(tool_name="lookup_order", arguments={"order_id": first[0].order_id})
    try:
        await idle[0].step(action)
        still_playing = True
    except (NovamartServerError, ConnectionError):
        still_playing = False
    for env in idle + fresh:
        await env.close()
    return still_playing


def test_a_reaped_session_cannot_go_on_past_the_cap(idle_server: RunningServer) -> None:
    assert not asyncio.run(_reaped_session_steps(idle_server.url))
