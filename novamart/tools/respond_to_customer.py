"""respond_to_customer: send the customer a message and get the reply.

The message is read once, here (novamart.language: what it claims), and recorded with what
stood when it was sent: the fact kinds established and the resolution carried out. The
reward checks those claims against the record (novamart.statements); the customer answers,
and a yes to an action the message listed makes the confirmation event happen
(novamart.tools.confirmation).
"""

from __future__ import annotations

from novamart import customer
from novamart.episode import Episode, MessageRecord
from novamart.language import lexicon_for, read
from novamart.tools.args import RESPOND, RespondArgs
from novamart.tools.base import Result, ToolSpec, ok
from novamart.tools.confirmation import hear


def read_message(episode: Episode, text: str) -> MessageRecord:
    other = episode.scenario.other
    lowered = text.lower()
    leaks = other is not None and any(
        value.lower() in lowered for value in (other.email, other.order_id) if value
    )
    return MessageRecord(
        step=episode.step,
        text=text,
        reading=read(text, lexicon_for(episode.rules.rulebook)),
        established=frozenset(episode.known),
        executed=episode.executed,
        leaks=leaks,
    )


def respond_to_customer(episode: Episode, args: RespondArgs) -> Result:
    record = read_message(episode, args.message)
    episode.messages.append(record)
    episode.conversation.append(f"agent: {args.message}")
    speaker = episode.simulator
    answer = customer.reply(episode, record) if speaker is None else speaker.reply(episode, record)
    episode.conversation.append(f"customer: {answer}")
    hear(episode, args.message, answer)
    return ok(customer_reply=answer, conversation_closed=episode.customer.closed)


SPEC = ToolSpec(
    name="respond_to_customer",
    kind="communicate",
    description=RESPOND,
    args=RespondArgs,
    run=respond_to_customer,
)
