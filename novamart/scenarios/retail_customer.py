"""The deterministic retail customer (issue 20 item 5): pure functions, text in, text out.

It knows what it wants (a task's requests, described by product and variant, never by id in
the opening) and what it has (its email, name and zip, its order numbers, its payment
methods). It answers identity questions when asked, names its orders when asked, says an
explicit yes (the rulebook's own words for ``event.confirmed``) only once the agent's message
lists every detail of the write it wants (``details_missing``: the order, each item, the new
variant, the amount, the payment route), may change its mind once (seeded: it drops an item),
may ask the agent to act on someone else's order (seeded), and never ends the conversation
while a request is neither settled nor refused. How often it does each, how it verifies
itself, whether it knows its order numbers and the voice its turns are worded in are its
task's character (rules/retail/world/characters.yaml, novamart.scenarios.retail_character).
"""

from __future__ import annotations

import functools
import random
import re
from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import Literal, Protocol, runtime_checkable

from novamart.kernel.declared import Call
from novamart.scenarios.personas import GREETINGS, Tone
from novamart.scenarios.retail_character import (
    IdentifyBy,
    OrderNumbers,
    RetailCharacter,
    drawn,
    retail_character,
)
from novamart.scenarios.retail_requests import (
    Request,
    RetailTask,
    Settled,
    build_task,
    has_amount,
    instead_of,
    settle,
    settle_all,
)
from novamart.scenarios.retail_voice import VOICES, Voice
from novamart.scenarios.retail_world import (
    AS_WRITTEN,
    Customer,
    RetailRules,
    World,
    retail_kernel,
)

Outcome = Literal["open", "settled", "refused"]
METHOD_WORDS = {"gift_card": "gift card", "credit_card": "credit card", "paypal": "paypal"}
ACTIONS = {
    "return_items": "return",
    "exchange_items": "exchange",
    "modify_items": "change",
    "cancel_order": "cancel",
    "modify_address": "change the delivery address of",
    "modify_payment": "change how I pay for",
}
_ASK_EMAIL = re.compile(r"\be-?mail\b", re.I)
_ASK_NAME_ZIP = re.compile(r"\b(?:zip|postal code|post code)\b", re.I)
_ASK_IDENTITY = re.compile(r"\b(?:verify|authenticate|confirm your identity|who you are)\b", re.I)
_ASK_ORDER = re.compile(r"\b(?:order (?:number|id)|which order)\b", re.I)
_ASK_REASON = re.compile(r"\b(?:reason|why)\b", re.I)
REASONS = {
    "no longer needed": "I no longer need it.",
    "ordered by mistake": "I ordered it by mistake.",
}
"""What the customer says when asked why; any other reason is no particular one."""
_ASKS_YES = re.compile(
    r"\b(?:confirm|shall i|should i|go ahead|proceed|do you want me to|would you like me to)\b",
    re.I,
)
DONE_WORDS = re.compile(
    r"\b(?:done|has been|have been|is now|are now|processed|completed|submitted|cancelled)\b",
    re.I,
)
"""The words of a report the customer hears as done (the grader hears it the same way)."""
REFUSAL_WORDS = re.compile(
    r"\b(?:cannot|can't|can not|unable|not able|not eligible|not possible|won't be able|"
    r"isn't possible|is not allowed|not allowed)\b",
    re.I,
)
"""The words of a refusal, for the customer and the grader alike."""
_MONEY = re.compile(r"\d+(?:,\d{3})*(?:\.\d{1,2})?")


@dataclass(frozen=True)
class Wish:
    """One thing the customer wants, and what it may change it to once."""

    request: Request
    amount: float | None
    """The write's amount as the kernel computes it (None when it has none)."""
    changed_to: Request | None = None
    changed_amount: float | None = None
    instead: str | None = None
    """The write the kernel grants in place of the request when it refuses it (store credit
    for a late return): the customer takes that offer, listed in full, instead."""
    changed_instead: str | None = None

    def offer(self, changed: bool) -> tuple[Request, float | None, str | None]:
        """The request as the customer wants it now, its amount, and the write instead."""
        if changed and self.changed_to is not None:
            return self.changed_to, self.changed_amount, self.changed_instead
        return self.request, self.amount, self.instead


@dataclass(frozen=True)
class Other:
    """Someone else's order the customer tries to act on."""

    name: str
    order_id: str


