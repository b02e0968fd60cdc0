"""An episode's trajectory as records: each step's call and outcome, and the last
observation's remaining fields.

The step record takes what the step changed (the call, the tool's answer with the customer's
reply, the reward and its breakdown); the final record takes every other field of the last
observation, by name, except the two the steps hold in order (the conversation and the
tools used), so whatever the environment adds to its terminal observation (ground truth,
grader notes, a termination reason) is kept without a change here.
"""

from __future__ import annotations

import functools
from typing import Any

from openenv.core.env_server.mcp_types import CallToolAction

from novamart.evaluation.results import StepRecord, refusal
from novamart.models import NovamartObservation

STEP_FIELDS = frozenset(
    {"tool_name", "result", "last_tool_result", "reward", "reward_breakdown", "error"}
)
"""Observation fields a step record already holds (``result`` is ``last_tool_result``)."""
REBUILT_FROM_STEPS = frozenset({"conversation_history", "tools_used"})
"""Observation fields the steps hold in order: the opening message (``issue_description``),
each message sent (its arguments) and answered (its result), each tool called."""
TIME_DIGITS = 5  # 10 µs: finer is noise on a shared machine


def tool_error(observation: NovamartObservation) -> str | None:
    """The refusal this step's tool answered with, as ``code: message``; None on success."""
    refused = refusal(observation.last_tool_result)
    if refused is None and observation.error is not None:
        return observation.error.message
    return refused


def step_record(
    step: int,
    action: CallToolAction,
    observation: NovamartObservation,
    agent_s: float,
    env_s: float,
) -> StepRecord:
    return StepRecord(
        step=step,
        tool=action.tool_name,
        arguments=dict(action.arguments),
        result=observation.last_tool_result,
        reward=float(observation.reward or 0.0),
        breakdown={k: v for k, v in observation.reward_breakdown.items() if v},
        done=observation.done,
        agent_s=round(agent_s, TIME_DIGITS),
        env_s=round(env_s, TIME_DIGITS),
    )


@functools.cache
def _defaults(kind: type[NovamartObservation]) -> dict[str, Any]:
    return {
        name: field.get_default(call_default_factory=True)
        for name, field in kind.model_fields.items()
    }


def final_fields(observation: NovamartObservation) -> dict[str, Any]:
    """Every field of the last observation that is set (not at its default; a field's own
    parts are kept whole) and that the steps do not hold."""
    left_out = set(STEP_FIELDS | REBUILT_FROM_STEPS)
    values = observation.model_dump(mode="json", exclude=left_out)
    defaults = _defaults(type(observation))
    return {k: v for k, v in values.items() if v != defaults[k]}
