"""An LLM plays NovaMart: the environment's tools become OpenAI function specs.

The model reads the case from the observation alone, whatever the task: the first user
message lists every case field the reset observation fills (an order case's customer and
order, a ticket's instructions, text, requested fields or account on file), and each tool
result comes back with the case fields the call changed (a search's ``kb_results``, a fact a
lookup revealed). Nothing in the prompt is written for one task.

One model call yields one or more tool calls; each runs as one environment step and its
result goes back to the model as the ``tool`` message of that call. What the model gets
wrong is the environment's to judge, not ours to repair: arguments that are not a JSON
object are sent as ``{"unparsed_arguments": <text>}`` and an unknown tool name as is, so the
environment refuses them and scores the invalid call. A reply without a tool call is read as
a message to the customer (``respond_to_customer``).
"""

from __future__ import annotations

import json
import time
from collections import deque
from collections.abc import Callable
from typing import Any, ClassVar

from openenv.core.env_server.mcp_types import CallToolAction, CallToolObservation, Tool

from novamart.evaluation.chat import ChatModel, ToolCallRequest
from novamart.models import NovamartObservation
from novamart.server.runs import Hidden

SYSTEM_PROMPT = """\
You are a support agent for NovaMart, an electronics retailer. Work the case with the tools \
you are given, one step at a time; the case tells you what it needs.
Order cases (a customer asks for something about an order):
- Investigate first: look up the order, and check loyalty or verify a defect when the \
policies depend on it. check_policy tells you whether a policy allows a resolution.
- Execute the best resolution the policies allow (full refund > exchange > store credit > \
escalation), with the exact amount the policy grants.
- Never promise what the policies do not allow. When you must decline what the customer \
wants, say the real policy reason.
- Finish with respond_to_customer: be polite, confirm what was done and the amount.
Support tickets (the case has instructions):
- Follow the instructions. The tool that completes the ticket ends the episode: call it \
once, when you are sure.
- Answer only from the help-centre articles search_kb returns, cite the article id, and \
state nothing they do not say.
- Reveal nothing from an account on file before the customer is verified."""

HEADER_FIELDS = frozenset(
    {
        *CallToolObservation.model_fields,
        "task",
        "family",
        "difficulty",
        "step_number",
        "max_steps",
        "available_actions",
        "tools_used",
        "conversation_history",
        "last_tool_result",
        "reward_breakdown",
        "final_score",
    }
)
"""Bookkeeping, not the case: the brief's header says the task, the tool results arrive as
tool messages, and the tools are the function specs."""
CASE_FIELDS = tuple(name for name in NovamartObservation.model_fields if name not in HEADER_FIELDS)
"""What the model reads about the case, whichever kind: every other observation field, so a
field the environment adds reaches the model without a change here."""

UNPARSED = "unparsed_arguments"
TEXT_TOOL = "respond_to_customer"


def function_specs(tools: list[Tool]) -> list[dict[str, Any]]:
    """OpenAI ``tools`` entries built from the environment's own tool list."""
    return [
        {
            "type": "function",
            "function": {
                "name": tool.name,
                "description": tool.description,
                "parameters": tool.input_schema,
            },
        }
        for tool in tools
    ]


def to_action(call: ToolCallRequest) -> CallToolAction:
    """The environment action for a model's tool call, malformed arguments included."""
    try:
        arguments = json.loads(call.arguments) if call.arguments.strip() else {}
    except ValueError:
        arguments = None
    if not isinstance(arguments, dict):
        arguments = {UNPARSED: call.arguments}
    return CallToolAction(tool_name=call.name, arguments=arguments)


def case_fields(observation: NovamartObservation) -> dict[str, Any]:
    """The case fields the observation fills (empty ones left out), as plain JSON values."""
    values = observation.model_dump(mode="json", include=set(CASE_FIELDS))
    return {name: values[name] for name in CASE_FIELDS if values[name] not in (None, "", [], {})}


