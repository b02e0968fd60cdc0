"""respond_to_customer: send the customer a message and read its reply.

A reply that says one of the rulebook's yes phrases (``says_true`` of a reply's event,
rules/retail/facts.yaml), plainly, is a yes to this message: the next write is confirmed if
this message listed every detail of that very write (novamart.retail.tools.writes). Any other
reply, or another message, takes the yes back.
"""

from __future__ import annotations

from novamart.kernel import events
from novamart.retail.session import RetailSession
from novamart.retail.tools.base import RetailTool
from novamart.tools.args import RESPOND, RespondArgs
from novamart.tools.base import Result, ok
from novamart.tools.confirmation import says


def respond(session: RetailSession, args: RespondArgs) -> Result:
    answer = session.say(args.message)
    phrases = events.from_reply(session.kernel.rulebook.facts).values()
    session.yes_to = args.message if any(says(answer, p) for p in phrases) else None
    return ok(customer_reply=answer, conversation_closed=session.talk.closed)


SPEC = RetailTool(
    name="respond_to_customer",
    description=RESPOND,
    args=RespondArgs,
    run=respond,
)
