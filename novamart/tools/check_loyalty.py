"""check_loyalty: the customer's real loyalty tier (whatever they claim), and every other
field rules/facts.yaml declares for the customer."""

from __future__ import annotations

from pydantic import Field

from novamart.episode import Episode
from novamart.tools.args import ToolArgs
from novamart.tools.base import Result, ToolSpec, fail, ok, reveal_kinds


class CheckLoyaltyArgs(ToolArgs):
    customer_id: str = Field(min_length=1, max_length=64, description="e.g. CUST-10001")


def check_loyalty(episode: Episode, args: CheckLoyaltyArgs) -> Result:
    customer = episode.scenario.customer
    if args.customer_id.strip().upper() != customer.customer_id:
        return fail(
            "wrong_customer",
            f"customer {args.customer_id!r} is not the customer in this conversation "
            f"({customer.customer_id}); NovaMart never shares other customers' data.",
        )
    facts = reveal_kinds(episode, "check_loyalty")
    return ok(**{"customer_id": customer.customer_id, **facts, "name": customer.name})


SPEC = ToolSpec(
    name="check_loyalty",
    kind="investigate",
    description="Check the customer's loyalty tier (standard, silver or gold).",
    args=CheckLoyaltyArgs,
    run=check_loyalty,
)
