"""How varied the retail families' optima are (issue 20 item 7: >= 1.5 bits per task).

    PYTHONPATH=. .venv/bin/python -m novamart.scenarios.retail_report --seeds 200

prints, per family, the entropy of the optimal plan's resolutions and of the plan with its
arguments' shape (items named, payment route), the commonest plans, the phrases of the
customer's opening that predict the requests' outcomes (carried out, declined, refused) more
than 0.2 above their base rate (novamart.scenarios.leaks), and the median time to draw one
task (world, requests and their optima, cold); then the median time to draw a world alone and,
as the reference measured in the same run, a seeded scenario of today's ``easy_refund`` task.
"""

from __future__ import annotations

import argparse
import statistics
import time
from collections import Counter
from collections.abc import Callable

from novamart.scenarios.generator import build_scenario
from novamart.scenarios.leaks import leaks
from novamart.scenarios.retail_customer import opening, profile
from novamart.scenarios.retail_requests import RetailTask, build_task, entropy
from novamart.scenarios.retail_world import build_world, world_spec


def family_report(family: str, seeds: int) -> dict[str, object]:
    """The figures of one family over seeds 0..seeds-1."""
    tasks: list[RetailTask] = []
    took = []
    for seed in range(seeds):
        start = time.perf_counter()
        tasks.append(build_task(family, seed))
        took.append(time.perf_counter() - start)
    plans = Counter(t.signature() for t in tasks)
    found = leaks(
        [opening(profile(t, t.seed)) for t in tasks],
        [tuple(s.status for s in t.settled) for t in tasks],
    )
    return {
        "family": family,
        "bits": entropy(t.signature() for t in tasks),
        "bits_with_arguments": entropy(t.detailed() for t in tasks),
        "refused_share": sum(s.status != "carried out" for t in tasks for s in t.settled)
        / max(1, sum(len(t.settled) for t in tasks)),
        "median_ms": statistics.median(took) * 1000,
        "commonest": plans.most_common(3),
        "leaks": [(k.phrase, k.value, round(k.rate, 2), round(k.base, 2)) for k in found],
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seeds", type=int, default=200)
    args = parser.parse_args()
    for family in world_spec()["requests"]["families"]:
        r = family_report(family, args.seeds)
        print(
            f"{r['family']:<17} {r['bits']:.2f} bits  {r['bits_with_arguments']:.2f} bits with "
            f"arguments  refused/declined {r['refused_share']:.0%}  {r['median_ms']:.1f} ms/task"
        )
        print(f"    {r['commonest']}")
        print(f"    {len(r['leaks'])} leaking phrases, worst: {r['leaks'][:2]}")
    world = _median_ms(build_world, args.seeds)
    reference = _median_ms(lambda seed: build_scenario("easy_refund", 10_000 + seed), args.seeds)
    print(f"world alone {world:.2f} ms; reference easy_refund scenario {reference:.2f} ms")


def _median_ms(draw: Callable[[int], object], seeds: int) -> float:
    took = []
    for seed in range(seeds):
        start = time.perf_counter()
        draw(seed)
        took.append(time.perf_counter() - start)
    return statistics.median(took) * 1000


if __name__ == "__main__":
    main()
