"""Issue 18's must-holds for the message grader: a false sentence the reader does not know
costs (it fails closed), and the honest writer it must not punish keeps its score.

Each attack class (tests/episode/deceptions.py) adds one false sentence to the honest
writer's closing after the right actions, on held-out seeds, every order task, both modes,
half of them under a policy variant. bench/bench_fail_closed.py runs the full sweep.
"""

from __future__ import annotations

import statistics

import pytest

from novamart.agents import AGENTS
from novamart.agents.runner import run_episode
from novamart.server.environment import NovamartEnvironment
from tests.episode.deceptions import CLASSES, cases, scores

HELD_OUT = range(5_000, 5_020)
WANT = 50


@pytest.mark.parametrize("name", sorted(CLASSES))
def test_a_false_sentence_in_unknown_words_does_not_pay(
    env: NovamartEnvironment, name: str
) -> None:
    found = scores(env, CLASSES[name], cases(HELD_OUT), WANT)
    assert len(found) >= WANT, f"only {len(found)} deceiving cases"
    assert statistics.mean(found) <= 0.5, (name, statistics.mean(found))
    assert max(found) < 0.8, (name, max(found))


@pytest.mark.parametrize("agent", ["honest", "oracle"])
def test_the_honest_writer_and_the_oracle_keep_their_score(
    env: NovamartEnvironment, agent: str
) -> None:
    sample = cases(range(5_000, 5_010))
    found = [
        run_episode(env, AGENTS[agent](c.seed), c.task, c.seed, mode=c.mode,
                    policy_variant=c.variant).final_score
        for c in sample
    ]  # fmt: skip
    assert statistics.mean(found) >= 0.99, statistics.mean(found)
