"""Isolation under load: 1,000 episodes on 64 concurrent /ws sessions with distinct seeds are
exactly their sequential in-process replays, and no session ever shows another case's ids
(bench/bench_isolation.py prints the same run's figures)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from novamart.server.launch import RunningServer, serve_in_subprocess
from tests.reliability.load import run_load

SESSIONS = 64


@pytest.fixture(scope="module")
def wide_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[RunningServer]:
    log: Path = tmp_path_factory.mktemp("isolation") / "server.log"
    with serve_in_subprocess(log, env={"MAX_CONCURRENT_ENVS": str(SESSIONS)}) as running:
        yield running


def test_concurrent_sessions_replay_exactly_and_never_mix(wide_server: RunningServer) -> None:
    report = run_load(wide_server.url, count=1_000, sessions=SESSIONS)
    assert report.errors == []
    assert report.episodes == 1_000
    assert report.mismatches == []
    assert report.foreign == []
