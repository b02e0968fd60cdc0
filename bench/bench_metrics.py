"""Benchmark: what /metrics costs a step, in process (target: at most 5 % of the step).

The server's environment (novamart.server.served) times each step and counts episodes and
scores for /metrics (in memory; novamart.server.tally writes them out every second);
NovamartEnvironment does none of that. Both replay the same recorded heuristic episodes (reset
+ tool calls), each episode both ways back to back (which goes first alternating), over
rounds. Reported: the overhead as the ratio of the step time summed over the episodes,
each episode's median over the rounds (robust to the other jobs of a shared machine: a
pre-empted episode is one outlier among its rounds), and the median over every episode and
round of the paired ratio served/plain (which weighs a 1-step ticket as much as a 10-step
case, so the fixed cost of an episode's end counts more); what one flush of the whole run's
counts costs (a server flushes once a second: its share of a second is the cost that adds to
a busy worker, on top of the step's own); what one scrape costs.
Run once in one-process mode and once in prometheus-client's multiprocess mode (what a server
of several workers uses: values in memory-mapped files).
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
from novamart.server.tally import FLUSH_SECONDS

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
    per_episode: list[list[tuple[float, float]]] = [[] for _ in recorded]  # (plain, served)
    for round_ in range(rounds + 1):  # round 0 warms both
        for number, episode in enumerate(recorded):
            order = (served, plain) if (round_ + number) % 2 else (plain, served)
            spent = {id(env): episode_steps(env, episode) for env in order}
            if round_:
                per_episode[number].append((spent[id(plain)], spent[id(served)]))
    paired = [served / plain for times in per_episode for plain, served in times]
    base = sum(statistics.median(p for p, _ in times) for times in per_episode) / steps
    measured = sum(statistics.median(s for _, s in times) for times in per_episode) / steps
    start = time.perf_counter()
    metrics.tally.flush()
    flush = time.perf_counter() - start
    start = time.perf_counter()
    size = len(metrics.exposition())
    scrape_ms = (time.perf_counter() - start) * 1000
    mode = "multiprocess" if multiprocess_mode() else "one process"
    print(
        f"{mode:12s}: {rounds} rounds of {episodes} episodes ({steps} steps): step "
        f"{base * 1e6:6.1f} us plain, {measured * 1e6:6.1f} us with metrics, overhead "
        f"{(measured / base - 1) * 100:+5.1f} % (target <= 5 %; median paired episode ratio "
        f"{(statistics.median(paired) - 1) * 100:+5.1f} %); "
        f"one flush of the run's {(rounds + 1) * steps} steps {flush * 1e6:.0f} us "
        f"({flush / FLUSH_SECONDS * 100:.3f} % of the second between flushes); one scrape "
        f"{scrape_ms:.1f} ms "
        f"({size} bytes); load {os.getloadavg()[0]:.2f}"
    )


def main(rounds: int = 31, episodes: int = 40) -> None:
    measure(rounds, episodes)
    if multiprocess_mode():
        return
    with tempfile.TemporaryDirectory() as folder:  # the same, as a multi-worker server runs
        env = {**os.environ, "PROMETHEUS_MULTIPROC_DIR": folder}
        subprocess.run([sys.executable, __file__, str(rounds), str(episodes)], env=env, check=True)


if __name__ == "__main__":
    main(*(int(argument) for argument in sys.argv[1:3]))
