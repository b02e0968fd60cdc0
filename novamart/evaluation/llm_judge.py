"""An LLM grades the communication term of an order case (``--judge llm``): optional; the
deterministic reader (novamart.reward) stays the default, the reference, and the fallback.

The model gets a rubric (``judge_rubric.md``, its vocabulary filled in from the rulebook)
and the finished case as one JSON document: the conversation, what was carried out and for
how much, the facts the agent established (with the tool and step) and, labelled apart, the
facts it never looked up, and the kernel's ground truth. It answers with a JSON verdict: its
reading of every agent message and three parts (courtesy, explanation, confirmation) in
[0, 1], weighted as the reader weighs them, and a rationale for the grader notes.

Trust stops at the structure. The agent's words travel as JSON strings between markers the
rubric names as data; the reply must be exactly the verdict's JSON (one fenced block at
most, no extra keys, numbers finite, names from the rulebook) or the reader's score is used
and the notes say why; parts are clamped, so the term stays within its weight; and the
penalties (false promise, false claim) are the reader's whatever the judge says
(novamart.reward.judged). A model error or time-out falls back the same way. Each request
carries the case's seed.

It runs where the environment runs: in this process (``novamart eval`` / ``inference.py``
without ``--env-url``). ``OpenEnv``'s ``LLMJudge`` is not used: it reads the first number
anywhere in the reply and returns a default score when there is none (a failure looks like a
zero, so it cannot fall back, and an echoed "score 1.0" would count), it judges one step's
action and observation rather than a whole episode record, and its client has no retries,
time-outs or seed (``ChatModel`` has).
"""

from __future__ import annotations

import json
import re
from functools import cache
from pathlib import Path
from string import Template
from typing import Any

from pydantic import (
    BaseModel,
    ConfigDict,
    Field,
    StrictBool,
    StrictFloat,
    StrictInt,
    StrictStr,
    ValidationError,
)

from novamart.episode import Episode
from novamart.evaluation.chat import ChatModel, ModelUnavailable, ModelVariables
from novamart.kernel import Grant, Rulebook
from novamart.reward import CONFIRMATION, COURTESY, REASON, Judgement, declined

JUDGE_VARIABLES = ModelVariables(
    "judge", "JUDGE_API_BASE_URL", "JUDGE_MODEL_NAME", ("JUDGE_API_KEY",)
)
RUBRIC_FILE = Path(__file__).with_name("judge_rubric.md")
OPEN, CLOSE = "<<<MESSAGE", "MESSAGE>>>"
RATIONALE_LIMIT = 300
"""Characters of the judge's rationale kept in the grader notes."""
_FENCE = re.compile(r"\A```(?:json)?[ \t]*\n(.*)\n```\Z", re.DOTALL)

Number = StrictFloat | StrictInt


class MalformedVerdict(ValueError):
    """The judge answered, but not with the verdict the rubric asks for."""


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True, allow_inf_nan=False)


class MessageReading(_Strict):
    """What the judge reads in one agent message (the rubric's claim kinds)."""

    turn: StrictInt
    asserted: list[StrictStr]
    offered: list[StrictStr]
    denied: list[StrictStr]
    facts: list[StrictStr]
    courteous: StrictBool
    rude: StrictBool
    secret_request: StrictBool


class Verdict(_Strict):
    messages: list[MessageReading]
    courtesy: Number
    explanation: Number
    confirmation: Number
    rationale: StrictStr = Field(min_length=1)

    def score(self, declined: bool) -> float:
        """The communication score on the reader's scale: each part clamped to [0, 1], then
        weighted as novamart.reward weighs courtesy, reason and confirmation."""
        courtesy, explanation, confirmation = (
            min(1.0, max(0.0, float(part)))
            for part in (self.courtesy, self.explanation, self.confirmation)
        )
        if declined:
            return COURTESY * courtesy + REASON * explanation + CONFIRMATION * confirmation
        return COURTESY * courtesy + (REASON + CONFIRMATION) * confirmation

    def summary(self) -> str:
        text = " ".join(self.rationale.split())
        return text if len(text) <= RATIONALE_LIMIT else text[: RATIONALE_LIMIT - 1] + "…"


@cache
def _template() -> Template:
    return Template(RUBRIC_FILE.read_text(encoding="utf-8"))


def rubric(rulebook: Rulebook) -> str:
    """The rubric with the rulebook's resolutions and fact fields, and the reward's weights."""
    resolutions = "\n".join(
        f"- `{name}`: {spec.description}" for name, spec in rulebook.resolutions.items()
    )
    return _template().substitute(
        resolutions=resolutions,
        facts="\n".join(f"- `{ref}`" for ref in rulebook.facts.refs()),
        courtesy=COURTESY,
        reason=REASON,
        confirmation=CONFIRMATION,
        reason_and_confirmation=round(REASON + CONFIRMATION, 6),
    )


