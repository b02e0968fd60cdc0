"""Benchmark: an in-process oracle episode of a retail task through the real environment
(reset, every tool call, the grade after each step), per task, beside the oracle's
``easy_refund`` episode measured in the same run.

Issue 20's bound: a compound request's episode <= 15 ms median. Each seed is played once
first (its case drawn and its decisions made: what a trainer's first epoch pays), then the
rows time the second play of the same seeds (a case already drawn, decisions memoised), and
the first play of fresh seeds.
Run: PYTHONPATH=. .venv/bin/python bench/bench_retail_episode.py [seeds]
"""

from __future__ import annotations

import os
import statistics
import sys
import time

from novamart.agents import AGENTS
from novamart.agents.runner import run_episode
from novamart.scenarios.tasks import RETAIL_TASKS
from novamart.server.environment import NovamartEnvironment

FRESH = 1_000_000


def took_ms(env: NovamartEnvironment, task: str, seed: int) -> float:
    start = time.perf_counter()
    run = run_episode(env, AGENTS["oracle"](seed=seed), task, seed)
    took = (time.perf_counter() - start) * 1000
    assert run.final_score == 1.0, (task, seed, run.final_score)
    return took


def main(seeds: int = 50) -> None:
    print(f"load average {os.getloadavg()[0]:.2f} (other jobs on these cores slow every row)")
    env = NovamartEnvironment()
    took_ms(env, "retail_compound", FRESH - 1)  # loading the rules is the server's start
    reference = statistics.median(took_ms(env, "easy_refund", s) for s in range(seeds))
    print(
        f"{'task':<17} {'first':>8} {'again':>8} {'vs easy_refund':>15}  (median ms, {seeds} seeds)"
    )
    for number, task in enumerate(RETAIL_TASKS):
        fresh = range((number + 1) * FRESH, (number + 1) * FRESH + seeds)
        first = statistics.median(took_ms(env, task, s) for s in fresh)
        again = statistics.median(took_ms(env, task, s) for s in fresh)
        print(f"{task:<17} {first:8.2f} {again:8.2f} {again / reference:14.1f}x")
    print(f"{'easy_refund':<17} {'':8} {reference:8.2f} (the reference, oracle, seeded)")


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 50)
