"""SIGTERM drains a server: it stops taking sessions (typed SERVER_DRAINING, /ready 503), the
episodes that finish within DRAIN_SECONDS score exactly as they would have, the rest are closed
with the typed, retryable SESSION_DRAINED; no 5xx, no traceback, and the process ends."""

import asyncio
import os
import signal
import time
from collections.abc import Iterator

import httpx
import pytest

from novamart.agents.heuristic import HeuristicAgent
from novamart.agents.runner import generated, run_episode
from novamart.client import NovamartEnv, NovamartServerError
from novamart.server.environment import NovamartEnvironment
from novamart.server.launch import RunningServer, serve_in_subprocess
from tests.server.metrics import scrape, total
from tests.server.servers import novamart_serve

DRAIN_S = 4.0  # the finishing half took 0.8 s of it at load 8
EPISODES = 32  # half finish during the drain, half stall past it


@pytest.fixture
def draining_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[RunningServer]:
    log = tmp_path_factory.mktemp("drain") / "server.log"
    command = novamart_serve("--drain-seconds", str(DRAIN_S))
    with serve_in_subprocess(log, command=command) as running:
        yield running


async def _started(url: str, task: str, seed: int) -> tuple[NovamartEnv, HeuristicAgent, list]:
    """A session with its episode reset and one step played."""
    env = NovamartEnv(base_url=url)
    agent = HeuristicAgent(seed=seed)
    first = await env.reset(task=task, seed=seed)
    agent.start(first.observation)
    return env, agent, [first, await env.step(agent.act(first.observation))]


async def _finish(env: NovamartEnv, agent: HeuristicAgent, played: list) -> list:
    while not played[-1].done:
        await asyncio.sleep(0.05)  # a model's think time, within the grace period
        played.append(await env.step(agent.act(played[-1].observation)))
    return played


async def _stall(env: NovamartEnv, agent: HeuristicAgent, played: list) -> NovamartServerError:
    await asyncio.sleep(DRAIN_S + 1.5)  # past the grace period
    try:
        await env.step(agent.act(played[-1].observation))
    except NovamartServerError as closed:
        return closed
    raise AssertionError("a session left past the drain still played")


def test_sigterm_lets_open_episodes_finish_and_closes_the_rest(
    draining_server: RunningServer,
) -> None:
    url = draining_server.url
    local = {case: _in_process(*case) for case in generated(EPISODES * 3, start=900)}
    # episodes still under way after their first step (a ticket may end at its first)
    cases = [case for case, observations in local.items() if len(observations) > 2][:EPISODES]

    async def scenario() -> tuple[list, list, NovamartServerError, NovamartServerError, tuple]:
        # a served worker is warm: its first replies load the reader's tables (~3 s at load 8)
        for task, seed in generated(9, start=800):
            warm, agent, played = await _started(url, task, seed)
            await _finish(warm, agent, played)
            await warm.close()
        sessions = await asyncio.gather(*(_started(url, task, seed) for task, seed in cases))
        try:
            return await _drained(sessions)
        finally:
            for env, _, _ in sessions:
                await env.close()

    async def _drained(
        sessions: list,
    ) -> tuple[list, list, NovamartServerError, NovamartServerError, tuple]:
        os.kill(draining_server.pid, signal.SIGTERM)
        await asyncio.sleep(0.3)
        half = EPISODES // 2
        finishing = asyncio.gather(*(_finish(*s) for s in sessions[:half]))
        stalling = asyncio.gather(*(_stall(*s) for s in sessions[half:]))
        async with NovamartEnv(base_url=url) as late:
            with pytest.raises(NovamartServerError) as refused:
                await late.reset(task="easy_refund", seed=1)
        async with httpx.AsyncClient() as http:  # the readiness probe takes the pod out
            ready = await http.get(f"{url}/ready")
        draining = total(await asyncio.to_thread(scrape, url), "novamart_draining")
        signals = (ready.status_code, ready.json()["status"], draining)
        finished = await finishing
        env = sessions[0][0]
        with pytest.raises(NovamartServerError) as next_episode:
            await env.reset(task="easy_refund", seed=2)  # a new episode goes elsewhere
        cut = await stalling
        return finished, cut, refused.value, next_episode.value, signals

    finished, cut, refused, next_episode, signals = asyncio.run(scenario())
    for case, played in zip(cases[: EPISODES // 2], finished, strict=True):
        assert [r.observation for r in played] == local[case], case
    assert {closed.code for closed in cut} == {"SESSION_DRAINED"}
    assert all(closed.retryable for closed in cut)
    assert refused.code == next_episode.code == "SERVER_DRAINING" and refused.retryable
    assert signals == (503, "draining", 1.0)

    deadline = time.monotonic() + 15
    while _alive(draining_server.pid):
        assert time.monotonic() < deadline, "the drained server did not exit"
        time.sleep(0.1)
    log = draining_server.log()
    assert "Traceback" not in log and " 500 " not in log


def _in_process(task: str, seed: int) -> list:
    episode = run_episode(NovamartEnvironment(), HeuristicAgent(seed=seed), task, seed, keep=True)
    return episode.observations


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    waited, _ = os.waitpid(pid, os.WNOHANG)
    return waited == 0


def test_ready_answers_beside_health(server: RunningServer) -> None:
    ready = httpx.get(f"{server.url}/ready")
    assert ready.status_code == 200 and ready.json()["status"] == "ready"
    assert httpx.get(f"{server.url}/health").status_code == 200
