"""The environment as the server runs it: NovamartEnvironment, kept on the server's one rules
version (novamart.server.rules_sync) before every reset. In-process users (trainers,
benchmarks) use NovamartEnvironment itself and pay for none of this."""

from __future__ import annotations

from typing import Any

from novamart.models import NovamartObservation
from novamart.server.environment import NovamartEnvironment
from novamart.server.rules_sync import RulesSync


def served_environment(sync: RulesSync) -> type[NovamartEnvironment]:
    """The environment class OpenEnv builds one of per session, bound to ``sync``."""

    class ServedEnvironment(NovamartEnvironment):
        def reset(self, *args: Any, **kwargs: Any) -> NovamartObservation:
            sync.catch_up()
            return super().reset(*args, **kwargs)

    return ServedEnvironment
