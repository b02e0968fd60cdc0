"""Beyond one process: a 2-worker server (`novamart serve --workers 2`) and two servers behind
the multi-URL client play exactly the episodes in-process play does, with no error; the TRL
adapter's instances all play on the 2-worker server; a rules reload reaches both workers.

Every session is one plain /ws connection, so whichever worker takes it serves it whole
(OpenEnv's production mode, an HTTP /mcp session joined by a second connection, lost 7-10
joins in 20 here when the two landed on different workers)."""

import asyncio
import json
import time
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import httpx
import pytest

from novamart.agents.heuristic import HeuristicAgent
from novamart.agents.runner import generated, run_episode
from novamart.client import NovamartEnv
from novamart.models import NovamartObservation
from novamart.server.environment import NovamartEnvironment
from novamart.server.launch import RunningServer, serve_in_subprocess
from novamart.server.tally import FLUSH_SECONDS
from novamart.training.trl_env import ENVIRONMENTS
from tests.rulefiles import copy_rules, move_window
from tests.server.metrics import scrape, total, written
from tests.server.remote import observations, play
from tests.server.servers import novamart_serve, wait_for_workers

CLIENTS, EPISODES = 64, 200  # issue 21's must-hold (bench/bench_scale.py plays the same)
CAP = ("--max-concurrent-envs", "128")  # the kernel may hand all 64 sessions to one worker
TRL_INSTANCES = 30
TOKEN = "workers-admin-token"
AUTH = {"Authorization": f"Bearer {TOKEN}"}
VERSION_QUERIES = 40


