"""What a retail message claims beyond its amounts, read fail-closed by the project's reader
(novamart.language, on the retail rulebook's lexicon) and checked against the episode.

The reader marks a consequential clause it cannot resolve as *unverifiable*, with what it is
about (money back, a benefit, a finding, a pickup, a status, ...). The retail world has no
benefits, findings, pickups or other routes for money, so such a claim is never true here; a
few kinds can be, and are checked against what the episode did and the world holds:

- money back, a reversed charge, an amount given, or any clause of these kinds, a "benefit"
  (naming no fee and no benefit besides the money) or an order's fate that speaks of a refund
  or money: true once a write carried out paid the
  customer (its effects add the amount granted to what the customer holds, or take a negative
  one from it: not an exchange whose difference the customer paid) on each order the clause
  names, else on as many orders as it speaks of ("both of your orders", "your other order
  too": two; "all", "the rest", a bare plural: every one of the customer's); how much is the
  amounts check's; a status quoted is not money;
- an approval or an outcome for the customer: the same, once a write that moves money (its
  resolution declares an amount) was carried out, whichever way;
- an order cancelled, a status, a benefit the reader took a status for ("the order is
  delivered"): true when the clause names a status value the rulebook declares that one of
  the customer's orders or items holds, at the start or at the end; a status that only
  restricts ("only delivered orders take returns", "the card is $1.15 short") claims nothing
  of value, nor does one repeating the kernel's reasons;
- a review or approval by someone: true once a request went to a manager;
- an amount: the amounts check (novamart.retail.messages) decides it, when the clause states
  one (else nothing can);
- money back by a route no retail tool takes (a bank transfer, cash, a waiver): never;
- a resolution said to be given ("you also get 75% back in store credit", "I've escalated
  it"), which the reader resolves rather than marks: true once a write of it was carried out
  (a decline writes nothing, and is the refusal check's), or when it repeats the kernel's
  reasons ("the order is processed", read with the return refused before it);

Any other kind, including one the reader adds later, costs (fail closed).
"""

from __future__ import annotations

import functools
import re
from collections.abc import Iterable, Mapping
from types import MappingProxyType

from novamart.language import lexicon_for, read
from novamart.language.consequence import BENEFIT, BENEFIT_NOTE, FEES, ORDER_NOTE, REVIEW_NOTE
from novamart.language.reader import (
    AMOUNT_NOTE,
    OFF_ROUTE_NOTE,
    OUTCOME_NOTE,
    STATUS_NOTE,
    Reading,
)
from novamart.language.text import lemma, normalise, tokenize
from novamart.retail.trail import Message, Trail
from novamart.scenarios.kept import Memo, kept_for
from novamart.scenarios.retail_requests import has_amount
from novamart.scenarios.retail_world import World, retail_kernel

MONEY_MOVED = ("money back", "a reversed charge", "an approval", "an amount given", OUTCOME_NOTE)
"""Kinds that hold once money moved (by the rulebook's own writes)."""
MONEY_BACK = ("money back", "a reversed charge", "an amount given")
"""Kinds that hold only once money moved to the customer (not a price difference it paid)."""
STATE_NAMED = (ORDER_NOTE, STATUS_NOTE, BENEFIT_NOTE)
"""Kinds that hold when the clause names a status the customer's records hold."""
CHECKED_ELSEWHERE = (AMOUNT_NOTE,)
MONEY = re.compile(r"\b(?:refund\w*|money|reimburs\w*)\b", re.I)
"""Money back, whatever kind the reader took the clause for ("your refund is on its way")."""
RESTRICTS = re.compile(
    r"\b(?:can ?not|can't|cannot|only|not|no longer|unable|short|lacks?)\b", re.I
)
"""A status or outcome clause that says what is not possible or what is missing (the
kernel's reasons are such: "only delivered orders take returns", "the card is $1.15 short")."""


ORDER_NAMED = re.compile(r"\bw\s?(\d{4,})\b", re.I)
"""An order's number in a clause as the reader gives it ("order w 1234567")."""
FURTHER = r"\b(other|another|second|third|both|all|each|every|rest|remaining|two|three|several)\b"
"""The words a clause about more than the thing in question opens with."""
FURTHER_ORDERS = re.compile(rf"{FURTHER}(?:\s+\w+){{0,3}}?\s+orders?\b|\borders\b", re.I)
"""A clause about an order besides the one in question ("your other order", "both orders",
"the rest of your orders", any "orders" in the plural)."""
FURTHER_ITEMS = re.compile(rf"{FURTHER}(?:\s+\w+){{0,3}}?\s+items?\b", re.I)
"""A clause about items besides one ("the other item", "all items")."""
AT_LEAST = {"other": 2, "another": 2, "second": 2, "both": 2, "two": 2, "several": 2, "third": 3}
AT_LEAST |= {"three": 3}
"""How many orders or items such a clause speaks of, at least, by its word; any other ("all",
"every", "the rest", "remaining", a bare plural) means every one."""
WRITE_CLAIMED = "a write no tool made"
"""The kind of a clause asserting a resolution (not a decline) that no write carried out."""


