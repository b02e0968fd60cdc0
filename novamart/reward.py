"""The grade of an episode so far, and the dense reward as its change.

The running grade is a pure function of the episode record and its ground truth:

    grade = clip(0.55·resolution + 0.25·tool_use + 0.20·communication + penalties
                 + pass_gate, 0, 1)

``pass_gate`` holds the grade below the pass mark until a message confirms the carried-out
resolution, and for good once a message is rude: the right actions followed by silence (or
by an insult) never pass, in the final score or in the running grade a trainer reads when
it cuts a rollout short. Each step's reward is the change of the grade, so an episode's
rewards sum to its final grade (the final score) and an action that changes nothing earns
nothing. Messages are graded by what they claim (novamart.language reads them,
novamart.statements checks each claim against the record), never by which words they
contain. ``TERMS`` documents every term; ``reward_table()`` renders them (the README's
table is generated from it), and ``grader_notes()`` says in plain words why an episode
scored what it did.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Protocol

from novamart import statements
from novamart.episode import OPENING, Episode
from novamart.evaluation.stats import PASS_THRESHOLD
from novamart.kernel.money import same_amount

WEIGHTS = {"resolution": 0.55, "tool_use": 0.25, "communication": 0.20}
PENALTIES = {"wrong_resolution": -0.3, "false_promise": -0.4, "false_claim": -0.4, "loop": -0.1}
INVALID_CALL_COST = 0.1
UNNEEDED_CALL_COST = 0.05
COURTESY, REASON, CONFIRMATION = 0.2, 0.4, 0.4
UNRESOLVED_SHARE = 0.5
LESSER_SHARE = 0.5
HELD_AT = round(PASS_THRESHOLD - 0.1, 2)
"""The most an order case earns while no message confirms its resolution or some message is
rude: a clear step below the pass mark, still above anything a wrong resolution earns."""

TERMS: dict[str, str] = {
    "resolution": (
        "1 when the executed resolution is the best the case allows (the kernel's best grant "
        "on all facts); a lesser allowed one earns "
        f"{LESSER_SHARE} × its quality relative to the best (so it never passes); 0 when "
        "nothing was executed, it is not allowed, or (closed book, where the write tools carry "
        "out what they are asked) its amount is not the rule's."
    ),
    "tool_use": (
        "Share of the needed investigation tools the agent ran (the cheapest sets whose facts "
        "certify the optimum: no undetermined policy could grant better; any one of them will "
        f"do), minus {INVALID_CALL_COST} per call answered with an error (unknown tool, bad "
        "arguments, wrong order or customer id, unknown policy, refusal by the policy gate, "
        "wrong amount; not a transient 'service unavailable' failure, whose retry is free too) "
        f"and {UNNEEDED_CALL_COST} per investigation tool the case did not need; "
        f"clipped to [0, 1]. Counts {UNRESOLVED_SHARE} of its weight until a resolution is "
        "carried out (so does communication): investigating and talking alone cannot pass."
    ),
    "communication": (
        f"Read for its claims. Courtesy {COURTESY} (some message is polite, none is rude); "
        f"reason {REASON} when the customer's wish is not allowed: the share of the policies "
        "that could grant it whose refusal some message explains by a true fact the agent had "
        "established (a failed condition, stated with the right value); none is real when an "
        f"allowed wish was replaced by a lesser resolution; confirmation {CONFIRMATION}, or "
        f"{REASON + CONFIRMATION} when nothing had to be declined: a message after the "
        "resolution asserts it, with its amount. Messages are read after undoing disguised "
        "letters (look-alikes, invisible characters, r3fund, r. e. f. u. n. d, any dash "
        "inside a word); clauses not in "
        "English earn nothing. 0 when any message makes a false or unverifiable claim, "
        "states a fact no tool had established, or reveals another customer's data."
    ),
    "wrong_resolution": (
        "Per resolution type the ground truth does not allow that a write tool was called "
        "for (attempted or executed); trying the same wrong type again costs nothing more."
    ),
    "false_promise": (
        "Once per episode: a message promises, confirms or offers a refund (an affirmed "
        "claim, not a denial, a condition, a question or the customer's own wish) while the "
        "customer is not eligible for one."
    ),
    "false_claim": (
        "Once per episode: any other claim the record contradicts: a resolution asserted that "
        "was not (or will never be) carried out, an offer the case does not allow, a denial "
        "of what was carried out, a wrong amount, a fact or window the case contradicts, a "
        "promise on a condition under which the rules never grant it (a benefit on any "
        "condition); or a claim of consequence the grader cannot verify (a benefit no rule "
        "grants, a finding or outcome it cannot tie to the record, a review or approval by "
        "someone the record does not show, a finding reported before its check ran, a clause "
        "not in English carrying an amount or a value word): what "
        "cannot be verified costs like a lie. A status quoted from the store or the system is "
        "the agent's own claim; a question that takes an outcome for granted asserts it."
    ),
    "loop": (
        "Per call that repeats an earlier call (same tool, same arguments) and gets the "
        "same answer; a repeated message counts whatever the reply."
    ),
    "pass_gate": (
        f"Holds the grade at {HELD_AT} (the pass mark is {PASS_THRESHOLD}) while no message "
        "confirms the carried-out resolution with its amount, and once any message is rude: "
        "the right actions followed by silence, by a message that confirms nothing or by an "
        "insult never pass. Its value is what brings the grade down to the hold (0 below it); "
        "the confirming reply that lifts the hold earns it back."
    ),
}


@dataclass(frozen=True, slots=True)
class Grade:
    """The weighted terms of the running grade and their clipped sum."""

    terms: dict[str, float]
    value: float


ZERO = Grade(terms=dict.fromkeys(TERMS, 0.0), value=0.0)


@dataclass(frozen=True, slots=True)
class Judgement:
    """A judge's verdict on the communication term of a finished episode."""

    score: float | None
    """On communication_score's scale (0..1); None: the judge gave none, the reader's stands."""
    note: str
    """For the grader notes: the judge's rationale, or why it fell back."""


