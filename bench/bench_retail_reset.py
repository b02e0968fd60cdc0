"""Benchmark: a retail reset, ``case(task, seed)`` (the task's case and its customer), per task.

Issue 20's bound is reset <= 5 ms. Per retail task, over fresh seeds (each task its own, so no
world or case drawn before is reused): the first call of a seed (world, requests decided,
customer drawn), the same with every kernel memo forgotten first (nothing any decision before
prepared), and the second call of the seed (kept: a lookup); then the world alone of new seeds.
Beside them, measured in the same run, a seeded scenario of today's ``easy_refund`` task, as
retail_report.py has it.
Run: PYTHONPATH=. .venv/bin/python bench/bench_retail_reset.py [seeds]
"""

from __future__ import annotations

import os
import statistics
import sys
import time
from collections.abc import Callable

from novamart.kernel.decide import forget_decisions
from novamart.scenarios.generator import build_scenario
from novamart.scenarios.retail_customer import case
from novamart.scenarios.retail_world import build_world
from novamart.scenarios.tasks import RETAIL_TASKS

FRESH = 1_000_000
"""Seeds of task k start at (k + 1) * FRESH: none of them is drawn by another row."""


def took_ms(call: Callable[[], object], before: Callable[[], None] = lambda: None) -> float:
    before()
    start = time.perf_counter()
    call()
    return (time.perf_counter() - start) * 1000


def task_row(number: int, task: str, seeds: int) -> tuple[float, float, float]:
    """Medians (ms) of the first call, the first with kernel memos forgotten, the second."""
    first, kept = [], []
    start = (number + 1) * FRESH
    for seed in range(start, start + seeds):
        first.append(took_ms(lambda s=seed: case(task, s)))
        kept.append(took_ms(lambda s=seed: case(task, s)))
    forgotten = [
        took_ms(lambda s=seed: case(task, s), forget_decisions)
        for seed in range(start + FRESH // 2, start + FRESH // 2 + seeds)
    ]
    return statistics.median(first), statistics.median(forgotten), statistics.median(kept)


def main(seeds: int = 100) -> None:
    print(f"load average {os.getloadavg()[0]:.2f} (other jobs on these cores slow every row)")
    case("retail_compound", 0)  # loading the rulebook is the server's start, not a reset's
    print(f"{'task':<17} {'first':>8} {'cold kernel':>12} {'kept':>8}   (median ms, {seeds} seeds)")
    for number, task in enumerate(RETAIL_TASKS):
        first, forgotten, kept = task_row(number, task, seeds)
        print(f"{task:<17} {first:8.2f} {forgotten:12.2f} {kept:8.3f}")
    worlds = range((len(RETAIL_TASKS) + 1) * FRESH, (len(RETAIL_TASKS) + 1) * FRESH + seeds)
    world = statistics.median(took_ms(lambda s=seed: build_world(s)) for seed in worlds)
    print(f"the world alone (build_world of a new seed): {world:.2f} ms")
    reference = statistics.median(
        took_ms(lambda s=seed: build_scenario("easy_refund", 10_000 + s)) for seed in range(seeds)
    )
    print(f"reference: seeded easy_refund scenario {reference:.2f} ms")


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 100)
