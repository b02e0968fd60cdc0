"""Benchmark: what a long-lived process holds after many new retail episodes, and what
Python's garbage collector costs them, in process.

A collection walks every object the collector tracks in its generation; a full one walks them
all: the rules and the reader's tables, the cases of recent seeds, and whatever the memos keep.
A worker plays episode after episode on new seeds (a trainer's rollouts, an evaluation), so
what it keeps must be bounded by what is reused, not by how long it has run. Over
``episodes`` new compound episodes after a warm-up: at ``checkpoints`` points, the objects
tracked, the retail worlds alive (a full collection first, not counted below) and the
resident memory; then, per generation, the collections the collector made on its own, the
time they took (``gc.callbacks``) and its share of the episodes' wall time.
``count_instructions.py`` counts with the collector off; this is its share.
Run: PYTHONPATH=. .venv/bin/python bench/bench_collector.py [episodes] [checkpoints]
"""

from __future__ import annotations

import gc
import os
import sys
import time
from typing import Any

from novamart.agents import AGENTS
from novamart.agents.runner import run_episode
from novamart.scenarios.retail_world import World
from novamart.server.environment import NovamartEnvironment

TASK = "retail_compound"
WARM = 40
FRESH = 3_000_000


class Stopwatch:
    """The collector's time, collections and longest pause per generation, from its
    callbacks (off while ``paused``: a census's own collection)."""

    def __init__(self) -> None:
        self.spent = [0.0, 0.0, 0.0]
        self.runs = [0, 0, 0]
        self.longest = [0.0, 0.0, 0.0]
        self.paused = False
        self._started = 0.0

    def __call__(self, phase: str, info: dict[str, Any]) -> None:
        if self.paused:
            return
        if phase == "start":
            self._started = time.perf_counter()
            return
        took = time.perf_counter() - self._started
        generation = info["generation"]
        self.spent[generation] += took
        self.runs[generation] += 1
        self.longest[generation] = max(self.longest[generation], took)


def resident_mb() -> float:
    """This process's resident memory now (Linux: /proc/self/statm), in MB."""
    with open("/proc/self/statm") as statm:
        pages = int(statm.read().split()[1])
    return pages * os.sysconf("SC_PAGE_SIZE") / 2**20


def census(watch: Stopwatch, played: int) -> None:
    """One checkpoint's line: objects tracked and worlds alive after a full collection."""
    watch.paused = True
    gc.collect()
    tracked = gc.get_objects()
    worlds = sum(1 for o in tracked if type(o) is World)
    watch.paused = False
    print(f"{played:>9} {len(tracked):>16,} {worlds:>13,} {resident_mb():>8.0f}", flush=True)


def main(episodes: int = 1500, checkpoints: int = 5) -> None:
    print(f"load average {os.getloadavg()[0]:.2f} (other jobs on these cores slow every row)")
    env = NovamartEnvironment()
    for seed in range(WARM):
        run_episode(env, AGENTS["oracle"](seed=seed), TASK, FRESH + seed)
    watch = Stopwatch()
    gc.callbacks.append(watch)
    every = max(1, episodes // checkpoints)
    print(f"{'episodes':>9} {'tracked objects':>16} {'worlds alive':>13} {'RSS MB':>8}")
    took = 0.0
    for played in range(episodes):
        if played % every == 0:
            census(watch, played)
        start = time.perf_counter()
        run_episode(env, AGENTS["oracle"](seed=played), TASK, FRESH + WARM + played)
        took += time.perf_counter() - start
    census(watch, episodes)
    gc.callbacks.remove(watch)
    print(f"{episodes} new {TASK} episodes: {took * 1000 / episodes:.2f} ms each on average")
    for generation in range(3):
        spent = watch.spent[generation]
        runs = watch.runs[generation]
        each = spent * 1000 / runs if runs else 0.0
        print(
            f"generation {generation}: {runs:4d} collections, {each:7.2f} ms each (longest "
            f"{watch.longest[generation] * 1000:.0f}), {spent * 1000 / episodes:5.2f} ms an "
            f"episode ({spent / took:5.1%} of the time)"
        )


if __name__ == "__main__":
    main(*(int(a) for a in sys.argv[1:3]))
