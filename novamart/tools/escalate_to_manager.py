"""escalate_to_manager: hand the case to a manager, when no other policy covers it."""

from __future__ import annotations

from pydantic import Field

from novamart.episode import Episode
from novamart.tools.base import OrderId, Result, ToolArgs, ToolSpec
from novamart.tools.resolve import resolve


class EscalateArgs(ToolArgs):
    order_id: OrderId
    reason: str = Field(min_length=1, max_length=1000, description="Why a manager should look")


def escalate_to_manager(episode: Episode, args: EscalateArgs) -> Result:
    return resolve(episode, "escalate", args.order_id, None)


SPEC = ToolSpec(
    name="escalate_to_manager",
    kind="resolve",
    description="Escalate the case to a manager. Allowed only when the escalation policy "
    "applies: no other policy offers a resolution on the established facts.",
    args=EscalateArgs,
    run=escalate_to_manager,
)
