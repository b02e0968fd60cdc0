"""A stopping worker writes the counts it still holds: with the timed flush an hour away,
nothing of the episodes played is in the metric files until SIGTERM, and after the workers
exit every step, episode and score is (novamart.server.tally, metrics.install_metrics)."""

import asyncio
import os
import signal
import time
from pathlib import Path

from novamart.client import NovamartEnv
from novamart.server.launch import serve_in_subprocess
from tests.server.metrics import total, written
from tests.server.remote import play
from tests.server.servers import novamart_serve, wait_for_workers

CASES = [("easy_refund", 1), ("defect_resolution", 2), ("open_case", 3), ("ticket_triage", 4)]
NEVER_S = "3600"


async def _play_all(url: str) -> list[list]:
    async def one(task: str, seed: int) -> list:
        async with NovamartEnv(base_url=url) as env:
            return await play(env, task, seed)

    return await asyncio.gather(*(one(task, seed) for task, seed in CASES))


def _exited(pid: int, timeout_s: float = 20.0) -> bool:
    deadline = time.monotonic() + timeout_s
    while time.monotonic() < deadline:
        waited, _ = os.waitpid(pid, os.WNOHANG)
        if waited:
            return True
        time.sleep(0.1)
    return False


def test_sigterm_writes_the_counts_the_timer_has_not(tmp_path: Path) -> None:
    shared = tmp_path / "shared"
    shared.mkdir()
    env = {"NOVAMART_SHARED_DIR": str(shared), "METRICS_FLUSH_SECONDS": NEVER_S}
    command = novamart_serve("--workers", "2", "--drain-seconds", "2")
    with serve_in_subprocess(tmp_path / "server.log", env=env, command=command) as server:
        wait_for_workers(server, 2)
        played = asyncio.run(_play_all(server.url))
        steps = sum(len(results) - 1 for results in played)
        before = written(shared / "metrics")
        assert total(before, "novamart_step_seconds_count") == 0
        assert total(before, "novamart_episodes_total") == 0
        os.kill(server.pid, signal.SIGTERM)
        assert _exited(server.pid), server.log()
        after = written(shared / "metrics")
        assert "Traceback" not in server.log()
    assert total(after, "novamart_step_seconds_count") == steps
    assert total(after, "novamart_episodes_started_total") == len(CASES)
    assert total(after, "novamart_episodes_total") == len(CASES)
    assert total(after, "novamart_episode_score_count") == len(CASES)
    scores = sum(results[-1].observation.final_score for results in played)
    assert total(after, "novamart_episode_score_sum") == scores
