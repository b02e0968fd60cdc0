"""A local Ray cluster (2 CPUs, no dashboard) for the session, and the oracle's reference play.

Ray is the optional extra ``novamart[ray]``. Where it is expected (``NOVAMART_RAY=1``, which
``make test-ray`` sets after installing the extra; CI and ``make bench`` run it) a missing
``ray`` is an error, never a skip; elsewhere (``make test``) the tests that need a cluster
skip, saying how to run them.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from types import ModuleType

import pytest

from novamart.agents import AGENTS
from novamart.agents.runner import EpisodeRun, generated, run_episode
from novamart.server.environment import NovamartEnvironment

RAY_EXPECTED = os.environ.get("NOVAMART_RAY") == "1"
CPUS_PER_ACTOR = 0.5  # two pools of two actors fit the cluster's 2 CPUs


def import_ray() -> ModuleType:
    """``ray``, or a skip saying how to get it (a failure where CI installs it)."""
    try:
        import ray
    except ImportError:
        if RAY_EXPECTED:
            raise
        pytest.skip(
            "ray is not installed (the optional extra): `make test-ray` installs it and runs these "
            "with NOVAMART_RAY=1, where a missing ray is a failure",
            allow_module_level=True,
        )
    return ray


@pytest.fixture(scope="session")
def ray_cluster() -> Iterator[ModuleType]:
    ray = import_ray()
    ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False)
    yield ray
    ray.shutdown()


def oracle_runs(count: int, start: int) -> list[EpisodeRun]:
    """In-process oracle episodes, every task in turn, with observations and actions."""
    env = NovamartEnvironment()
    return [
        run_episode(env, AGENTS["oracle"](seed), task, seed, keep=True)
        for task, seed in generated(count, start)
    ]
