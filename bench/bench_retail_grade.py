"""Benchmark: does grading a retail episode on its final state (novamart.retail.grade) give a
perfect episode 1.000 and keep every attack below the pass mark? Per family, the perfect
episode's lowest score, synthetic and talking with the scripted customer (the conversations
it does not mix up: two requests on one order); per attack (tests/retail/episodes.py: nothing
done, an extra or wrong write, no message, a write before identification or without a yes, a
write on another customer's order, an amount nobody computed, an insult), how many tasks offer
it, its mean and highest score, and how many pass; and the median time of one grade.
Run: PYTHONPATH=. .venv/bin/python bench/bench_retail_grade.py [seeds per family]
"""

from __future__ import annotations

import statistics
import sys
import time

from novamart.retail.grade import PASS, grade
from novamart.scenarios.retail_requests import build_task
from novamart.scenarios.retail_world import world_spec
from tests.retail.episodes import ATTACKS, converse, perfect


def main(argv: list[str]) -> None:
    seeds = int(argv[0]) if argv else 100
    families = tuple(world_spec()["requests"]["families"])
    tasks = {f: [build_task(f, s) for s in range(seeds)] for f in families}
    times = []
    for family, found in tasks.items():
        scores = []
        for t in found:
            start = time.perf_counter()
            scores.append(grade(t, t.requests, t.final, perfect(t), True).score)
            times.append(time.perf_counter() - start)
        talks = [(t, c) for t in found if (c := converse(t, t.seed)) is not None]
        talked = [grade(t, c.current, c.final, c.trail, c.closed).score for t, c in talks]
        changed = sum(c.current != t.requests for t, c in talks)
        print(f"perfect {family}: {len(scores)} tasks, lowest {min(scores):.3f}; with the "
              f"scripted customer: {len(talks)} conversations, lowest {min(talked):.3f}, "
              f"{changed} changes of mind")  # fmt: skip
    print(f"median grade {statistics.median(times) * 1000:.1f} ms")
    for name, attack in ATTACKS.items():
        scores = []
        for t in (t for found in tasks.values() for t in found):
            if (episode := attack(t)) is not None:
                scores.append(grade(t, t.requests, episode.final, episode.trail, True).score)
        passing = sum(s >= PASS for s in scores)
        print(f"{name}: {len(scores)} tasks, mean {statistics.mean(scores):.3f}, "
              f"highest {max(scores):.3f}, {passing} pass")  # fmt: skip


if __name__ == "__main__":
    main(sys.argv[1:])
