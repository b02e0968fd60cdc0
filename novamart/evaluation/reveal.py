"""What only the hidden episode shows, read after the last step when the environment runs in
this process (never by the agent: only privileged agents get the hidden episode).

The terminal observation already reveals the ground truth, the termination and the grader's
notes, in-process and over ``--env-url`` alike. What it does not say: which policy
conditions blocked each resolution the agent tried that the case does not allow (stable
names, so equal failures group: ``full_refund blocked by standard_return.within_return_window``),
and, for a ticket, the difficulty its seed drew (the observation shows the task's).
"""

from __future__ import annotations

from typing import Any

from novamart.episode import Episode
from novamart.kernel import Decision, Rulebook
from novamart.retail.session import RetailSession
from novamart.scenarios.retail_requests import settle_all
from novamart.server.runs import Hidden

NO_CONDITION_HOLDS = "no_condition_holds"
"""Stands for the conditions of a policy that applies when any of them holds."""


def reveal(hidden: Hidden) -> dict[str, Any]:
    if isinstance(hidden, RetailSession):
        settled, _ = settle_all(hidden.task.world, hidden.talk.current, hidden.task.rules)
        return {"request_outcomes": [s.status for s in settled]}
    if not isinstance(hidden, Episode):
        return {"case_difficulty": hidden.scenario.difficulty}
    truth = hidden.truth
    tried = [r for r in dict.fromkeys(hidden.attempted) if truth.grant_for(r) is None]
    return {
        "failed_conditions": [
            note for r in tried for note in failed_conditions(truth, r, hidden.rules.rulebook)
        ]
    }


def failed_conditions(truth: Decision, resolution: str, rulebook: Rulebook) -> list[str]:
    """``<resolution> blocked by <policy>.<condition>`` for each failed condition of the
    policies that could grant ``resolution`` (one ``<policy>.no_condition_holds`` for a
    policy that applies when any of its conditions holds)."""
    notes = []
    for policy, verdict in truth.policies_granting(resolution).items():
        failed = [c.name for c in verdict.failed()]
        if failed and rulebook.policies[policy].any_condition:
            failed = [NO_CONDITION_HOLDS]
        notes += [f"{resolution} blocked by {policy}.{name}" for name in failed]
    return notes
