"""Sweep: a reference agent on fresh seeds of every retail task, in each mode; every episode
that scores below 1.0 is listed (task, seed, score), so a failing case can be replayed.

The oracle must score 1.000 on every case, the honest writer too (issue 20); the test suite
holds them on seeds 0-99, this sweep on seeds no test draws.
Run: PYTHONPATH=. .venv/bin/python bench/retail_fresh_sweep.py [start] [seeds] [agent] [modes]
     (defaults: 5000000 300 oracle guided,closed_book)
"""

from __future__ import annotations

import sys

from novamart.agents import AGENTS
from novamart.agents.runner import run_episode
from novamart.scenarios.tasks import RETAIL_TASKS
from novamart.server.environment import NovamartEnvironment


def main(start: int = 5_000_000, seeds: int = 300, agent: str = "oracle", modes: str = "") -> None:
    env = NovamartEnvironment()
    played = below = 0
    for mode in (modes or "guided,closed_book").split(","):
        for task in RETAIL_TASKS:
            failed = []
            for seed in range(start, start + seeds):
                run = run_episode(env, AGENTS[agent](seed=seed), task, seed, mode=mode)
                if run.final_score < 1.0:
                    failed.append((seed, run.final_score))
            played += seeds
            below += len(failed)
            print(f"{mode:<12} {task:<19} {len(failed):>4} below 1.0  {failed[:5]}", flush=True)
    print(f"{agent}: {below} of {played} episodes below 1.0 (seeds {start}..{start + seeds - 1})")


if __name__ == "__main__":
    args = sys.argv[1:]
    main(
        int(args[0]) if args else 5_000_000,
        int(args[1]) if len(args) > 1 else 300,
        args[2] if len(args) > 2 else "oracle",
        args[3] if len(args) > 3 else "",
    )