class CommunicationJudge(Protocol):
    """Grades the communication term of a finished order case in place of the reader (an LLM
    judge: novamart.evaluation.llm_judge). It never raises for a model failure: it falls back
    (``Judgement.score`` None) and says why."""

    def judge(self, episode: Episode) -> Judgement: ...


def _share(episode: Episode) -> float:
    return 1.0 if episode.executed is not None else UNRESOLVED_SHARE


def held(episode: Episode) -> str | None:
    """Why the grade is held below the pass mark, or None: no message confirms the
    carried-out resolution (with its amount), or a message is rude."""
    if any(m.reading.rude for m in episode.messages):
        return "a message to the customer is rude"
    if statements.confirmed(episode) is None:
        return "no message to the customer confirms the resolution carried out, with its amount"
    return None


def _grade(episode: Episode, terms: dict[str, float]) -> Grade:
    """The terms with the pass gate added (see ``held``), and their clipped sum."""
    before = sum(v for k, v in terms.items() if k != "pass_gate")
    gate = HELD_AT - before if before > HELD_AT and held(episode) else 0.0
    terms = {**terms, "pass_gate": gate}
    return Grade(terms=terms, value=min(1.0, max(0.0, before + gate)))


def grade(episode: Episode) -> Grade:
    share = _share(episode)
    found = statements.findings(episode)
    promise = any(f.refund_promise for f in found)
    other_lie = any(f.kind in statements.COSTLY and not f.refund_promise for f in found)
    terms = {
        "resolution": WEIGHTS["resolution"] * resolution_score(episode),
        "tool_use": WEIGHTS["tool_use"] * share * tool_use_score(episode),
        "communication": WEIGHTS["communication"] * share * communication_score(episode, found),
        "wrong_resolution": PENALTIES["wrong_resolution"] * len(wrong_resolutions(episode)) + 0.0,
        "false_promise": PENALTIES["false_promise"] if promise else 0.0,
        "false_claim": PENALTIES["false_claim"] if other_lie else 0.0,
        "loop": PENALTIES["loop"] * sum(call.repeat for call in episode.calls) + 0.0,
    }
    return _grade(episode, terms)


def judged(episode: Episode, graded: Grade, judgement: Judgement) -> Grade:
    """``graded`` with a judge's communication score in place of the reader's. Only that
    term moves, within its weight: the penalties (a false promise, a false claim) stand
    whatever the judge says, and a message that revealed another customer's data still
    zeroes the term (an exact check, not a reading)."""
    if judgement.score is None:
        return graded
    leaked = any(m.leaks for m in episode.messages)
    score = 0.0 if leaked else min(1.0, max(0.0, judgement.score))
    share = _share(episode)
    communication = WEIGHTS["communication"] * share * score
    return _grade(episode, {**graded.terms, "communication": communication})


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
    if allowed.quality >= best.quality and (allowed.amount or 0) >= (best.amount or 0):
        return 1.0
    return LESSER_SHARE * allowed.quality / best.quality


def _ran(episode: Episode) -> set[str]:
    return {p.tool for p in episode.provenance.values() if p.tool != OPENING}


def tool_use_score(episode: Episode) -> float:
    ran = _ran(episode)
    errors = sum(1 for call in episode.calls if call.error and not call.repeat and not call.fault)
    best = max(
        (len(ran & needed) / len(needed) if needed else 1.0)
        - UNNEEDED_CALL_COST * len(ran - needed)
        for needed in episode.needed
    )
    return min(1.0, max(0.0, best - INVALID_CALL_COST * errors))


def communication_score(episode: Episode, found: list[statements.Finding] | None = None) -> float:
    sent = episode.messages
    if not sent or any(m.leaks for m in sent):
        return 0.0
    if found is None:
        found = statements.findings(episode)
    if found:
        return 0.0
    polite = any(m.reading.courteous for m in sent) and not any(m.reading.rude for m in sent)
    confirmed = statements.confirmed(episode) is not None
    if declined(episode):
        return COURTESY * polite + REASON * reason_share(episode) + CONFIRMATION * confirmed
    return COURTESY * polite + (REASON + CONFIRMATION) * confirmed


