"""Benchmark: NovaMart beyond one process (issue 21). Three parts, each a few seconds:

1. ``correct``: 200 episodes from 64 concurrent clients (the heuristic agent, typed client)
   on a 2-worker server (`novamart serve --workers 2`) and on two servers behind the
   multi-URL client; errors (target 0) and episodes that differ from in-process play
   (target 0). tests/server/test_workers.py runs a smaller version of the same in CI.
2. ``messages``: 64 plain /ws sessions replay recorded heuristic episodes back to back for
   ``--duration`` seconds against a 1-worker and a 2-worker server, in alternating rounds:
   messages/s, and the CPU-seconds per second the server processes and the client got.
3. ``episodes``: in-process oracle episodes for ``--duration`` seconds in 1 vs 2 processes
   (multiprocessing, spawn), episodes/s and CPU-seconds per second.

The machine is shared: throughput follows the CPU each layout got, so read the episodes (or
messages) per CPU-second beside it, and the load printed with every row.
Run: .venv/bin/python bench/bench_scale.py [--parts correct,messages,episodes]
"""

from __future__ import annotations

import argparse
import asyncio
import multiprocessing
import os
import sys
import tempfile
import time
from collections.abc import Iterator
from contextlib import ExitStack, contextmanager
from pathlib import Path

import psutil
from bench_server import episodes as recorded_episodes
from bench_server import replay

from novamart.agents import AGENTS
from novamart.agents.heuristic import HeuristicAgent
from novamart.agents.runner import generated, run_episode
from novamart.client import NovamartEnv
from novamart.server.environment import NovamartEnvironment
from novamart.server.launch import RunningServer, serve_in_subprocess

NOVAMART = str(Path(sys.executable).with_name("novamart"))


def load() -> str:
    return f"load {os.getloadavg()[0]:.2f}"


@contextmanager
def serving(folder: Path, name: str, workers: int = 1) -> Iterator[RunningServer]:
    command = [NOVAMART, "serve", "--workers", str(workers), "--max-concurrent-envs", "128"]
    log = folder / f"{name}.log"
    # a loaded machine took over 60 s to start 2 workers
    with serve_in_subprocess(log, command=command, startup_timeout_s=240) as running:
        deadline = time.monotonic() + 240
        while running.log().count("Application startup complete.") < workers:
            assert time.monotonic() < deadline, running.log()
            time.sleep(0.1)
        yield running


def tree_cpu(pid: int) -> float:
    """CPU-seconds used so far by a process and its children (a server's workers)."""
    root = psutil.Process(pid)
    total = 0.0
    for process in [root, *root.children(recursive=True)]:
        try:
            times = process.cpu_times()
        except psutil.NoSuchProcess:
            continue
        total += times.user + times.system
    return total


# ---- 1. correctness at scale ----------------------------------------------------------------


async def play_client(base_url: str | list[str], cases: list[tuple[str, int]]) -> list:
    played = []
    async with NovamartEnv(base_url=base_url) as env:
        for task, seed in cases:
            result = await env.reset(task=task, seed=seed)
            agent = HeuristicAgent(seed=seed)
            agent.start(result.observation)
            observations = [result.observation]
            while not result.done:
                result = await env.step(agent.act(result.observation))
                observations.append(result.observation)
            played.append(observations)
    return played


def correct(base_url: str | list[str], label: str, episodes: int, clients: int) -> None:
    cases = generated(episodes, start=20_000)
    shares = [cases[i::clients] for i in range(clients)]

    async def everyone() -> list:
        return await asyncio.gather(
            *(play_client(base_url, share) for share in shares), return_exceptions=True
        )

    start = time.perf_counter()
    results = asyncio.run(everyone())
    seconds = time.perf_counter() - start
    errors = [r for r in results if isinstance(r, BaseException)]
    differ = 0
    for share, played in zip(shares, results, strict=True):
        if isinstance(played, BaseException):
            continue
        for (task, seed), observations in zip(share, played, strict=True):
            local = run_episode(NovamartEnvironment(), HeuristicAgent(seed), task, seed, keep=True)
            differ += observations != local.observations
    print(
        f"correct  {label:22s}: {episodes} episodes from {clients} clients in {seconds:.1f} s, "
        f"{len(errors)} client errors {errors[:1]}, {differ} episodes differ from in-process; "
        f"{load()}"
    )


# ---- 2. messages/s, 1 vs 2 workers ----------------------------------------------------------


