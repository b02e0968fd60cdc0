"""What the retail reference agents say: a write's details listed before asking for the yes,
the report once done, a refusal with the kernel's reasons. Every detail comes from the world
and the kernel (ids, variants, amounts, payment methods); nothing is written here but words."""

from __future__ import annotations

from collections.abc import Callable, Sequence

from novamart.scenarios.retail_requests import Request
from novamart.scenarios.retail_world import World

IDENTITY = (
    "Hello, I'm happy to help. First I need to verify your account: could you give me the "
    "email on it, or your full name and zip code?"
)
OWN_ONLY = (
    "About the other order you mentioned: I can only discuss or change orders on your own "
    "account, so its owner will need to contact us."
)
ASK_YES = ("Shall I go ahead?", "Would you like me to proceed?", "Do you want me to do that?")
Pick = Callable[[Sequence[str]], str]
"""How a speaker chooses among phrasings (the first always, or a seeded draw)."""
DONE = ("has been submitted", "has been processed", "is now done")
SORRY = ("I'm sorry, but I can't", "Unfortunately I'm not able to", "I'm afraid I cannot")


def action(resolution: str) -> str:
    return resolution.replace("_", " ")


def details(world: World, request: Request, amount: float | None) -> str:
    """The write's details, as the customer checks them: order, items, variants, text
    arguments, amount, payment method."""
    order = world.customer(request.customer_id).order(request.order_id)
    parts = [f"{action(request.call.resolution)}: order {request.order_id}"]
    names = {i.item_id: world.product(i.product_id).name for i in order.items}
    if request.item_ids:
        items = ", ".join(f"item {i} ({names[i]})" for i in request.item_ids)
        parts.append(f"for {items}")
    for item_id, variant_id in request.targets:
        parts.append(
            f"item {item_id} becomes variant {variant_id} ({world.variant(variant_id).label()})"
        )
    if address := request.call.arguments.get("address"):
        parts.append(f"new address {address}")
    if amount is not None:
        parts.append(f"amount ${abs(amount):.2f}")
    if payment := request.call.arguments.get("payment_method_id"):
        parts.append(f"payment method {payment}")
    return "; ".join(parts)


def first(options: Sequence[str]) -> str:
    return options[0]


def proposal(world: World, request: Request, amount: float | None, pick: Pick) -> str:
    return f"Here is what I will do: {details(world, request, amount)}. {pick(ASK_YES)}"


def offer(world: World, request: Request, amount: float | None, pick: Pick) -> str:
    """What the rules grant instead of a refused request, listed for the yes."""
    return f"What I can do instead: {details(world, request, amount)}. {pick(ASK_YES)}"


def report(world: World, request: Request, amount: float | None, pick: Pick) -> str:
    return f"Your request ({details(world, request, amount)}) {pick(DONE)}."


def refusal(request: Request, reasons: Sequence[str], pick: Pick, escalated: bool = False) -> str:
    why = "; ".join(reasons) or "the policies do not allow it"
    text = f"{pick(SORRY)} {action(request.call.resolution)} (order {request.order_id}): {why}."
    if escalated:
        text += " I have passed it to a manager, who will review it and contact you."
    return text
