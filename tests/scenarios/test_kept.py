"""What the draw and the grader keep about a retail world goes with the world.

A long-lived worker plays episode after episode on new seeds: the results its memos keep
(a settlement, a plan, a graded outcome, the messages' verdicts) are kept on the records they
were computed from, so an episode's worlds are freed when it ends, and a case's when its
cache lets it go (global tables held thousands of episodes' worlds: bench/bench_collector.py).
"""

from __future__ import annotations

import copy
import gc
import weakref

from novamart.agents import AGENTS
from novamart.agents.runner import run_episode
from novamart.retail.diff import plan
from novamart.scenarios.retail_requests import build_task, settle
from novamart.scenarios.retail_world import World
from novamart.server.environment import NovamartEnvironment

SEED = 4_100_000
"""Seeds no table or other test plays: their cases are drawn here."""


def _unheld(world: World) -> World:
    """An equal world no cache holds (the draw's are kept by build_world and the case cache)."""
    return World(world.seed, world.products, world.customers)


def _same(one: tuple[object, ...], other: tuple[object, ...]) -> bool:
    """The same settlement and world after it (the pair is made anew around them)."""
    return all(a is b for a, b in zip(one, other, strict=True))


def test_a_settlement_kept_on_a_world_goes_with_it() -> None:
    task = build_task("compound", SEED)
    world = _unheld(task.world)
    settled = settle(world, task.requests[0])
    assert _same(settle(world, task.requests[0]), settled)  # kept while the world lives
    gone = weakref.ref(world)
    del world, settled  # (a request not carried out leaves the world it was settled on)
    gc.collect()
    assert gone() is None


def test_a_plan_holding_its_world_goes_with_it() -> None:
    """A plan holds the world it was made on: kept in a global table under that world, it
    kept it alive; kept on the world, the two go together."""
    task = build_task("compound", SEED + 1)
    world = _unheld(task.world)
    best = plan(world, task.requests, task.rules)
    assert plan(world, task.requests, task.rules) is best
    gone = weakref.ref(world)
    del world, best
    gc.collect()
    assert gone() is None


def test_a_copy_of_a_world_keeps_its_own_results() -> None:
    """``copy.copy`` shares a record's attribute dict: the copy must not be answered, nor
    answer, with results computed on the original."""
    task = build_task("compound", SEED + 2)
    world = _unheld(task.world)
    settled = settle(world, task.requests[0])
    twin = copy.copy(world)
    assert settle(twin, task.requests[0])[0] is not settled[0]
    assert settle(twin, task.requests[0]) == settled
    assert _same(settle(world, task.requests[0]), settled)


def test_an_episode_s_worlds_go_when_it_ends() -> None:
    """An oracle episode of a compound case writes several times; once the environment plays
    another episode, none of the worlds its writes made is held by what grading kept."""
    env = NovamartEnvironment()
    run_episode(env, AGENTS["oracle"](seed=0), "retail_compound", SEED + 3)
    session = env.episode
    assert session is not None and session.world is not session.task.world  # it wrote
    final = weakref.ref(session.world)
    del session
    run_episode(env, AGENTS["oracle"](seed=0), "retail_compound", SEED + 4)
    gc.collect()
    assert final() is None