@functools.lru_cache(maxsize=4096)
def _read(text: str) -> Reading:
    """One reading per message text, shared by the two checks below."""
    return read(text, lexicon_for(retail_kernel().rulebook))


@functools.lru_cache(maxsize=4096)
def unverified_kinds(text: str) -> tuple[tuple[str, str], ...]:
    """(kind, clause) of each claim of ``text`` the reader cannot resolve."""
    return tuple((u.what, u.clause) for u in _read(text).unverifiable)


@functools.lru_cache(maxsize=4096)
def asserted_writes(text: str) -> tuple[tuple[str, str], ...]:
    """(resolution, clause) of each resolution ``text`` says was given or is given ("you get
    75% back in store credit"), hedged or not; an offer, a denial or a condition is none."""
    claims = _read(text).asserted(every_clause=True)
    return tuple(dict.fromkeys((c.resolution, c.clause) for c in claims))


_held = Memo()


def _statuses(customer_id: str, worlds: tuple[World, ...]) -> Mapping[str, frozenset[str]]:
    """The statuses each of the customer's orders (by its number) and their items hold in
    any of ``worlds`` (the episode's first and last, its latest first: it holds them); kept
    while they are the same objects (read only: an episode's messages are checked again after
    every step)."""
    return kept_for(_held, worlds, customer_id, lambda: _held_statuses(customer_id, worlds))


def _held_statuses(customer_id: str, worlds: tuple[World, ...]) -> Mapping[str, frozenset[str]]:
    held: dict[str, set[str]] = {}
    for world in worlds:
        for order in world.customer(customer_id).orders:
            statuses = held.setdefault(_number(order.order_id), set())
            statuses.add(order.status)
            statuses.update(item.status for item in order.items)
    return MappingProxyType({number: frozenset(s) for number, s in held.items()})  # shared


def _sizes(customer_id: str, worlds: Iterable[World]) -> dict[str, int]:
    """How many items each of the customer's orders (by its number) holds."""
    return {
        _number(order.order_id): len(order.items)
        for world in worlds
        for order in world.customer(customer_id).orders
    }


def _number(order_id: str | None) -> str:
    """An order's number as ORDER_NAMED finds it in a clause."""
    return "".join(filter(str.isdigit, order_id or ""))


def unsupported(
    messages: Iterable[Message],
    trail: Trail,
    customer_id: str,
    reasons: Iterable[str],
    *worlds: World,
) -> list[tuple[Message, str, str]]:
    """Each (message, kind, clause) that claims what the episode did not do; ``reasons``:
    the kernel's reasons for the requests (a clause repeating one states the record)."""
    reasons = tuple(reasons)
    given = " | ".join(" ".join(r.lower().split()) for r in reasons)
    rulebook = retail_kernel().rulebook
    paid = {
        _number(s.order_id)
        for s in trail.steps
        if s.kind == "write" and s.carried_out and s.resolution in rulebook.resolutions
        and has_amount(rulebook, s.resolution)
    }  # fmt: skip
    refunded = {
        _number(s.order_id)
        for s in trail.steps
        if s.kind == "write" and s.carried_out and _pays_customer(s.resolution, s.amount)
    }
    reviewed = any(
        s.kind == "write" and s.carried_out and s.resolution in rulebook.resolutions
        and not rulebook.resolutions[s.resolution].declares_call
        and not rulebook.resolutions[s.resolution].declines
        for s in trail.steps
    )  # fmt: skip
    held = _statuses(customer_id, worlds)
    every = frozenset(held)
    made: dict[tuple[str, str], set[str]] = {}
    for s in trail.steps:
        if s.kind == "write" and s.carried_out and s.resolution is not None:
            covered = made.setdefault((s.resolution, _number(s.order_id)), set())
            covered.update(dict(s.arguments).get("item_ids", ()))
    sizes = _sizes(customer_id, worlds)
    found = []
    for message in messages:
        text = unquoted(message.text, reasons)
        found += [
            (message, WRITE_CLAIMED, clause)
            for resolution, clause in asserted_writes(text)
            if resolution in rulebook.declared
            and not rulebook.resolutions[resolution].declines
            and not _made(resolution, clause, made, every, sizes)
            and not _repeats(clause, given)
        ]
        for kind, clause in unverified_kinds(text):
            if kind.startswith(CHECKED_ELSEWHERE) and _states_money(clause):
                continue
            if kind.startswith(OFF_ROUTE_NOTE):  # no retail tool pays by another route
                found.append((message, kind, clause))
                continue
            back = kind.startswith(MONEY_BACK) or bool(MONEY.search(clause))
            spoken = MONEY.search(clause) and (
                kind.startswith(ORDER_NOTE)
                or (kind.startswith(BENEFIT_NOTE) and not _names_a_benefit(clause))
            )
            moved = kind.startswith(MONEY_MOVED) or bool(spoken)
            if moved and _on_orders(clause, refunded if back else paid, every):
                continue
            if kind.startswith(REVIEW_NOTE) and reviewed:
                continue
            if kind.startswith(STATE_NAMED) and _names_status(clause, held):
                continue
            if kind.startswith((STATUS_NOTE, OUTCOME_NOTE)) and (
                RESTRICTS.search(clause) or _repeats(clause, given)
            ):
                continue
            found.append((message, kind, clause))
    return found


