"""Episodes as transcripts for the reports: what the customer wrote, each call and what it
earned, and what the end revealed. The markdown and HTML pages render the same views.

Fields of the final observation and state are shown by name, whatever they are, so a field
the environment adds to its terminal observation shows up without a change here.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from novamart.evaluation.failures import cause_of
from novamart.evaluation.results import CellResult, EpisodeResult, EvalResults
from novamart.evaluation.stats import passed

SHOWN_ELSEWHERE = frozenset({"issue_description", "conversation_history"})
"""Final-observation fields a transcript already shows (the opening message, the steps)."""


@dataclass(frozen=True)
class StepView:
    number: int
    call: str
    reward: str
    parts: str
    result: str
    error: str | None
    reply: str | None


@dataclass(frozen=True)
class TranscriptView:
    anchor: str
    title: str
    outcome: str
    opening: str
    steps: list[StepView]
    hidden: list[tuple[str, str]]
    final: list[tuple[str, str]]


def show(value: Any, limit: int) -> str:
    """``value`` as text (JSON unless it is text), cut to ``limit`` characters."""
    text = value if isinstance(value, str) else json.dumps(value, ensure_ascii=False, default=str)
    if len(text) <= limit:
        return text
    return f"{text[:limit]}… (+{len(text) - limit} characters in the JSON)"


def case_label(episode: EpisodeResult, trials: int) -> str:
    case = f"row {episode.row}" if episode.row is not None else f"seed {episode.seed}"
    if episode.seed is None and episode.row is None:
        case = "canonical case"
    return case if trials == 1 else f"{case}, trial {episode.trial} of {trials}"


def anchor(index: int) -> str:
    return f"episode-{index}"


def outcome(episode: EpisodeResult) -> str:
    verdict = "passed" if episode.error is None and passed(episode.score) else "failed"
    if verdict == "failed":
        verdict += f" ({cause_of(episode)})"
    timing = f"{episode.elapsed_s * 1000:.1f} ms"
    return f"score {episode.score:.3f}, {verdict}; {episode.steps} steps in {timing}"


def view(index: int, episode: EpisodeResult, trials: int, limit: int) -> TranscriptView:
    steps = [
        StepView(
            number=step.step,
            call=f"{step.tool}({show(step.arguments, limit)})",
            reward=f"{step.reward:+.3f}",
            parts=", ".join(f"{k} {v:+.3f}" for k, v in step.breakdown.items()),
            result=show(step.result, limit),
            error=step.error,
            reply=step.customer_reply,
        )
        for step in episode.trajectory
    ]
    final = [
        *(
            (k, show(v, limit))
            for k, v in episode.final_observation.items()
            if k not in SHOWN_ELSEWHERE
        ),
        *((f"state.{k}", show(v, limit)) for k, v in episode.state.items()),
    ]
    if episode.error:
        final.insert(0, ("ended early", episode.error))
    return TranscriptView(
        anchor=anchor(index),
        title=f"{episode.agent} · {episode.task} · {case_label(episode, trials)}",
        outcome=outcome(episode),
        opening=str(episode.final_observation.get("issue_description", "")),
        steps=steps,
        hidden=[(k, show(v, limit)) for k, v in (episode.hidden or {}).items()],
        final=final,
    )


def chosen(results: EvalResults, cell: CellResult, most: int | None) -> list[int]:
    """The episodes of ``cell`` a report shows: failures first (lowest score first), then
    the rest in play order; at most ``most`` (None: all)."""
    played = results.played(cell)
    failed = {i for group in cell.failures for i in group.episodes}

    def rank(i: int) -> tuple[bool, float, int]:
        return (i not in failed, results.episodes[i].score if i in failed else 0.0, i)

    order = sorted(played, key=rank)
    return order if most is None else order[:most]
