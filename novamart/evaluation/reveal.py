"""The hidden answer of an episode played in this process, for the results and the report.

When the environment runs here the evaluator can read the case's truth after the last step
(never the agent: only privileged agents get the hidden episode, and they get it at start):
the kernel's optimum and why the customer's wish is or is not allowed, for an order case;
the answer key and the grader's notes, for a ticket. Over ``--env-url`` only what the
terminal observation reveals is known, and the results record that instead.
"""

from __future__ import annotations

from typing import Any

from novamart.agents.transcript import ANSWER_KEY
from novamart.episode import Episode
from novamart.kernel import Decision, Rulebook
from novamart.server.runs import Hidden


def reveal(hidden: Hidden) -> dict[str, Any]:
    """The case's truth as plain JSON values, with ``notes``: the failed policy conditions
    of each resolution the agent tried that the truth does not allow (an order case), or
    the grader's notes (a ticket)."""
    if isinstance(hidden, Episode):
        return _order_truth(hidden)
    scenario = hidden.scenario
    answer = scenario.truth.model_dump(
        mode="json", include=set(ANSWER_KEY), exclude_none=True, exclude_defaults=True
    )
    return {
        "answer": answer,
        "case_difficulty": scenario.difficulty,
        "notes": list(hidden.grade.notes),
    }


def _order_truth(episode: Episode) -> dict[str, Any]:
    truth = episode.truth
    best = truth.optimal
    wish = episode.scenario.wish
    return {
        "optimal": None if best is None else best.model_dump(exclude={"quality"}),
        "eligible": [grant.resolution for grant in truth.eligible],
        "wish": wish,
        "wish_blocked_by": [] if truth.grant_for(wish) else truth.blocking_reasons(wish),
        "needed_tools": sorted(episode.needed_tools),
        "notes": [
            note
            for resolution in dict.fromkeys(episode.attempted)
            if truth.grant_for(resolution) is None
            for note in failed_conditions(truth, resolution, episode.rules.rulebook)
        ],
    }


def failed_conditions(truth: Decision, resolution: str, rulebook: Rulebook) -> list[str]:
    """``<resolution> blocked by <policy>.<condition>`` for each failed condition of the
    policies that could grant ``resolution`` (``<policy>.no_condition_holds`` for a policy
    that applies when any of its conditions holds): stable names, so equal failures group."""
    notes = []
    for policy, verdict in truth.policies_granting(resolution).items():
        failed = [c.name for c in verdict.failed()]
        if failed and rulebook.policies[policy].any_condition:
            failed = ["no_condition_holds"]
        notes += [f"{resolution} blocked by {policy}.{name}" for name in failed]
    return notes
