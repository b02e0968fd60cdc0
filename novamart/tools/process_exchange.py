"""process_exchange: swap the item for a working unit, when a policy grants an exchange."""

from __future__ import annotations

from novamart.episode import Episode
from novamart.tools.args import OrderId, ToolArgs
from novamart.tools.base import Result, ToolSpec
from novamart.tools.resolve import resolve


class ProcessExchangeArgs(ToolArgs):
    order_id: OrderId


def process_exchange(episode: Episode, args: ProcessExchangeArgs) -> Result:
    return resolve(episode, "process_exchange", args.order_id, None)


SPEC = ToolSpec(
    name="process_exchange",
    kind="resolve",
    description="Exchange the item for a working unit of the same product. Allowed only when a "
    "policy grants an exchange on the established facts.",
    args=ProcessExchangeArgs,
    run=process_exchange,
)
