"""find_customer: authenticate the customer by the email on the account, or by full name and
zip code.

A match makes the account the one this conversation is about (the ``identity_verified`` event
of the rulebook's event kind holds for its orders); anything else reveals nothing.
"""

from __future__ import annotations

from pydantic import Field, model_validator

from novamart.retail.session import RetailSession
from novamart.retail.tools.base import RetailTool
from novamart.retail.trail import Step
from novamart.tools.args import ToolArgs
from novamart.tools.base import Result, fail, ok

NAME = "find_customer"


class FindCustomerArgs(ToolArgs):
    email: str | None = Field(default=None, max_length=200, description="The account's email")
    name: str | None = Field(default=None, max_length=200, description="Full name, with zip")
    zip: str | None = Field(default=None, max_length=20, description="Zip code, with name")

    @model_validator(mode="after")
    def _one_way(self) -> FindCustomerArgs:
        if self.email is None and (self.name is None or self.zip is None):
            raise ValueError("give the email, or the full name and the zip code")
        return self


def _same(given: str | None, known: str) -> bool:
    return given is not None and " ".join(given.split()).casefold() == known.casefold()


def find_customer(session: RetailSession, args: FindCustomerArgs) -> Result:
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
    args=FindCustomerArgs,
    run=find_customer,
)