@functools.lru_cache(maxsize=4096)
def unquoted(text: str, reasons: tuple[str, ...]) -> str:
    """``text`` without the kernel's reasons it quotes word for word (in any case): the
    record, which claims nothing. Read as prose, a reason's formula splits into clauses of
    their own ("sum(item.new_price - item.price) (245.75)" gives a clause "(245.75)", an
    amount the write in question is then taken to have given). A quote reworded or reflowed
    is read as the agent's own words."""
    lowered = text.lower()
    if len(lowered) != len(text):  # a letter whose lower case is longer: positions differ
        return text
    spans = []
    for reason in {" ".join(r.split()).lower() for r in reasons} - {""}:
        at = lowered.find(reason)
        while at != -1:
            spans.append((at, at + len(reason)))
            at = lowered.find(reason, at + 1)
    kept, end = [], 0
    for start, stop in sorted(spans):
        if start > end:
            kept.append(text[end:start])
        end = max(end, stop)
    return " ; ".join([*kept, text[end:]]) if spans else text


def _names_a_benefit(clause: str) -> bool:
    """Whether ``clause`` names a fee or a benefit besides money ("refunded the shipping
    fee", "a cashback"): no retail write pays either, whatever else was refunded."""
    said = {lemma(w) for w in re.findall(r"[a-z]+", clause.lower())}
    return not said.isdisjoint(FEES | BENEFIT)


@functools.lru_cache(maxsize=4096)
def _states_money(clause: str) -> bool:
    """Whether ``clause`` states an amount of money (which the amounts check then decides);
    an amount of nothing the record shows stated without one ("price-matched it to the lower
    price") is checked by nobody, so it costs."""
    return any(t.kind == "money" and t.value is not None for t in tokenize(normalise(clause)))


def _pays_customer(resolution: str | None, amount: float | None) -> bool:
    """Whether a write of ``resolution`` granted ``amount`` moved money to the customer: its
    effects add the amount to what the customer holds (a refund to the card, store credit),
    or take a negative one from it (an exchange for a cheaper variant)."""
    declared = retail_kernel().rulebook.declared.get(resolution or "")
    if declared is None or not amount:
        return False
    direction = next((e.added for e in declared.effects if e.added), 0)
    return direction * amount > 0


def _repeats(clause: str, given: str) -> bool:
    """Whether ``clause`` restates the kernel's reasons (``given``, joined as ``unsupported``
    joins them)."""
    return " ".join(clause.lower().split()) in given


def _made(
    resolution: str,
    clause: str,
    made: dict[tuple[str, str], set[str]],
    every: frozenset[str],
    sizes: dict[str, int],
) -> bool:
    """Whether ``clause``'s ``resolution`` is a write's: one carried out on its orders, and on
    as many of an order's items as it speaks of ("the other item", "all the items")."""
    orders = {number for r, number in made if r == resolution}
    if not _on_orders(clause, orders, every):
        return False
    further = FURTHER_ITEMS.search(clause)
    if further is None:
        return True
    word = further.group(1).lower()
    named = set(ORDER_NAMED.findall(clause)) or orders
    return any(
        len(made[resolution, n]) >= AT_LEAST.get(word, sizes.get(n, 0)) for n in named & orders
    )


def _on_orders(clause: str, orders: set[str], every: frozenset[str]) -> bool:
    """Whether what ``clause`` says was done was done on ``orders`` (the numbers of the orders
    a write did it on; ``every``: the customer's): on every order the clause names; for a
    clause about further orders it does not name, on as many as it says ("both of your
    orders": two; "your other order": a second; "all", "the rest", a bare plural: every one
    of the customer's); else on some order."""
    named = ORDER_NAMED.findall(clause)
    if named:
        return all(n in orders for n in named)
    further = FURTHER_ORDERS.search(clause)
    if further is None:
        return bool(orders)
    word = further.group(0).split()[0].lower()
    return len(orders) >= AT_LEAST[word] if word in AT_LEAST else orders >= every


def _names_status(clause: str, held: dict[str, frozenset[str]]) -> bool:
    """Whether a status ``clause`` names is held: by every order it names, by every order of
    the customer when it speaks of further orders, else by one of them."""
    named = ORDER_NAMED.findall(clause)
    if named:
        orders = [held.get(n, frozenset()) for n in named]
    elif FURTHER_ORDERS.search(clause):
        orders = list(held.values())
    else:
        orders = [frozenset().union(*held.values())]
    lowered = clause.lower()
    return any(
        all(status in statuses for statuses in orders)
        for status in frozenset().union(*orders)
        if re.search(rf"\b{re.escape(status)}\b", lowered)
    )
