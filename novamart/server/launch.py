"""Run an ASGI app in a uvicorn subprocess on a free 127.0.0.1 port, until the block ends.

Tests, benchmarks and CI need a real server over real sockets, started and stopped cleanly;
this is the one place that knows how.
"""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import time
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

import httpx

REPO_ROOT = Path(__file__).resolve().parents[2]
QUIET_ENV = {"GRADIO_ANALYTICS_ENABLED": "False", "HF_HUB_OFFLINE": "1"}


class ServerStartError(RuntimeError):
    """The server process exited or never answered /health."""


@dataclass(frozen=True)
class RunningServer:
    """A live server: its base URL, process id and log file."""

    url: str
    pid: int
    log_path: Path

    def log(self) -> str:
        return self.log_path.read_text(encoding="utf-8", errors="replace")


def free_port() -> int:
    """A TCP port free on 127.0.0.1 right now."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def _wait_healthy(url: str, process: subprocess.Popen[bytes], timeout_s: float) -> None:
    deadline = time.monotonic() + timeout_s
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise ServerStartError(f"server exited with code {process.returncode}")
        try:
            if httpx.get(f"{url}/health", timeout=1.0).status_code == 200:
                return
        except httpx.TransportError:
            pass
        time.sleep(0.1)
    raise ServerStartError(f"server did not answer {url}/health within {timeout_s} s")


def _stop(process: subprocess.Popen[bytes]) -> None:
    process.terminate()
    try:
        process.wait(timeout=10)
    except subprocess.TimeoutExpired:
        process.kill()
        process.wait(timeout=10)


@contextmanager
def serve_in_subprocess(
    log_path: Path,
    app_ref: str = "novamart.server.app:app",
    env: Mapping[str, str] | None = None,
    app_dir: Path = REPO_ROOT,
    startup_timeout_s: float = 60.0,
    command: list[str] | None = None,
) -> Iterator[RunningServer]:
    """Serve `app_ref` (module:attribute, importable from `app_dir`) with extra `env` vars.

    ``command`` replaces the uvicorn command line (it is told HOST and PORT through the
    environment, as the Docker image's is)."""
    port = free_port()
    url = f"http://127.0.0.1:{port}"
    if command is None:
        command = [sys.executable, "-m", "uvicorn", app_ref, "--app-dir", str(app_dir)]
        command += ["--host", "127.0.0.1", "--port", str(port), "--log-level", "warning"]
    listen = {"HOST": "127.0.0.1", "PORT": str(port)}
    full_env = {**os.environ, **QUIET_ENV, **(env or {}), **listen}
    with log_path.open("wb") as log:
        process = subprocess.Popen(
            command, env=full_env, cwd=app_dir, stdout=log, stderr=subprocess.STDOUT
        )
    try:
        _wait_healthy(url, process, startup_timeout_s)
        yield RunningServer(url=url, pid=process.pid, log_path=log_path)
    except ServerStartError as exc:
        raise ServerStartError(f"{exc}\n{log_path.read_text(errors='replace')}") from exc
    finally:
        _stop(process)
