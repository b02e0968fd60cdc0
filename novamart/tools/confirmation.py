"""The events a customer's reply makes happen: a yes to an action whose details the agent
has just listed (``confirmed``, or any event whose words facts.yaml lists under says_true).

Fail closed: the reply must say one of the event's phrases, with no negation, hedge or
question in it ("yes, but ...", "not yet", "yes?" are not a yes), and the agent's message it
answers must list the details of an action requiring the event: name the resolution (its
name or the verb it starts with, its tool or a word it ``says``) and an id the agent knows of
every kind its id arguments name (the order, the items, the payment method). Anything else is
no event.
"""

from __future__ import annotations

import re

from novamart.episode import Episode
from novamart.kernel import events
from novamart.kernel.rulebook import ResolutionSpec

CUSTOMER = "customer"
"""The source of an event a reply made happen."""
HEDGES = frozenset(
    {"no", "not", "never", "dont", "wait", "but", "maybe", "unless", "if", "hold", "stop"}
    | {"actually", "instead", "perhaps", "later", "hmm"}
)
"""Words that make a reply something other than a plain yes."""
_WORD = re.compile(r"[a-z0-9']+|\?")


def words(text: str) -> list[str]:
    return _WORD.findall(text.casefold().replace("n't", " not").replace("’", "'"))


def says(reply: str, phrases: tuple[str, ...]) -> bool:
    """Whether ``reply`` says one of ``phrases`` and nothing that takes it back."""
    said = words(reply)
    if "?" in said or HEDGES.intersection(said):
        return False
    joined = f" {' '.join(said)} "
    return any(f" {' '.join(words(p))} " in joined for p in phrases)


def lists_details(episode: Episode, message: str, spec: ResolutionSpec, name: str) -> bool:
    """Whether ``message`` names the action and an id of each kind its ids arguments name."""
    text = f" {' '.join(words(message.replace('_', ' ')))} "
    names = (name, name.split("_")[0], spec.tool, *spec.says)  # its verb will do: modify
    if not any(f" {' '.join(words(n.replace('_', ' ')))} " in text for n in names):
        return False
    return all(
        any(_names(message, i) for i in _known_ids(episode, argument.of))
        for argument in spec.arguments.values()
        if argument.of is not None
    )


def _names(message: str, identifier: str) -> bool:
    """Whether ``message`` holds ``identifier`` as a whole (I1 is not named by I11)."""
    pattern = rf"(?<![A-Za-z0-9_]){re.escape(identifier)}(?![A-Za-z0-9_])"
    return re.search(pattern, message, re.IGNORECASE) is not None


def _known_ids(episode: Episode, kind: str | None) -> list[str]:
    schema = episode.rules.rulebook.facts
    known = episode.known.get(kind or "")
    if kind is None or known is None:
        return []
    key = schema.kinds[kind].id_field
    members = known if isinstance(known, list) else [known]
    return [str(m[key]) for m in members if m.get(key)]


def hear(episode: Episode, message: str, reply: str) -> list[str]:
    """Make happen the events ``reply`` says, answering the agent's ``message``; returns
    them (none when the rules declare no event a reply can say)."""
    heard = []
    catalogue = episode.rules.rulebook.resolutions
    for event, phrases in events.from_reply(episode.rules.rulebook.facts).items():
        actions = [(n, s) for n, s in catalogue.items() if event in s.requires]
        if not says(reply, phrases):
            continue
        if any(lists_details(episode, message, spec, name) for name, spec in actions):
            episode.arrive(event, CUSTOMER)
            heard.append(event)
    return heard
