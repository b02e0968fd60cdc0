"""Benchmark: what /metrics costs a step, in process (target: at most 5 % of the step).

The server's environment (novamart.server.served) times each step and counts episodes and
scores for /metrics; NovamartEnvironment does none of that. Both replay the same recorded
heuristic episodes (reset + tool calls), each episode both ways back to back, over rounds.
Reported: the median time a step takes over the rounds, each way, and the overhead (also
between the fastest rounds; on a shared machine this A/B moves by several percent either
way); the cost of what a step adds alone (two clock reads and one histogram observation,
timed over many calls), which is the steadier figure; and what one scrape of /metrics costs.
Run once in one-process mode and once in prometheus-client's multiprocess mode (what a
server of several workers uses: values in memory-mapped files).
Run: .venv/bin/python bench/bench_metrics.py [rounds] [episodes]
"""

from __future__ import annotations

import os
import statistics
import subprocess
import sys
import tempfile
import time

from openenv.core.env_server.mcp_types import CallToolAction

from novamart.agents.heuristic import HeuristicAgent
from novamart.agents.runner import generated
from novamart.kernel import default_kernel
from novamart.server.environment import NovamartEnvironment
from novamart.server.metrics import Metrics, multiprocess_mode
from novamart.server.rules_sync import RulesSync
from novamart.server.served import served_environment

Episode = tuple[str, int, list[CallToolAction]]


def record(episodes: int) -> list[Episode]:
    recorded = []
    for task, seed in generated(episodes, start=70_000):
        env = NovamartEnvironment()
        observation = env.reset(task=task, seed=seed)
        agent, actions = HeuristicAgent(seed=seed), []
        agent.start(observation)
        while not observation.done:
            actions.append(agent.act(observation))
            observation = env.step(actions[-1])
        recorded.append((task, seed, actions))
    return recorded


def episode_steps(env: NovamartEnvironment, episode: Episode) -> float:
    """Seconds the episode's steps took (its reset not timed)."""
    task, seed, actions = episode
    env.reset(task=task, seed=seed)
    spent = 0.0
    for action in actions:
        start = time.perf_counter()
        env.step(action)
        spent += time.perf_counter() - start
    return spent


def measure(rounds: int, episodes: int) -> None:
    recorded = record(episodes)
    steps = sum(len(actions) for _, _, actions in recorded)
    metrics = Metrics()
    plain = NovamartEnvironment()
    served = served_environment(RulesSync(default_kernel(), None), metrics)()
    without, with_metrics = [], []
    for round_ in range(rounds + 1):  # round 0 warms both
        spent = [0.0, 0.0]
        for episode in recorded:  # each episode both ways, back to back: the same load
            first = round_ % 2  # and which goes first alternates
            spent[first] += episode_steps((plain, served)[first], episode)
            spent[1 - first] += episode_steps((plain, served)[1 - first], episode)
        if round_:
            without.append(spent[0] / steps)
            with_metrics.append(spent[1] / steps)
    base, measured = statistics.median(without), statistics.median(with_metrics)
    fastest = min(with_metrics) / min(without) - 1
    added = instrumentation_seconds(metrics)
    start = time.perf_counter()
    size = len(metrics.exposition())
    scrape_ms = (time.perf_counter() - start) * 1000
    mode = "multiprocess" if multiprocess_mode() else "one process"
    print(
        f"{mode:12s}: {rounds} rounds of {episodes} episodes ({steps} steps): step median "
        f"{base * 1e6:7.1f} us plain, {measured * 1e6:7.1f} us with metrics, overhead "
        f"{(measured / base - 1) * 100:+5.1f} % (fastest rounds {fastest * 100:+5.1f} %); "
        f"added work alone {added * 1e6:.2f} us a step "
        f"= {added / base * 100:.1f} % of the plain step (target <= 5 %); one scrape "
        f"{scrape_ms:.1f} ms ({size} bytes); load {os.getloadavg()[0]:.2f}"
    )


def instrumentation_seconds(metrics: Metrics, calls: int = 50_000) -> float:
    """What the served step adds to each step, timed alone: its clock reads, its histogram
    observation (an episode's end adds a counter and a histogram once per episode)."""
    start = time.perf_counter()
    for _ in range(calls):
        began = time.perf_counter()
        metrics.step_seconds.observe(time.perf_counter() - began)
    return (time.perf_counter() - start) / calls


def main(rounds: int = 15, episodes: int = 40) -> None:
    measure(rounds, episodes)
    if multiprocess_mode():
        return
    with tempfile.TemporaryDirectory() as folder:  # the same, as a multi-worker server runs
        env = {**os.environ, "PROMETHEUS_MULTIPROC_DIR": folder}
        subprocess.run([sys.executable, __file__, str(rounds), str(episodes)], env=env, check=True)


if __name__ == "__main__":
    main(*(int(argument) for argument in sys.argv[1:3]))
