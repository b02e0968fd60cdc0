"""The grade of an episode so far, and the dense reward as its change.

The running grade is a pure function of the episode record and its ground truth:

    grade = clip(0.55·resolution + 0.25·tool_use + 0.20·communication + penalties, 0, 1)

Each step's reward is the change of the grade, so an episode's rewards sum to its final
grade (the final score) and an action that changes nothing earns nothing. ``TERMS`` below
documents every term; ``reward_table()`` renders them (docs/reward.md is generated from it).
"""

from __future__ import annotations

from dataclasses import dataclass

from novamart.episode import OPENING, Episode
from novamart.kernel.money import same_amount

WEIGHTS = {"resolution": 0.55, "tool_use": 0.25, "communication": 0.20}
PENALTIES = {"wrong_resolution": -0.3, "false_promise": -0.4, "loop": -0.1}
INVALID_CALL_COST = 0.1
UNNEEDED_CALL_COST = 0.05
COURTESY, REASON, CONFIRMATION = 0.2, 0.4, 0.4
UNRESOLVED_SHARE = 0.5

TERMS: dict[str, str] = {
    "resolution": (
        "Quality of the executed resolution divided by the "
        "quality of the optimum (the kernel's best grant on all facts); 0 when nothing was "
        "executed, it is not eligible under the ground truth, or (closed book, where the write "
        "tools carry out what they are asked) its amount is not the rule's. Exchange on a "
        "refundable defect scores 0.9."
    ),
    "tool_use": (
        "Share of the needed investigation tools the agent ran "
        "(the fewest whose facts certify the optimum: no undetermined policy could grant "
        f"better), minus {INVALID_CALL_COST} per call answered with an error (unknown tool, "
        "bad arguments, wrong order or customer id, unknown policy, refusal by the policy "
        "gate, wrong amount; not a transient 'service unavailable' failure, whose retry is "
        f"free too) and {UNNEEDED_CALL_COST} per investigation tool the case did "
        "not need; clipped to [0, 1]. Counts only part of its weight until a resolution is carried "
        f"out ({UNRESOLVED_SHARE}; so does communication): investigating and talking alone "
        "cannot pass."
    ),
    "communication": (
        "A score in [0, 1] made of: courtesy "
        f"{COURTESY} (some message is polite, none is rude); reason {REASON} (when the "
        "customer's wish is not allowed, some message states a real reason: one of the "
        f"kernel's failed conditions for it; none is real when an allowed wish was replaced by "
        f"a lesser resolution); confirmation {CONFIRMATION}, or "
        f"{REASON + CONFIRMATION} when nothing had to be declined (a message after the "
        "resolution names it and its amount). 0 if any message reveals another customer's "
        "data."
    ),
    "wrong_resolution": (
        "Per resolution type the ground truth does not allow that a write tool was called "
        "for (attempted or executed); trying the same wrong type again costs nothing more."
    ),
    "false_promise": (
        "Once per episode: a message promises a refund (an affirmative "
        "clause, not a negation or a hedge) while the customer is not eligible for one."
    ),
    "loop": (
        "Per call that repeats an earlier call (same tool, same arguments) and gets the "
        "same answer; a repeated message counts whatever the reply."
    ),
}


@dataclass(frozen=True, slots=True)
class Grade:
    """The weighted terms of the running grade and their clipped sum."""

    terms: dict[str, float]
    value: float


ZERO = Grade(terms=dict.fromkeys(TERMS, 0.0), value=0.0)


def grade(episode: Episode) -> Grade:
    share = 1.0 if episode.executed is not None else UNRESOLVED_SHARE
    terms = {
        "resolution": WEIGHTS["resolution"] * resolution_score(episode),
        "tool_use": WEIGHTS["tool_use"] * share * tool_use_score(episode),
        "communication": WEIGHTS["communication"] * share * communication_score(episode),
        "wrong_resolution": PENALTIES["wrong_resolution"] * len(wrong_resolutions(episode)) + 0.0,
        "false_promise": PENALTIES["false_promise"] if false_promise(episode) else 0.0,
        "loop": PENALTIES["loop"] * sum(call.repeat for call in episode.calls) + 0.0,
    }
    return Grade(terms=terms, value=min(1.0, max(0.0, sum(terms.values()))))


def step_breakdown(before: Grade, after: Grade) -> dict[str, float]:
    """This step's reward split by term; ``clip`` makes the parts sum to the reward."""
    parts = {name: after.terms[name] - before.terms[name] for name in TERMS}
    parts["clip"] = (after.value - before.value) - sum(parts.values())
    return parts


def resolution_score(episode: Episode) -> float:
    done, best = episode.executed, episode.truth.optimal
    if done is None or best is None:
        return 0.0
    allowed = episode.truth.grant_for(done.resolution)
    if allowed is None or not same_amount(done.amount or 0.0, allowed.amount or 0.0):
        return 0.0  # not allowed, or (closed book: carried out as asked) for the wrong amount
    return min(1.0, allowed.quality / best.quality)


def tool_use_score(episode: Episode) -> float:
    ran = {p.tool for p in episode.provenance.values() if p.tool != OPENING}
    needed = episode.needed_tools
    coverage = len(ran & needed) / len(needed) if needed else 1.0
    errors = sum(1 for call in episode.calls if call.error and not call.repeat and not call.fault)
    score = coverage - INVALID_CALL_COST * errors - UNNEEDED_CALL_COST * len(ran - needed)
    return min(1.0, max(0.0, score))


def communication_score(episode: Episode) -> float:
    sent = episode.messages
    if not sent or any(m.leaks for m in sent):
        return 0.0
    polite = any(m.courteous for m in sent) and not any(m.rude for m in sent)
    confirmed = any(m.confirms for m in sent)
    if declined(episode):
        explained = any(m.states_reason for m in sent)
        return COURTESY * polite + REASON * explained + CONFIRMATION * confirmed
    return COURTESY * polite + (REASON + CONFIRMATION) * confirmed


def declined(episode: Episode) -> bool:
    """Whether the customer gets less than they asked for: their wish is not allowed, or a
    lower-quality resolution was carried out although it was (then no reason is real)."""
    wished = episode.truth.grant_for(episode.scenario.wish)
    done = episode.executed
    return wished is None or (done is not None and done.quality < wished.quality)


def wrong_resolutions(episode: Episode) -> set[str]:
    """The resolution types the agent chose that the ground truth does not allow."""
    return {r for r in episode.attempted if episode.truth.grant_for(r) is None}


def false_promise(episode: Episode) -> bool:
    if episode.truth.grant_for("full_refund") is not None:
        return False
    return any(m.promises_refund for m in episode.messages)


def reward_table() -> str:
    """The terms as a markdown table (docs/reward.md and the README)."""
    rows = ["| term | weight or penalty | what it measures |", "|---|---|---|"]
    for name, text in TERMS.items():
        amount = WEIGHTS[name] if name in WEIGHTS else PENALTIES[name]
        rows.append(f"| `{name}` | {amount} | {text} |")
    return "\n".join(rows)
