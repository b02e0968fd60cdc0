"""Evaluation results as data: every episode with its trajectory, one summary per (agent,
task) with the failures grouped, and the JSON file that holds them all (with the settings
that reproduce it).

An episode's record keeps what a reader needs to see what happened and why it scored as it
did: each step (the call, the tool's answer, the reward and its breakdown, the customer's
reply, timing), the last observation's other fields (ground truth, grader notes,
termination: whatever the environment reveals at the end, copied field by field so a field
the environment adds appears here without a change) and the final ``state()``.
"""

from __future__ import annotations

from functools import cached_property
from pathlib import Path
from typing import Any

from pydantic import BaseModel, Field, field_serializer

from novamart.evaluation.failures import FailureGroup, group_failures
from novamart.evaluation.stats import ScoreSummary, summarise


def refusal(result: dict[str, Any] | None) -> str | None:
    """A tool's refusal as ``code: message``; None when it succeeded."""
    if not isinstance(result, dict) or result.get("ok") is not False:
        return None
    error = result.get("error") or {}
    return f"{error.get('code', 'error')}: {error.get('message', '')}"


REWARD_DIGITS = 6
"""Rewards as the results file writes them: 1e-6 is far below any grade term's step, and
full float digits ("0.041666666666666664") were a tenth of the file."""


def _written(value: float) -> float:
    return round(value, REWARD_DIGITS)


class StepRecord(BaseModel):
    """One step: the call the agent made and what it earned."""

    step: int
    tool: str
    arguments: dict[str, Any]
    result: dict[str, Any] | None
    """The tool's answer as the observation carried it: a refusal is ``ok: false`` with the
    ``error`` (code, message), a message's answer the ``customer_reply``."""
    reward: float
    breakdown: dict[str, float] = Field(default_factory=dict)
    """The reward split by grade term (terms that did not move left out)."""
    done: bool = False
    agent_s: float
    """Seconds the agent took to choose this call (model time, for an LLM)."""
    env_s: float
    """Seconds the environment took to run it."""

    @field_serializer("reward")
    def _reward(self, value: float) -> float:
        return _written(value)

    @field_serializer("breakdown")
    def _breakdown(self, value: dict[str, float]) -> dict[str, float]:
        return {term: _written(v) for term, v in value.items()}

    @property
    def error(self) -> str | None:
        """``code: message`` when the tool refused."""
        return refusal(self.result)

    @property
    def customer_reply(self) -> str | None:
        reply = (self.result or {}).get("customer_reply")
        return reply if isinstance(reply, str) else None


class EpisodeResult(BaseModel):
    """What one episode came to; ``error`` says why it ended early (model or server gone)."""

    agent: str
    task: str
    seed: int | None
    row: int | None = None
    """The dataset row played (1-based, as errors name it), with ``--dataset``."""
    trial: int = 1
    """Which of the case's ``--trials`` this is (from 1)."""
    steps: int
    rewards: list[float]
    score: float = Field(ge=0.0, le=1.0)
    done: bool
    success: bool
    error: str | None = None
    elapsed_s: float = 0.0
    trajectory: list[StepRecord] = Field(default_factory=list)
    final_observation: dict[str, Any] = Field(default_factory=dict)
    """The last observation's fields that the steps do not already hold (empty ones left
    out): on a finished episode, the terminal reveal."""
    state: dict[str, Any] = Field(default_factory=dict)
    """The environment's ``state()`` after the last step, less the fields the final
    observation already shows with the same value."""
    hidden: dict[str, Any] | None = None
    """What only the hidden episode shows (failed policy conditions of the resolutions tried,
    a ticket's drawn difficulty), read in this process; None over ``--env-url``. See
    novamart.evaluation.reveal."""
    costs: dict[str, float] = Field(default_factory=dict)
    """Grade term -> the points it cost (see novamart.evaluation.failures)."""

    @field_serializer("rewards")
    def _rewards(self, value: list[float]) -> list[float]:
        return [_written(v) for v in value]

    @property
    def case(self) -> tuple[str, int | None, int | None]:
        """Which case this episode played: (task, seed, row); trials share it."""
        return (self.task, self.seed, self.row)


class CellResult(BaseModel):
    agent: str
    task: str
    summary: ScoreSummary
    failures: list[FailureGroup] = Field(default_factory=list)