def _show(name: str, value: Any) -> str:
    description = NovamartObservation.model_fields[name].description
    label = f"{name} ({description})" if description else name
    if not isinstance(value, str):
        return f"{label}: {json.dumps(value, ensure_ascii=False)}"
    if "\n" not in value:
        return f"{label}: {value}"
    return f"{label}:\n" + "\n".join(f"  {line}" for line in value.splitlines())


def case_brief(observation: NovamartObservation) -> str:
    """The first user message: the task, then every case field the observation fills."""
    header = f"New case ({observation.task}). You have at most {observation.max_steps} tool calls."
    fields = case_fields(observation)
    return "\n".join([header, *(_show(name, value) for name, value in fields.items())])


def step_report(observation: NovamartObservation, before: dict[str, Any]) -> str:
    """What the model reads after its call ran: the tool's result, the case fields the call
    changed (``before`` holds the earlier ones: a search's kb_results, a looked-up fact) and
    the steps left."""
    left = max(0, observation.max_steps - observation.step_number)
    report: dict[str, Any] = {"result": observation.last_tool_result}
    changed = {k: v for k, v in case_fields(observation).items() if before.get(k) != v}
    if changed:
        report["updates"] = changed
    report["steps_left"] = left
    return json.dumps(report, ensure_ascii=False, default=str)


class LLMAgent:
    """Plays an episode through ``model``; ``list_tools`` asks the environment for its tools;
    ``seed`` goes with every request (each trial of a case has its own)."""

    privileged: ClassVar[bool] = False

    def __init__(
        self, model: ChatModel, list_tools: Callable[[], list[Tool]], seed: int | None = None
    ) -> None:
        self._model = model
        self._list_tools = list_tools
        self._seed = seed
        self._specs: list[dict[str, Any]] = []
        self._messages: list[dict[str, Any]] = []
        self._queue: deque[tuple[str, CallToolAction]] = deque()
        self._awaiting: str | None = None
        """Id of the tool call whose result the next observation carries ('' for text)."""
        self._deadline = 0.0
        self._known: dict[str, Any] = {}
        """The case fields the model has been shown, to report only what a call changed."""

    def start(self, observation: NovamartObservation, episode: Hidden | None = None) -> None:
        self._deadline = time.monotonic() + self._model.settings.episode_budget_s
        self._specs = function_specs(self._list_tools())
        self._messages = [
            {"role": "system", "content": SYSTEM_PROMPT},
            {"role": "user", "content": case_brief(observation)},
        ]
        self._known = case_fields(observation)
        self._queue.clear()
        self._awaiting = None

    def act(self, observation: NovamartObservation) -> CallToolAction:
        self._report(observation)
        if not self._queue:
            self._ask()
        call_id, action = self._queue.popleft()
        self._awaiting = call_id
        return action

    def _report(self, observation: NovamartObservation) -> None:
        if self._awaiting is None:
            return
        report = step_report(observation, self._known)
        self._known = case_fields(observation)
        if self._awaiting:
            message = {"role": "tool", "tool_call_id": self._awaiting, "content": report}
        else:
            sent = f"Your reply went to the customer through {TEXT_TOOL}. Result: {report}"
            message = {"role": "user", "content": sent}
        self._messages.append(message)
        self._awaiting = None

    def _ask(self) -> None:
        reply = self._model.complete(self._messages, self._specs, self._deadline, self._seed)
        assistant: dict[str, Any] = {"role": "assistant", "content": reply.content}
        if reply.tool_calls:
            assistant["tool_calls"] = [
                {
                    "id": call.id,
                    "type": "function",
                    "function": {"name": call.name, "arguments": call.arguments},
                }
                for call in reply.tool_calls
            ]
            self._queue.extend((call.id, to_action(call)) for call in reply.tool_calls)
        else:
            text = (reply.content or "").strip()
            self._queue.append(
                ("", CallToolAction(tool_name=TEXT_TOOL, arguments={"message": text}))
            )
        self._messages.append(assistant)
