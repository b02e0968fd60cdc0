"""find_user: authenticate the customer by email, or by name and zip code.

A match against the customer's record (the kind this tool reveals, rules/facts.yaml) reveals
it and makes the tool's events happen (``identity_verified``: the event kind's fields this
tool reveals, novamart.kernel.events.from_tool); anything else reveals nothing and changes
nothing, so a write that requires the identity stays refused, saying so.
"""

from __future__ import annotations

from pydantic import Field, model_validator

from novamart.episode import Episode
from novamart.kernel import events
from novamart.kernel.declared import EVENT_KIND
from novamart.tools.args import ToolArgs
from novamart.tools.base import Result, ToolSpec, fail, ok, reveal_kinds

NAME = "find_user"


class FindUserArgs(ToolArgs):
    email: str | None = Field(default=None, max_length=200, description="The customer's email")
    name: str | None = Field(default=None, max_length=200, description="Full name, with zip")
    zip: str | None = Field(default=None, max_length=20, description="Zip code, with name")

    @model_validator(mode="after")
    def _one_way(self) -> FindUserArgs:
        if self.email is None and (self.name is None or self.zip is None):
            raise ValueError("give the email, or the name and the zip code")
        return self


def _same(given: str | None, known: object) -> bool:
    return given is not None and given.strip().casefold() == str(known).strip().casefold()


def find_user(episode: Episode, args: FindUserArgs) -> Result:
    schema = episode.rules.rulebook.facts
    kinds = [k for k in schema.investigated() if schema.source_tool(k) == NAME and k != EVENT_KIND]
    record = next((episode.hidden(k) for k in kinds), {})
    by_email = _same(args.email, record.get("email"))
    by_name = _same(args.name, record.get("name")) and _same(args.zip, record.get("zip"))
    if not record or not (by_email or by_name):
        return fail(
            "wrong_customer",
            "no customer matches; ask for the email on the account, or the full name and "
            "zip code, and try again",
        )
    found = reveal_kinds(episode, NAME)
    for event in events.from_tool(schema, NAME):
        episode.arrive(event, NAME)
    return ok(**found, verified_by="email" if by_email else "name and zip")


SPEC = ToolSpec(
    name=NAME,
    kind="investigate",
    description="Find and authenticate the customer by the email on their account, or by "
    "their full name and zip code; required before any change to their orders.",
    args=FindUserArgs,
    run=find_user,
)
