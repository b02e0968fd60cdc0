"""Training rows over the task API's splits, in the shape TRL's GRPOTrainer reads.

Each row is one task entry (``novamart.server.task_api``) plus what TRL needs: ``prompt``
(the system prompt and an empty user message, which the environment's ``reset`` fills with
the case brief) and ``environment`` (which class of ``ENVIRONMENTS`` plays it). The case is
a function of the row, so every generation of a GRPO group plays the same case.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from novamart.scenarios.tasks import get_task
from novamart.server.environment import check_mode
from novamart.server.task_api import get_split
from novamart.training.episode import SYSTEM_PROMPT
from novamart.training.trl_env import ENV_OF_TASK, TEXT_REPLY_NOTE

TRAINING_PROMPT = f"{SYSTEM_PROMPT}\n{TEXT_REPLY_NOTE}"


def dataset_rows(
    split: str = "train",
    tasks: Iterable[str] | None = None,
    start: int | None = None,
    stop: int | None = None,
    mode: str = "guided",
    policy_variant: int | None = None,
) -> list[dict[str, Any]]:
    """Rows for entries ``start:stop`` of ``split``, keeping only ``tasks`` (all by default).
    Order and retail rows play in ``mode``; with ``policy_variant`` N, entry i plays under
    variant N+i (as ``novamart eval --policy-variant`` does), so a trainer meets the policy
    moved, not one set of numbers to memorise; tickets play as written."""
    check_mode(mode)
    chosen = get_split(split)
    wanted = None if tasks is None else set(tasks)
    unknown = (wanted or set()) - set(ENV_OF_TASK)
    if unknown:
        raise ValueError(f"unknown tasks {sorted(unknown)}; tasks: {', '.join(ENV_OF_TASK)}")
    rows = []
    for index in range(chosen.size())[start:stop]:
        entry = chosen.entry(index)
        if wanted is None or entry["task"] in wanted:
            prompt = [
                {"role": "system", "content": TRAINING_PROMPT},
                {"role": "user", "content": ""},
            ]
            ticket = get_task(entry["task"]).is_ticket
            case = {
                "mode": None if ticket else mode,
                "policy_variant": None
                if ticket or policy_variant is None
                else policy_variant + index,
            }
            rows.append(
                {"prompt": prompt, "environment": ENV_OF_TASK[entry["task"]], **entry, **case}
            )
    return rows


def make_dataset(
    split: str = "train",
    tasks: Iterable[str] | None = None,
    start: int | None = None,
    stop: int | None = None,
    mode: str = "guided",
    policy_variant: int | None = None,
) -> Any:
    """``dataset_rows`` as a ``datasets.Dataset`` (needs the ``datasets`` package, which TRL
    brings)."""
    from datasets import Dataset

    return Dataset.from_list(dataset_rows(split, tasks, start, stop, mode, policy_variant))
