"""find_customer: authenticate the customer by the email on the account, or by full name and
zip code.

A match makes the account the one this conversation is about (the ``identity_verified`` event
of the rulebook's event kind holds for its orders); anything else reveals nothing.
"""

from __future__ import annotations

from novamart.retail.session import RetailSession
from novamart.retail.tools.base import RetailTool
from novamart.retail.trail import Step
from novamart.tools.base import Result, fail, ok
from novamart.tools.find_user import FindUserArgs

NAME = "find_customer"


def _same(given: str | None, known: str) -> bool:
    return given is not None and " ".join(given.split()).casefold() == known.casefold()


def find_customer(session: RetailSession, args: FindUserArgs) -> Result:
    for customer in session.world.customers:
        by_email = _same(args.email, customer.email)
        if by_email or (_same(args.name, customer.name) and _same(args.zip, customer.zip)):
            session.identified = customer.customer_id
            session.record(Step(session.step, "identified", customer.customer_id, tool=NAME))
            return ok(
                customer_id=customer.customer_id,
                name=customer.name,
                verified_by="email" if by_email else "name and zip",
            )
    return fail(
        "wrong_customer",
        "no customer matches; ask for the email on the account, or the full name and zip "
        "code, and try again",
    )


SPEC = RetailTool(
    name=NAME,
    description="Find and authenticate the customer by the email on their account, or by "
    "their full name and zip code; required before any account detail is shown or changed.",
    args=FindUserArgs,
    run=find_customer,
)