class RunSettings(BaseModel):
    """What was run, so the results file says how to reproduce itself."""

    agents: list[str]
    tasks: list[str]
    episodes: int
    """Cases per agent and task (seeds S..S+episodes-1); 1 with a dataset (its rows)."""
    seed: int | None
    trials: int = 1
    """How many times each case was played (pass^k is defined for k <= trials)."""
    dataset: str | None = None
    """With ``--dataset``: the file whose rows were played (each once per task it serves)."""
    env_url: str | None = None
    model: str | None = None
    modes: list[str] = ["guided"]
    """How order cases were played (each mode a ``task/mode`` column beside guided)."""
    policy_variant: int | None = None
    """With ``--policy-variant N``: ``task/variants`` columns, episode i under variant N+i."""
    customer: str = "simulated"
    """Who answered the agent's messages: the deterministic simulator, or "llm"."""
    customer_model: str | None = None
    judge: str = "reader"
    """Who graded the communication term of order cases: the deterministic reader, or "llm"."""
    judge_model: str | None = None
    rules_dir: str | None = None
    """The rule files played (None: the repository's rules/, or the server's own)."""
    rules_version: str | None = None
    """The content hash of the rules played in-process (None over ``--env-url``)."""
    command: str = ""

    def scope(self) -> str:
        """Which episodes each (agent, task) cell played, in words."""
        repeat = f", each played {self.trials} times" if self.trials > 1 else ""
        if self.dataset is not None:
            rows = f"One case per agent, task and row of {Path(self.dataset).name} it can play"
            return rows + repeat
        seeds = (
            "canonical scenario"
            if self.seed is None
            else f"seeds {self.seed}..{self.seed + self.episodes - 1}"
        )
        unit = "cases" if repeat else "episodes"
        return f"{self.episodes} {unit} per agent and task ({seeds}){repeat}"

    def title(self) -> str:
        """A heading that says what was run: who, on what, how often."""
        solo_model = self.agents == ["llm"] and self.model
        who = self.model if solo_model else _listed(self.agents, "agents")
        on = _listed(self.tasks, "tasks")
        played = Path(self.dataset).name if self.dataset is not None else _seeds(self)
        trials = f" × {self.trials} trials" if self.trials > 1 else ""
        customer = f", LLM customer {self.customer_model}" if self.customer == "llm" else ""
        judge = f", LLM judge {self.judge_model}" if self.judge == "llm" else ""
        return f"NovaMart evaluation: {who} on {on} ({played}{trials}{customer}{judge})"


def _listed(names: list[str], kind: str, most: int = 3) -> str:
    return ", ".join(names) if len(names) <= most else f"{len(names)} {kind}"


def _seeds(settings: RunSettings) -> str:
    if settings.seed is None:
        return "canonical cases"
    return f"{settings.episodes} seeds from {settings.seed}"


class EvalResults(BaseModel):
    settings: RunSettings
    cells: list[CellResult]
    episodes: list[EpisodeResult]

    @cached_property
    def _cells(self) -> dict[tuple[str, str], list[int]]:
        return by_cell(self.episodes)

    def played(self, cell: CellResult) -> list[int]:
        """Indices of the episodes of ``cell``, in play order."""
        return list(self._cells.get((cell.agent, cell.task), []))


def by_cell(episodes: list[EpisodeResult]) -> dict[tuple[str, str], list[int]]:
    """(agent, task) -> the indices of its episodes, in play order."""
    cells: dict[tuple[str, str], list[int]] = {}
    for i, e in enumerate(episodes):
        cells.setdefault((e.agent, e.task), []).append(i)
    return cells


def collect(settings: RunSettings, episodes: list[EpisodeResult]) -> EvalResults:
    """Group episodes by (agent, task), in the order of ``settings``, summarise each (the
    trials of a case together) and group its failures."""
    grouped = by_cell(episodes)
    cells = []
    for agent in settings.agents:
        for task in settings.tasks:
            played = grouped.get((agent, task))
            if not played:
                continue
            by_case: dict[tuple[str, int | None, int | None], list[float]] = {}
            for i in played:
                by_case.setdefault(episodes[i].case, []).append(episodes[i].score)
            cells.append(
                CellResult(
                    agent=agent,
                    task=task,
                    summary=summarise(list(by_case.values())),
                    failures=group_failures(episodes, played),
                )
            )
    return EvalResults(settings=settings, cells=cells, episodes=episodes)


def write_json(results: EvalResults, path: Path) -> None:
    """Compact JSON (a full run holds thousands of trajectories) with one line per episode,
    so ``head``, ``grep`` and diffs stay usable."""
    path.parent.mkdir(parents=True, exist_ok=True)
    cells = ",\n".join(c.model_dump_json() for c in results.cells)
    # fields at their defaults (a step not done, no error, trial 1) are left out: reading the
    # file back gives the same results
    episodes = ",\n".join(e.model_dump_json(exclude_defaults=True) for e in results.episodes)
    path.write_text(
        f'{{"settings":{results.settings.model_dump_json()},\n"cells":[\n{cells}\n],\n'
        f'"episodes":[\n{episodes}\n]}}\n',
        encoding="utf-8",
    )