@dataclass(frozen=True)
class Profile:
    """What the customer knows and wants, and its habits: drawn once per task and seed as the
    task's character says (``profile``)."""

    world: World
    customer_id: str
    wishes: tuple[Wish, ...]
    identify_by: IdentifyBy
    other: Other | None
    yes: str
    tone: Tone
    """Its voice's tone, drawn by the character's ``voices`` weights."""
    greeting: str
    """The opening's first words: one of personas.GREETINGS of its tone."""
    order_numbers: OrderNumbers
    """Whether it gives its order numbers unasked, when asked, or does not know them."""

    @property
    def customer(self) -> Customer:
        return self.world.customer(self.customer_id)

    @property
    def voice(self) -> Voice:
        """The words of its tone (novamart.scenarios.retail_voice)."""
        return VOICES[self.tone]


@dataclass(frozen=True)
class Talk:
    """Where the conversation stands for the customer (immutable; each reply gives the next).

    ``current`` holds the requests as the customer wants them now (after a change of mind):
    grading settles these (``settle_all``) for the world the episode should end in."""

    outcomes: tuple[Outcome, ...]
    current: tuple[Request, ...]
    turn: int = 0
    identified: bool = False
    changed: bool = False
    asked_other: bool = False
    closed: bool = False
    said: tuple[tuple[str, str], ...] = ()
    """The conversation after the opening, as (agent's message, customer's reply) pairs: what
    a customer that reads the whole conversation (the LLM one) remembers; ``reply`` keeps none."""

    def open(self) -> list[int]:
        return [i for i, o in enumerate(self.outcomes) if o == "open"]


CASES_KEPT = 256
"""How many (task, profile) pairs ``case`` keeps (each is immutable): the seeds a trainer's
groups or an evaluation's agents replay soon after. A case holds its worlds and what was
kept about them, ~0.23 MB (``bench/bench_collector.py 1500``: after 1,500 new compound
cases a process held 501 MB keeping 1,024 of them, 328 MB keeping 256)."""


def case(task: str, seed: int, rules: RetailRules = AS_WRITTEN) -> tuple[RetailTask, Profile]:
    """What a reset needs: case ``seed`` of retail task ``task`` (its character's request
    family) and its customer. Both are pure functions of (task, seed, rules, rulebook version), so
    they are drawn once per such key and then kept (bounded): a reset of a case seen before is
    a lookup, a new one a draw."""
    return _case(task, seed, rules, retail_kernel(rules).version)


@functools.lru_cache(maxsize=CASES_KEPT)
def _case(task: str, seed: int, rules: RetailRules, version: str) -> tuple[RetailTask, Profile]:
    character = retail_character(task)
    drawn_task = build_task(character.requests, seed, rules)
    return drawn_task, profile(drawn_task, seed, character)


def profile(task: RetailTask, seed: int, character: RetailCharacter) -> Profile:
    """The customer of ``task`` as ``character`` plays it, its habits drawn from ``seed``."""
    rng = random.Random(f"retail-customer:{character.name}:{task.seed}:{seed}")
    changes = rng.random() < character.change_of_mind
    droppable = [i for i, s in enumerate(task.settled) if len(s.request.item_ids) >= 2]
    changer = rng.choice(droppable) if changes and droppable else None
    wishes = []
    for i, settled in enumerate(task.settled):
        changed = _dropping_one(settled.request, rng) if i == changer else None
        after = None if changed is None else _changed(task, i, changed)
        amount, instead = _wanted(settled, task.rules)
        changed_amount, changed_instead = _wanted(after, task.rules) if after else (None, None)
        wishes.append(
            Wish(settled.request, amount, changed, changed_amount, instead, changed_instead)
        )
    others = [c for c in task.world.customers if c.customer_id != task.customer_id]
    other = None
    if others and rng.random() < character.acts_for_other:
        person = rng.choice(others)
        other = Other(name=person.name, order_id=rng.choice(person.orders).order_id)
    words = retail_kernel(task.rules).rulebook.facts.kinds["event"].fields["confirmed"].says_true
    tone = drawn(character.voices, rng)
    return Profile(
        world=task.world,
        customer_id=task.customer_id,
        wishes=tuple(wishes),
        identify_by=drawn(character.identify_by, rng),
        other=other,
        yes=words[0].capitalize() + ".",
        tone=tone,
        greeting=rng.choice(GREETINGS[tone]),
        order_numbers=drawn(character.order_numbers, rng),
    )


