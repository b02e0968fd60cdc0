"""Benchmark: where a new compound episode's wall time goes, part by part, in process.

Issue 20's bounds (reset <= 5 ms, episode <= 15 ms) are not met, and no single part of an
episode holds most of its time: this says which parts do. Over ``episodes`` new compound
oracle episodes after a warm-up, the mean ms per episode spent inside each part, by timing
the functions that make them (inclusive: an indented part is inside the last part above it
indented less, and parts at one depth may overlap: the first request's candidates are among
those decided);
beside them, how many times the draw decides a candidate and settles one per reset, and how
many messages the grader reads per episode (the reader's memo misses: a text read once).
The timers add a little to every part; the parts' shares, not their sum, are the result.
Run: PYTHONPATH=. .venv/bin/python bench/bench_retail_split.py [episodes]
"""

from __future__ import annotations

import os
import statistics
import sys
import time
from collections import Counter
from collections.abc import Callable
from typing import Any

from novamart.agents import AGENTS
from novamart.agents.runner import run_episode
from novamart.language import reader
from novamart.retail import grade, messages
from novamart.scenarios import retail_requests
from novamart.server import retail_run
from novamart.server.environment import NovamartEnvironment

TASK = "retail_compound"
WARM = 20
FRESH = 4_000_000

PARTS: list[tuple[str, Any, str]] = [
    ("reset: the case drawn", retail_run, "case"),
    ("  the world", retail_requests, "build_world"),
    ("  the customer and its first request", retail_requests, "_first_fitting"),
    ("  each candidate decided", retail_requests._Candidates, "option"),
    ("  each request settled (its optimum and the world after)", retail_requests, "settle"),
    ("tool calls", retail_run.tools, "call"),
    ("grading after every step", retail_run, "grade"),
    ("  the optimal plan", grade, "plan"),
    ("  the outcome (the world against the plan)", grade, "outcome"),
    ("  the process", grade, "process"),
    ("  communication", grade, "communication"),
    ("    courtesy (reads each new message)", messages, "rude"),
    ("    claims borne out", messages, "unsupported"),
]
"""What is timed: a label, the module or class holding the function, its name there."""


def timed(spent: Counter[str], calls: Counter[str], label: str, function: Callable) -> Callable:
    """``function``, adding its wall time and calls to ``label``'s."""

    def wrapper(*args: Any, **kwargs: Any) -> Any:
        start = time.perf_counter()
        try:
            return function(*args, **kwargs)
        finally:
            spent[label] += time.perf_counter() - start
            calls[label] += 1

    return wrapper


def main(episodes: int = 200) -> None:
    print(f"load average {os.getloadavg()[0]:.2f} (other jobs on these cores slow every row)")
    spent: Counter[str] = Counter()
    calls: Counter[str] = Counter()
    for label, owner, name in PARTS:
        setattr(owner, name, timed(spent, calls, label, getattr(owner, name)))
    env = NovamartEnvironment()
    oracle = AGENTS["oracle"]
    for seed in range(WARM):  # the rules loaded and the reader's tables built: a server's start
        run_episode(env, oracle(seed=seed), TASK, FRESH - WARM + seed)
    spent.clear()
    calls.clear()
    read_before = reader.read.cache_info().misses + reader.rudeness.cache_info().misses
    took = []
    for seed in range(FRESH, FRESH + episodes):
        start = time.perf_counter()
        run_episode(env, oracle(seed=seed), TASK, seed)
        took.append((time.perf_counter() - start) * 1000)
    read = reader.read.cache_info().misses + reader.rudeness.cache_info().misses - read_before
    print(
        f"new {TASK} oracle episodes: median {statistics.median(took):.2f} ms, "
        f"mean {statistics.mean(took):.2f} ms ({episodes} episodes, timers included)"
    )
    print(f"{'part (inclusive)':<58} {'ms/episode':>10} {'share':>6} {'calls/episode':>14}")
    whole = statistics.mean(took)
    for label, _, _ in PARTS:
        ms = spent[label] / episodes * 1000
        print(f"{label:<58} {ms:10.2f} {ms / whole:6.0%} {calls[label] / episodes:14.1f}")
    print(f"messages read per episode (the reader's misses): {read / episodes:.1f}")


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 200)
