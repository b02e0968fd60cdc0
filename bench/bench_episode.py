"""Benchmark: one in-process oracle episode (reset + all steps), median over many runs.

Target (issue 3, issue 11): median <= 3 ms on every task and mode. Per task and mode: the
canonical case (kernel decisions memoised after the first run, as in training on a fixed
task) and fresh generated seeds (every decision computed cold by the rule engine); order
tasks also under policy variants (a few variants, each compiled on first use, then kept).
Prints medians, p90s and the machine.
Run: .venv/bin/python bench/bench_episode.py [runs]
"""

from __future__ import annotations

import os
import platform
import statistics
import sys
import time

from novamart.agents import AGENTS
from novamart.agents.runner import run_episode
from novamart.scenarios import MODES, TASKS
from novamart.server.environment import NovamartEnvironment

VARIANTS = 8
"""Policy variants the variant rows cycle through (each is compiled once, then cached)."""


def timed(env: NovamartEnvironment, task: str, seed: int | None, **case: object) -> float:
    start = time.perf_counter()
    run_episode(env, AGENTS["oracle"](0), task, seed, **case)
    return (time.perf_counter() - start) * 1000


def line(label: str, samples: list[float]) -> str:
    p90 = statistics.quantiles(samples, n=10)[-1]
    return f"{label:48s} median {statistics.median(samples):6.3f} ms  p90 {p90:6.3f} ms"


def main(runs: int = 300) -> None:
    env = NovamartEnvironment()
    print(f"machine: {platform.machine()} {platform.processor() or ''} cpus={os.cpu_count()}")
    print(f"python {platform.python_version()} on {platform.platform()}")
    print(f"load average {os.getloadavg()[0]:.2f} (other jobs on these cores slow every row)")
    worst = 0.0
    for task, spec in TASKS.items():
        modes = MODES if not spec.is_ticket else ("guided",)
        for mode in modes:
            case = {} if mode == "guided" else {"mode": mode}
            timed(env, task, None, **case)  # warm the kernel memo for the canonical case
            canonical = [timed(env, task, None, **case) for _ in range(runs)]
            start = 1_000_000 * (1 + MODES.index(mode))  # seeds no other row played
            fresh = [timed(env, task, start + i, **case) for i in range(runs)]
            print(line(f"{task} {mode}, canonical", canonical))
            print(line(f"{task} {mode}, fresh seeds", fresh))
            worst = max(worst, statistics.median(canonical), statistics.median(fresh))
            if not spec.is_ticket:
                varied = [
                    timed(env, task, start + 500_000 + i, policy_variant=i % VARIANTS, **case)
                    for i in range(runs)
                ]
                print(line(f"{task} {mode}, fresh seeds, {VARIANTS} variants", varied))
                worst = max(worst, statistics.median(varied))
    print(f"slowest median {worst:.3f} ms; target: median <= 3 ms on every task and mode")


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 300)