def _changed(task: RetailTask, number: int, changed: Request) -> Settled:
    """Request ``number`` as changed, settled on the world the requests before it left (only
    those are settled again: a profile costs a decision only when the mind changes)."""
    state = settle_all(task.world, task.requests[:number], task.rules)[1]
    return settle(state, changed, task.rules)[0]


def _wanted(settled: Settled, rules: RetailRules) -> tuple[float | None, str | None]:
    """The amount of the write the customer will say yes to, when the resolution has one,
    and the write the kernel grants instead of a refused request (else None): a refused
    write, a decline, a review or an address change has no amount to list."""
    rulebook = retail_kernel(rules).rulebook
    instead = instead_of(rulebook, settled.request, settled.optimum)
    if settled.status == "carried out" and has_amount(rulebook, settled.request.call.resolution):
        return settled.amount, None
    if settled.status != "carried out" and instead is not None:
        return settled.amount if has_amount(
            rulebook, instead.resolution
        ) else None, instead.resolution
    return None, None


def _dropping_one(request: Request, rng: random.Random) -> Request:
    """The request (naming two items or more) without one of its items."""
    items = list(request.item_ids)
    dropped = rng.choice(items)
    kept = [i for i in items if i != dropped]
    arguments = {**request.call.arguments, "item_ids": kept}
    targets = tuple(t for t in request.targets if t[0] in kept)
    call = Call(resolution=request.call.resolution, arguments=arguments)
    return replace(request, call=call, targets=targets)


def start(p: Profile) -> Talk:
    return Talk(outcomes=("open",) * len(p.wishes), current=tuple(w.request for w in p.wishes))


def opening(p: Profile) -> str:
    """The first message, in its voice: what it wants, by product and variant, with no id."""
    wants = "; and ".join(describe(p.world, w.request) for w in p.wishes)
    return p.voice.opening.format(greeting=p.greeting, wants=wants).strip()


def describe(world: World, request: Request) -> str:
    """How the customer puts one request, without ids (nor its reason: it says that when
    asked, so the opening cannot give away a reason the rules refuse)."""
    customer = world.customer(request.customer_id)
    order = customer.order(request.order_id)
    action = ACTIONS.get(request.call.resolution, request.call.resolution.replace("_", " "))
    targets = dict(request.targets)
    named = []
    for item in order.items:
        if item.item_id in request.item_ids:
            variant = world.variant(item.variant_id).label()
            what = f"the {world.product(item.product_id).name} ({variant})"
            if item.item_id in targets:
                what += f" for the {world.variant(targets[item.item_id]).label()} one"
            named.append(what)
    first = world.product(order.items[0].product_id).name
    subject = " and ".join(named) if named else f"my order with the {first}"
    address = request.call.arguments.get("address")
    tail = f" to {address}" if address else ""
    return f"I want to {action} {subject}{tail}"


def reason(world: World, request: Request) -> str | None:
    """What the customer says when asked why it wants ``request``: the reason it gives (none
    for a request without one), and that a named item stopped working when it has a fault the
    defect check would find (the customer notices a fault; it cannot know what the check says)."""
    said = []
    given = request.call.arguments.get("reason")
    if given:
        said.append(REASONS.get(str(given), "No particular reason."))
    order = world.customer(request.customer_id).order(request.order_id)
    for item in order.items:
        if item.item_id in request.item_ids and item.defect_found:
            said.append(f"The {world.product(item.product_id).name} stopped working properly.")
    return " ".join(said) or None


def reply(p: Profile, talk: Talk, agent: str) -> tuple[Talk, str]:
    """The customer's answer to the agent's message, and where the talk stands after it."""
    if talk.closed:
        return talk, ""
    said: list[str] = []
    talk = replace(talk, turn=talk.turn + 1)
    asked_order = bool(_ASK_ORDER.search(agent)) and bool(talk.open())
    if _ASK_EMAIL.search(agent) or _ASK_NAME_ZIP.search(agent) or _ASK_IDENTITY.search(agent):
        said.append(_identity(p, agent))
        volunteers = p.order_numbers == "volunteers" and not talk.identified
        asked_order |= volunteers and bool(talk.open())
        talk = replace(talk, identified=True)
    if asked_order:
        said.append(_order_numbers(p, talk))
    if _ASK_REASON.search(agent):
        reasons = [why for r in talk.current if (why := reason(p.world, r))]
        if reasons:
            said.append(" ".join(reasons))
    talk, heard = _outcomes(p, talk, agent)
    said += heard
    if not talk.open():
        return replace(talk, closed=True), " ".join([*said, p.voice.closing])
    if _ASKS_YES.search(agent):
        talk, answer = _on_proposal(p, talk, agent)
        said += answer
    agreed = said[-1:] == [p.yes]  # a yes stands alone: what else it says would hedge it
    if (
        p.other is not None
        and talk.identified
        and not talk.asked_other
        and talk.turn >= 2
        and not agreed
    ):
        said.append(p.voice.other.format(order=p.other.order_id, name=p.other.name))
        talk = replace(talk, asked_other=True)
    if not said:
        said.append(p.voice.restate.format(request=describe(p.world, talk.current[talk.open()[0]])))
    return talk, " ".join(said)


