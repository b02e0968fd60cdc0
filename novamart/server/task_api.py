"""OpenEnv's task API over NovaMart's task registry: splits of reset arguments.

A task entry is the reset arguments that play it (``reset(**entry)``), and
``reset(split=..., index=...)`` plays entry ``index`` of ``split``. Everything is derived
from ``novamart.scenarios.tasks.TASKS`` when asked, so a task added there is in every split:

- ``canonical``: each task's named case (``seed`` None), in registry order;
- ``train`` and ``test``: every task at each seed of two disjoint seed ranges, seed-major
  (entries ``0 .. len(TASKS) - 1`` are seed one of each task), so any prefix mixes all tasks.
  ``test`` is seeds 0..99, the seeds of the README's baselines.
"""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, ConfigDict

from novamart.scenarios.tasks import TASKS

TaskEntry = dict[str, Any]


class Split(BaseModel):
    """A split descriptor as OpenEnv's ``/{env}/splits`` lists it."""

    model_config = ConfigDict(frozen=True, arbitrary_types_allowed=True)

    name: str
    type: str
    description: str
    seeds: range | None = None
    """None: the canonical cases (no seed)."""

    def size(self) -> int:
        per_task = 1 if self.seeds is None else len(self.seeds)
        return per_task * len(TASKS)

    def entry(self, index: int) -> TaskEntry:
        size = self.size()
        if isinstance(index, bool) or not isinstance(index, int) or not -size <= index < size:
            raise IndexError(f"index {index!r} is outside split {self.name!r} (0..{size - 1})")
        index %= size
        names = list(TASKS)
        seed = None if self.seeds is None else self.seeds[index // len(names)]
        return {"task": names[index % len(names)], "seed": seed}

    def describe(self) -> dict[str, Any]:
        return {
            "name": self.name,
            "type": self.type,
            "description": self.description,
            "num_tasks": self.size(),
        }


TEST_SEEDS = range(0, 100)
TRAIN_SEEDS = range(1_000, 6_000)
SPLITS: dict[str, Split] = {
    s.name: s
    for s in (
        Split(
            name="canonical",
            type="validation",
            description="each task's named case (no seed)",
        ),
        Split(
            name="train",
            type="train",
            description=f"every task at seeds {TRAIN_SEEDS.start}..{TRAIN_SEEDS.stop - 1}",
            seeds=TRAIN_SEEDS,
        ),
        Split(
            name="test",
            type="test",
            description=f"every task at seeds {TEST_SEEDS.start}..{TEST_SEEDS.stop - 1}",
            seeds=TEST_SEEDS,
        ),
    )
}


def get_split(name: str) -> Split:
    """The split called ``name``; an unknown one is a ValueError naming the valid ones."""
    try:
        return SPLITS[name]
    except (KeyError, TypeError):
        raise ValueError(f"unknown split {name!r}; splits: {', '.join(SPLITS)}") from None


class TaskCatalog:
    """The five TaskProvider methods; side-effect free, cheap on a fresh environment."""

    def list_splits(self) -> list[dict[str, Any]]:
        return [split.describe() for split in SPLITS.values()]

    def list_tasks(self, split: str) -> list[TaskEntry]:
        return self.get_task_range(split)

    def num_tasks(self, split: str) -> int:
        return get_split(split).size()

    def get_task(self, split: str, index: int) -> TaskEntry:
        return get_split(split).entry(index)

    def get_task_range(
        self, split: str, start: int | None = None, stop: int | None = None
    ) -> list[TaskEntry]:
        chosen = get_split(split)
        return [chosen.entry(i) for i in range(chosen.size())[start:stop]]
