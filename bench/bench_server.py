"""Server speed, measured over real sockets: run `.venv/bin/python bench/bench_server.py`.

1. One client over /ws replays typical episodes (the heuristic agent's reset + tool calls,
   recorded in process) against NovaMart, and as many messages against OpenEnv's template
   echo environment (`openenv init`) served the same way, in alternating rounds. Reported:
   messages per second of each (medians) and NovaMart / echo (target >= 0.8); then the same
   messages in process, to show how much of a message's time is NovaMart's own work.
2. 256 sessions at once, each replaying one episode: errors (target 0) and the p50 / p99
   latency (send to answer) of all messages and of tool calls alone.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import platform
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from openenv.core.env_server.mcp_types import CallToolAction
from openenv.core.env_server.serialization import deserialize_action, serialize_observation
from openenv.core.env_server.types import WSObservationResponse
from websockets.asyncio.client import connect

from novamart.agents.heuristic import HeuristicAgent
from novamart.scenarios.tasks import TASKS
from novamart.server.environment import NovamartEnvironment
from novamart.server.launch import serve_in_subprocess

ECHO_NAME = "echo_bench"


def record_episode(task: str, seed: int) -> list[str]:
    """The frames of one heuristic episode: its reset, then each tool call."""
    env = NovamartEnvironment()
    observation = env.reset(task=task, seed=seed)
    frames = [json.dumps({"type": "reset", "data": {"task": task, "seed": seed}})]
    agent = HeuristicAgent(seed=seed)
    agent.start(observation)
    while not observation.done:
        action = agent.act(observation)
        step = {"tool_name": action.tool_name, "arguments": action.arguments}
        frames.append(json.dumps({"type": "step", "data": step}))
        observation = env.step(action)
    return frames


def episodes(count: int, first_seed: int) -> list[list[str]]:
    names = sorted(TASKS)
    return [record_episode(names[i % len(names)], first_seed + i) for i in range(count)]


def echo_frames(like: list[list[str]]) -> list[list[str]]:
    """Echo episodes with the same shape: one reset and as many steps as each NovaMart one."""
    reset = json.dumps({"type": "reset", "data": {}})
    step = json.dumps({"type": "step", "data": {"message": "Where is my order?"}})
    return [[reset] + [step] * (len(frames) - 1) for frames in like]


async def replay(url: str, frames: list[str], latencies: list[float] | None = None) -> int:
    """Send each frame on one session, await each answer; returns the number of error answers."""
    errors = 0
    async with connect(url.replace("http", "ws", 1) + "/ws", max_size=None) as ws:
        for frame in frames:
            sent = time.perf_counter()
            await ws.send(frame)
            answer = json.loads(await ws.recv())
            if latencies is not None:
                latencies.append(time.perf_counter() - sent)
            errors += answer.get("type") != "observation"
    return errors


async def messages_per_second(url: str, episode_frames: list[list[str]]) -> float:
    frames = [frame for episode in episode_frames for frame in episode]
    start = time.perf_counter()
    errors = await replay(url, frames)
    elapsed = time.perf_counter() - start
    if errors:
        raise RuntimeError(f"{errors} error answers from {url}")
    return len(frames) / elapsed


def in_process_ms(episode_frames: list[list[str]]) -> tuple[float, float]:
    """The same messages played in this process, as the server's /ws handler plays them:
    milliseconds per message of the environment's own work (reset or step) and of writing
    its answer (OpenEnv's serialisation), medians over three passes. What the wire adds is
    the rest of a message's time, shared with the echo template."""
    env = NovamartEnvironment()
    passes = []
    for _ in range(4):  # the first pass warms the caches, as the server's warm-up does
        work = writing = 0.0
        for frame in (json.loads(f) for frames in episode_frames for f in frames):
            start = time.perf_counter()
            if frame["type"] == "reset":
                observation = env.reset(**frame["data"])
            else:
                observation = env.step(deserialize_action(frame["data"], CallToolAction))
            done = time.perf_counter()
            WSObservationResponse(data=serialize_observation(observation)).model_dump_json()
            work, writing = work + done - start, writing + time.perf_counter() - done
        passes.append((work, writing))
    count = sum(map(len, episode_frames))
    return tuple(statistics.median(p[k] for p in passes[1:]) * 1000 / count for k in (0, 1))


async def concurrent(url: str, episode_frames: list[list[str]]) -> tuple[int, list[list[float]]]:
    """All episodes at once, one session each: errors (answers + failures), and each
    session's message latencies."""
    latencies: list[list[float]] = [[] for _ in episode_frames]
    sessions = [replay(url, f, mine) for f, mine in zip(episode_frames, latencies, strict=True)]
    outcomes = await asyncio.gather(*sessions, return_exceptions=True)
    return sum(o if isinstance(o, int) else 1 for o in outcomes), latencies


def render_echo_template(into: Path) -> Path:
    openenv = Path(sys.executable).with_name("openenv")
    subprocess.run(
        [str(openenv), "init", ECHO_NAME, "--output-dir", str(into)],
        check=True,
        capture_output=True,
    )
    return into / ECHO_NAME


def machine() -> str:
    model = "unknown CPU"
    cpuinfo = Path("/proc/cpuinfo")
    if cpuinfo.exists():
        for line in cpuinfo.read_text().splitlines():
            if line.startswith("model name"):
                model = line.split(":", 1)[1].strip()
                break
    load = ", ".join(f"{x:.2f}" for x in os.getloadavg())
    return (
        f"{model}; {os.cpu_count()} logical CPUs; {platform.platform()}; "
        f"Python {platform.python_version()}; load average at start {load}"
    )


def percentile(values: list[float], q: int) -> float:
    """The q-th percentile (1 <= q <= 99)."""
    return statistics.quantiles(values, n=100, method="inclusive")[q - 1]


async def run(args: argparse.Namespace, nova_url: str, echo_url: str) -> None:
    typical = episodes(args.episodes, first_seed=1)
    echo = echo_frames(typical)
    await messages_per_second(nova_url, typical[:3])  # warm both servers up
    await messages_per_second(echo_url, echo[:3])
    pairs = []  # adjacent rounds, so a change of machine load hits both sides alike
    for _ in range(args.rounds):
        pairs.append(
            (
                await messages_per_second(nova_url, typical),
                await messages_per_second(echo_url, echo),
            )
        )
    nova = statistics.median(n for n, _ in pairs)
    baseline = statistics.median(e for _, e in pairs)
    ratios = sorted(n / e for n, e in pairs)
    messages = sum(len(e) for e in typical)
    print(f"machine: {machine()}")
    print(f"one client over /ws: {args.episodes} episodes = {messages} messages, x{args.rounds}")
    print(f"  NovaMart {nova:6.0f} msg/s, echo env {baseline:6.0f} msg/s (medians)")
    print(
        f"  NovaMart / echo = {statistics.median(ratios):.2f} (median of rounds; range "
        f"{ratios[0]:.2f}-{ratios[-1]:.2f}; target >= 0.8)"
    )

    work, writing = in_process_ms(typical)
    print(
        f"  the same messages in process: {work:.3f} ms of environment work and {writing:.3f} "
        f"ms of serialisation a message; echo over the wire: {1000 / baseline:.3f} ms a message"
    )

    crowd = episodes(args.sessions, first_seed=10_000)
    start = time.perf_counter()
    errors, latencies = await concurrent(nova_url, crowd)
    elapsed = time.perf_counter() - start
    every = [t for session in latencies for t in session]
    # a session's first message (its reset) also waits for the session to be created
    tool_calls = [t for session in latencies for t in session[1:]]
    print(
        f"{args.sessions} sessions at once: {len(every)} messages in {elapsed:.2f} s, "
        f"errors {errors} (target 0)"
    )
    for label, values in (("all messages", every), ("tool calls", tool_calls)):
        p50, p99 = percentile(values, 50) * 1000, percentile(values, 99) * 1000
        print(f"  {label:12} latency p50 {p50:7.1f} ms, p99 {p99:7.1f} ms")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--episodes", type=int, default=30, help="episodes per throughput round")
    parser.add_argument("--rounds", type=int, default=7)
    parser.add_argument("--sessions", type=int, default=256)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        logs = Path(tmp)
        echo_dir = render_echo_template(logs)
        cap = {"MAX_CONCURRENT_ENVS": str(args.sessions + 8)}
        with (
            serve_in_subprocess(logs / "novamart.log", env=cap) as nova,
            serve_in_subprocess(
                logs / "echo.log", app_ref="server.app:app", app_dir=echo_dir
            ) as echo,
        ):
            asyncio.run(run(args, nova.url, echo.url))


if __name__ == "__main__":
    main()
