"""Simultaneous sessions are independent: each plays exactly the episode it would play alone."""

import asyncio

from novamart.scenarios.tasks import TASKS
from novamart.server.launch import RunningServer
from tests.server.remote import observations, play_session

SESSIONS = 32


def _episodes() -> list[tuple[str, int]]:
    tasks = sorted(TASKS)
    return [(tasks[i % len(tasks)], 1000 + i) for i in range(SESSIONS)]


async def _all_at_once(url: str) -> list:
    return await asyncio.gather(*(play_session(url, task, seed) for task, seed in _episodes()))


async def _one_by_one(url: str) -> list:
    return [await play_session(url, task, seed) for task, seed in _episodes()]


def test_simultaneous_sessions_match_the_same_episodes_run_one_by_one(
    server: RunningServer,
) -> None:
    together = asyncio.run(_all_at_once(server.url))
    alone = asyncio.run(_one_by_one(server.url))

    for (task, seed), (results, state), (solo, solo_state) in zip(
        _episodes(), together, alone, strict=True
    ):
        assert observations(results) == observations(solo), (task, seed)
        assert [r.reward for r in results] == [r.reward for r in solo], (task, seed)
        assert state == solo_state
        assert state.task == task and state.seed == seed and state.done
    distinct = {tuple(o.issue_description for o in observations(r)) for r, _ in together}
    assert len(distinct) == SESSIONS  # distinct seeds really gave distinct cases
