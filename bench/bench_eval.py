"""Benchmark: ``novamart eval`` of the 13 reference agents x all 8 tasks x 100 episodes (the
README's baseline run), trajectories included, and the size of its JSON.

Targets (issue 14): under 30 s in-process, JSON under 50 MB. Measured three ways:
- the command in this process (imports already done), median of the runs, with --out;
- the same episodes played bare (novamart.agents.runner, nothing recorded) in the same run,
  as the reference: the ratio is what recording trajectories and writing the results cost;
- the whole command once in a fresh interpreter (start-up and imports included), as a
  user runs it.
Run: .venv/bin/python bench/bench_eval.py [runs]
"""

from __future__ import annotations

import os
import platform
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

from typer.testing import CliRunner

from novamart.agents import AGENTS
from novamart.agents.runner import run_episode
from novamart.cli import app
from novamart.scenarios import TASKS
from novamart.server.environment import NovamartEnvironment

ROOT = Path(__file__).resolve().parents[1]
EPISODES = 100
COMMAND = [
    "eval",
    "--agent", ",".join(AGENTS),
    "--tasks", ",".join(TASKS),
    "--episodes", str(EPISODES),
    "--seed", "0",
]  # fmt: skip


Timing = tuple[float, float]
"""(wall seconds, CPU seconds of this process): on a shared machine the CPU time is the
steadier of the two."""


def timed(work: Callable[[], None]) -> Timing:
    wall, cpu = time.perf_counter(), time.process_time()
    work()
    return time.perf_counter() - wall, time.process_time() - cpu


def in_process(out: Path) -> None:
    result = CliRunner().invoke(app, [*COMMAND, "--out", str(out)])
    assert result.exit_code == 0, result.output


def bare() -> None:
    """The same episodes, nothing recorded: the reference."""
    env = NovamartEnvironment()
    for cls in AGENTS.values():
        for task in TASKS:
            for seed in range(EPISODES):
                run_episode(env, cls(seed), task, seed)


def fresh_process(out: Path) -> float:
    """The command as a user runs it: a new interpreter, imports and all."""
    start = time.perf_counter()
    subprocess.run(
        [str(ROOT / ".venv" / "bin" / "novamart"), *COMMAND, "--out", str(out)],
        cwd=ROOT,
        check=True,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    return time.perf_counter() - start


def main(runs: int = 3) -> None:
    print(f"machine: {platform.machine()} {platform.processor() or ''} cpus={os.cpu_count()}")
    print(f"python {platform.python_version()} on {platform.platform()}")
    print(f"load average before: {os.getloadavg()[0]:.2f}")
    episodes = len(AGENTS) * len(TASKS) * EPISODES
    with tempfile.TemporaryDirectory() as folder:
        out = Path(folder) / "results.json"
        bare()  # warm-up: the kernel's memo and the knowledge base's index
        evals, bares = [], []
        for _ in range(runs):  # interleaved, so both see the same machine
            evals.append(timed(lambda: in_process(out)))
            bares.append(timed(bare))
        size_mb = out.stat().st_size / 1e6
        cold = fresh_process(out)
    print(f"{episodes} episodes ({len(AGENTS)} agents x {len(TASKS)} tasks x {EPISODES})")
    for name, samples in (("novamart eval --out, in-process", evals), ("bare episodes", bares)):
        wall = statistics.median(t for t, _ in samples)
        cpu = statistics.median(c for _, c in samples)
        shown = ", ".join(f"{t:.1f}" for t, _ in samples)
        print(f"{name:32s} median {wall:5.1f} s wall ({shown}), {cpu:5.1f} s CPU")
    for kind, index in (("wall", 0), ("CPU", 1)):
        ratio = statistics.median(e[index] / b[index] for e, b in zip(evals, bares, strict=True))
        print(f"ratio eval / bare ({kind}): {ratio:.2f}")
    print(f"the whole command in a fresh process (start-up included): {cold:.1f} s wall")
    print(f"JSON: {size_mb:.1f} MB ({size_mb * 1e6 / episodes / 1e3:.1f} KB per episode)")
    print(f"load average after: {os.getloadavg()[0]:.2f}")
    print("targets: in-process eval < 30 s, JSON < 50 MB")


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 3)
