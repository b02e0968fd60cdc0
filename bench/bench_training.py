"""Benchmark: oracle episodes per second through the TRL adapter, in process.

What a trainer's rollout costs NovaMart's side: ``reset(**row)`` with a dataset row of the
train split, then each oracle action called as TRL calls a tool (by name, keyword arguments,
JSON text back), then ``get_reward()``. As in GRPO, each row is played by a group of
generations (TRL's default ``num_generations``, 8), one after another; every round takes new
rows (new seeds, every task), so a group's first episode meets cold rule-engine decisions
and the rest of the group the kernel's memo, as in training. Also reported: groups of one
(every episode cold), and the same episodes on the bare environment in the same run (what
the adapter adds). Target: >= 300 episodes/s in groups of 8.
Run: .venv/bin/python bench/bench_training.py [rows per round] [rounds]
"""

from __future__ import annotations

import os
import platform
import statistics
import sys
import time

from novamart.agents import AGENTS
from novamart.agents.runner import run_episode
from novamart.server.environment import NovamartEnvironment
from novamart.training.dataset import dataset_rows
from novamart.training.trl_env import ENVIRONMENTS, NovamartToolEnv

GROUP = 8


def adapter_round(rows: list[dict], envs: dict[str, NovamartToolEnv]) -> float:
    start = time.perf_counter()
    for row in rows:
        env = envs[row["environment"]]
        env.reset(prompt=row["prompt"], task=row["task"], seed=row["seed"])
        agent = AGENTS["oracle"](0)
        agent.start(env.episode.observation, env.episode.hidden)
        while not env.episode.done:
            action = agent.act(env.episode.observation)
            getattr(env, action.tool_name)(**action.arguments)
        if env.get_reward() != 1.0:
            raise RuntimeError(f"the oracle scored {env.get_reward()} on {row}")
    return len(rows) / (time.perf_counter() - start)


def bare_round(rows: list[dict], env: NovamartEnvironment) -> float:
    start = time.perf_counter()
    for row in rows:
        run_episode(env, AGENTS["oracle"](0), row["task"], row["seed"])
    return len(rows) / (time.perf_counter() - start)


def measure(rows: list[dict], group: int, rounds: int) -> tuple[float, float]:
    """Median episodes/s through the adapter and on the bare environment, each on rows of
    its own every round (taking turns going first)."""
    envs = {name: cls() for name, cls in ENVIRONMENTS.items()}
    bare = NovamartEnvironment()
    size = len(rows) // (2 * rounds)
    through, direct = [], []
    for i in range(rounds):
        mine = [r for r in rows[2 * i * size : (2 * i + 1) * size] for _ in range(group)]
        theirs = [r for r in rows[(2 * i + 1) * size : (2 * i + 2) * size] for _ in range(group)]
        if i % 2:
            direct.append(bare_round(theirs, bare))
            through.append(adapter_round(mine, envs))
        else:
            through.append(adapter_round(mine, envs))
            direct.append(bare_round(theirs, bare))
    return statistics.median(through), statistics.median(direct)


def main(per_round: int = 50, rounds: int = 5) -> None:
    load = ", ".join(f"{x:.2f}" for x in os.getloadavg())
    adapter_round(dataset_rows("test", stop=16), {n: c() for n, c in ENVIRONMENTS.items()})
    print(
        f"machine: {platform.processor() or platform.machine()}, {os.cpu_count()} CPUs, "
        f"Python {platform.python_version()}, load average at start {load}"
    )
    offset = 0
    for group in (GROUP, 1):
        count = 2 * rounds * per_round * (GROUP // group)
        rows = dataset_rows("train", start=offset, stop=offset + count)
        offset += count
        through, direct = measure(rows, group, rounds)
        target = "; target >= 300" if group == GROUP else ""
        print(
            f"TRL adapter, in process, groups of {group}: {through:.0f} oracle episodes/s "
            f"(median of {rounds} rounds{target}); bare environment {direct:.0f}/s "
            f"(the adapter keeps {through / direct:.0%})"
        )


if __name__ == "__main__":
    main(*(int(a) for a in sys.argv[1:3]))
