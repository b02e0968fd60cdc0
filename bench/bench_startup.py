"""Benchmark: seconds from starting the server process to its first /health answer.

The server starts as `make run` and the Docker image start it (`python -m server.app`, HOST
and PORT from the environment), without the web UI (target: within 3 s) and with it (OpenEnv's
container limit: 30 s). Medians of several cold starts, each in a fresh process.
Run: .venv/bin/python bench/bench_startup.py [starts]
"""

from __future__ import annotations

import os
import platform
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from novamart.server.launch import REPO_ROOT, free_port, serve_in_subprocess

SERVE = [sys.executable, "-m", "server.app"]


def time_to_health(web_ui: bool, logs: Path) -> float:
    env = {"ENABLE_WEB_INTERFACE": "true" if web_ui else "false"}
    start = time.perf_counter()
    with serve_in_subprocess(logs / f"start-{free_port()}.log", command=SERVE, env=env):
        return time.perf_counter() - start


def imports_gradio(web_ui: bool) -> bool:
    probe = "import sys, server.app; print('gradio' in sys.modules)"
    env = {**os.environ, "ENABLE_WEB_INTERFACE": "true" if web_ui else "false"}
    out = subprocess.run(
        [sys.executable, "-c", probe], env=env, cwd=REPO_ROOT, capture_output=True, text=True
    )
    return out.stdout.strip().endswith("True")


def main(starts: int = 5) -> None:
    load = ", ".join(f"{x:.2f}" for x in os.getloadavg())
    print(
        f"machine: {platform.processor() or platform.machine()}, {os.cpu_count()} CPUs, "
        f"Python {platform.python_version()}, load average at start {load}"
    )
    with tempfile.TemporaryDirectory() as tmp:
        for web_ui, target in ((False, 3.0), (True, 30.0)):
            samples = sorted(time_to_health(web_ui, Path(tmp)) for _ in range(starts))
            median, low, high = statistics.median(samples), samples[0], samples[-1]
            print(
                f"web UI {'on ' if web_ui else 'off'}: /health after {median:.2f} s (median of "
                f"{starts}; range {low:.2f}-{high:.2f}; target <= {target:.0f} s); "
                f"gradio imported: {imports_gradio(web_ui)}"
            )


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 5)
