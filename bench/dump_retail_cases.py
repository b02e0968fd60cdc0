"""Dump a digest of every retail task's cases and oracle episodes, or compare two dumps.

A speed change to the retail draw or the kernel must leave every case as it was: for seeds
0-29 of each retail task, the world, the customer, each request's settled optimum, amount and
reasons, the world after the plan and the customer's profile; and three oracle episodes per
task (every action and observation, the rewards, the final score). Run it on the code before
a change and after (PYTHONPATH picks the code), then compare.
Run: PYTHONPATH=. .venv/bin/python bench/dump_retail_cases.py dump OUT.json
     .venv/bin/python bench/dump_retail_cases.py compare BEFORE.json AFTER.json
"""

from __future__ import annotations

import hashlib
import json
import sys
from pathlib import Path

from bench.dump_transcripts import _steady, compare
from novamart.agents import AGENTS
from novamart.agents.runner import run_episode
from novamart.scenarios.retail_customer import case
from novamart.scenarios.tasks import RETAIL_TASKS
from novamart.server.environment import NovamartEnvironment

CASES, EPISODES = 30, 3


def _digest(value: object) -> str:
    return hashlib.sha256(json.dumps(value, sort_keys=True, default=str).encode()).hexdigest()


def dump(out: Path) -> None:
    digests = {}
    for task in RETAIL_TASKS:
        for seed in range(CASES):
            drawn, profile = case(task, seed)
            habits = (profile.customer_id, profile.wishes, profile.identify_by, profile.other)
            habits += (profile.yes, profile.tone, profile.greeting, profile.order_numbers)
            record = {
                "world": drawn.world.digest(),
                "final": drawn.final.digest(),
                "customer": drawn.customer_id,
                "settled": [repr(s) for s in drawn.settled],
                "profile": repr(habits),
            }
            digests[f"case {task} {seed}"] = _digest(record)
    env = NovamartEnvironment()
    for task in RETAIL_TASKS:
        for seed in range(EPISODES):
            run = run_episode(env, AGENTS["oracle"](seed=seed), task, seed, keep=True)
            steps = [o.model_dump(mode="json") for o in run.observations]
            steps += [a.model_dump(mode="json") for a in run.actions]
            digests[f"episode {task} {seed}"] = _digest(
                [_steady(steps), run.final_score, run.rewards]
            )
    text = json.dumps(digests, indent=0, sort_keys=True)
    out.write_text(text)
    print(f"{len(digests)} digests -> {out} (sha256 {hashlib.sha256(text.encode()).hexdigest()})")


if __name__ == "__main__":
    if sys.argv[1:2] == ["dump"] and len(sys.argv) == 3:
        dump(Path(sys.argv[2]))
    elif sys.argv[1:2] == ["compare"] and len(sys.argv) == 4:
        compare(Path(sys.argv[2]), Path(sys.argv[3]))
    else:
        sys.exit(__doc__)
