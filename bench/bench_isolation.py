"""Benchmark: isolation under load. 1,000 episodes over 64 concurrent /ws sessions of a real
server (uvicorn on 127.0.0.1), distinct seeds, agents mixed; every trajectory is compared
with its sequential in-process replay and checked for other cases' ids.
Prints episodes, steps, wall time, steps/s, mismatches, foreign ids and errors.
Run: .venv/bin/python bench/bench_isolation.py [episodes] [sessions]
"""

from __future__ import annotations

import os
import platform
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # the tests package

from novamart.server.launch import serve_in_subprocess
from tests.reliability.load import AGENT_MIX, run_load


def main(episodes: int = 1_000, sessions: int = 64) -> int:
    print(f"python {platform.python_version()} on {platform.platform()}, cpus={os.cpu_count()}")
    print(f"{episodes:,} episodes over {sessions} concurrent sessions, agents {AGENT_MIX}")
    with tempfile.TemporaryDirectory() as workdir:
        log = Path(workdir) / "server.log"
        with serve_in_subprocess(log, env={"MAX_CONCURRENT_ENVS": str(sessions)}) as server:
            report = run_load(server.url, episodes, sessions)
    print(
        f"episodes {report.episodes:,}, steps {report.steps:,}, {report.seconds:.1f} s over "
        f"the wire ({report.steps / max(report.seconds, 1e-9):,.0f} steps/s)"
    )
    print(f"trajectories differing from their sequential replay: {len(report.mismatches)}")
    print(f"observations showing another case's ids: {len(report.foreign)}")
    print(f"errors: {len(report.errors)}")
    for line in (report.mismatches + report.foreign + report.errors)[:5]:
        print(f"  {line}")
    return 1 if report.mismatches or report.foreign or report.errors else 0


if __name__ == "__main__":
    sys.exit(main(*(int(arg) for arg in sys.argv[1:3])))
