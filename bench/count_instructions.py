"""Benchmark: instructions per new retail reset and per oracle episode, counted by valgrind.

Wall time on shared cores moves by up to half from one run to the next, which hides the
change a speed-up makes. The instructions a reset executes do not move: each is counted here
with valgrind's cachegrind (no cache simulation) and ``PYTHONHASHSEED=0``, as the count of a
child process that draws ``count`` new cases (or plays ``count`` oracle episodes) less the
count of the same child drawing none (its start: imports, rules, the first case). With
``--against DIR`` the same is counted on another checkout (a ``git worktree`` of an older
commit) with this venv, and the ratio printed: what a change saves, without the noise.
The garbage collector is off in the children unless ``--collector``: a collection runs when
the allocations since the last one cross a threshold, so one more or one fewer full collection
(a few hundred thousand objects walked) falls in or out of the counted cases with any change
and moves a count by millions; its share is wall time's (``bench_retail_*``).
Needs valgrind (not a project dependency): not a ``bench_*`` script, so ``make bench`` and the CI
do not run it; counting takes a few minutes.
Run: PYTHONPATH=. .venv/bin/python bench/count_instructions.py [--against DIR] [--count N]
     [--tasks retail_compound,retail_late_return] [--collector]
"""

from __future__ import annotations

import argparse
import gc
import os
import re
import shutil
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

HERE = Path(__file__).resolve().parents[1]
FRESH = 8_000_000
REFS = re.compile(r"I\s+refs:\s+([\d,]+)")


def child(what: str, task: str, count: int, collector: bool) -> None:
    """Draw ``count`` new cases of ``task`` (``reset``) or play ``count`` oracle episodes."""
    if not collector:
        gc.disable()
    if what == "reset":
        from novamart.scenarios.retail_customer import case

        for seed in range(count + 1):
            case(task, FRESH + seed if seed else 0)
        return
    from novamart.agents import AGENTS
    from novamart.agents.runner import run_episode
    from novamart.server.environment import NovamartEnvironment

    env = NovamartEnvironment()
    for seed in range(count + 1):
        run_episode(env, AGENTS["oracle"](seed=seed), task, FRESH + seed if seed else 0)


def counted(tree: Path, what: str, task: str, count: int, collector: bool) -> int:
    """The instructions of a child run on ``tree``'s code."""
    command = [
        "valgrind", "--tool=cachegrind", "--cache-sim=no", "--cachegrind-out-file=/dev/null",
        sys.executable, __file__,  # this script, importing the tree's novamart
        "--child", what, task, str(count), *(["--collector"] if collector else []),
    ]  # fmt: skip
    env = {**os.environ, "PYTHONPATH": str(tree), "PYTHONHASHSEED": "0"}
    run = subprocess.run(command, cwd=tree, env=env, capture_output=True, text=True, check=True)
    found = REFS.search(run.stderr)
    if found is None:
        raise SystemExit(f"valgrind printed no instruction count:\n{run.stderr[-2000:]}")
    return int(found.group(1).replace(",", ""))


def per_run(tree: Path, what: str, task: str, count: int, collector: bool) -> tuple[float, int]:
    """Millions of instructions per reset or episode in ``tree``, and the count of the child
    drawing none (its start: it varies by some tens of millions from one run to the next, so
    a per-reset figure moves by that over ``count``)."""
    with ThreadPoolExecutor(max_workers=2) as pool:  # the two children on two cores
        start, whole = pool.map(lambda n: counted(tree, what, task, n, collector), (0, count))
    return (whole - start) / count / 1e6, start


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--child", nargs=3, metavar=("WHAT", "TASK", "COUNT"))
    parser.add_argument("--against", type=Path, help="another checkout, counted the same way")
    parser.add_argument("--count", type=int, default=50, help="resets and episodes per count")
    parser.add_argument("--tasks", default="retail_compound,retail_late_return")
    parser.add_argument("--collector", action="store_true", help="count the collector's work")
    args = parser.parse_args()
    if args.child:
        child(args.child[0], args.child[1], int(args.child[2]), args.collector)
        return
    if shutil.which("valgrind") is None:
        raise SystemExit("count_instructions needs valgrind on PATH (it counts instructions)")
    trees = [HERE, *([args.against.resolve()] if args.against else [])]
    print(f"garbage collector {'counted' if args.collector else 'off'} in the children")
    print(f"{'what':<8} {'task':<19} " + " ".join(f"{t.name:>12}" for t in trees))
    for what in ("reset", "episode"):
        for task in args.tasks.split(","):
            runs = [per_run(tree, what, task, args.count, args.collector) for tree in trees]
            counts = [c for c, _ in runs]
            ratio = f"   {counts[0] / counts[1]:.2f}x" if len(counts) > 1 else ""
            shown = " ".join(f"{c:11.1f}M" for c in counts)
            starts = ", ".join(f"{s / 1e9:.3f}G" for _, s in runs)
            print(f"{what:<8} {task:<19} {shown}{ratio}   (instructions per {what}; "
                  f"the start {starts})")  # fmt: skip


if __name__ == "__main__":
    main()
