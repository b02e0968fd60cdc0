"""A real NovaMart server: uvicorn on a free 127.0.0.1 port in a subprocess, for the session."""

from collections.abc import Iterator

import pytest

from novamart.server.launch import RunningServer, serve_in_subprocess

SESSION_CAP = 40  # above the 32 simultaneous sessions of test_concurrency


@pytest.fixture(scope="session")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[RunningServer]:
    log = tmp_path_factory.mktemp("server") / "server.log"
    with serve_in_subprocess(log, env={"MAX_CONCURRENT_ENVS": str(SESSION_CAP)}) as running:
        yield running


@pytest.fixture(scope="session")
def web_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[RunningServer]:
    """The server as Docker runs it: the web UI (tool view and policy workbench) on."""
    log = tmp_path_factory.mktemp("web") / "server.log"
    with serve_in_subprocess(log, env={"ENABLE_WEB_INTERFACE": "true"}) as running:
        yield running