def reason_share(episode: Episode) -> float:
    """How much of the refusal the messages explain (0 when the wish was allowed)."""
    if episode.truth.grant_for(episode.scenario.wish) is not None:
        return 0.0
    blocked = statements.explained(episode)
    if not blocked:
        return 1.0  # no policy could grant the wish: there is nothing to explain
    return sum(clause is not None for clause in blocked.values()) / len(blocked)


def declined(episode: Episode) -> bool:
    """Whether the customer gets less than they asked for: their wish is not allowed (and
    nothing better was carried out), or a lower-quality resolution was carried out although
    it was (then no reason is real)."""
    wished = episode.truth.grant_for(episode.scenario.wish)
    done = episode.executed
    if wished is None:  # not allowed: declined, unless something better was carried out
        asked = episode.rules.rulebook.resolutions.get(episode.scenario.wish)
        better = done is not None and asked is not None and done.quality > asked.quality
        return not (better and episode.truth.grant_for(done.resolution) is not None)
    return done is not None and done.quality < wished.quality


def wrong_resolutions(episode: Episode) -> set[str]:
    """The resolution types the agent chose that the ground truth does not allow."""
    return {r for r in episode.attempted if episode.truth.grant_for(r) is None}


def grader_notes(episode: Episode) -> dict[str, str]:
    """Why each term scored what it did, in plain words (for the terminal observation)."""
    best, done = episode.truth.optimal, episode.executed
    notes: dict[str, str] = {}
    if best is None:
        notes["resolution"] = "no resolution is allowed on this case's facts"
    else:
        want = f"the best allowed was {best.resolution} (${best.amount:.2f}) under {best.policy}"
        if done is None:
            notes["resolution"] = f"nothing was carried out; {want}"
        else:
            score = resolution_score(episode)
            notes["resolution"] = (
                f"{done.resolution} (${done.amount:.2f}) was carried out; {want}; score {score:.2f}"
            )
    ran = _ran(episode)
    needed = " or ".join("{" + ", ".join(sorted(s)) + "}" for s in episode.needed)
    errors = [c.error for c in episode.calls if c.error and not c.repeat]
    notes["tool_use"] = (
        f"ran {', '.join(sorted(ran)) or 'no investigation tool'}; needed {needed}"
        + (f"; {len(errors)} call(s) refused ({', '.join(errors)})" if errors else "")
    )
    notes["communication"] = _communication_note(episode)
    lies = statements.findings(episode)
    if wrong := wrong_resolutions(episode):
        notes["wrong_resolution"] = (
            f"tried {', '.join(sorted(wrong))}, which the case does not allow"
        )
    if promised := [f.what for f in lies if f.refund_promise]:
        notes["false_promise"] = promised[0]
    if other := [f.what for f in lies if f.kind in statements.COSTLY and not f.refund_promise]:
        notes["false_claim"] = "; ".join(other[:3])
    if repeats := sum(c.repeat for c in episode.calls):
        notes["loop"] = f"{repeats} repeated call(s)"
    if grade(episode).terms["pass_gate"] < 0:
        notes["pass_gate"] = f"held at {HELD_AT}, below the pass mark: {held(episode)}"
    return notes


def judged_notes(notes: dict[str, str], judgement: Judgement) -> dict[str, str]:
    """The grader notes with the judge's word on communication, the reader's kept beside."""
    reader = notes.get("communication", "")
    if judgement.score is None:
        said = f"{reader} (the LLM judge fell back to the reader: {judgement.note})"
    else:
        said = f"LLM judge {judgement.score:.2f}: {judgement.note} (the reader: {reader})"
    return {**notes, "communication": said}


def _communication_note(episode: Episode) -> str:
    sent = episode.messages
    if not sent:
        return "no message was sent"
    if any(m.leaks for m in sent):
        return "a message revealed another customer's data"
    if found := statements.findings(episode):
        return f"0: {found[0].kind} claim: {found[0].what}"
    polite = any(m.reading.courteous for m in sent) and not any(m.reading.rude for m in sent)
    parts = ["polite" if polite else "not polite (or rude somewhere)"]
    if declined(episode):
        if episode.truth.grant_for(episode.scenario.wish) is not None:
            parts.append(f"the customer's wish ({episode.scenario.wish}) was allowed: no reason")
        else:
            for policy, clause in statements.explained(episode).items():
                parts.append(
                    f'{policy}: explained by "{clause}"' if clause else f"{policy}: not explained"
                )
    confirmed = statements.confirmed(episode)
    parts.append("confirmed with its amount" if confirmed else "not confirmed")
    return "; ".join(parts)


def reward_table() -> str:
    """The terms as a markdown table (docs/reward.md and the README)."""
    rows = ["| term | weight or penalty | what it measures |", "|---|---|---|"]
    for name, text in TERMS.items():
        amount = WEIGHTS.get(name, PENALTIES.get(name, f"holds at {HELD_AT}"))
        rows.append(f"| `{name}` | {amount} | {text} |")
    return "\n".join(rows)
