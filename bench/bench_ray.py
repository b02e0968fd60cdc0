"""Benchmark: oracle episodes per CPU-second through the Ray pool (novamart[ray]) against
in-process play, in the same run.

Four ways to play the same kind of episode (fresh seeds, every task in turn):
- ``in-process``: ``run_episode`` with the oracle in this process;
- ``whole``: ``EnvPool.play``, the oracle inside the actors, ``--chunk`` episodes a call;
- ``batch``: the oracle's actions, recorded in process beforehand, sent as one
  ``PoolSession.calls`` per episode (a reset and one batch of steps: two round trips);
- ``step``: the same actions one ``PoolSession.call`` (one round trip) each.
The pool modes drive 2 actors (1 CPU each) from ``--threads`` threads. CPU: the CPU-seconds
of this process and of every process it started (Ray's own processes and the actors
included) per wall second; for ``in-process``, this process's alone (a trainer playing in
process runs no Ray; the idle cluster's own CPU would otherwise count against it). The
machine is shared (2 vCPUs): read episodes per CPU-second.
Run: .venv/bin/python bench/bench_ray.py [--duration 5] [--rounds 2]
"""

from __future__ import annotations

import argparse
import itertools
import os
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor

import psutil
import ray

from novamart.agents import AGENTS
from novamart.agents.runner import generated, run_episode
from novamart.scale.ray_pool import EnvPool, Job, PoolSession
from novamart.server.environment import NovamartEnvironment

Played = Callable[[float], int]


def tree_cpu() -> float:
    """CPU-seconds so far of this process and every process it started (Ray's included)."""
    me = psutil.Process()
    total = 0.0
    for process in [me, *me.children(recursive=True)]:
        try:
            times = process.cpu_times()
        except psutil.NoSuchProcess:
            continue
        total += times.user + times.system + times.children_user + times.children_system
    return total


def in_process(seconds: float) -> int:
    env, played = NovamartEnvironment(), 0
    cases = iter(generated(10**6, start=1_000_000))
    deadline = time.perf_counter() + seconds
    while time.perf_counter() < deadline:
        task, seed = next(cases)
        run_episode(env, AGENTS["oracle"](seed), task, seed)
        played += 1
    return played


def recorded(count: int) -> list[tuple[str, int, list[tuple[str, dict]]]]:
    env = NovamartEnvironment()
    cases = []
    for task, seed in generated(count, start=2_000_000):
        run = run_episode(env, AGENTS["oracle"](seed), task, seed, keep=True)
        cases.append((task, seed, [(a.tool_name, a.arguments) for a in run.actions]))
    return cases


def whole(pool: EnvPool, chunk: int) -> Played:
    seeds = itertools.count(3_000_000)

    def play(seconds: float) -> int:
        played, deadline = 0, time.perf_counter() + seconds
        tasks = [task for task, _ in generated(9)]
        while time.perf_counter() < deadline:
            jobs = [Job("oracle", tasks[i % len(tasks)], next(seeds)) for i in range(2 * chunk)]
            played += len(pool.play(jobs, chunk=chunk))
        return played

    return play


def stepwise(pool: EnvPool, threads: int, batched: bool) -> Played:
    cases = recorded(90)

    def play(seconds: float) -> int:
        deadline = time.perf_counter() + seconds

        def worker(offset: int) -> int:
            session: PoolSession = pool.session()
            played = 0
            for task, seed, calls in itertools.islice(itertools.cycle(cases), offset, None):
                if time.perf_counter() >= deadline:
                    break
                session.reset(task=task, seed=seed)
                if batched:
                    session.calls(calls)
                else:
                    for name, arguments in calls:
                        session.call(name, arguments)
                assert session.done and session.grade == 1.0
                played += 1
            session.close()
            return played

        with ThreadPoolExecutor(threads) as executor:
            return sum(executor.map(worker, range(threads)))

    return play


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--duration", type=float, default=5.0)
    parser.add_argument("--rounds", type=int, default=2)
    parser.add_argument("--chunk", type=int, default=50)
    parser.add_argument("--threads", type=int, default=8)
    args = parser.parse_args()
    ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False)
    print(f"cpus={os.cpu_count()} ray {ray.__version__}; load {os.getloadavg()[0]:.2f}")
    with EnvPool(2, 1.0) as pool:
        modes: dict[str, Played] = {
            "in-process": in_process,
            "whole": whole(pool, args.chunk),
            "batch": stepwise(pool, args.threads, batched=True),
            "step": stepwise(pool, args.threads, batched=False),
        }
        for mode in modes.values():  # warm-up: actors started, caches filled
            mode(1.0)
        for round_ in range(args.rounds):
            for label, mode in modes.items():
                clock = time.process_time if label == "in-process" else tree_cpu
                cpu, start = clock(), time.perf_counter()
                played = mode(args.duration)
                wall, used = time.perf_counter() - start, clock() - cpu
                print(
                    f"round {round_ + 1} {label:10s}: {played / wall:6.0f} episodes/s, "
                    f"{used / wall:.2f} CPU-s/s, {played / max(used, 1e-9):5.0f} episodes per "
                    f"CPU-s; load {os.getloadavg()[0]:.2f}"
                )
    ray.shutdown()


if __name__ == "__main__":
    main()
