"""Schemathesis against the live server's OpenAPI schema (issue 7, item 2): a bounded number
of generated requests per operation, zero server errors (5xx).

schemathesis is a pinned dev dependency (uv.lock), so this always runs.
"""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

from novamart.server.launch import RunningServer

CLI = Path(sys.executable).with_name("schemathesis")
EXAMPLES = 40


def test_no_generated_request_gets_a_server_error(server: RunningServer, tmp_path: Path) -> None:
    command = [str(CLI), "run", f"{server.url}/openapi.json", "--checks", "not_a_server_error"]
    command += ["--max-examples", str(EXAMPLES), "--seed", "1", "--no-color"]
    run = subprocess.run(command, cwd=tmp_path, capture_output=True, text=True, timeout=300)
    assert run.returncode == 0, run.stdout[-4_000:]
    assert re.search(r"Operations:\s+(\d+) selected / \1 total", run.stdout)  # all of them
    assert " passed" in run.stdout and "5xx" not in run.stdout
