"""What reference agents share: the scripted-agent shape and the closing message.

An agent is driven by ``run_episode`` (novamart.agents.runner): ``start`` with the reset
observation (and the hidden episode, for privileged agents only), then ``act`` once per step.
Scripted agents write their policy as a generator that yields actions and receives the
observation each action produced. On a ticket task an agent plays its ticket script (one of
novamart.tickets.agents, adapted here) when it has one, else its order-case script.
"""

from __future__ import annotations

from collections.abc import Callable, Generator
from typing import Any, ClassVar

from openenv.core.env_server.mcp_types import CallToolAction

from novamart.episode import TRANSIENT, Episode
from novamart.models import NovamartObservation
from novamart.retail.session import RetailSession
from novamart.scenarios.tasks import RESOLUTION, RETAIL
from novamart.server.runs import Hidden
from novamart.tickets import TicketSession
from novamart.tickets import agents as ticket_agents
from novamart.tickets.model import Ticket

Script = Generator[CallToolAction, NovamartObservation, Any]
RetailPlay = Callable[[NovamartObservation, RetailSession | None, int], Script]
"""A retail case's play: the reset observation, the hidden session (privileged agents only),
the agent's seed (novamart.agents.retail)."""

DONE_TEXT = {
    "full_refund": "I've processed a full refund of ${amount:.2f} to your original payment method.",
    "store_credit": "I've issued ${amount:.2f} in NovaMart store credit to your account.",
    "exchange": "I've arranged an exchange: a working replacement unit is on its way to you.",
    "escalate": "I've escalated your case to a manager, who will contact you within two days.",
}
WISH_TEXT = {
    "full_refund": "a full refund",
    "exchange": "an exchange",
    "store_credit": "store credit",
    "escalate": "a manager's review",
}
FALLBACK = "Thank you for your patience. Is there anything else I can help you with today?"


def idle() -> Script:
    """No actions: the agent only answers (the fallback message)."""
    yield from ()


def call(tool: str, **arguments: Any) -> CallToolAction:
    return CallToolAction(tool_name=tool, arguments=arguments)


def transient(observation: NovamartObservation) -> bool:
    """Whether the tool failed only for now (the same call should work again)."""
    result = observation.last_tool_result or {}
    return not result.get("ok", True) and result.get("error", {}).get("code") == TRANSIENT


def attempt(action: CallToolAction, tries: int = 3) -> Script:
    """Make ``action``, retrying it while the service is temporarily unavailable; the last
    observation is the value of ``yield from attempt(...)``."""
    observation = yield action
    for _ in range(tries - 1):
        if not transient(observation):
            break
        observation = yield action
    return observation


def closing_message(
    name: str, resolution: str, amount: float, reasons: list[str], wish: str = "full_refund"
) -> str:
    """Thank, give the real reasons when the wish was declined (each its own clause, so none
    runs into the next), confirm what was done."""
    parts = [f"Thank you for your patience, {name.split()[0]}."]
    if reasons:
        asked = WISH_TEXT.get(wish, wish.replace("_", " "))
        parts.append(f"I'm sorry, but {asked} isn't possible: {'; '.join(reasons)}.")
    parts.append(DONE_TEXT[resolution].format(amount=amount))
    parts.append("Please let me know if there is anything else I can help with.")
    return " ".join(parts)


def brief(
    observation: NovamartObservation, hidden: Hidden | None, seed: int
) -> ticket_agents.Brief:
    """What a ticket script is given: the ticket as the observation shows it (and the truth,
    for a privileged agent handed the hidden session)."""
    ticket = Ticket(
        ticket_id=observation.ticket_id,
        customer_name=observation.customer_name,
        subject=observation.ticket_subject,
        text=observation.issue_description,
        requested_fields=list(observation.requested_fields),
        account_on_file=dict(observation.account_on_file),
    )
    truth = hidden.scenario.truth if isinstance(hidden, TicketSession) else None
    return ticket_agents.Brief(observation.family, ticket, truth, seed)


def ticket_actions(script: ticket_agents.Script) -> Script:
    """A ticket script as actions: each call becomes a CallToolAction, each result is read
    from the observation it produced."""
    try:
        tool, arguments = next(script)
        while True:
            observation = yield call(tool, **arguments)
            tool, arguments = script.send(observation.last_tool_result or {})
    except StopIteration:
        return


class Agent:
    """A scripted agent; subclasses write ``script`` and may name a ticket script."""

    name: ClassVar[str]
    privileged: ClassVar[bool] = False
    ticket_script: ClassVar[ticket_agents.Agent | None] = None
    retail_script: ClassVar[RetailPlay | None] = None
    """Its play of a retail case; without one it only answers (the fallback message)."""

    def __init__(self, seed: int = 0) -> None:
        self.seed = seed
        self._script: Script | None = None

    def start(self, observation: NovamartObservation, episode: Hidden | None = None) -> None:
        play = type(self).ticket_script
        if observation.family == RETAIL:
            retail = type(self).retail_script
            hidden = episode if isinstance(episode, RetailSession) else None
            self._script = retail(observation, hidden, self.seed) if retail else idle()
        elif observation.family != RESOLUTION and play is not None:
            self._script = ticket_actions(play(brief(observation, episode, self.seed)))
        else:
            self._script = self.script(
                observation, episode if isinstance(episode, Episode) else None
            )

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
