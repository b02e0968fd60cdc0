"""The TRL adapter and the harness sessions on a real server: a pooled instance whose session
the server reaped while it idled between rollouts plays on after its next reset."""

import time
from collections.abc import Iterator

import pytest

from novamart.server.launch import RunningServer, serve_in_subprocess
from novamart.training.harness import NovamartSessionFactory
from novamart.training.trl_env import ENVIRONMENTS

IDLE_TIMEOUT_S = 2
REAPED_AFTER_S = 4  # the reaper looks every max(timeout / 4, 1) s


@pytest.fixture(scope="module")
def reaping_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[RunningServer]:
    log = tmp_path_factory.mktemp("reaping") / "server.log"
    settings = {"MAX_CONCURRENT_ENVS": "2", "SESSION_TIMEOUT_S": str(IDLE_TIMEOUT_S)}
    with serve_in_subprocess(log, env=settings) as running:
        yield running


def test_a_reaped_session_is_reopened_by_the_next_reset(reaping_server: RunningServer) -> None:
    with ENVIRONMENTS["ticket_triage"](base_url=reaping_server.url) as env:
        env.reset(task="ticket_triage", seed=5)
        env.classify_ticket(category="billing", priority="high")
        first = env.get_reward()
        time.sleep(REAPED_AFTER_S)  # a long optimizer step: the server frees the session
        env.reset(task="ticket_triage", seed=5)
        assert env.episode.observation.step_number == 0
        env.classify_ticket(category="billing", priority="high")
        assert env.get_reward() == first


def test_harness_sessions_play_on_the_server(reaping_server: RunningServer) -> None:
    session = NovamartSessionFactory(reaping_server.url).create(
        {"task": "ticket_triage", "seed": 5}
    )
    try:
        assert [tool.name for tool in session.list_tools()] == ["classify_ticket"]
        answer = session.call_tool("classify_ticket", {"category": "billing", "priority": "high"})
        assert answer.done and answer.metadata["reward"] == session.verify([]).env_reward
    finally:
        session.close()
