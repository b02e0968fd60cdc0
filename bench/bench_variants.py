"""Benchmark: how long a new policy variant takes to be ready (drawn, compiled into its own
content-hashed ruleset, first decision made), and then to be served from the cache.

Target (issue 11): a new variant ready in <= 50 ms, then served from the cache. The reference
in the same run: compiling the rules as written (what a reload costs).
Run: .venv/bin/python bench/bench_variants.py [variants]
"""

from __future__ import annotations

import platform
import statistics
import sys
import time

from novamart.kernel import Facts, PolicyKernel
from novamart.kernel.decide import CompiledRulebook

FACTS = Facts(
    order={"order_id": "ORD-1", "days_since_purchase": 33, "opened": True, "price": 499.0,
           "category": "phone"},
    customer={"customer_id": "CUST-1", "tier": "gold"},
)  # fmt: skip


def ms(start: float) -> float:
    return (time.perf_counter() - start) * 1000


def main(count: int = 30) -> None:
    kernel = PolicyKernel()
    print(f"python {platform.python_version()} on {platform.platform()}")
    reference = []
    for i in range(count):
        start = time.perf_counter()
        rulebook = kernel.rulebook.model_copy(update={"version": f"reference{i:03d}"})
        CompiledRulebook(rulebook).decide(FACTS)
        reference.append(ms(start))
    new, cached = [], []
    for number in range(count):
        start = time.perf_counter()
        kernel.variant(number).decide(FACTS)
        new.append(ms(start))
        start = time.perf_counter()
        kernel.variant(number).decide(FACTS)
        cached.append(ms(start))
    for label, samples in (
        ("compile the rules as written + decide (reference)", reference),
        ("new policy variant: draw, compile, first decision", new),
        ("the same variant again (cache)", cached),
    ):
        print(
            f"{label:52s} median {statistics.median(samples):7.3f} ms  max {max(samples):7.3f} ms"
        )
    print("target: a new variant ready in <= 50 ms, then served from the cache")


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 30)
