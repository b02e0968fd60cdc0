"""lookup_product: a catalogue product and its variants (options, price, availability).
The catalogue is no one's account: it needs no authentication."""

from __future__ import annotations

from pydantic import Field

from novamart.retail.session import RetailSession
from novamart.retail.tools.base import RetailTool
from novamart.tools.args import ToolArgs
from novamart.tools.base import Result, fail, ok

NAME = "lookup_product"


class LookupProductArgs(ToolArgs):
    product_id: str = Field(min_length=1, max_length=64, description="From lookup_order")


def lookup_product(session: RetailSession, args: LookupProductArgs) -> Result:
    wanted = args.product_id.strip()
    product = next((p for p in session.world.products if p.product_id == wanted), None)
    if product is None:
        return fail("invalid_arguments", f"no product {wanted!r}; lookup_order names them")
    return ok(
        product_id=product.product_id,
        name=product.name,
        variants=[
            {
                "variant_id": v.variant_id,
                "options": v.label(),
                "price": v.price,
                "available": v.available,
            }
            for v in product.variants
        ],
    )


SPEC = RetailTool(
    name=NAME,
    description="A catalogue product's variants: their options, price and whether they can "
    "be ordered now (for an exchange or an item change).",
    args=LookupProductArgs,
    run=lookup_product,
)
