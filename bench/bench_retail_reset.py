"""Benchmark: a retail reset, ``case(family, seed)`` (the task and its customer), per family.

Issue 20's bound is reset <= 5 ms. Per family, over fresh seeds (each family its own, so no
world or case drawn before is reused): the first call of a seed (world, requests decided,
customer drawn), the same with every kernel memo forgotten first (nothing any decision before
prepared), and the second call of the seed (kept: a lookup). Beside them, measured in the same
run, a seeded scenario of today's ``easy_refund`` task, as retail_report.py has it.
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
from novamart.scenarios.retail_world import world_spec

FRESH = 1_000_000
"""Seeds of family k start at (k + 1) * FRESH: none of them is drawn by another row."""


def took_ms(call: Callable[[], object], before: Callable[[], None] = lambda: None) -> float:
    before()
    start = time.perf_counter()
    call()
    return (time.perf_counter() - start) * 1000


def family_row(number: int, family: str, seeds: int) -> tuple[float, float, float]:
    """Medians (ms) of the first call, the first with kernel memos forgotten, the second."""
    first, kept = [], []
    start = (number + 1) * FRESH
    for seed in range(start, start + seeds):
        first.append(took_ms(lambda s=seed: case(family, s)))
        kept.append(took_ms(lambda s=seed: case(family, s)))
    forgotten = [
        took_ms(lambda s=seed: case(family, s), forget_decisions)
        for seed in range(start + FRESH // 2, start + FRESH // 2 + seeds)
    ]
    return statistics.median(first), statistics.median(forgotten), statistics.median(kept)


def main(seeds: int = 100) -> None:
    print(f"load average {os.getloadavg()[0]:.2f} (other jobs on these cores slow every row)")
    case("compound", 0)  # loading the rulebook is the server's start, not a reset's
    print(
        f"{'family':<17} {'first':>8} {'cold kernel':>12} {'kept':>8}   (median ms, {seeds} seeds)"
    )
    for number, family in enumerate(world_spec()["requests"]["families"]):
        first, forgotten, kept = family_row(number, family, seeds)
        print(f"{family:<17} {first:8.2f} {forgotten:12.2f} {kept:8.3f}")
    reference = statistics.median(
        took_ms(lambda s=seed: build_scenario("easy_refund", 10_000 + s)) for seed in range(seeds)
    )
    print(f"reference: seeded easy_refund scenario {reference:.2f} ms")


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 100)
