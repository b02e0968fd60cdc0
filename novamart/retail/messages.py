"""What the agent told the customer, read fail-closed for grading a retail episode.

- Rudeness is the project's detector (novamart.language, on the retail rulebook's lexicon).
- A refusal is told, as the scripted customer hears one, by a message that names the order
  and says it cannot be done (the customer's own refusal words); it conveys the kernel's
  reason when such a message also holds a cue of a reason the kernel gave: a value the
  rulebook's reason template filled in (``the order is {order.status}`` -> ``delivered``), a
  value a failed test shows (``item.status (ordered) is not == delivered``), a figure, or the
  words of a flag found true or false (``item.final_sale is true`` -> ``final sale``).
- Every amount of money a message states must be one the kernel computes for the requests
  (as first asked and as finally wanted): a write's amount, the prices it adds up, a figure
  its reasons give, a balance before or after. Any other amount cannot be verified.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Iterable, Iterator

from novamart.kernel.money import cents
from novamart.language import lexicon_for, read
from novamart.language.text import normalise, tokenize
from novamart.retail.diff import Plan
from novamart.retail.trail import Message
from novamart.scenarios.retail_customer import _REFUSED as REFUSAL_WORDS
from novamart.scenarios.retail_requests import Settled
from novamart.scenarios.retail_world import World, retail_kernel

_PLACEHOLDER = re.compile(r"\{[^{}]+\}")
_PARENTHESISED = re.compile(r"\(([^()]+)\)")
_COMPARED = re.compile(r"(?:==|!=) ([a-z_]+)")
_FLAG = re.compile(r"\b[a-z]+\.([a-z_]+) is (?:true|false)\b")


def rude(messages: Iterable[Message]) -> list[Message]:
    """The messages the project's detector reads as rude."""
    lexicon = lexicon_for(retail_kernel().rulebook)
    return [m for m in messages if read(m.text, lexicon).rude]


def names(message: Message, order_id: str) -> bool:
    return order_id in message.text


def refusal(messages: Iterable[Message], order_id: str) -> Message | None:
    """The first message naming ``order_id`` that says it cannot be done."""
    return next((m for m in messages if names(m, order_id) and REFUSAL_WORDS.search(m.text)), None)


def reported(messages: Iterable[Message], order_id: str, after: int) -> Message | None:
    """The first message after step ``after`` that names ``order_id``."""
    return next((m for m in messages if m.step > after and names(m, order_id)), None)


@functools.cache
def _templates() -> tuple[re.Pattern[str], ...]:
    """Each reason template of the retail rulebook as a pattern capturing what it fills in."""
    patterns = []
    for policy in retail_kernel().rulebook.policies.values():
        for condition in policy.conditions:
            parts = _PLACEHOLDER.split(condition.reason or "")
            if len(parts) > 1:
                body = "(.+?)".join(re.escape(p) for p in parts)
                patterns.append(re.compile(f"^{body}$"))
    return tuple(patterns)


def _plain(text: str) -> str:
    return " ".join(text.lower().replace("_", " ").split())


def cues(reason: str) -> frozenset[str]:
    """What a message may say to convey ``reason`` (lower case, underscores as spaces)."""
    filled = next((m.groups() for p in _templates() if (m := p.match(reason))), (reason,))
    found: set[str] = set()
    for value in filled:
        if "." not in value and ":" not in value:
            found.add(value)
        found |= {v for v in _PARENTHESISED.findall(value) if "." not in v or _figure(v)}
        found |= set(_COMPARED.findall(value))
        found |= {name.removeprefix("new_") for name in _FLAG.findall(value)}
    return frozenset(_plain(c) for c in found if c.strip())


def _figure(text: str) -> bool:
    return re.fullmatch(r"\d+(?:\.\d+)?", text.strip()) is not None


def conveys(messages: Iterable[Message], settled: Settled) -> Message | None:
    """The first message naming the request's order that holds a cue of the kernel's reason."""
    wanted = frozenset().union(*(cues(r) for r in settled.reasons))
    if not wanted:
        return None
    order_id = settled.request.order_id
    for message in messages:
        if names(message, order_id):
            text = _plain(message.text)
            if any(re.search(rf"(?<!\w){re.escape(c)}(?!\w)", text) for c in wanted):
                return message
    return None


def amounts(text: str) -> list[float]:
    """The amounts of money ``text`` states ($12.50, 12.50, twelve dollars)."""
    return [t.value for t in tokenize(normalise(text)) if t.kind == "money" and t.value is not None]


def _figures(settled: Settled, world: World) -> Iterator[float]:
    """The amounts the kernel computes for one request: its amount, the prices it adds up
    (each item's, the variant's asked for, their difference), the figures its reasons give."""
    if settled.amount is not None:
        yield settled.amount
    request = settled.request
    order = world.owner_of(request.order_id).order(request.order_id)
    targets = dict(request.targets)
    for item in order.items:
        if item.item_id in request.item_ids:
            yield item.price
            if item.item_id in targets:
                new = world.variant(targets[item.item_id]).price
                yield from (new, new - item.price)
    for reason in settled.reasons:
        yield from amounts(reason)


def verifiable(plans: Iterable[Plan], world: World, customer_id: str, *ends: World) -> frozenset:
    """Every amount (in cents, unsigned) a message may state: what the kernel computes for
    the requests of ``plans`` on ``world``, and the customer's balances at the start and at
    each of ``ends``."""
    found = {0.0}
    for p in plans:
        for settled in p.settled:
            found |= {abs(cents(a)) for a in _figures(settled, world)}
    for state in (world, *ends):
        found |= {cents(p.balance) for p in state.customer(customer_id).payments}
    return frozenset(found)


def unverifiable(messages: Iterable[Message], allowed: frozenset) -> list[tuple[Message, float]]:
    """Each amount a message states that is not one of ``allowed``."""
    return [(m, a) for m in messages for a in amounts(m.text) if abs(cents(a)) not in allowed]
