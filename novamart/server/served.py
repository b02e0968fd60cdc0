"""The environment as the server runs it: NovamartEnvironment kept on the server's one rules
version (novamart.server.rules_sync) before every reset, and measured for ``/metrics``
(novamart.server.metrics): episodes started and ended (by task and termination), their
scores, the time each step takes (counted in memory, written in bulk: novamart.server.tally).
In-process users (trainers, benchmarks) use
NovamartEnvironment itself and pay for none of this."""

from __future__ import annotations

import time
from typing import Any

from openenv.core.env_server.types import Action, Observation

from novamart.models import NovamartObservation
from novamart.server.environment import NovamartEnvironment
from novamart.server.metrics import Metrics
from novamart.server.rules_sync import RulesSync


def served_environment(sync: RulesSync, metrics: Metrics) -> type[NovamartEnvironment]:
    """The environment class OpenEnv builds one of per session, bound to ``sync`` and
    ``metrics``."""
    tally = metrics.tally

    class ServedEnvironment(NovamartEnvironment):
        _ended_counted = True  # no episode yet

        def __init__(self, *args: Any, **kwargs: Any) -> None:
            super().__init__(*args, **kwargs)
            self._step_times: list[float] = []  # this episode's, until it ends

        def reset(self, *args: Any, **kwargs: Any) -> NovamartObservation:
            self._count_steps()  # an episode left unfinished
            sync.catch_up()
            observation = super().reset(*args, **kwargs)
            metrics.serving(observation.rules_version)
            tally.episode_started(observation.task)
            self._ended_counted = observation.done
            return observation

        def step(
            self, action: Action, timeout_s: float | None = None, **kwargs: Any
        ) -> Observation:
            started = time.perf_counter()
            observation = super().step(action, timeout_s, **kwargs)
            self._step_times.append(time.perf_counter() - started)
            if observation.done and not self._ended_counted:
                self._ended_counted = True
                self._count_end(observation)
            return observation

        def close(self) -> None:
            self._count_steps()
            super().close()

        def _count_end(self, observation: Observation) -> None:
            if isinstance(observation, NovamartObservation):
                ending = observation.termination or "unknown"
                score = observation.final_score or 0.0
                tally.episode_ended(observation.task, ending, score, self._step_times)
                self._step_times = []

        def _count_steps(self) -> None:
            if self._step_times:
                tally.steps(self._step_times)
                self._step_times = []

    return ServedEnvironment
