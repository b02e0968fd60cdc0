"""Benchmark: ``novamart eval`` of the README's baseline run (the command docs/baseline.md
names: 13 reference agents x all tasks x 100 episodes), trajectories included, and the
size of its JSON.

Targets (issue 14): under 30 s in-process, JSON under 50 MB. Measured three ways:
- the command in this process (imports already done), median of the runs, with --out;
- the same episodes played bare (novamart.agents.runner, nothing recorded) in the same run,
  as the reference: the ratio is what recording trajectories and writing the results cost;
- the whole command once in a fresh interpreter (start-up and imports included), as a
  user runs it;
- the bare episodes once more, agent by agent instead of case by case, to show what the
  order costs with the kernel's bounded memo.
Run: .venv/bin/python bench/bench_eval.py [runs]
"""

from __future__ import annotations

import os
import platform
import shlex
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
from novamart.server.environment import NovamartEnvironment

ROOT = Path(__file__).resolve().parents[1]
BASELINE = ROOT / "docs" / "baseline.md"
OUTPUTS = ("--out", "--chart", "--markdown", "--html", "--transcripts")


def baseline_command() -> list[str]:
    """The run docs/baseline.md was made by (the README's), without its output options."""
    line = next(x for x in BASELINE.read_text().splitlines() if x.startswith("novamart eval"))
    words = shlex.split(line)[1:]
    kept = []
    for i, word in enumerate(words):
        if word in OUTPUTS or (i and words[i - 1] in OUTPUTS):
            continue
        kept.append(word)
    return kept


COMMAND = baseline_command()
AGENT_NAMES = COMMAND[COMMAND.index("--agent") + 1].split(",")
TASK_NAMES = COMMAND[COMMAND.index("--tasks") + 1].split(",")
EPISODES = int(COMMAND[COMMAND.index("--episodes") + 1])


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
    """The same episodes in the same order (case by case, every agent in turn), nothing
    recorded: the reference."""
    env = NovamartEnvironment()
    for task in TASK_NAMES:
        for seed in range(EPISODES):
            for name in AGENT_NAMES:
                run_episode(env, AGENTS[name](seed), task, seed)


def bare_agent_by_agent() -> None:
    """The same episodes agent by agent: each agent meets every case's decisions after the
    bounded memo has forgotten them (why novamart eval plays case by case)."""
    env = NovamartEnvironment()
    for name in AGENT_NAMES:
        for task in TASK_NAMES:
            for seed in range(EPISODES):
                run_episode(env, AGENTS[name](seed), task, seed)


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
    episodes = len(AGENT_NAMES) * len(TASK_NAMES) * EPISODES
    with tempfile.TemporaryDirectory() as folder:
        out = Path(folder) / "results.json"
        bare()  # warm-up: the kernel's memo and the knowledge base's index
        evals, bares = [], []
        for _ in range(runs):  # interleaved, so both see the same machine
            evals.append(timed(lambda: in_process(out)))
            bares.append(timed(bare))
        size_mb = out.stat().st_size / 1e6
        cold = fresh_process(out)
    by_agent = timed(bare_agent_by_agent)
    print(f"{episodes} episodes ({len(AGENT_NAMES)} agents x {len(TASK_NAMES)} tasks x {EPISODES})")
    for name, samples in (("novamart eval --out, in-process", evals), ("bare episodes", bares)):
        wall = statistics.median(t for t, _ in samples)
        cpu = statistics.median(c for _, c in samples)
        shown = ", ".join(f"{t:.1f}" for t, _ in samples)
        print(f"{name:32s} median {wall:5.1f} s wall ({shown}), {cpu:5.1f} s CPU")
    for kind, index in (("wall", 0), ("CPU", 1)):
        ratio = statistics.median(e[index] / b[index] for e, b in zip(evals, bares, strict=True))
        print(f"ratio eval / bare ({kind}): {ratio:.2f}")
    print(f"the whole command in a fresh process (start-up included): {cold:.1f} s wall")
    print(
        f"bare episodes agent by agent (not case by case), once: {by_agent[0]:.1f} s wall, "
        f"{by_agent[1]:.1f} s CPU"
    )
    print(f"JSON: {size_mb:.1f} MB ({size_mb * 1e6 / episodes / 1e3:.1f} KB per episode)")
    print(f"load average after: {os.getloadavg()[0]:.2f}")
    print("targets: in-process eval < 30 s, JSON < 50 MB")


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 3)
