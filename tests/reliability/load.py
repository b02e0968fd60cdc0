"""Isolation under load (issue 7, item 5): many episodes over concurrent /ws sessions.

Each of ``sessions`` WebSocket sessions plays its share of the episodes one after another
(a reset per episode, distinct seeds), all sessions at once. Every trajectory is then
compared with the same episode replayed sequentially in process, and every order and
customer id an observation shows must belong to that episode's own case. Shared by
tests/reliability/test_isolation.py (small) and bench/bench_isolation.py (1,000 episodes).
"""

from __future__ import annotations

import asyncio
import re
import time
from dataclasses import dataclass, field

from novamart.agents import AGENTS
from novamart.agents.runner import run_episode
from novamart.client import NovamartEnv
from novamart.models import NovamartObservation
from novamart.scenarios import build_scenario
from novamart.server.environment import NovamartEnvironment
from tests.reliability.scenarios import in_turn

AGENT_MIX = ("heuristic", "random", "heuristic", "tool_spam")
IDS = re.compile(r"\b(?:ORD|CUST)-\d+\b")


@dataclass(frozen=True)
class Job:
    task: str
    seed: int
    agent: str


@dataclass
class LoadReport:
    episodes: int = 0
    steps: int = 0
    seconds: float = 0.0
    mismatches: list[str] = field(default_factory=list)
    foreign: list[str] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)


def jobs(count: int, start: int = 50_000) -> list[Job]:
    return [
        Job(task, seed, AGENT_MIX[i % len(AGENT_MIX)])
        for i, (task, seed) in enumerate(in_turn(count, start))
    ]


@dataclass
class Played:
    trajectory: list[NovamartObservation]
    sent_ids: set[str]
    """Ids the agent itself put in its actions (an echo of those is no leak)."""


async def play(env: NovamartEnv, job: Job) -> Played:
    result = await env.reset(task=job.task, seed=job.seed)
    agent = AGENTS[job.agent](job.seed)
    agent.start(result.observation)
    played = Played([result.observation], set())
    while not result.done:
        action = agent.act(result.observation)
        played.sent_ids.update(IDS.findall(action.model_dump_json()))
        result = await env.step(action)
        played.trajectory.append(result.observation)
    return played


async def _session(url: str, queue: list[Job], played: dict[Job, Played]) -> None:
    async with NovamartEnv(base_url=url, message_timeout_s=120) as env:
        for job in queue:
            played[job] = await play(env, job)


async def play_all(url: str, work: list[Job], sessions: int) -> dict[Job, Played]:
    played: dict[Job, Played] = {}
    queues = [work[i::sessions] for i in range(sessions)]
    await asyncio.gather(*(_session(url, q, played) for q in queues if q))
    return played


def own_ids(job: Job) -> set[str]:
    scenario = build_scenario(job.task, job.seed)
    ids = {scenario.order.order_id, scenario.customer.customer_id}
    if scenario.other is not None:
        ids.add(scenario.other.customer_id)  # named in the customer's own opening message
    return ids


def run_load(url: str, count: int, sessions: int) -> LoadReport:
    """Play ``count`` episodes over ``sessions`` concurrent sessions and check them all."""
    work = jobs(count)
    report = LoadReport()
    start = time.perf_counter()
    try:
        played = asyncio.run(play_all(url, work, sessions))
    except Exception as error:  # the report says what broke; the caller asserts on it
        report.errors.append(f"{type(error).__name__}: {error}")
        return report
    report.seconds = time.perf_counter() - start
    env = NovamartEnvironment()
    for job in work:
        if job not in played:
            report.errors.append(f"{job} was not played")
            continue
        trajectory = played[job].trajectory
        report.episodes += 1
        report.steps += len(trajectory) - 1
        replay = run_episode(env, AGENTS[job.agent](job.seed), job.task, job.seed, keep=True)
        if trajectory != replay.observations:
            report.mismatches.append(str(job))
        allowed = own_ids(job) | played[job].sent_ids
        for observation in trajectory:
            stray = set(IDS.findall(observation.model_dump_json())) - allowed
            if stray:
                report.foreign.append(f"{job}: {sorted(stray)}")
    return report
