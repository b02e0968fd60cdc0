"""Dump a digest of every reference agent's whole episode (each action and observation, in
order) per task, seed and mode, or compare two dumps.

dump_scores.py shows that no score moved; this shows that no episode moved at all: the same
calls, the same tool results and replies, the same rewards. Run it on the code before a change
and after (PYTHONPATH picks the code), then compare.
Run: PYTHONPATH=. .venv/bin/python bench/dump_transcripts.py dump OUT.json [seeds]
     .venv/bin/python bench/dump_transcripts.py compare BEFORE.json AFTER.json
"""

from __future__ import annotations

import hashlib
import json
import sys
from pathlib import Path

from novamart.agents import AGENTS
from novamart.agents.runner import run_episode
from novamart.scenarios.tasks import TASKS
from novamart.server.environment import MODES, NovamartEnvironment

VARYING = {"episode_id", "timestamp", "elapsed_s", "started_at"}
"""Observation keys that differ run to run whatever the code (ids, clocks)."""


def _steady(value: object) -> object:
    if isinstance(value, dict):
        return {k: _steady(v) for k, v in sorted(value.items()) if k not in VARYING}
    if isinstance(value, list):
        return [_steady(v) for v in value]
    return value


def dump(out: Path, seeds: int) -> None:
    env = NovamartEnvironment()
    digests = {}
    for agent_name, agent in AGENTS.items():
        for task, spec in TASKS.items():
            for mode in ("guided",) if spec.is_ticket else MODES:
                case = {} if spec.is_ticket else {"mode": mode}
                for seed in range(seeds):
                    run = run_episode(env, agent(seed), task, seed, keep=True, **case)
                    steps = [o.model_dump(mode="json") for o in run.observations]
                    steps += [a.model_dump(mode="json") for a in run.actions]
                    text = json.dumps(_steady(steps), sort_keys=True, default=str)
                    key = f"{agent_name} {task} {mode} {seed}"
                    digests[key] = hashlib.sha256(text.encode()).hexdigest()
    out.write_text(json.dumps(digests, indent=0, sort_keys=True))
    print(f"{len(digests)} episodes -> {out}")


def compare(before: Path, after: Path) -> None:
    old, new = json.loads(before.read_text()), json.loads(after.read_text())
    moved = sorted(k for k in old.keys() & new.keys() if old[k] != new[k])
    for key in moved[:20]:
        print(f"moved: {key}")
    print(f"{len(moved)} of {len(old.keys() & new.keys())} episodes moved")
    sys.exit(1 if moved or old.keys() != new.keys() else 0)


if __name__ == "__main__":
    if sys.argv[1:2] == ["dump"] and len(sys.argv) in (3, 4):
        dump(Path(sys.argv[2]), int(sys.argv[3]) if len(sys.argv) == 4 else 10)
    elif sys.argv[1:2] == ["compare"] and len(sys.argv) == 4:
        compare(Path(sys.argv[2]), Path(sys.argv[3]))
    else:
        sys.exit(__doc__)
