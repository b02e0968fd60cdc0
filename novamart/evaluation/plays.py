"""What a run plays: seeded episodes of each task, or, with ``--dataset FILE``, each row of
the file once for each ticket task it can serve.

A row serves a ticket family when it fills in a label the family grades on (triage:
category and priority; extraction: fields; KB answers: kb_id; escalation: requires_escalation;
recovery: account). Every row is checked before the first episode (known columns and a text,
then against every selected family it serves), so a bad row stops the run up front, never
halfway through.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from novamart.scenarios.tasks import TICKET_TASKS as _TICKETS
from novamart.tickets.dataset import (
    REQUIRED,
    DatasetError,
    DatasetRow,
    check_columns,
    read_rows,
    row_scenario,
    serves,
)

TRIAL_SEED_STRIDE = 1_000_003
"""Trial t (1-based) of a case gives the agent seed ``case + (t - 1) * stride`` (trial 1:
the case's own), so a stochastic agent draws anew on each trial while the case stays."""


@dataclass(frozen=True)
class Play:
    """One episode to play: a task with a seed, or a task with a dataset row; an order case
    in a mode, under the rules as written or a policy variant; ``trial`` counts the
    repetitions of that case (from 1)."""

    task: str
    seed: int | None = None
    row: DatasetRow | None = None
    mode: str = "guided"
    variant: int | None = None
    trial: int = 1

    @property
    def label(self) -> str:
        """The task as results name it: ``open_case``, ``open_case/closed_book``,
        ``open_case/variants`` (guided, each episode under its own policy variant)."""
        parts = [self.task]
        if self.mode != "guided":
            parts.append(self.mode)
        if self.variant is not None:
            parts.append("variants")
        return "/".join(parts)

    @property
    def case(self) -> dict[str, Any]:
        """What reset takes besides task and seed: the mode and policy variant, when not the
        defaults (a ticket takes neither)."""
        case = {"mode": self.mode, "policy_variant": self.variant}
        return {k: v for k, v in case.items() if v not in (None, "guided")}

    @property
    def agent_seed(self) -> int:
        """The seed the agent plays with (the environment's case stays ``seed`` / ``row``)."""
        case = self.row.index if self.row else self.seed or 0
        return case + (self.trial - 1) * TRIAL_SEED_STRIDE


@dataclass(frozen=True)
class DatasetPlan:
    file: str
    rows: dict[str, list[DatasetRow]]
    """Task -> the rows it plays, tasks in play order."""
    notes: list[str] = field(default_factory=list)
    """What is not played, and why (for stderr)."""

    @property
    def tasks(self) -> list[str]:
        return list(self.rows)


def _labels(task: str) -> str:
    return ", ".join(repr(c) for c in REQUIRED[_TICKETS[task].family] if c != "text")


def plan_dataset(path: Path, tasks: list[str], explicit: bool) -> DatasetPlan:
    """The rows of ``path`` each of ``tasks`` (ordered) plays, every row checked.

    DatasetError when the file or a row is malformed, when a task is not a ticket task, when
    an ``explicit`` task (named with --tasks) has no row to play, or when none has any."""
    orders = [t for t in tasks if t not in _TICKETS]
    if explicit and orders:
        raise DatasetError(
            f"--dataset plays ticket tasks ({', '.join(_TICKETS)}); "
            f"not order cases: {', '.join(orders)}"
        )
    rows = read_rows(path)
    for row in rows:
        check_columns(row)
    name = Path(path).name
    plan: dict[str, list[DatasetRow]] = {}
    notes = []
    for task in (t for t in tasks if t in _TICKETS):
        family = _TICKETS[task].family
        served = [row for row in rows if serves(family, row.data)]
        if not served:
            problem = f"{name}: {task} cannot be played: no row fills in {_labels(task)}"
            if explicit:
                raise DatasetError(problem)
            notes.append(problem)
            continue
        for row in served:
            row_scenario(family, row)
        plan[task] = served
        notes.append(f"{name}: {task} plays {len(served)} of {len(rows)} rows")
    if not plan:
        wanted = "; ".join(f"{t}: {_labels(t)}" for t in _TICKETS)
        raise DatasetError(f"{name}: no ticket task can be played; a row fills in {wanted}")
    played = {row.index for served in plan.values() for row in served}
    idle = [row.where for row in rows if row.index not in played]
    if idle:
        notes.append(f"{name}: not played (no label of a selected task): {', '.join(idle)}")
    return DatasetPlan(name, plan, notes)


def schedule(
    tasks: list[str],
    seeds: list[int | None],
    plan: DatasetPlan | None,
    modes: tuple[str, ...] = ("guided",),
    variant: int | None = None,
    trials: int = 1,
) -> list[Play]:
    """Every episode of a run, task by task: each seed, or each of the task's dataset rows,
    each played ``trials`` times in a row. An order or retail task is played in each of
    ``modes``, and with ``variant`` N once more in each, episode i under policy variant N+i."""
    if plan is not None:
        cases = [Play(task, row=row) for task, rows in plan.rows.items() for row in rows]
    else:
        cases = []
        for task in tasks:
            if task in _TICKETS:
                cases += [Play(task, seed=seed) for seed in seeds]
                continue
            for mode in modes:
                cases += [Play(task, seed=seed, mode=mode) for seed in seeds]
                if variant is not None:
                    cases += [
                        Play(task, seed=seed, mode=mode, variant=variant + i)
                        for i, seed in enumerate(seeds)
                    ]
    return [replace(case, trial=t) for case in cases for t in range(1, trials + 1)]
