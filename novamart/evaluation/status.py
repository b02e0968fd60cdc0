"""The exit status of a run, so a CI job notices what went wrong.

0: every agent was measured (and reached ``--fail-under``, when given). 1: an agent's mean
score is below ``--fail-under``. 3: every episode of an agent ended early (the model or the
server never answered properly), so nothing was measured. (2 is a usage error, raised
before any episode: an unknown task, a bad dataset row, a missing key.)
"""

from __future__ import annotations

import statistics
from collections.abc import Sequence
from dataclasses import dataclass

from novamart.evaluation.results import EpisodeResult

BELOW_THRESHOLD = 1
NOTHING_MEASURED = 3


@dataclass(frozen=True)
class RunStatus:
    code: int
    message: str = ""


def run_status(episodes: Sequence[EpisodeResult], fail_under: float | None) -> RunStatus:
    """The status of a run of ``episodes`` (agents by their label)."""
    by_agent: dict[str, list[EpisodeResult]] = {}
    for episode in episodes:
        by_agent.setdefault(episode.agent, []).append(episode)
    for agent, played in by_agent.items():
        if all(e.error is not None for e in played):
            first = played[0].error
            return RunStatus(
                NOTHING_MEASURED,
                f"all {len(played)} episodes of {agent} ended early (first: {first})",
            )
    if fail_under is not None:
        means = {agent: statistics.fmean(e.score for e in ps) for agent, ps in by_agent.items()}
        below = [f"{agent} {mean:.3f}" for agent, mean in means.items() if mean < fail_under]
        if below:
            return RunStatus(
                BELOW_THRESHOLD, f"mean score below --fail-under {fail_under}: {', '.join(below)}"
            )
    return RunStatus(0)
