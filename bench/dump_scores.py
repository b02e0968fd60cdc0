"""Dump every reference agent's final score per task, seed and mode, or compare two dumps.

A grader change should move the scores it means to move and no other: dump before the
change, dump after, and compare; the comparison lists every (agent, task, mode) whose mean
moved, with the largest single move.
Run: .venv/bin/python bench/dump_scores.py dump OUT.json [seeds]
     .venv/bin/python bench/dump_scores.py compare BEFORE.json AFTER.json
"""

from __future__ import annotations

import json
import statistics
import sys
from pathlib import Path

from novamart.agents import AGENTS
from novamart.agents.runner import run_episode
from novamart.scenarios.tasks import TASKS
from novamart.server.environment import MODES, NovamartEnvironment


def dump(out: Path, seeds: int) -> None:
    env = NovamartEnvironment()
    rows = []
    for agent_name, agent in AGENTS.items():
        for task, spec in TASKS.items():
            for mode in ("guided",) if spec.is_ticket else MODES:
                case = {} if spec.is_ticket else {"mode": mode}
                for seed in range(seeds):
                    score = run_episode(env, agent(seed), task, seed, **case).final_score
                    rows.append(
                        {
                            "agent": agent_name,
                            "task": task,
                            "mode": mode,
                            "seed": seed,
                            "score": score,
                        }
                    )
    out.write_text(json.dumps(rows))
    print(f"{len(rows)} episodes -> {out}")


def _by_key(path: Path) -> dict[tuple[str, str, str, int], float]:
    return {
        (r["agent"], r["task"], r["mode"], r["seed"]): r["score"]
        for r in json.loads(path.read_text())
    }


def compare(before: Path, after: Path) -> None:
    old, new = _by_key(before), _by_key(after)
    groups: dict[tuple[str, str, str], list[tuple[float, float]]] = {}
    for key in old.keys() & new.keys():
        groups.setdefault(key[:3], []).append((old[key], new[key]))
    moved = 0
    for (agent, task, mode), pairs in sorted(groups.items()):
        shifts = [b - a for a, b in pairs]
        if all(abs(s) < 1e-9 for s in shifts):
            continue
        moved += 1
        print(
            f"{agent:22s} {task:22s} {mode:12s} mean {statistics.mean(a for a, _ in pairs):.3f}"
            f" -> {statistics.mean(b for _, b in pairs):.3f}; {sum(abs(s) > 1e-9 for s in shifts)}"
            f"/{len(pairs)} moved, largest {min(shifts, key=lambda s: -abs(s)):+.3f}"
        )
    print(f"{moved} of {len(groups)} (agent, task, mode) groups moved")


if __name__ == "__main__":
    if sys.argv[1] == "dump":
        dump(Path(sys.argv[2]), int(sys.argv[3]) if len(sys.argv) > 3 else 5)
    else:
        compare(Path(sys.argv[2]), Path(sys.argv[3]))
