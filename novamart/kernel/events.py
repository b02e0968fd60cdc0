"""Conversation events as facts: what happens during an episode, in order.

The events are the true/false fields of the ``event`` fact kind (``identity_verified``,
``confirmed``); one arrives when a tool or the message reader says so, and the kernel sees the
events so far as one ``event`` fact. A resolution that ``requires:`` an event gets an implicit
condition ``event.<name> == true`` in every policy granting it (novamart.kernel.rulebook), so
the gate, check_policy and explain name what is missing as they name any unknown fact. An
effect may reset an event (``event.confirmed = false``: every write needs its own yes).
"""

from __future__ import annotations

from novamart.kernel.declared import EVENT_KIND, event_names
from novamart.kernel.facts import Facts, FactSchema

CONVERSATION = "conversation"
"""The identifier of the one event fact of a case."""


def arrive(schema: FactSchema, facts: Facts, event: str) -> Facts:
    """``facts`` once ``event`` has happened (the other events as they were, or their
    defaults on the first); a ValueError for an event the rulebook does not know."""
    known = event_names(schema)
    if event not in known:
        raise ValueError(f"unknown event {event!r} (events: {', '.join(known) or 'none'})")
    spec = schema.kinds[EVENT_KIND]
    record = dict(facts.record(EVENT_KIND) or {spec.id_field: CONVERSATION})
    return schema.check(facts.with_kind(EVENT_KIND, {**record, event: True}))


def begun(schema: FactSchema, facts: Facts) -> Facts:
    """``facts`` with the conversation's event fact, every event at its default, when they
    hold none yet (a conversation that has just begun: nothing has happened)."""
    if facts.record(EVENT_KIND) is not None:
        return facts
    spec = schema.kinds[EVENT_KIND]
    return schema.check(facts.with_kind(EVENT_KIND, {spec.id_field: CONVERSATION}))


def from_tool(schema: FactSchema, tool: str) -> tuple[str, ...]:
    """The events ``tool`` makes happen when it succeeds: those of the event kind it reveals
    (``revealed_by``) that no words of a message say (``says_true`` marks a reply's)."""
    spec = schema.kinds.get(EVENT_KIND)
    if spec is None or spec.revealed_by != tool:
        return ()
    return tuple(e for e in event_names(schema) if not spec.fields[e].says_true)


def from_reply(schema: FactSchema) -> dict[str, tuple[str, ...]]:
    """The events a customer's reply may make happen, each with the words that say it."""
    spec = schema.kinds.get(EVENT_KIND)
    if spec is None:
        return {}
    return {e: spec.fields[e].says_true for e in event_names(schema) if spec.fields[e].says_true}
