"""The environment as the server runs it: NovamartEnvironment kept on the server's one rules
version (novamart.server.rules_sync) before every reset, and measured for ``/metrics``
(novamart.server.metrics): episodes started and ended (by task and termination), their
scores, the time each step takes. In-process users (trainers, benchmarks) use
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

    class ServedEnvironment(NovamartEnvironment):
        _ended_counted = True  # no episode yet

        def reset(self, *args: Any, **kwargs: Any) -> NovamartObservation:
            sync.catch_up()
            observation = super().reset(*args, **kwargs)
            metrics.serving(observation.rules_version)
            metrics.episodes_started.labels(observation.task).inc()
            self._ended_counted = observation.done
            return observation

        def step(
            self, action: Action, timeout_s: float | None = None, **kwargs: Any
        ) -> Observation:
            started = time.perf_counter()
            observation = super().step(action, timeout_s, **kwargs)
            metrics.step_seconds.observe(time.perf_counter() - started)
            if observation.done and not self._ended_counted:
                self._ended_counted = True
                self._count_end(observation)
            return observation

        def _count_end(self, observation: Observation) -> None:
            if isinstance(observation, NovamartObservation):
                task, ending = observation.task, observation.termination or "unknown"
                metrics.episodes.labels(task, ending).inc()
                metrics.score.labels(task).observe(observation.final_score or 0.0)

    return ServedEnvironment
