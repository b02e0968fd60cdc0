"""Benchmark: what a new retail case's draw costs once the kernel's engine memo is warm (a
server some hundreds of resets in), per task: the median wall and CPU time of ``case(task,
seed)`` on new seeds, and per case how many candidates' status the draw asked the grants for
(``granted_status``), how many calls it decided (``settle_call``) and how many engine
runs it missed. CPU time is steadier than wall time on shared cores.
Run: PYTHONPATH=. .venv/bin/python bench/bench_retail_draw.py [warm] [seeds]
"""

from __future__ import annotations

import statistics
import sys
import time
from collections import Counter
from collections.abc import Callable
from typing import Any

import novamart.scenarios.retail_requests as requests
from novamart.kernel.decide import ENGINE_RUNS
from novamart.scenarios.retail_customer import case
from novamart.scenarios.tasks import RETAIL_TASKS

CALLS: Counter[str] = Counter()


def counted(name: str) -> None:
    """Count the draw's calls of ``requests.<name>`` (the module's own name for it)."""
    original: Callable[..., Any] = getattr(requests, name)

    def call(*args: Any, **kwargs: Any) -> Any:
        CALLS[name] += 1
        return original(*args, **kwargs)

    setattr(requests, name, call)


def main(warm: int = 300, seeds: int = 100) -> None:
    for name in ("granted_status", "settle_call"):
        counted(name)
    print(f"{'task':<19} {'wall':>6} {'cpu':>6} {'status':>7} {'decided':>8} {'engine':>7}")
    for number, task in enumerate(RETAIL_TASKS):
        base = (number + 1) * 10_000_000
        for seed in range(base, base + warm):
            case(task, seed)
        CALLS.clear()
        misses = ENGINE_RUNS.misses
        wall, cpu = [], []
        for seed in range(base + warm, base + warm + seeds):
            start, start_cpu = time.perf_counter(), time.process_time()
            case(task, seed)
            wall.append(time.perf_counter() - start)
            cpu.append(time.process_time() - start_cpu)
        print(
            f"{task:<19} {statistics.median(wall) * 1000:6.2f} {statistics.median(cpu) * 1000:6.2f}"
            f" {CALLS['granted_status'] / seeds:7.1f} {CALLS['settle_call'] / seeds:8.1f}"
            f" {(ENGINE_RUNS.misses - misses) / seeds:7.2f}   (ms median; calls per case)"
        )


if __name__ == "__main__":
    main(*(int(a) for a in sys.argv[1:3]))
