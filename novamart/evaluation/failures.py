"""Why episodes failed: what each grade term cost, and failed episodes grouped by the term
that cost the most (with the grader notes and failed policy conditions among them).

A term's cost is how far it stayed below its best value. Order cases report weighted terms
(novamart.reward: resolution up to 0.55, tool use 0.25, communication 0.20; the penalties'
best is 0), so their costs are points of the grade. Ticket families report unweighted
components: parts and factors whose best is 1, and penalties (``PENALTY_COMPONENTS``)
whose best is 0; their costs are on each component's own scale, so a failed ticket is filed
under its weakest component. Retail cases report their unweighted components and what the
never-pass caps took (``capped``). The terms come from the final ``state()`` (``grade_terms``),
so the same reading works in-process and over ``--env-url``.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterable, Mapping
from typing import TYPE_CHECKING, Any

from pydantic import BaseModel, Field

from novamart.evaluation.stats import passed
from novamart.reward import PENALTIES, WEIGHTS
from novamart.scenarios import TASKS

if TYPE_CHECKING:
    from novamart.evaluation.results import EpisodeResult

ORDER_BEST = {**WEIGHTS, **dict.fromkeys(PENALTIES, 0.0)}
PENALTY_COMPONENTS = frozenset({"hallucination", "penalty", "failed_calls", "capped"})
"""Ticket and retail grade components that only ever take points away."""
TOLERANCE = 1e-9
ENDED_EARLY = "ended early"
UNEXPLAINED = "no term below its best"
NOTES_SUFFIX = "notes"
"""Observation and state fields whose name ends so are read as grader notes."""


class FailureGroup(BaseModel):
    """Failed episodes of one cell that lost most on the same grade term (or ended early)."""

    cause: str
    """The grade term that cost the most points, or ``ended early: <error type>``."""
    episodes: list[int]
    """Indices into ``EvalResults.episodes``."""
    mean_cost: float
    """The mean of the points the term cost in these episodes (0 for early ends)."""
    notes: dict[str, int] = Field(default_factory=dict)
    """Grader notes and failed policy conditions among them -> how many episodes had each,
    most frequent first."""


def best_value(task: str, term: str) -> float:
    spec = TASKS[task]
    if not spec.is_ticket and not spec.is_retail:
        return ORDER_BEST.get(term, 0.0)
    return 0.0 if term in PENALTY_COMPONENTS else 1.0


def term_costs(task: str, terms: Mapping[str, float]) -> dict[str, float]:
    """Term -> the points it cost (only terms below their best), largest first."""
    costs = {name: best_value(task, name) - value for name, value in terms.items()}
    kept = {name: round(cost, 4) for name, cost in costs.items() if cost > TOLERANCE}
    return dict(sorted(kept.items(), key=lambda item: -item[1]))


def grade_terms(state: Mapping[str, Any]) -> dict[str, float]:
    terms = state.get("grade_terms") or {}
    return {str(k): float(v) for k, v in terms.items() if isinstance(v, int | float)}


def note_key(note: str) -> str:
    """A note without its particulars, so equal findings group: the text before a colon,
    numbers replaced by '#' (``not in the retrieved articles: 30, 15`` -> its first part)."""
    head = note.split(":", 1)[0]
    return re.sub(r"\d+(?:\.\d+)?", "#", head).strip()


def _texts(value: Any, term: str | None) -> Iterable[str]:
    """Note texts in a field: a text, a list of texts, or notes per term (then the blamed
    term's and the general ones, under ``notes``; all of them when no term is blamed)."""
    if isinstance(value, str):
        yield value
    elif isinstance(value, list):
        yield from (v for v in value if isinstance(v, str))
    elif isinstance(value, dict):
        keys = list(value) if term is None or term not in value else [term, NOTES_SUFFIX]
        for key in keys:
            yield from _texts(value.get(key), None)


def episode_notes(episode: EpisodeResult, term: str | None) -> list[str]:
    """The grader's notes on ``term`` and the failed policy conditions an episode reports,
    wherever they are: any final-observation or state field named ``*notes`` (the grader's
    ``grader_notes``), then the conditions read in-process (``hidden``). Notes without words
    (a bare number) are left out."""
    sources: list[Any] = [
        v
        for fields in (episode.final_observation, episode.state)
        for k, v in fields.items()
        if k.endswith(NOTES_SUFFIX)
    ]
    sources.append((episode.hidden or {}).get("failed_conditions"))
    keys = (note_key(text) for source in sources for text in _texts(source, term))
    return list(dict.fromkeys(k for k in keys if any(c.isalpha() for c in k)))


def cause_of(episode: EpisodeResult) -> str:
    """What a failed episode is filed under."""
    if episode.error is not None:
        return f"{ENDED_EARLY}: {episode.error.split(':', 1)[0]}"
    return next(iter(episode.costs), UNEXPLAINED)


def group_failures(episodes: list[EpisodeResult], indices: list[int]) -> list[FailureGroup]:
    """The failed episodes among ``indices``, grouped by cause, largest group first."""
    groups: dict[str, list[int]] = {}
    for i in indices:
        episode = episodes[i]
        if episode.error is None and passed(episode.score):
            continue
        groups.setdefault(cause_of(episode), []).append(i)
    found = []
    for cause, members in groups.items():
        costs = [episodes[i].costs.get(cause, 0.0) for i in members]
        notes = Counter(n for i in members for n in episode_notes(episodes[i], cause))
        found.append(
            FailureGroup(
                cause=cause,
                episodes=members,
                mean_cost=round(sum(costs) / len(costs), 4),
                notes=dict(notes.most_common()),
            )
        )
    return sorted(found, key=lambda g: (-len(g.episodes), g.cause))
