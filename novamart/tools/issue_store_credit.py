"""issue_store_credit: goodwill store credit, for the amount the loyalty rule sets."""

from __future__ import annotations

from pydantic import Field

from novamart.episode import Episode
from novamart.tools.args import OrderId, ToolArgs
from novamart.tools.base import Result, ToolSpec
from novamart.tools.resolve import resolve


class IssueStoreCreditArgs(ToolArgs):
    order_id: OrderId
    amount: float = Field(ge=0, le=1_000_000, description="The store credit amount")


def issue_store_credit(episode: Episode, args: IssueStoreCreditArgs) -> Result:
    return resolve(episode, "issue_store_credit", args.order_id, args.amount)


SPEC = ToolSpec(
    name="issue_store_credit",
    kind="resolve",
    description="Issue NovaMart store credit for the order. Allowed only when a policy grants "
    "store credit on the established facts, for exactly the policy's amount.",
    args=IssueStoreCreditArgs,
    run=issue_store_credit,
)
