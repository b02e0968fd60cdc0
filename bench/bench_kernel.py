"""Benchmark PolicyKernel.decide() against the targets of issue 2 (a script, not a test).

- cold: median time of decide() on fact sets it has never seen, the memo of engine runs
  emptied before each (a new engine session each);
- new facts, shared run: the same on fact sets whose test outcomes the engine has seen (ids,
  days and prices differ), as most of an episode's decisions are;
- memoised: median time of decide() on a fact set it has already decided (the same object,
  and an equal copy, as when each request validates its facts anew);
- memory: resident set size before and after 10,000 cold decisions, through decide() (the
  memo keeps every decision) and through the unmemoised path (the engine alone).

Run: .venv/bin/python bench/bench_kernel.py [--calls N] [--decisions N]
"""

from __future__ import annotations

import argparse
import gc
import os
import platform
import statistics
import sys
import time
from collections.abc import Callable

import psutil

from novamart.kernel import Decision, Facts, PolicyKernel
from novamart.kernel.decide import ENGINE_RUNS, MEMO_SIZE

TARGET_COLD_MS = 1.0
TARGET_MEMO_US = 20.0
TARGET_RSS_GROWTH_PCT = 5.0
WARMUP = 200


def typical(i: int) -> Facts:
    """A typical case with every fact revealed; ``i`` makes the fact set new."""
    order_id = f"ORD-{i}"
    return Facts(
        order=dict(
            order_id=order_id,
            days_since_purchase=20 + i % 60,
            opened=i % 2 == 0,
            price=round(49.99 + i * 0.01, 2),
            category="earbuds",
        ),
        customer=dict(customer_id=f"CUST-{i % 500}", tier=("silver", "gold")[i % 2]),
        defect_check=dict(order_id=order_id, verified=i % 3 == 0),
    )


def timed(
    decide: Callable[[Facts], Decision], facts: list[Facts], cold: bool = False
) -> list[float]:
    """Seconds per call, one clock reading around each call; ``cold``: the memo of engine
    runs emptied before each (outside the clock)."""
    times = []
    for f in facts:
        if cold:
            ENGINE_RUNS.clear()
        start = time.perf_counter()
        decide(f)
        times.append(time.perf_counter() - start)
    return times


def rss_growth(
    decide: Callable[[Facts], Decision], first: int, count: int, cold: bool = False
) -> tuple[float, float]:
    """RSS (MB) before and after ``count`` new decisions (facts built inside the loop);
    ``cold``: each a run of the engine."""
    process = psutil.Process()
    gc.collect()
    before = process.memory_info().rss
    for i in range(first, first + count):
        if cold:
            ENGINE_RUNS.clear()
        decide(typical(i))
    gc.collect()
    return before / 1e6, process.memory_info().rss / 1e6


def cpu_model() -> str:
    try:
        with open("/proc/cpuinfo") as f:
            for line in f:
                if line.startswith("model name"):
                    return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or "unknown"


def verdict(ok: bool) -> str:
    return "ok" if ok else "MISSED"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--calls", type=int, default=2000, help="timed calls (>= 1000)")
    parser.add_argument("--decisions", type=int, default=10_000, help="decisions for the RSS run")
    args = parser.parse_args()

    kernel = PolicyKernel()
    for i in range(WARMUP):
        kernel.decide(typical(-1 - i))

    cold_facts = [typical(i) for i in range(args.calls)]
    cold = timed(kernel.decide, cold_facts, cold=True)
    shared = timed(kernel.decide, [typical(i) for i in range(args.calls, 2 * args.calls)])
    memo = timed(kernel.decide, [cold_facts[0]] * args.calls)
    memo_copy = timed(kernel.decide, [typical(0) for _ in range(args.calls)])
    del cold_facts

    # The unmemoised path shows the engine alone; the memoised one is measured once its
    # bounded memo (MEMO_SIZE decisions) is full, so growth there would be a leak.
    fresh = PolicyKernel()
    fresh.decide(typical(-1))
    engine_mb = rss_growth(fresh.snapshot().decide.__wrapped__, 10**6, args.decisions, cold=True)
    fill_mb = rss_growth(fresh.decide, 2 * 10**6, MEMO_SIZE)
    memo_mb = rss_growth(fresh.decide, 3 * 10**6, args.decisions)

    cold_ms = statistics.median(cold) * 1e3
    cold_p95_ms = statistics.quantiles(cold, n=20)[-1] * 1e3
    shared_ms = statistics.median(shared) * 1e3
    memo_us = statistics.median(memo) * 1e6
    memo_copy_us = statistics.median(memo_copy) * 1e6

    def growth(mb: tuple[float, float]) -> float:
        return (mb[1] - mb[0]) / mb[0] * 100

    print(f"machine   {platform.platform()}; {cpu_model()}; {os.cpu_count()} CPUs")
    print(f"python    {sys.version.split()[0]} ({platform.python_implementation()})")
    print(f"load avg  {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    print(f"rulebook  {kernel.version}; {args.calls} timed calls; warm-up {WARMUP}")
    print()
    rows = [
        ("decide() cold, median", f"{cold_ms:.3f} ms", f"<= {TARGET_COLD_MS} ms", cold_ms),
        ("decide() cold, p95", f"{cold_p95_ms:.3f} ms", "", None),
        ("decide() new facts, shared run, median", f"{shared_ms:.3f} ms", "", None),
        ("decide() memoised, median", f"{memo_us:.2f} µs", f"<= {TARGET_MEMO_US} µs", memo_us),
        (
            "decide() memoised, equal copy, median",
            f"{memo_copy_us:.2f} µs",
            f"<= {TARGET_MEMO_US} µs",
            memo_copy_us,
        ),
    ]
    for label, mb in (("engine only", engine_mb), ("decide(), memo full", memo_mb)):
        rows.append(
            (
                f"RSS over {args.decisions:,} cold, {label}",
                f"{mb[0]:.1f} -> {mb[1]:.1f} MB ({growth(mb):+.1f} %)",
                f"< {TARGET_RSS_GROWTH_PCT} %",
                growth(mb),
            )
        )
    limits = [TARGET_COLD_MS, None, None, TARGET_MEMO_US, TARGET_MEMO_US]
    limits += [TARGET_RSS_GROWTH_PCT] * 2
    print(f"{'measure':<40} {'result':<30} {'target':<10} verdict")
    for (label, result, target, value), limit in zip(rows, limits, strict=True):
        mark = "" if limit is None else verdict(value <= limit)
        print(f"{label:<40} {result:<30} {target:<10} {mark}")
    print(
        f"\nfilling the memo ({MEMO_SIZE:,} decisions): {fill_mb[0]:.1f} -> {fill_mb[1]:.1f} MB "
        f"(~{(fill_mb[1] - fill_mb[0]) / MEMO_SIZE * 1e3:.1f} KB a decision); it stays that size"
    )


if __name__ == "__main__":
    main()
