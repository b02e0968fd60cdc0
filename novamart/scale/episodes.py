"""What the trainer adapters play on: an in-process episode, or a session of this process's
Ray pool; and the case a trainer's dataset row names."""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any, Protocol

from novamart.training.episode import ToolEpisode

CASE_KEYS = ("task", "seed", "split", "index")


class Episode(Protocol):
    """``ToolEpisode``'s calls, which ``PoolSession`` offers too."""

    def reset(
        self,
        task: str | None = None,
        seed: int | None = None,
        ticket: dict[str, Any] | None = None,
        split: str | None = None,
        index: int | None = None,
    ) -> str: ...

    def call(self, name: str, arguments: dict[str, Any]) -> str: ...

    @property
    def grade(self) -> float: ...

    @property
    def done(self) -> bool: ...

    def close(self) -> None: ...


def open_episode(ray_actors: int = 0, cpus_per_actor: float = 1.0) -> Episode:
    """In process when ``ray_actors`` is 0, else a session of this process's pool of that
    many actors (Ray is imported only then)."""
    if ray_actors < 0:
        raise ValueError(f"ray_actors must be 0 (in process) or more, not {ray_actors}")
    if ray_actors == 0:
        return ToolEpisode()
    from novamart.scale.ray_pool import shared_pool

    return shared_pool(ray_actors, cpus_per_actor).session()


def case_of(row: Mapping[str, Any]) -> dict[str, Any]:
    """The reset arguments a row names: ``task``/``seed``, or ``split``/``index``, and a
    ticket as ``ticket`` (a dict) or ``ticket_json`` (its JSON text). Other keys are ignored."""
    case = {key: row[key] for key in CASE_KEYS if row.get(key) is not None}
    if row.get("ticket_json") is not None:
        case["ticket"] = json.loads(row["ticket_json"])
    elif row.get("ticket") is not None:
        case["ticket"] = dict(row["ticket"])
    return case
