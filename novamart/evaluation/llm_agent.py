"""An LLM plays NovaMart: the environment's tools become OpenAI function specs.

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

from openenv.core.env_server.mcp_types import CallToolAction, Tool

from novamart.episode import Episode
from novamart.evaluation.chat import ChatModel, ToolCallRequest
from novamart.models import NovamartObservation

SYSTEM_PROMPT = """\
You are a customer-service agent for NovaMart, an electronics retailer. Resolve the \
customer's case with the tools you are given, one step at a time.
- Investigate first: look up the order, and check loyalty or verify a defect when the \
policies depend on it. check_policy tells you whether a policy allows a resolution.
- Execute the best resolution the policies allow (full refund > exchange > store credit > \
escalation), with the exact amount the policy grants.
- Never promise what the policies do not allow. When you must decline what the customer \
wants, say the real policy reason.
- Finish with respond_to_customer: be polite, confirm what was done and the amount."""

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


def case_brief(observation: NovamartObservation) -> str:
    return (
        f"New case ({observation.task}).\n"
        f"Customer: {observation.customer_name} (customer id {observation.customer_id})\n"
        f"Order: {observation.order_id}\n"
        f"Customer's message: {observation.issue_description}\n"
        f"You have at most {observation.max_steps} tool calls."
    )


def step_report(observation: NovamartObservation) -> str:
    """What the model reads after its call ran: the tool's result and the steps left."""
    left = max(0, observation.max_steps - observation.step_number)
    return json.dumps(
        {"result": observation.last_tool_result, "steps_left": left},
        ensure_ascii=False,
        default=str,
    )


class LLMAgent:
    """Plays an episode through ``model``; ``list_tools`` asks the environment for its tools."""

    privileged: ClassVar[bool] = False

    def __init__(self, model: ChatModel, list_tools: Callable[[], list[Tool]]) -> None:
        self._model = model
        self._list_tools = list_tools
        self._specs: list[dict[str, Any]] = []
        self._messages: list[dict[str, Any]] = []
        self._queue: deque[tuple[str, CallToolAction]] = deque()
        self._awaiting: str | None = None
        """Id of the tool call whose result the next observation carries ('' for text)."""
        self._deadline = 0.0

    def start(self, observation: NovamartObservation, episode: Episode | None = None) -> None:
        self._deadline = time.monotonic() + self._model.settings.episode_budget_s
        self._specs = function_specs(self._list_tools())
        self._messages = [
            {"role": "system", "content": SYSTEM_PROMPT},
            {"role": "user", "content": case_brief(observation)},
        ]
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
        report = step_report(observation)
        if self._awaiting:
            message = {"role": "tool", "tool_call_id": self._awaiting, "content": report}
        else:
            sent = f"Your reply went to the customer through {TEXT_TOOL}. Result: {report}"
            message = {"role": "user", "content": sent}
        self._messages.append(message)
        self._awaiting = None

    def _ask(self) -> None:
        reply = self._model.complete(self._messages, self._specs, self._deadline)
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
