"""Evaluation results as data: one record per episode, one summary per (agent, task), and
the JSON file that holds them all (with the settings that reproduce it)."""

from __future__ import annotations

from pathlib import Path

from pydantic import BaseModel, Field

from novamart.evaluation.stats import ScoreSummary, summarise


class EpisodeResult(BaseModel):
    """What one episode came to; ``error`` says why it ended early (model or server gone)."""

    agent: str
    task: str
    seed: int | None
    row: int | None = None
    """The dataset row played (1-based, as errors name it), with ``--dataset``."""
    steps: int
    rewards: list[float]
    score: float = Field(ge=0.0, le=1.0)
    done: bool
    success: bool
    error: str | None = None


class CellResult(BaseModel):
    agent: str
    task: str
    summary: ScoreSummary


class RunSettings(BaseModel):
    """What was run, so the results file says how to reproduce itself."""

    agents: list[str]
    tasks: list[str]
    episodes: int
    seed: int | None
    dataset: str | None = None
    """With ``--dataset``: the file whose rows were played (each once per task it serves)."""
    env_url: str | None = None
    model: str | None = None
    modes: list[str] = ["guided"]
    """How order cases were played (each mode a ``task/mode`` column beside guided)."""
    policy_variant: int | None = None
    """With ``--policy-variant N``: ``task/variants`` columns, episode i under variant N+i."""
    command: str = ""

    def scope(self) -> str:
        """Which episodes each (agent, task) cell played, in words."""
        if self.dataset is not None:
            return f"One episode per agent, task and row of {Path(self.dataset).name} it can play"
        seeds = (
            "canonical scenario"
            if self.seed is None
            else f"seeds {self.seed}..{self.seed + self.episodes - 1}"
        )
        return f"{self.episodes} episodes per agent and task ({seeds})"


class EvalResults(BaseModel):
    settings: RunSettings
    cells: list[CellResult]
    episodes: list[EpisodeResult]


def collect(settings: RunSettings, episodes: list[EpisodeResult]) -> EvalResults:
    """Group episodes by (agent, task), in the order of ``settings``, and summarise each."""
    cells = []
    for agent in settings.agents:
        for task in settings.tasks:
            scores = [e.score for e in episodes if e.agent == agent and e.task == task]
            if scores:
                cells.append(CellResult(agent=agent, task=task, summary=summarise(scores)))
    return EvalResults(settings=settings, cells=cells, episodes=episodes)


def write_json(results: EvalResults, path: Path) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(results.model_dump_json(indent=2) + "\n", encoding="utf-8")
