"""The Ray actor pool in a local cluster: the same episodes as in-process play, whole or a batch
of steps or one step a call; a killed actor fails its sessions with ActorDied and is replaced."""

from __future__ import annotations

from collections.abc import Iterator
from types import ModuleType

import pytest

from novamart.agents.runner import EpisodeRun
from novamart.training.episode import EpisodeOver, ToolEpisode
from tests.scale.conftest import CPUS_PER_ACTOR, import_ray, oracle_runs

import_ray()
pytestmark = pytest.mark.slow  # a local Ray cluster: run by `make test-ray` (see the Makefile)

from novamart.scale.ray_pool import ActorDied, EnvPool, Job, shared_pool  # noqa: E402


@pytest.fixture(scope="module")
def pool(ray_cluster: ModuleType) -> EnvPool:
    return shared_pool(2, CPUS_PER_ACTOR)


def reference(run: EpisodeRun) -> tuple[str, list[str], float]:
    """The brief, the reports and the grade of ``run``'s actions played in process."""
    episode = ToolEpisode()
    brief = episode.reset(task=run.task, seed=run.seed)
    reports = [episode.call(a.tool_name, a.arguments) for a in run.actions]
    return brief, reports, episode.grade


def test_whole_episodes_equal_in_process_play(pool: EnvPool) -> None:
    local = oracle_runs(36, start=71_000)
    jobs = [Job("oracle", run.task, run.seed) for run in local]
    remote = pool.play(jobs, keep=True, chunk=5)  # 8 calls over both actors
    assert [(r.task, r.seed) for r in remote] == [(r.task, r.seed) for r in local]
    assert remote == local  # scores, step rewards, every observation and action
    assert all(run.final_score == 1.0 for run in remote)


def test_steps_in_a_batch_and_one_a_call_equal_in_process_play(pool: EnvPool) -> None:
    held = pool.open_sessions()  # the adapters' tests keep verl trajectories on this pool
    for run in oracle_runs(9, start=72_000):  # each task once
        brief, reports, grade = reference(run)
        calls = [(a.tool_name, a.arguments) for a in run.actions]
        batched, stepped = pool.session(), pool.session()
        assert batched.reset(task=run.task, seed=run.seed) == brief
        results = batched.calls([*calls, calls[-1]])  # the call past the end is not played
        assert [r.report for r in results] == reports
        assert [r.reward for r in results] == run.rewards
        assert batched.done and batched.grade == grade == run.final_score
        assert stepped.reset(task=run.task, seed=run.seed) == brief
        assert [stepped.call(name, arguments) for name, arguments in calls] == reports
        assert stepped.done and stepped.grade == grade
        with pytest.raises(EpisodeOver):
            stepped.call(*calls[-1])
        batched.close()
        stepped.close()
    assert pool.open_sessions() == held  # closed sessions leave their actor


def test_a_session_needs_a_reset_and_a_known_agent(pool: EnvPool) -> None:
    with pytest.raises(EpisodeOver, match="reset first"):
        pool.session().call("lookup_order", {})
    with pytest.raises(ValueError, match="unknown agents"):
        pool.play([Job("no_such_agent", "easy_refund", 1)])


@pytest.fixture
def own_pool(ray_cluster: ModuleType) -> Iterator[EnvPool]:
    with EnvPool(2, CPUS_PER_ACTOR) as fresh:
        yield fresh


def test_a_killed_actor_fails_its_sessions_and_is_replaced(
    own_pool: EnvPool, ray_cluster: ModuleType
) -> None:
    run = oracle_runs(1, start=73_000)[0]
    first, second = run.actions[0], run.actions[1]
    doomed, other = own_pool.session(), own_pool.session()
    doomed.reset(task=run.task, seed=run.seed)
    other.reset(task=run.task, seed=run.seed)  # the fewest sessions: the other actor
    doomed.call(first.tool_name, first.arguments)
    other.call(first.tool_name, first.arguments)
    slot = doomed._place.slot  # type: ignore[union-attr]
    assert other._place.slot != slot  # type: ignore[union-attr]
    dead = own_pool.actor(slot)
    late = own_pool.session()  # placed on the doomed actor too (fewest sessions, first slot)
    late.reset(task=run.task, seed=run.seed)
    assert late._place.slot == slot  # type: ignore[union-attr]

    ray_cluster.kill(dead, no_restart=True)
    with pytest.raises(ActorDied, match="died"):
        doomed.call(second.tool_name, second.arguments)
    assert own_pool.replaced == 1
    assert own_pool.actor(slot)._actor_id != dead._actor_id
    with pytest.raises(ActorDied):  # failed at once: its actor is known dead
        late.call(first.tool_name, first.arguments)
    assert own_pool.replaced == 1

    # the other actor's episode goes on; the failed sessions play again after a reset
    other.call(second.tool_name, second.arguments)
    brief, reports, grade = reference(run)
    assert doomed.reset(task=run.task, seed=run.seed) == brief
    assert [doomed.call(a.tool_name, a.arguments) for a in run.actions] == reports
    assert doomed.grade == grade == run.final_score
    jobs = [Job("oracle", r.task, r.seed) for r in oracle_runs(4, start=74_000)]
    assert [r.final_score for r in own_pool.play(jobs, chunk=1)] == [1.0] * 4
