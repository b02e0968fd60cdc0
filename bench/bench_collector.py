"""Benchmark: what Python's garbage collector costs the oracle's retail episodes, in process.

A collection walks every object the collector tracks in its generation; a full one walks them
all, and a process that loaded the rules and played a few hundred episodes tracks several
hundred thousand (the rules and the reader's tables, and the bounded memos' entries). Per
generation, over ``episodes`` new compound episodes after a warm-up: the collections, the
time they took (``gc.callbacks``) and its share of the episodes' wall time, then the objects
tracked. ``count_instructions.py`` counts with the collector off; this is its share.
Run: PYTHONPATH=. .venv/bin/python bench/bench_collector.py [episodes]
"""

from __future__ import annotations

import gc
import os
import sys
import time
from typing import Any

from novamart.agents import AGENTS
from novamart.agents.runner import run_episode
from novamart.server.environment import NovamartEnvironment

TASK = "retail_compound"
WARM = 40
FRESH = 3_000_000


class Stopwatch:
    """The collector's time and collections per generation, from its callbacks."""

    def __init__(self) -> None:
        self.spent = [0.0, 0.0, 0.0]
        self.runs = [0, 0, 0]
        self._started = 0.0

    def __call__(self, phase: str, info: dict[str, Any]) -> None:
        if phase == "start":
            self._started = time.perf_counter()
            return
        self.spent[info["generation"]] += time.perf_counter() - self._started
        self.runs[info["generation"]] += 1


def main(episodes: int = 200) -> None:
    print(f"load average {os.getloadavg()[0]:.2f} (other jobs on these cores slow every row)")
    env = NovamartEnvironment()
    for seed in range(WARM):
        run_episode(env, AGENTS["oracle"](seed=seed), TASK, FRESH + seed)
    watch = Stopwatch()
    gc.callbacks.append(watch)
    start = time.perf_counter()
    for seed in range(WARM, WARM + episodes):
        run_episode(env, AGENTS["oracle"](seed=seed), TASK, FRESH + seed)
    took = time.perf_counter() - start
    gc.callbacks.remove(watch)
    print(f"{episodes} new {TASK} episodes: {took * 1000 / episodes:.2f} ms each on average")
    for generation in range(3):
        spent = watch.spent[generation]
        runs = watch.runs[generation]
        each = spent * 1000 / runs if runs else 0.0
        print(
            f"generation {generation}: {runs:4d} collections, {each:7.2f} ms each, "
            f"{spent * 1000 / episodes:5.2f} ms an episode ({spent / took:5.1%} of the time)"
        )
    print(f"objects tracked at the end: {len(gc.get_objects()):,}")


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 200)
