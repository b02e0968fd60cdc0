"""escalate_to_manager: hand the case to a manager, when no other policy covers it."""

from __future__ import annotations

from novamart.episode import Episode
from novamart.tools.args import ESCALATE, EscalateArgs
from novamart.tools.base import Result, ToolSpec, fail
from novamart.tools.resolve import resolve


def escalate_to_manager(episode: Episode, args: EscalateArgs) -> Result:
    """The schema's order_id is optional (tickets have no order); an order case needs it."""
    if args.order_id is None:
        return fail("invalid_arguments", "order_id is required: name this case's order")
    return resolve(episode, "escalate_to_manager", args.order_id, None)


SPEC = ToolSpec(
    name="escalate_to_manager",
    kind="resolve",
    description=ESCALATE,
    args=EscalateArgs,
    run=escalate_to_manager,
)
