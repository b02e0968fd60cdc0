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

The communication component (``communication``) is 0 when no message was sent, one is rude or
one states an amount that cannot be verified (each also keeps the episode below the pass mark);
else the mean over the requests of: 1 for one carried out when a message after its write (the
last of its resolution on its order) names its order (0, and below the pass mark, when that
report says it cannot be done and reports nothing done: the customer was told the opposite of
what happened); for one declined or refused, ``TOLD`` when the customer was told it cannot be
done and ``WHY`` when a message conveys the kernel's reason (told without it: below the pass
mark, as the rulebook's decline says the customer is told why).
"""

from __future__ import annotations

import functools
import itertools
import re
from collections.abc import Iterable, Iterator
from dataclasses import dataclass

from novamart.kernel.money import cents
from novamart.language import lexicon_for, read, rudeness
from novamart.language.text import normalise, tokenize
from novamart.retail.claims import unquoted, unsupported
from novamart.retail.diff import Plan
from novamart.retail.trail import Message, Trail
from novamart.scenarios.kept import Memo, kept_for
from novamart.scenarios.retail_customer import DONE_WORDS, REFUSAL_WORDS
from novamart.scenarios.retail_requests import Settled
from novamart.scenarios.retail_world import World, retail_kernel

_PLACEHOLDER = re.compile(r"\{[^{}]+\}")
_PARENTHESISED = re.compile(r"\(([^()]+)\)")
_COMPARED = re.compile(r"(?:==|!=) ([a-z_]+)\b(?!\.)")
_GUARD = re.compile(r"\(as [^()]*\)")
"""The guard a failed test names (``(as payment.method == gift_card)``): when, not why."""
_KIND = re.compile(r"_\d+$")
"""The number of an identifier (``paypal_1214643``): without it, its kind (``paypal``)."""
_FLAG = re.compile(r"\b[a-z]+\.([a-z_]+) is (?:true|false)\b")


def rude(messages: Iterable[Message], reasons: tuple[str, ...] = ()) -> list[Message]:
    """The messages the project's detector reads as rude. The claims check reads a message
    without the kernel's ``reasons`` it quotes: one quoting none is read whole, once, for
    both; one quoting some is read here for its courtesy alone (``rudeness``, the same
    verdict as a whole reading's)."""
    lexicon = lexicon_for(retail_kernel().rulebook)
    return [
        m
        for m in messages
        if (
            read(m.text, lexicon).rude
            if unquoted(m.text, reasons) == m.text
            else rudeness(m.text, lexicon)
        )
    ]


def names(message: Message, order_id: str) -> bool:
    return order_id in message.text


def refusal(messages: Iterable[Message], order_id: str) -> Message | None:
    """The first message naming ``order_id`` that says it cannot be done."""
    return next((m for m in messages if names(m, order_id) and REFUSAL_WORDS.search(m.text)), None)


def reported(messages: Iterable[Message], order_id: str, after: int) -> Message | None:
    """The first message naming ``order_id`` sent at step ``after`` or later (a message in
    the same step as the write comes from the same call, after it)."""
    return next((m for m in messages if m.step >= after and names(m, order_id)), None)


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


@functools.lru_cache(maxsize=4096)
def cues(reason: str) -> frozenset[str]:
    """What a message may say to convey ``reason`` (lower case, underscores as spaces)."""
    filled = next((m.groups() for p in _templates() if (m := p.match(reason))), (reason,))
    found: set[str] = set()
    for value in (_GUARD.sub("", v) for v in filled):
        if "." not in value and ":" not in value:
            found |= {value, _KIND.sub("", value)}
        found |= {v for v in _PARENTHESISED.findall(value) if "." not in v or _figure(v)}
        found |= set(_COMPARED.findall(value))
        found |= {name.removeprefix("new_") for name in _FLAG.findall(value)}
    return frozenset(_plain(c) for c in found if c.strip())


def _figure(text: str) -> bool:
    return re.fullmatch(r"\d+(?:\.\d+)?", text.strip()) is not None


def conveys(messages: Iterable[Message], settled: Settled) -> Message | None:
    """The first message naming the request's order that holds a cue of the kernel's reason."""
    wanted = frozenset().union(*map(cues, settled.reasons))
    if not wanted:
        return None
    order_id = settled.request.order_id
    return next((m for m in messages if names(m, order_id) and _cued(m.text, wanted)), None)


@functools.lru_cache(maxsize=4096)
def _cued(text: str, wanted: frozenset[str]) -> bool:
    """Whether ``text`` holds one of the cues ``wanted``, as words (kept per text: an
    episode's messages are checked again after every step)."""
    plain = _plain(text)
    return any(re.search(rf"(?<!\w){re.escape(c)}(?!\w)", plain) for c in wanted)


@functools.lru_cache(maxsize=4096)
def amounts(text: str) -> tuple[float, ...]:
    """The amounts of money ``text`` states ($12.50, 12.50, twelve dollars); read once per
    text (an episode's messages are checked again after every step)."""
    found = tokenize(normalise(text))
    return tuple(t.value for t in found if t.kind == "money" and t.value is not None)


def _figures(settled: Settled, world: World) -> Iterator[float]:
    """The amounts the kernel computes for one request: its amount, the prices it adds up
    (each item's named, or the whole order's when it names none; the variant's asked for, the
    difference), the figures its reasons give and the gap between a failed test's two sides
    (a gift card's shortfall)."""
    if settled.amount is not None:
        yield settled.amount
    request = settled.request
    order = world.owner_of(request.order_id).order(request.order_id)
    targets = dict(request.targets)
    for item in order.items:
        if item.item_id in request.item_ids or not request.item_ids:
            yield item.price
            if item.item_id in targets:
                new = world.variant(targets[item.item_id]).price
                yield from (new, new - item.price)
    for reason in settled.reasons:
        figures = amounts(reason)
        yield from figures
        yield from (a - b for a, b in itertools.pairwise(figures))


_verifiable = Memo()


def verifiable(plans: Iterable[Plan], world: World, customer_id: str, *ends: World) -> frozenset:
    """Every amount (in cents, unsigned) a message may state: what the kernel computes for
    the requests of ``plans`` on ``world``, and the customer's balances at the start and at
    each of ``ends``. Kept while the plans and worlds are the same objects (an episode is
    graded after every step, and only a write changes its world)."""
    plans = tuple(plans)
    owners = (*ends, *plans, world)  # the episode's world first: it holds the result
    return kept_for(
        _verifiable,
        owners,
        (len(plans), customer_id),
        lambda: _allowed(plans, world, customer_id, ends),
    )


def _allowed(
    plans: tuple[Plan, ...], world: World, customer_id: str, ends: tuple[World, ...]
) -> frozenset:
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


TOLD, WHY = 0.5, 0.5
"""A refusal's credit: told it cannot be done, and why (a cue of the kernel's reason)."""


@dataclass(frozen=True)
class Communication:
    score: float
    notes: tuple[str, ...]
    unpassable: tuple[str, ...]
    """Why the messages must keep the episode below the pass mark: none sent, one rude, an
    amount that cannot be verified, a write carried out reported as not possible, a refusal
    told without its reason."""


_told = Memo()


def communication(
    best: Plan, plans: Iterable[Plan], world: World, customer_id: str, trail: Trail,
    *ends: World,
) -> Communication:  # fmt: skip
    """The messages of ``trail`` graded for the requests of ``best``: 0 when none was sent,
    one is rude or one states an amount that none of ``plans`` (on ``world``) nor the
    customer's balances at the start or at ``ends`` give; else the mean of each request's
    credit (reported when carried out; told and why when declined or refused).

    It reads the trail's messages and writes only: kept while they, the plans and the worlds
    are the same objects (an episode is graded after every step; a look-up step adds
    neither, and a trail keeps its messages' tuple until a message is sent)."""
    plans = tuple(plans)
    writes = tuple(s for s in trail.steps if s.kind == "write")
    owners = (*ends, best, *plans, world, trail.messages, *writes)  # held by the final world
    extra = (len(plans), len(ends), customer_id)
    return kept_for(
        _told, owners, extra, lambda: _communication(best, plans, world, customer_id, trail, ends)
    )


def _communication(
    best: Plan,
    plans: tuple[Plan, ...],
    world: World,
    customer_id: str,
    trail: Trail,
    ends: tuple[World, ...],
) -> Communication:
    sent = trail.messages
    if not sent:
        return Communication(0.0, (), ("no message to the customer",))
    allowed = verifiable(plans, world, customer_id, *ends)
    reasons = [reason for p in plans for s in p.settled for reason in s.reasons]
    failed = [f"a rude message (step {m.step})" for m in rude(sent, tuple(reasons))[:1]] + [
        f"an amount no kernel computation gives: {amount:.2f} (step {m.step})"
        for m, amount in unverifiable(sent, allowed)[:1]
    ]
    failed += [
        f"a claim the episode does not bear out, {kind} (step {m.step}): {clause!r}"
        for m, kind, clause in unsupported(sent, trail, customer_id, reasons, *ends, world)[:1]
    ]
    if failed:  # fail closed: nothing the messages say earns anything
        return Communication(0.0, (), tuple(failed))
    credits, notes, unpassable = [], [], []
    for number, settled in enumerate(best.settled, 1):
        credit, lacks, blocking = _credit(settled, trail)
        credits.append(credit)
        (unpassable if blocking else notes).extend([f"request {number}: {lacks}"] if lacks else [])
    score = sum(credits) / len(credits) if credits else 1.0
    return Communication(score, tuple(notes), tuple(unpassable))


def _credit(settled: Settled, trail: Trail) -> tuple[float, str, bool]:
    """One request's communication credit, what it lacks, and whether that must keep the
    episode below the pass mark: a write carried out reported as not possible, or a refusal
    told without the kernel's reason (a refusal is explained, or it is a guess that happened
    to be right). A refusal not told at all is the outcome's (the request is not right)."""
    order_id = settled.request.order_id
    if settled.status == "carried out":
        resolution = settled.request.call.resolution
        writes = [s.step for s in trail.steps if s.kind == "write" and s.carried_out
                  and s.order_id == order_id and s.resolution == resolution]  # fmt: skip
        report = reported(trail.messages, order_id, max(writes)) if writes else None
        if report is None:
            return 0.0, f"no message after its write names {order_id}", False
        if REFUSAL_WORDS.search(report.text) and not DONE_WORDS.search(report.text):
            return 0.0, f"its report (step {report.step}) says it cannot be done", True
        return 1.0, "", False
    told = refusal(trail.messages, order_id) is not None
    why = not settled.reasons or conveys(trail.messages, settled) is not None
    lacks = [] if told else [f"no message says {order_id} cannot be done"]
    lacks += [] if why else ["no message conveys the kernel's reason"]
    return TOLD * told + WHY * why, "; ".join(lacks), told and not why