async def replay_for(url: str, frames: list[list[str]], sessions: int, seconds: float) -> int:
    deadline = time.perf_counter() + seconds
    counts = [0] * sessions

    async def session(index: int) -> None:
        turn = index
        while time.perf_counter() < deadline:
            episode = frames[turn % len(frames)]
            errors = await replay(url, episode)
            assert errors == 0, f"{errors} error answers"
            counts[index] += len(episode)
            turn += sessions

    await asyncio.gather(*(session(i) for i in range(sessions)))
    return sum(counts)


def messages(servers: dict[str, RunningServer], sessions: int, seconds: float, rounds: int) -> None:
    frames = recorded_episodes(48, 40_000)
    client = psutil.Process()
    for server in servers.values():  # warm-up: each worker's first replies load the reader
        asyncio.run(replay_for(server.url, frames, sessions, 3.0))
    for round_ in range(rounds):
        for label, server in servers.items():
            cpu, mine, start = tree_cpu(server.pid), client.cpu_times(), time.perf_counter()
            sent = asyncio.run(replay_for(server.url, frames, sessions, seconds))
            wall = time.perf_counter() - start
            used = (tree_cpu(server.pid) - cpu) / wall
            mine_after = client.cpu_times()
            own = (mine_after.user + mine_after.system - mine.user - mine.system) / wall
            print(
                f"messages round {round_ + 1} {label:9s}: {sent / wall:7.0f} msg/s, server "
                f"{used:.2f} CPU-s/s ({sent / wall / max(used, 1e-9):6.0f} msg per server "
                f"CPU-s), client {own:.2f} CPU-s/s; {sessions} sessions; {load()}"
            )


# ---- 3. in-process episodes/s, 1 vs 2 processes --------------------------------------------


def play_for(args: tuple[float, int]) -> tuple[int, float]:
    """One process: oracle episodes on fresh seeds for ``seconds`` (after a warm-up)."""
    seconds, first_seed = args
    env = NovamartEnvironment()
    for task, seed in generated(20, start=first_seed):
        run_episode(env, AGENTS["oracle"](seed), task, seed)
    cpu, start, played = time.process_time(), time.perf_counter(), 0
    cases = iter(generated(10**6, start=first_seed + 100))
    while time.perf_counter() - start < seconds:
        task, seed = next(cases)
        run_episode(env, AGENTS["oracle"](seed), task, seed)
        played += 1
    return played, time.process_time() - cpu


def episodes(seconds: float, rounds: int) -> None:
    context = multiprocessing.get_context("spawn")
    with context.Pool(1) as one, context.Pool(2) as two:
        pools = {"1 process": (one, 1), "2 processes": (two, 2)}
        for round_ in range(rounds):
            for label, (pool, size) in pools.items():
                jobs = [(seconds, 1_000_000 * (round_ * 2 + i + 1)) for i in range(size)]
                results = pool.map(play_for, jobs)
                played, cpu = sum(r[0] for r in results), sum(r[1] for r in results)
                print(
                    f"episodes round {round_ + 1} {label:11s}: {played / seconds:7.0f} "
                    f"episodes/s, {cpu / seconds:.2f} CPU-s/s ({played / max(cpu, 1e-9):5.0f} "
                    f"episodes per CPU-s); {load()}"
                )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--parts", default="correct,messages,episodes")
    parser.add_argument("--episodes", type=int, default=200)
    parser.add_argument("--clients", type=int, default=64)
    parser.add_argument("--sessions", type=int, default=64)
    parser.add_argument("--duration", type=float, default=5.0)
    parser.add_argument("--rounds", type=int, default=2)
    args = parser.parse_args()
    parts = set(args.parts.split(","))
    print(f"cpus={os.cpu_count()} python {sys.version.split()[0]}; {load()}")
    with tempfile.TemporaryDirectory() as scratch, ExitStack() as stack:
        folder = Path(scratch)
        if parts & {"correct", "messages"}:
            one = stack.enter_context(serving(folder, "one"))
            two = stack.enter_context(serving(folder, "two", workers=2))
        if "correct" in parts:
            other = stack.enter_context(serving(folder, "other"))
            correct(two.url, "--workers 2", args.episodes, args.clients)
            correct([one.url, other.url], "2 servers, multi-URL", args.episodes, args.clients)
        if "messages" in parts:
            servers = {"1 worker": one, "2 workers": two}
            messages(servers, args.sessions, args.duration, args.rounds)
    if "episodes" in parts:
        episodes(args.duration, args.rounds)


if __name__ == "__main__":
    main()
