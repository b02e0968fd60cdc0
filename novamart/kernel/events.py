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