@pytest.fixture(scope="module")
def rules(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return copy_rules(tmp_path_factory.mktemp("workers") / "rules")


@pytest.fixture(scope="module")
def shared(rules: Path) -> Path:
    """The workers' shared folder (novamart serve makes one unless told where)."""
    return rules.parent / "shared"


@pytest.fixture(scope="module")
def two_workers(rules: Path, shared: Path) -> Iterator[RunningServer]:
    shared.mkdir()
    env = {"ADMIN_TOKEN": TOKEN, "NOVAMART_SHARED_DIR": str(shared)}
    command = novamart_serve("--workers", "2", "--rules-dir", str(rules), *CAP)
    with serve_in_subprocess(rules.parent / "server.log", env=env, command=command) as running:
        wait_for_workers(running, 2)
        yield running


@pytest.fixture(scope="module")
def two_servers(tmp_path_factory: pytest.TempPathFactory) -> Iterator[list[RunningServer]]:
    """Two single-process servers of their own (the shared one holds other tests' sessions)."""
    folder = tmp_path_factory.mktemp("two")
    with (
        serve_in_subprocess(folder / "a.log", command=novamart_serve(*CAP)) as first,
        serve_in_subprocess(folder / "b.log", command=novamart_serve(*CAP)) as second,
    ):
        yield [first, second]


def _cases() -> list[list[tuple[str, int]]]:
    """Each client's episodes, played one after another in its one session."""
    cases = generated(EPISODES, start=500)
    return [cases[i::CLIENTS] for i in range(CLIENTS)]


def _in_process(task: str, seed: int) -> list[NovamartObservation]:
    episode = run_episode(NovamartEnvironment(), HeuristicAgent(seed=seed), task, seed, keep=True)
    return episode.observations


async def _client(env: NovamartEnv, cases: list[tuple[str, int]]) -> list:
    async with env:
        return [observations(await play(env, task, seed)) for task, seed in cases]


def _play_everywhere(base_url: str | list[str]) -> tuple[list, list[str]]:
    """Every client's episodes, all clients at once; and the server each client pinned."""
    clients = [NovamartEnv(base_url=base_url) for _ in range(CLIENTS)]

    async def everyone() -> list:
        return await asyncio.gather(*map(_client, clients, _cases()))

    return asyncio.run(everyone()), [env.base_url for env in clients]


def _assert_as_in_process(played: list) -> None:
    for cases, episodes in zip(_cases(), played, strict=True):
        for (task, seed), remote in zip(cases, episodes, strict=True):
            assert remote == _in_process(task, seed), (task, seed)


def test_a_two_worker_server_plays_as_in_process(two_workers: RunningServer, shared: Path) -> None:
    played, _ = _play_everywhere(two_workers.url)
    _assert_as_in_process(played)
    # each worker writes its counts within FLUSH_SECONDS (novamart.server.tally), unasked: read
    # from their files here, by no worker, then one scrape answers the same for both
    steps = sum(len(episode) - 1 for episodes in played for episode in episodes)
    files = _written_when_flushed(shared / "metrics", steps)
    assert _counts(files) == _counts(scrape(two_workers.url))
    _assert_counted(files, steps, [e[-1].final_score for es in played for e in es])
    samples = scrape(two_workers.url)
    versions = [labels for name, labels in samples if name == "novamart_rules_version"]
    assert len({dict(labels)["pid"] for labels in versions}) == 2


COUNTED = (
    "novamart_step_seconds_count",
    "novamart_episodes_started_total",
    "novamart_episodes_total",
    "novamart_episode_score_count",
)


def _counts(samples: dict) -> list[float]:
    return [total(samples, name) for name in COUNTED]


def _assert_counted(samples: dict, steps: int, scores: list[float]) -> None:
    assert total(samples, "novamart_step_seconds_count") == steps
    assert total(samples, "novamart_step_seconds_bucket", le="+Inf") == steps
    assert total(samples, "novamart_episodes_started_total") == EPISODES
    assert total(samples, "novamart_episodes_total") == EPISODES
    assert total(samples, "novamart_episode_score_count") == EPISODES
    assert total(samples, "novamart_episode_score_sum") == pytest.approx(sum(scores))


def _written_when_flushed(folder: Path, steps: int) -> dict:
    """The files once ``steps`` steps are written (a count never runs ahead of play)."""
    deadline = time.monotonic() + 10 * FLUSH_SECONDS
    files = written(folder)
    while total(files, "novamart_step_seconds_count") < steps and time.monotonic() < deadline:
        time.sleep(FLUSH_SECONDS / 4)
        files = written(folder)
    return files


def test_two_servers_behind_the_multi_url_client(two_servers: list[RunningServer]) -> None:
    played, pinned = _play_everywhere(", ".join(server.url for server in two_servers))
    _assert_as_in_process(played)
    assert sorted({url: pinned.count(url) for url in pinned}.values()) == [CLIENTS // 2] * 2


def _trl_rollout(url: str, seed: int) -> bool:
    with ENVIRONMENTS["order"](base_url=url) as env:
        env.reset(task="easy_refund", seed=seed)
        found = json.loads(env.lookup_order(order_id=env.episode.observation.order_id))
        return found["result"]["ok"] is True


def test_the_trl_adapter_plays_every_instance_on_two_workers(two_workers: RunningServer) -> None:
    with ThreadPoolExecutor(8) as pool:
        played = list(pool.map(_trl_rollout, [two_workers.url] * TRL_INSTANCES, range(30)))
    assert played == [True] * TRL_INSTANCES


def _versions(url: str) -> list[tuple[str, int]]:
    """Each answer's version and worker, one fresh connection a query (any worker takes it)."""
    answers = []
    for _ in range(VERSION_QUERIES):
        with httpx.Client() as fresh:
            body = fresh.get(f"{url}/admin/rules/version", headers=AUTH, timeout=30).json()
        answers.append((body["version"], body["worker"]))
    return answers


def _reset_versions(url: str, count: int) -> set[str]:
    async def one() -> str:
        async with NovamartEnv(base_url=url) as env:
            return (await env.reset(task="easy_refund", seed=1)).observation.rules_version

    async def many() -> list[str]:
        return await asyncio.gather(*(one() for _ in range(count)))

    return set(asyncio.run(many()))


def test_a_reload_reaches_every_worker(two_workers: RunningServer, rules: Path) -> None:
    """Last in this module: the rules it loads are not the ones the episodes above played."""
    before = _versions(two_workers.url)
    (old,) = {version for version, _ in before}
    assert len({worker for _, worker in before}) == 2  # both workers answered
    move_window(rules, 30, 14)
    reloaded = httpx.post(f"{two_workers.url}/admin/rules/reload", headers=AUTH, timeout=60)
    assert reloaded.status_code == 200 and reloaded.json()["changed"]
    new = reloaded.json()["version"]
    after = _versions(two_workers.url)
    assert {version for version, _ in after} == {new} != {old}
    assert len({worker for _, worker in after}) == 2
    assert _reset_versions(two_workers.url, 16) == {new}  # every episode names what it plays