class RetailCustomer(Protocol):
    """What a retail session talks to: the deterministic customer or the LLM one, alike."""

    def reply(self, p: Profile, talk: Talk, agent: str) -> tuple[Talk, str]: ...


@runtime_checkable
class PlaysRetail(Protocol):
    """An order case's customer that also plays retail customers (the LLM customer: the same
    model, under the retail contract), so one ``--customer llm`` serves every task."""

    def retail_customer(self) -> RetailCustomer: ...


class ScriptedCustomer:
    """The deterministic customer (``reply``) behind the session's customer interface."""

    def reply(self, p: Profile, talk: Talk, agent: str) -> tuple[Talk, str]:
        return reply(p, talk, agent)


def _identity(p: Profile, agent: str) -> str:
    c = p.customer
    if _ASK_EMAIL.search(agent) and not _ASK_NAME_ZIP.search(agent):
        return f"My email is {c.email}."
    if _ASK_NAME_ZIP.search(agent) and not _ASK_EMAIL.search(agent):
        return f"I'm {c.name}, zip code {c.zip}."
    if p.identify_by == "email":
        return f"My email is {c.email}."
    return f"I'm {c.name}, zip code {c.zip}."


def _order_numbers(p: Profile, talk: Talk) -> str:
    """The order numbers of the open requests, or, when it does not know them, that it
    does not (the agent must find the orders on the account)."""
    if p.order_numbers == "unknown":
        return p.voice.no_order_numbers
    ids = ", ".join(dict.fromkeys(talk.current[i].order_id for i in talk.open()))
    return f"The order number is {ids}."


def _outcomes(p: Profile, talk: Talk, agent: str) -> tuple[Talk, list[str]]:
    """Requests the agent's message reports done or refused (its order named with the words):
    one per order named, the one it speaks of most (``_spoken_of``: its resolution's words, then
    its details), so a report on one request of an order does not settle another on the same
    order."""
    outcomes = list(talk.outcomes)
    heard: list[str] = []
    if _ASKS_YES.search(agent):
        return talk, heard
    on_order: dict[str, list[int]] = {}
    for i in talk.open():
        if talk.current[i].order_id in agent:
            on_order.setdefault(talk.current[i].order_id, []).append(i)
    for order_id, named in on_order.items():
        i = named[_spoken_of([talk.current[j] for j in named], agent)]
        if REFUSAL_WORDS.search(agent):
            outcomes[i] = "refused"
            heard.append(p.voice.refused.format(order=order_id))
        elif DONE_WORDS.search(agent):
            outcomes[i] = "settled"
            heard.append(p.voice.done)
    return replace(talk, outcomes=tuple(outcomes)), heard


def _words(resolution: str) -> set[str]:
    """The words a message speaks of ``resolution`` with (``store_credit``: store, credit)."""
    return set(resolution.split("_")) - {"items", "order"}


_WORD = re.compile(r"[a-z]+")


def _spoken_of(requests: Sequence[Request], agent: str) -> int:
    """Which of ``requests`` (open, on one order) ``agent`` speaks of, as an index: one whose
    resolution it names in full (every word: "modify items" is not "modify address"), then
    the most of those words, then the most of its own details named (its items, new variants,
    argument values such as a new payment method). Whole words, and details only after them:
    every write lists its "payment method", which must not make a message about changed items
    one about a changed payment, and a refusal's reason may name another request's items."""
    lowered = agent.lower()
    said = set(_WORD.findall(lowered))

    def spoken(i: int) -> tuple[bool, int, int]:
        request = requests[i]
        words = set(request.call.resolution.split("_")) - {"order"}
        arguments = request.call.arguments.items()
        own = [
            *request.item_ids,
            *(variant for _, variant in request.targets),
            *(v for k, v in arguments if isinstance(v, str) and k != "order_id"),
        ]
        return words <= said, len(words & said), sum(d.lower() in lowered for d in own)

    return max(range(len(requests)), key=spoken)