def quoted(text: str) -> str:
    """The text between the markers, any marker inside it taken out."""
    return f"{OPEN}\n{text.replace(OPEN, '').replace(CLOSE, '')}\n{CLOSE}"


def request(rulebook: Rulebook, case: dict[str, Any]) -> list[dict[str, Any]]:
    """The judge's messages: the rubric, then the case file as JSON."""
    return [
        {"role": "system", "content": rubric(rulebook)},
        {"role": "user", "content": json.dumps(case, indent=1, ensure_ascii=False)},
    ]


def _grant(grant: Grant | None) -> dict[str, Any] | None:
    if grant is None:
        return None
    return {"resolution": grant.resolution, "policy": grant.policy, "amount": grant.amount}


def case_file(episode: Episode) -> dict[str, Any]:
    """The finished case as the judge reads it; the truth from the kernel, what the agent
    knew apart from what it never looked up."""
    truth, rulebook = episode.truth, episode.rules.rulebook
    wish = episode.scenario.wish
    established = {
        kind: {"fields": dict(fact), "by": episode.provenance[kind].tool,
               "step": episode.provenance[kind].step}
        for kind, fact in episode.known.items()
    }  # fmt: skip
    hidden = {
        kind: dict(fact)
        for kind, fact in episode.facts.present().items()
        if kind not in episode.known
    }
    agent_messages = iter(episode.messages)
    conversation = []
    for turn, line in enumerate(episode.conversation, start=1):
        speaker, _, text = line.partition(": ")
        entry: dict[str, Any] = {"turn": turn, "speaker": speaker, "text": quoted(text)}
        if speaker == "agent":
            sent = next(agent_messages)
            entry["step"] = sent.step
            entry["established_when_sent"] = sorted(sent.established)
            entry["carried_out_when_sent"] = _grant(sent.executed)
        conversation.append(entry)
    done = episode.executed
    return {
        "case": {
            "task": episode.task.name,
            "wish": {"resolution": wish, "meaning": rulebook.resolutions[wish].description},
            "declined": declined(episode),
        },
        "ground_truth": {
            "best": _grant(truth.optimal),
            "allowed": [_grant(g) for g in truth.eligible],
            "blocked_by": [] if truth.grant_for(wish) else truth.blocking_reasons(wish),
        },
        "carried_out": None if done is None else {**_grant(done), "step": episode.executed_step},
        "established_by_agent": established,
        "hidden_not_established": hidden,
        "conversation": conversation,
    }


def agent_turns(case: dict[str, Any]) -> set[int]:
    return {e["turn"] for e in case["conversation"] if e["speaker"] == "agent"}


def _no_constant(name: str) -> float:
    raise ValueError(f"{name} is not a number")


def parse_verdict(content: str | None, rulebook: Rulebook, turns: set[int]) -> Verdict:
    """The verdict in a reply, read strictly; MalformedVerdict for anything else: not one
    JSON object, extra or missing keys, a non-finite number, a name outside the rulebook's
    vocabulary, not one reading for each of the agent's ``turns``."""
    text = (content or "").strip()
    if fenced := _FENCE.match(text):
        text = fenced.group(1)
    try:
        data = json.loads(text, parse_constant=_no_constant)
        verdict = Verdict.model_validate(data)
    except ValidationError as exc:
        first = exc.errors()[0]
        where = ".".join(str(p) for p in first["loc"]) or "the reply"
        raise MalformedVerdict(f"not the rubric's verdict: {where}: {first['msg']}") from None
    except ValueError as exc:
        raise MalformedVerdict(f"not one JSON object: {exc}") from None
    resolutions, refs = set(rulebook.resolutions), set(rulebook.facts.refs())
    for reading in verdict.messages:
        named = {*reading.asserted, *reading.offered, *reading.denied}
        unknown = sorted((named - resolutions) | (set(reading.facts) - refs))
        if unknown:
            raise MalformedVerdict(f"turn {reading.turn} names {', '.join(unknown)}")
    read = [reading.turn for reading in verdict.messages]
    if sorted(read) != sorted(turns):
        want = ", ".join(map(str, sorted(turns)))
        raise MalformedVerdict(f"read turns {read}; the agent's turns are [{want}], each once")
    return verdict


class LLMJudge:
    """A CommunicationJudge (novamart.reward) backed by a chat model."""

    def __init__(self, model: ChatModel) -> None:
        self.model = model

    def judge(self, episode: Episode) -> Judgement:
        rulebook = episode.rules.rulebook
        case = case_file(episode)
        try:
            reply = self.model.complete(request(rulebook, case), seed=episode.scenario.seed or 0)
            verdict = parse_verdict(reply.content, rulebook, agent_turns(case))
        except (ModelUnavailable, MalformedVerdict) as exc:
            return Judgement(score=None, note=f"{type(exc).__name__}: {exc}")
        return Judgement(score=verdict.score(declined(episode)), note=verdict.summary())
