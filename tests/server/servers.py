"""Starting servers as operators do: `novamart serve` with its options (HOST and PORT come
from the environment launch.serve_in_subprocess sets)."""

import sys
import time
from pathlib import Path

from novamart.server.launch import RunningServer

NOVAMART = str(Path(sys.executable).with_name("novamart"))
STARTED = "Application startup complete."


def novamart_serve(*options: str) -> list[str]:
    return [NOVAMART, "serve", *options]


def wait_for_workers(server: RunningServer, workers: int, timeout_s: float = 60.0) -> None:
    """Until every worker has started (``/health`` answers as soon as the first one has)."""
    deadline = time.monotonic() + timeout_s
    while server.log().count(STARTED) < workers:
        assert time.monotonic() < deadline, f"{workers} workers did not start:\n{server.log()}"
        time.sleep(0.1)
