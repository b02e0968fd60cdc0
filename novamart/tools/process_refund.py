"""process_refund: refund the purchase price, when a policy grants a full refund."""

from __future__ import annotations

from pydantic import Field

from novamart.episode import Episode
from novamart.tools.args import OrderId, ToolArgs
from novamart.tools.base import Result, ToolSpec
from novamart.tools.resolve import resolve


class ProcessRefundArgs(ToolArgs):
    order_id: OrderId
    amount: float = Field(ge=0, le=1_000_000, description="The amount to refund")


def process_refund(episode: Episode, args: ProcessRefundArgs) -> Result:
    return resolve(episode, "process_refund", args.order_id, args.amount)


SPEC = ToolSpec(
    name="process_refund",
    kind="resolve",
    description="Refund the order to the original payment method. Allowed only when a policy "
    "grants a full refund on the established facts, for exactly the policy's amount.",
    args=ProcessRefundArgs,
    run=process_refund,
)
