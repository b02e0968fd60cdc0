"""The retail family tells agents apart (issue 20 "Must hold"), over 100 seeds per task in both
modes, played through the real environment: the oracle solves every case, the honest writer's
voices pass, and the scripts that read check_action (or pick one resolution blindly) stay
well below."""

from __future__ import annotations

from functools import cache
from statistics import mean

import pytest

from novamart.agents import AGENTS
from novamart.agents.runner import run_episode
from novamart.scenarios.tasks import MODES, RETAIL_TASKS, Mode
from novamart.server.environment import NovamartEnvironment

SEEDS = range(100)
SCRIPTS = ("heuristic", "fact_reader", "always_refund")


@cache
def scores(agent: str, task: str, mode: Mode) -> tuple[float, ...]:
    env = NovamartEnvironment()
    return tuple(
        run_episode(env, AGENTS[agent](seed=seed), task, seed, mode=mode).final_score
        for seed in SEEDS
    )


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("task", RETAIL_TASKS)
def test_the_oracle_solves_every_case(task: str, mode: Mode) -> None:
    got = scores("oracle", task, mode)
    assert min(got) == 1.0, [s for s, v in zip(SEEDS, got, strict=True) if v < 1.0][:10]


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("task", RETAIL_TASKS)
def test_the_honest_writer_passes(task: str, mode: Mode) -> None:
    assert mean(scores("honest", task, mode)) >= 0.95


@pytest.mark.parametrize("mode", MODES)
def test_the_heuristic_leaves_headroom(mode: Mode) -> None:
    compound = scores("heuristic", "retail_compound", mode)
    assert mean(compound) <= 0.7
    gaps = [
        mean(scores("oracle", task, mode)) - mean(scores("heuristic", task, mode))
        for task in RETAIL_TASKS
    ]
    assert mean(gaps) >= 0.2


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("script", SCRIPTS[1:])
def test_fixed_choice_scripts_stay_below_the_oracle(script: str, mode: Mode) -> None:
    for task in RETAIL_TASKS:
        assert mean(scores(script, task, mode)) <= mean(scores("oracle", task, mode)) - 0.05
    assert mean(scores(script, "retail_compound", mode)) <= 0.7