def _on_proposal(p: Profile, talk: Talk, agent: str) -> tuple[Talk, list[str]]:
    """A yes only when the message lists every detail of the open request it proposes (of
    the requests on the order it names, the one it speaks of most: its resolution's words,
    then its items)."""
    proposed = [i for i in talk.open() if talk.current[i].order_id in agent]
    if not proposed:
        return talk, [p.voice.which_order]
    i = proposed[_spoken_of([talk.current[j] for j in proposed], agent)]
    wish = p.wishes[i]
    if wish.changed_to is not None and not talk.changed:
        current = tuple(wish.changed_to if j == i else r for j, r in enumerate(talk.current))
        kept = describe(p.world, wish.changed_to)
        return replace(talk, current=current, changed=True), [p.voice.change.format(request=kept)]
    _, amount, instead = wish.offer(talk.changed)
    request = talk.current[i]
    offered = instead_of(retail_kernel().rulebook, request, instead) if instead else None
    if offered is not None and _words(offered.resolution) <= set(_WORD.findall(agent.lower())):
        request = _as(request, offered)  # the write offered instead is what it checks now
    elif offered is not None:
        amount = None  # the request itself, which the rules refuse: no amount to list
    order = p.customer.order(request.order_id)
    extra = [t.item_id for t in order.items if t.item_id not in request.item_ids]
    if request.item_ids and (unwanted := [t for t in extra if t in agent]):
        wanted = describe(p.world, request)
        return talk, [p.voice.unwanted.format(items=", ".join(unwanted), request=wanted)]
    missing = details_missing(p.world, request, amount, agent)
    if missing:
        return talk, [p.voice.missing.format(missing=", ".join(missing))]
    return talk, [p.yes]


def _as(request: Request, call: Call) -> Request:
    """``request`` asking for ``call`` instead (the same customer and order, no variants)."""
    return replace(request, call=call, targets=())


def details_missing(
    world: World, request: Request, amount: float | None, text: str
) -> tuple[str, ...]:
    """What of the write ``request`` (with ``amount``) the message ``text`` does not list: the
    order number; each item (its id, or its product when no other item of the order is that
    product); each new variant (its id or every option value); each text argument (the new
    address); the amount (to the cent); the payment method (its id, or its kind when the
    customer holds one of that kind)."""
    customer = world.customer(request.customer_id)
    order = customer.order(request.order_id)
    lowered = text.lower()
    missing = []
    if request.order_id not in text:
        missing.append(f"the order number {request.order_id}")
    for item in order.items:
        if item.item_id not in request.item_ids or item.item_id in text:
            continue
        name = world.product(item.product_id).name
        same = [i for i in order.items if i.product_id == item.product_id]
        if len(same) > 1 or name.lower() not in lowered:
            missing.append(f"which item ({name}, item {item.item_id})")
    for _, variant_id in request.targets:
        variant = world.variant(variant_id)
        values = [v.lower() for _, v in variant.options]
        if variant_id not in text and not all(v in lowered for v in values):
            missing.append(f"the new variant ({variant.label()})")
    declared = retail_kernel().rulebook.declared[request.call.resolution]
    for name, argument in declared.arguments.items():
        value = request.call.arguments.get(name)
        if argument.type == "text" and value and str(value).lower() not in lowered:
            missing.append(f"the new {name.replace('_', ' ')} ({value})")
    if amount is not None and not _says_amount(text, amount):
        missing.append(f"the amount ({abs(amount):.2f})")
    named = request.call.arguments.get("payment_method_id")
    if named is not None and named not in text:
        method = customer.payment(str(named)).method
        alike = [p for p in customer.payments if p.method == method]
        if len(alike) > 1 or METHOD_WORDS[method] not in lowered:
            missing.append(f"the payment method ({named})")
    return tuple(missing)


def _says_amount(text: str, amount: float) -> bool:
    wanted = round(abs(amount) * 100)
    return any(round(float(m.replace(",", "")) * 100) == wanted for m in _MONEY.findall(text))
