"""check_payment: how the order was paid, every field rules/facts.yaml declares for the
kinds this tool reveals (a payment method and what is left on it), as the world holds it now."""

from __future__ import annotations

from novamart.episode import Episode
from novamart.tools.args import OrderId, ToolArgs
from novamart.tools.base import Result, ToolSpec, ok, reveal_kinds, wrong_order


class CheckPaymentArgs(ToolArgs):
    order_id: OrderId


def check_payment(episode: Episode, args: CheckPaymentArgs) -> Result:
    if refusal := wrong_order(episode, args.order_id):
        return refusal
    return ok(**reveal_kinds(episode, "check_payment"))


SPEC = ToolSpec(
    name="check_payment",
    kind="investigate",
    description="Look up how the order was paid: the payment method's id, its kind and the "
    "balance left on a gift card.",
    args=CheckPaymentArgs,
    run=check_payment,
)
