"""What reference agents share: the scripted-agent shape and the closing message.

An agent is driven by ``run_episode`` (novamart.agents.runner): ``start`` with the reset
observation (and the hidden episode, for privileged agents only), then ``act`` once per step.
Scripted agents write their policy as a generator that yields actions and receives the
observation each action produced.
"""

from __future__ import annotations

from collections.abc import Generator
from typing import Any, ClassVar

from openenv.core.env_server.mcp_types import CallToolAction

from novamart.episode import Episode
from novamart.models import NovamartObservation

Script = Generator[CallToolAction, NovamartObservation, None]

DONE_TEXT = {
    "full_refund": "I've processed a full refund of ${amount:.2f} to your original payment method.",
    "store_credit": "I've issued ${amount:.2f} in NovaMart store credit to your account.",
    "exchange": "I've arranged an exchange: a working replacement unit is on its way to you.",
    "escalate": "I've escalated your case to a manager, who will contact you within two days.",
}
FALLBACK = "Thank you for your patience. Is there anything else I can help you with today?"


def call(tool: str, **arguments: Any) -> CallToolAction:
    return CallToolAction(tool_name=tool, arguments=arguments)


def closing_message(name: str, resolution: str, amount: float, reasons: list[str]) -> str:
    """Thank, give the real reason when the refund was declined, confirm what was done."""
    parts = [f"Thank you for your patience, {name.split()[0]}."]
    if reasons:
        parts.append(f"I'm sorry, but a full refund isn't possible: {' and '.join(reasons)}.")
    parts.append(DONE_TEXT[resolution].format(amount=amount))
    parts.append("Please let me know if there is anything else I can help with.")
    return " ".join(parts)


class Agent:
    """A scripted agent; subclasses write ``script``."""

    name: ClassVar[str]
    privileged: ClassVar[bool] = False

    def __init__(self, seed: int = 0) -> None:
        self.seed = seed
        self._script: Script | None = None

    def start(self, observation: NovamartObservation, episode: Episode | None = None) -> None:
        self._script = self.script(observation, episode)

    def act(self, observation: NovamartObservation) -> CallToolAction:
        assert self._script is not None, "call start() first"
        try:
            if observation.step_number == 0:
                return next(self._script)
            return self._script.send(observation)
        except StopIteration:
            return call("respond_to_customer", message=f"{FALLBACK} ({observation.step_number})")

    def script(self, first: NovamartObservation, episode: Episode | None) -> Script:
        raise NotImplementedError
