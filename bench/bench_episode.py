"""Benchmark: one in-process oracle episode (reset + all steps), median over many runs.

Target (issue 3): median <= 3 ms. Two cases: the canonical tasks (kernel decisions memoised
after the first run, as in training on a fixed task) and fresh generated scenarios (every
decision computed cold by the rule engine). Prints medians and the machine.
Run: .venv/bin/python bench/bench_episode.py [runs]
"""

from __future__ import annotations

import os
import platform
import statistics
import sys
import time

from novamart.agents import AGENTS
from novamart.agents.runner import generated, run_episode
from novamart.scenarios import TASKS
from novamart.server.environment import NovamartEnvironment


def timed(env: NovamartEnvironment, task: str, seed: int | None) -> float:
    start = time.perf_counter()
    run_episode(env, AGENTS["oracle"](0), task, seed)
    return (time.perf_counter() - start) * 1000


def main(runs: int = 300) -> None:
    env = NovamartEnvironment()
    print(f"machine: {platform.machine()} {platform.processor() or ''} cpus={os.cpu_count()}")
    print(f"python {platform.python_version()} on {platform.platform()}")
    for task in TASKS:
        timed(env, task, None)  # warm the kernel memo for the canonical case
        samples = [timed(env, task, None) for _ in range(runs)]
        print(
            f"oracle episode, canonical {task:20s} median {statistics.median(samples):.3f} ms"
            f"  p90 {statistics.quantiles(samples, n=10)[-1]:.3f} ms"
        )
    fresh = [timed(env, task, 1_000_000 + seed) for task, seed in generated(runs)]
    print(
        f"oracle episode, fresh generated seeds      median {statistics.median(fresh):.3f} ms"
        f"  p90 {statistics.quantiles(fresh, n=10)[-1]:.3f} ms  (cold rule-engine decisions)"
    )
    print("target: median <= 3 ms")


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 300)
