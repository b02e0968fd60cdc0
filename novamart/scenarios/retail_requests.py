"""A retail task's requests over the world, and the kernel's optimum for each (issue 20 item 2).

A customer of the world asks for 1-4 things (world.yaml ``requests.families``: which declared
resolutions a family draws, how many, how often the answer is a refusal). Each request is a
declared resolution's call with arguments drawn over the customer's orders. Its optimum is the
kernel's decision (novamart.kernel.requests.settle_call on the retail rulebook) on the world
as the requests before it left it, with the conversation's events in place (identity verified,
the customer's yes given): carried out, declined with the declining resolution, or refused
(with the kernel's best answer instead, e.g. ``escalate``). Whether a request is granted is
never chosen by hand: a family's refusals are drawn among the calls the kernel does not grant.
"""

from __future__ import annotations

import bisect
import functools
import itertools
import math
import random
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass, field, replace
from typing import Any, get_args

from novamart.kernel import Rulebook
from novamart.kernel.declared import Call
from novamart.kernel.facts import Facts, FieldSpec
from novamart.kernel.requests import (
    TOLD_BY_GRANTS,
    CallProof,
    Status,
    best_answer,
    granted_status,
    request_facts,
    rule_amount,
    settle_call,
)
from novamart.scenarios.kept import Memo, kept
from novamart.scenarios.plan import ScenarioError
from novamart.scenarios.retail_world import (
    AS_WRITTEN,
    Customer,
    Item,
    Order,
    RetailRules,
    World,
    build_world,
    retail_kernel,
    world_spec,
)

CONFIRMED = {"event_id": "conversation", "identity_verified": True, "confirmed": True}
"""The events of a well-run conversation: the optimum assumes the agent asked for them."""


@dataclass(frozen=True)
class Request:
    """What the customer wants: a call, and for an exchange or modification, the variant
    each named item should become (item id -> variant id)."""

    customer_id: str
    call: Call
    targets: tuple[tuple[str, str], ...] = ()

    @property
    def order_id(self) -> str:
        return str(self.call.arguments["order_id"])

    @property
    def item_ids(self) -> tuple[str, ...]:
        return tuple(self.call.arguments.get("item_ids", ()))

    def key(self) -> tuple[object, ...]:
        """The request as a hashable value (two equal requests have one key); made once
        (a request is frozen, and memos of the draw, the plan and the grade key on it)."""
        found = self.__dict__.get("_key")
        if found is None:
            arguments = self.call.arguments
            named = sorted(
                (k, tuple(v) if isinstance(v, list) else v) for k, v in arguments.items()
            )
            found = (self.customer_id, self.call.resolution, tuple(named), self.targets)
            object.__setattr__(self, "_key", found)
        return found


@dataclass(frozen=True)
class Settled:
    """The kernel's optimum for one request, on the state before it."""

    request: Request
    status: Status
    optimum: str
    """The resolution carried out or declined with; refused: the kernel's best answer
    instead (``escalate``), or ``refused`` when it grants nothing."""
    amount: float | None
    reasons: tuple[str, ...]
    route: str
    """Where the money goes or comes from: ``original`` (the method that paid), ``gift card``
    (another of the customer's gift cards), ``other`` or ``-`` (no payment named)."""

    def detail(self) -> tuple[str, int, str]:
        """The optimum with its arguments' shape: resolution, items named, payment route."""
        return (self.optimum, len(self.request.item_ids), self.route)


@dataclass(frozen=True)
class RetailTask:
    """A family's case: the world, the customer, the requests and their optimal plan."""

    family: str
    seed: int
    world: World
    customer_id: str
    settled: tuple[Settled, ...]
    final: World
    """The world after the optimal plan: what grading compares the episode's end state with."""
    rules: RetailRules
    """The rules it was drawn and is settled under (its gates, handbook and grade read them)."""

    @property
    def requests(self) -> tuple[Request, ...]:
        return tuple(s.request for s in self.settled)

    def signature(self) -> tuple[str, ...]:
        """The optimum's resolutions, per request in order."""
        return tuple(s.optimum for s in self.settled)

    def detailed(self) -> tuple[tuple[str, int, str], ...]:
        """The optimum with each request's items and payment route."""
        return tuple(s.detail() for s in self.settled)


def case_facts(
    world: World, request: Request, events: dict[str, Any] | None = None, items: bool = True
) -> dict[str, Any]:
    """The kernel's case for ``request``: its order and items (each with the price and variant
    asked for; none without ``items``), the payment method it names (else the one that paid),
    the events."""
    customer = world.customer(request.customer_id)
    order = customer.order(request.order_id)
    targets = dict(request.targets)
    payment = customer.payment(
        str(request.call.arguments.get("payment_method_id", order.paid_with))
    )
    members = []
    for item in order.items if items else ():
        target = targets.get(item.item_id)
        members.append(
            {
                "item_id": item.item_id,
                "order_id": order.order_id,
                "product": world.product(item.product_id).name,
                "variant": item.variant_id,
                "new_variant": target or "",
                "price": item.price,
                "new_price": world.variant(target).price if target else item.price,
                "new_available": world.variant(target).available if target else True,
                "status": item.status,
                "final_sale": item.final_sale,
                "days_since_delivery": item.days_since_delivery,
                "defect_found": item.defect_found,
            }
        )
    return {
        "customer": {
            "customer_id": customer.customer_id,
            "tier": customer.tier,
            "store_credit": customer.store_credit,
        },
        "order": {
            "order_id": order.order_id,
            "status": order.status,
            "address": order.address,
            "paid_with": order.paid_with,
        },
        **({"item": members} if items else {}),
        "payment": {
            "payment_id": payment.payment_id,
            "method": payment.method,
            "balance": payment.balance,
        },
        "event": dict(CONFIRMED if events is None else events),
    }


def write_amount(world: World, request: Request, rules: RetailRules = AS_WRITTEN) -> float | None:
    """The amount a grant of ``request`` carries on ``world`` (the rulebook's amount of the
    resolution, as the kernel computes a grant's), whether or not the kernel would grant it;
    None when no policy grants the resolution or the amount cannot be computed."""
    rulebook = retail_kernel(rules).rulebook
    facts = rulebook.facts.built(case_facts(world, request))
    return rule_amount(rulebook, request_facts(rulebook, facts, request.call), request.call)


def has_amount(rulebook: Rulebook, resolution: str) -> bool:
    """Whether a write of ``resolution`` is worth an amount to list and report: it declares
    one, or a policy grants it one (store credit's share of the price)."""
    if rulebook.resolutions[resolution].amount is not None:
        return True
    return any(
        g.resolution == resolution and (g.amount.field or g.amount.expression is not None)
        for p in rulebook.policies.values()
        for g in p.grants
    )


def absorb(world: World, customer_id: str, after: Facts) -> World:
    """``world`` with the kernel's state after a call written back: the order, its items and
    the payment method the case held."""
    order, pay, account = after.record("order"), after.record("payment"), after.record("customer")
    if order is None or pay is None or account is None:
        raise ScenarioError("a retail case holds a customer, an order and a payment")
    members = {str(m["item_id"]): m for m in after.collection("item") or ()}
    customer = world.customer(customer_id)

    def moved(old: Order) -> Order:
        if old.order_id != order["order_id"]:
            return old
        items = tuple(
            replace(
                i,
                status=members[i.item_id]["status"],
                price=members[i.item_id]["price"],
                variant_id=members[i.item_id]["variant"],
            )
            for i in old.items
        )
        return replace(
            old,
            status=order["status"],
            address=order["address"],
            paid_with=order["paid_with"],
            items=items,
        )

    orders = tuple(map(moved, customer.orders))
    credit = account["store_credit"]
    world = _with_customer(world, replace(customer, orders=orders, store_credit=credit))
    return _with_balance(world, customer_id, str(pay["payment_id"]), pay["balance"])


_settled = Memo()


def settle(
    world: World, request: Request, rules: RetailRules = AS_WRITTEN, facts: Facts | None = None
) -> tuple[Settled, World]:
    """The kernel's optimum for ``request`` on ``world``, and the world after it (``facts``:
    the request's case on ``world``, validated, when the caller holds it already). Kept per
    world (by identity) and request: the plan a task's draw settled is settled again by the
    grader, the oracle and the customer on the very worlds the draw left."""
    version = retail_kernel(rules).version
    key = (rules, version, request.key())
    settled, after = kept(_settled, key, world, lambda: _moved(world, request, rules, facts))
    return settled, world if after is None else after


def _moved(
    world: World, request: Request, rules: RetailRules, facts: Facts | None
) -> tuple[Settled, World | None]:
    """``_settle``, with None for a world the request leaves as it was: kept on that world,
    the world itself would make a cycle the collector's full passes alone free."""
    settled, after = _settle(world, request, rules, facts)
    return settled, None if after is world else after


def _settle(
    world: World, request: Request, rules: RetailRules, facts: Facts | None
) -> tuple[Settled, World]:
    kernel = retail_kernel(rules)
    if facts is None:
        facts = kernel.rulebook.facts.built(case_facts(world, request))
    outcome, after = settle_call(kernel, facts, request.call)
    best = outcome.grant or outcome.decision.optimal
    settled = Settled(
        request=request,
        status=outcome.status,
        optimum=best.resolution if best else outcome.status,
        amount=best.amount if best else None,
        reasons=tuple(outcome.reasons),
        route=_route(world, request),
    )
    instead = instead_of(kernel.rulebook, request, best.resolution if best else None)
    if outcome.status != "carried out" and instead is not None:
        _, after = settle_call(kernel, facts, instead)  # the kernel's best answer, carried out
    elif outcome.status != "carried out":
        return settled, world
    return settled, absorb(world, request.customer_id, after)


def instead_of(rulebook: Rulebook, request: Request, best: str | None) -> Call | None:
    """The write the kernel grants in place of a refused ``request`` (goodwill store credit
    for a late return): its best answer ``best`` when that is a call with effects, on the
    same order and items; None for a decline, a manager's review, or nothing."""
    if best is None or best == request.call.resolution or best not in rulebook.declared:
        return None
    declared = rulebook.declared[best]
    if not declared.effects or not declared.arguments:
        return None
    arguments = {k: v for k, v in request.call.arguments.items() if k in declared.arguments}
    return Call(resolution=best, arguments=arguments)


def writes_in_place_problems(rules: RetailRules = AS_WRITTEN) -> tuple[str, ...]:
    """Why the world cannot make a write the kernel may grant in place of a request its
    families ask for (``instead_of`` gives it the request's arguments): one line per such
    pair whose write needs an argument the request does not carry and that has no default.
    A write is in place of the request when a policy granting it, and not the request's own
    resolution (one granting both carries the request out), may grant on a case of which
    only the request's resolution is known (the kernel's proof, ``CallProof.of_resolution``):
    a policy that cannot grant on any such case raises none."""
    return _writes_in_place_problems(rules, retail_kernel(rules).version)


@functools.lru_cache(maxsize=256)
def _writes_in_place_problems(rules: RetailRules, version: str) -> tuple[str, ...]:
    kernel = retail_kernel(rules)
    declared = kernel.rulebook.declared
    families = world_spec(rules)["requests"]["families"]
    asked = dict.fromkeys(r for family in families.values() for r in family["resolutions"])
    problems = []
    for resolution in asked:
        proof = CallProof.of_resolution(kernel, resolution)
        carried = declared[resolution].arguments if resolution in declared else {}
        for best, write in declared.items():
            if best == resolution or not write.effects or not write.arguments:
                continue
            missing = [
                name
                for name, argument in write.arguments.items()
                if name not in carried and argument.default is None
            ]
            if not missing:
                continue
            granters = ", ".join(
                p.name
                for p in kernel.granters(best)
                if all(g.resolution != resolution for g in p.grants)  # else it is carried out
                and proof.grants(p) is not False
            )
            if granters:
                them = "them" if len(missing) > 1 else "it"
                problems.append(
                    f"{best} may be granted in place of a {resolution} request (by {granters}) "
                    f"and needs {', '.join(missing)}, which a {resolution} request does not "
                    f"carry: give {them} a default in {best}'s arguments, or declare {them} on "
                    f"{resolution}"
                )
    return tuple(problems)


def settle_all(
    world: World, requests: Iterable[Request], rules: RetailRules = AS_WRITTEN
) -> tuple[tuple[Settled, ...], World]:
    """``requests`` decided one after another, each on the state the ones before left: the
    optimum of requests as the customer finally wants them (after a change of mind)."""
    settled = []
    for request in requests:
        one, world = settle(world, request, rules)
        settled.append(one)
    return tuple(settled), world


def build_task(family: str, seed: int, rules: RetailRules = AS_WRITTEN) -> RetailTask:
    """Case ``seed`` of ``family``: the world of the same seed, one of its customers (the first,
    in a seeded order, whose orders can give the first request the outcome drawn for it), and
    requests drawn one after another, each decided on the state the ones before left. In a
    family with ``gift_card_balance: drawn`` the task's world holds the balance drawn for its
    first request's gift card (else it is the seed's world)."""
    spec = world_spec(rules)["requests"]
    if problems := writes_in_place_problems(rules):
        raise ScenarioError(f"the retail rules cannot be drawn from: {'; '.join(problems)}")
    family_spec = spec["families"].get(family)
    if family_spec is None:
        known = ", ".join(spec["families"])
        raise ScenarioError(f"no retail family {family!r} (families: {known})")
    world = build_world(seed, rules)
    rng = random.Random(f"retail:{seed}:{family}:requests")
    refusal = family_spec.get("refusal", spec["refusal"])
    count = rng.randint(*family_spec["count"])
    wanted = [rng.random() < refusal for _ in range(count)]
    shape = world_spec(rules)["world"]
    draw = _Drawer(f"retail:{seed}:{family}", family_spec, spec, shape, rules)
    people = sorted(c.customer_id for c in world.customers)
    rng.shuffle(people)
    customer_id, first = _first_fitting(draw, world, people, wanted[0])
    if first is not None:
        world = first.state  # the first request may have drawn the paying gift card's balance
    state, settled, used = world, [], set()
    for number, wants_refusal in enumerate(wanted):
        asked = frozenset(_asks(s.request) for s in settled)
        found = (
            first
            if number == 0
            else draw.choose(state, customer_id, number, wants_refusal, used, asked)[0]
        )
        if found is None:
            continue
        chosen, state = found.settled()
        used.add(chosen.request.order_id)
        settled.append(chosen)
    return RetailTask(
        family=family,
        seed=seed,
        world=world,
        customer_id=customer_id,
        settled=tuple(settled),
        final=state,
        rules=rules,
    )


def _asks(request: Request) -> tuple[str, str, tuple[str, ...]]:
    """What a request asks for: its resolution, its order, the items it names."""
    return (request.call.resolution, request.order_id, tuple(sorted(request.item_ids)))


OUTCOMES: tuple[Status, ...] = get_args(Status)


@dataclass
class _Candidate:
    """A candidate request and the world it is decided on. What the grants alone tell of its
    outcome (``granted``: carried out or declined, else None) is worked out when it is drawn;
    its optimum and the world after it only when they are asked for (``settled``): for the
    candidate kept, or to tell a refusal from an undetermined call."""

    request: Request
    state: World
    facts: Facts | None
    """Its case on ``state``, when the draw built it (``settle`` builds it otherwise)."""
    granted: Status | None
    kept: tuple[Settled, World] | None
    rules: RetailRules

    @classmethod
    def decided(
        cls, state: World, request: Request, facts: Facts, rules: RetailRules
    ) -> _Candidate:
        """``request`` on ``state`` (``facts``: its case there), as far as the grants tell."""
        status = granted_status(retail_kernel(rules), facts, request.call)
        return cls(request, state, facts, status, None, rules)

    def has(self, outcome: str) -> bool:
        """Whether the request's outcome is ``outcome``: a call the grants neither carry out
        nor decline is refused or undetermined, and only those two need it settled."""
        if self.granted is not None or outcome in TOLD_BY_GRANTS:
            return self.granted == outcome
        return self.settled()[0].status == outcome

    def settled(self) -> tuple[Settled, World]:
        """The kernel's optimum for the request, and the world after it."""
        if self.kept is None:
            self.kept = settle(self.state, self.request, self.rules, self.facts)
        return self.kept

    def optimum(self) -> str:
        """The kernel's best answer to the request (a family drawn by ``optima`` asks it):
        the resolution carried out, else the grants' best (``best_answer``, without the
        settlement's reasons or the world after it), else the settled outcome's status."""
        if self.kept is not None:
            return self.kept[0].optimum
        if self.granted == "carried out":
            return self.request.call.resolution
        kernel = retail_kernel(self.rules)
        if self.facts is None:  # its status was proven without them; settle reads them too
            self.facts = kernel.rulebook.facts.built(case_facts(self.state, self.request))
        told = best_answer(kernel, self.facts, self.request.call)
        return self.settled()[0].optimum if told is None else told


def _first_fitting(
    draw: _Drawer, world: World, people: list[str], wants_refusal: bool
) -> tuple[str, _Candidate | None]:
    """The first of ``people`` whose orders give the first request the outcome drawn for it
    (else the first of them), with that request as drawn: found once, kept for the task."""
    for customer_id in people:
        found, fits = draw.choose(world, customer_id, 0, wants_refusal, set())
        if fits:
            return customer_id, found
    return people[0], draw.choose(world, people[0], 0, wants_refusal, set())[0]


@dataclass(frozen=True)
class _Drawer:
    """Draws one request of a task among its candidates, deciding only the ones it must."""

    stream: str
    family: dict[str, Any]
    spec: dict[str, Any]
    shape: dict[str, Any]
    rules: RetailRules
    cases: dict[tuple[int, str, str, str, tuple[tuple[str, str], ...]], tuple[World, Facts]] = (
        field(default_factory=dict, compare=False)
    )
    """Validated cases by world (its id: each is held in its entry) and what the case reads of
    a request (customer, order, payment method named, variants asked for): the candidates of
    several resolutions on one order, and of later requests on a world unchanged, share one."""

    def case(self, state: World, request: Request) -> Facts:
        """``request``'s case on ``state``, validated (as ``settle`` decides it)."""
        arguments = request.call.arguments
        payment = str(arguments.get("payment_method_id", ""))
        key = (id(state), request.customer_id, request.order_id, payment, request.targets)
        held = self.cases.get(key)
        if held is None:
            schema = retail_kernel(self.rules).rulebook.facts
            held = self.cases[key] = (state, schema.built(case_facts(state, request)))
        return held[1]

    def choose(
        self,
        state: World,
        customer_id: str,
        number: int,
        wants_refusal: bool,
        used: set[str],
        asked: frozenset[tuple[str, str, tuple[str, ...]]] = frozenset(),
    ) -> tuple[_Candidate | None, bool]:
        """Request ``number`` and its optimum, and True when its outcome is one wanted (granted;
        for a refusal, one of the family's refusals; in a family listing ``optima``, one of
        those best answers, whatever the refusal draw); when no candidate has one, drawn the
        same way among every outcome, and False. The (resolution, outcome) pairs wanted are tried in
        a seeded order and the first that some candidate has wins (uniform over the pairs that
        have one: a refusal is as often a shortfall, refused, as a status gate, declined); in
        it, the first candidate in a seeded order of the orders, those no earlier request named
        first. A candidate is decided only when the draw reaches it (a reset's few ms); one
        asking again what an earlier request asked (``asked``: resolution, order, items) is
        skipped.

        A family with ``gift_card_balance: drawn`` draws, for its first request, the balance of
        the gift card a candidate charges with the outcome tried (``_Candidates``): whether the
        card covers the difference then follows the draw, not the product or variant named."""
        rng = random.Random(f"{self.stream}:{number}:draw")
        orders = [o.order_id for o in state.customer(customer_id).orders]
        drawn = number == 0 and self.family.get("gift_card_balance") == "drawn"
        candidates = _Candidates(self, state, customer_id, f"{self.stream}:{number}", drawn)

        optima = self.family.get("optima")
        if optima and number == 0:  # the first request's best answer: each as often
            optima = [random.Random(f"{self.stream}:optimum").choice(optima)]

        def first(outcomes: Iterable[str], by_optimum: bool = bool(optima)) -> _Candidate | None:
            pairs = [(r, o) for r in self.family["resolutions"] for o in outcomes]
            rng.shuffle(pairs)
            for resolution, outcome in pairs:
                ids = list(orders)
                rng.shuffle(ids)
                for order_id in sorted(ids, key=lambda i: i in used):
                    # a grant wanted: the call's resolution, or the best answer asked for
                    needs = outcome if by_optimum else resolution
                    if (by_optimum or outcome == "carried out") and not candidates.grantable(
                        needs, resolution, order_id
                    ):
                        continue  # proven not granted: deciding it could not make it fit
                    found = candidates.option(resolution, order_id, short=outcome == "refused")
                    if (
                        found is not None
                        and (found.optimum() == outcome if by_optimum else found.has(outcome))
                        and _asks(found.request) not in asked
                    ):
                        return found
            return None

        refusals = self.family.get("refusals", ("declined", "refused"))
        wanted = optima or (refusals if wants_refusal else ("carried out",))
        found = first(wanted)
        return (found, True) if found is not None else (first(OUTCOMES, False), False)

    def request(
        self, world: World, customer_id: str, order: Order, resolution: str, rng: random.Random
    ) -> Request | None:
        """A call of ``resolution`` on ``order`` with arguments drawn as its declaration types
        them; None when the order offers nothing to ask for (no other variant of any item)."""
        kernel = retail_kernel(self.rules)
        family, spec = self.family, self.spec
        declared = kernel.rulebook.declared[resolution]
        customer = world.customer(customer_id)
        wants_variant = _asks_variant(self.rules, kernel.version, resolution)
        arguments: dict[str, Any] = {}
        targets: list[tuple[str, str]] = []
        for name, argument in declared.arguments.items():
            if argument.type == "id" and argument.of == "order":
                arguments[name] = order.order_id
            elif argument.type == "ids":
                items = [i for i in order.items if not wants_variant or _other_variant(world, i)]
                if not items:
                    return None
                chosen = rng.sample(items, rng.randint(1, max(1, len(items) - 1)))
                chosen.sort(key=lambda i: order.items.index(i))
                arguments[name] = [i.item_id for i in chosen]
                if wants_variant:
                    gone = family.get("unavailable_target", spec["unavailable_target"])
                    targets = [(i.item_id, _target(world, i, rng, gone)) for i in chosen]
            elif argument.type == "id" and argument.of == "payment":
                routes = {
                    "gift card": family.get("gift_card_route", spec["gift_card_route"]),
                    "other": family.get("other_route", spec["other_route"]),
                }
                arguments[name] = _payment(customer, order, resolution, rng, routes)
            elif argument.type == "choice":
                values, cumulative = _weighted(self.rules, kernel.version, resolution, name)
                # rng.choices(values, weights)[0]: the same draw, its checks made once by _weighted
                at = bisect.bisect(cumulative, rng.random() * cumulative[-1], 0, len(values) - 1)
                arguments[name] = values[at]
            elif argument.type == "text" and name == "address":
                others = [a.text() for a in customer.addresses if a.text() != order.address]
                arguments[name] = rng.choice(others) if others else _new_address(self.shape, rng)
        return Request(
            customer_id=customer_id,
            call=Call(resolution=resolution, arguments=arguments),
            targets=tuple(targets),
        )


@dataclass
class _Candidates:
    """The candidate requests of one request of a task, each drawn and decided at most once.

    With ``drawn`` (a family's ``gift_card_balance: drawn``), a candidate charging a gift card
    is decided with that card's balance drawn: below the kernel's amount of the write when a
    shortfall (``short``) is tried, else at least that amount (up to facts.yaml's draw range
    above it). The amount is the kernel's (``write_amount``); a candidate charging no gift
    card, or nothing, keeps the world's balance. The decision on the drawn balance is the
    candidate's outcome, whatever the draw meant it to be."""

    drawer: _Drawer
    state: World
    customer_id: str
    stream: str
    drawn: bool
    decided: dict[tuple[str, str, bool], _Candidate | None] = field(default_factory=dict)
    charged: dict[tuple[str, str], float | None] = field(default_factory=dict)
    requests: dict[tuple[str, str], Request | None] = field(default_factory=dict)
    states: dict[tuple[str, str, bool], World] = field(default_factory=dict)
    records: dict[tuple[int, str, object], Facts] = field(default_factory=dict)
    """A case's records (no item), by world (its id), order and payment method named."""
    proofs: dict[tuple[int, tuple[object, ...]], CallProof] = field(default_factory=dict)
    orders: dict[tuple[str, bool], Facts] = field(default_factory=dict)
    """An order's records on ``state`` (no item, no request), with or without its payment."""
    unasked_proofs: dict[tuple[str, str], CallProof] = field(default_factory=dict)

    def option(self, resolution: str, order_id: str, short: bool) -> _Candidate | None:
        short = short and self.drawn
        key = (resolution, order_id, short)
        if key not in self.decided:
            request = self.request(resolution, order_id)
            self.decided[key] = (
                None
                if request is None
                else self.decide(self.decided_on(request, resolution, order_id, short), request)
            )
        return self.decided[key]

    def decided_on(self, request: Request, resolution: str, order_id: str, short: bool) -> World:
        """The world the candidate is decided on: the task's, or, with ``drawn``, the one
        whose paying gift card has the balance drawn for it (kept: one world per key)."""
        key = (resolution, order_id, short)
        if key not in self.states:
            amount = self.amount(resolution, order_id) if self.drawn else None
            if amount is None:
                self.states[key] = self.state
            else:
                rng = random.Random(f"{self.stream}:{resolution}:{order_id}:balance:{short}")
                balance = _drawn_balance(self.balance(), amount, short, rng)
                self.states[key] = self.with_balance(request, balance)
        return self.states[key]

    def request(self, resolution: str, order_id: str) -> Request | None:
        if (resolution, order_id) not in self.requests:
            order = self.state.customer(self.customer_id).order(order_id)
            rng = random.Random(f"{self.stream}:{resolution}:{order_id}")
            drawn = self.drawer.request(self.state, self.customer_id, order, resolution, rng)
            self.requests[resolution, order_id] = drawn
        return self.requests[resolution, order_id]

    def grantable(self, wanted: str, resolution: str, order_id: str) -> bool:
        """Whether ``wanted`` may be granted on the candidate (of ``resolution`` on the order):
        False when the case's records and the call's request prove that no policy grants it
        (``CallProof.may_grant``: a fraction of a decision's cost), or when there is no such
        candidate. The draw then skips it: a call is carried out, or a resolution is its
        optimum, only when granted. Any name but a resolution's proves nothing. The order's
        records alone are asked first (``unasked``): what they rule out needs no arguments
        drawn."""
        rulebook = retail_kernel(self.drawer.rules).rulebook
        known = wanted in rulebook.resolutions
        if known and not self.unasked(resolution, order_id).may_grant(wanted):
            return False
        request = self.request(resolution, order_id)
        if request is None:
            return False
        if not known:
            return True
        state = self.decided_on(request, resolution, order_id, short=False)  # option()'s
        return self.proof(state, request).may_grant(wanted)

    def amount(self, resolution: str, order_id: str) -> float | None:
        """What the candidate charges a gift card: the amount the kernel gives its write (the
        grant's amount on the case, as a decision computes it), when it names a gift card and
        is above zero; else None."""
        if (resolution, order_id) not in self.charged:
            request = self.request(resolution, order_id)
            named = None if request is None else request.call.arguments.get("payment_method_id")
            customer = self.state.customer(self.customer_id)
            amount = None
            if request is not None and named is not None and _is_gift_card(customer, named):
                amount = write_amount(self.state, request, self.drawer.rules)
            self.charged[resolution, order_id] = amount if amount and amount > 0 else None
        return self.charged[resolution, order_id]

    def balance(self) -> FieldSpec:
        return retail_kernel(self.drawer.rules).rulebook.facts.kinds["payment"].fields["balance"]

    def with_balance(self, request: Request, balance: float) -> World:
        named = str(request.call.arguments["payment_method_id"])
        return _with_balance(self.state, self.customer_id, named, balance)

    def decide(self, state: World, request: Request) -> _Candidate:
        """The candidate, its status proven from the case's records when they tell it (most
        declines: an order's status rules the request out, whatever its items), else told
        by the grants on its whole case."""
        told = self.proof(state, request).statuses()
        if len(told) == 1:
            return _Candidate(request, state, None, next(iter(told)), None, self.drawer.rules)
        facts = self.drawer.case(state, request)
        return _Candidate.decided(state, request, facts, self.drawer.rules)

    def unasked(self, resolution: str, order_id: str) -> CallProof:
        """What the order's records prove of every call of ``resolution`` on it, before its
        arguments are drawn (a payment method it may name is one of them: read as unknown,
        with the balance a gift card may be drawn)."""
        key = (resolution, order_id)
        if key not in self.unasked_proofs:
            kernel = retail_kernel(self.drawer.rules)
            declared = kernel.rulebook.declared[resolution]
            names_payment = any(a.of == "payment" for a in declared.arguments.values())
            held = (order_id, names_payment)
            if held not in self.orders:
                on_order = Call(resolution=resolution, arguments={"order_id": order_id})
                raw = case_facts(self.state, Request(self.customer_id, on_order), items=False)
                if names_payment:
                    del raw["payment"]
                self.orders[held] = kernel.rulebook.facts.built(raw)
            self.unasked_proofs[key] = CallProof.unasked(kernel, self.orders[held], resolution)
        return self.unasked_proofs[key]

    def proof(self, state: World, request: Request) -> CallProof:
        """What the request's case on ``state`` proves without its items (kept per world:
        ``state`` is held in ``states`` or is ``state``; and per request)."""
        key = (id(state), request.key())
        if key not in self.proofs:
            named = request.call.arguments.get("payment_method_id")
            held = (id(state), request.order_id, named)
            kernel = retail_kernel(self.drawer.rules)
            if held not in self.records:
                schema = kernel.rulebook.facts
                self.records[held] = schema.built(case_facts(state, request, items=False))
            self.proofs[key] = CallProof(kernel, self.records[held], request.call)
        return self.proofs[key]


@functools.lru_cache(maxsize=256)
def _asks_variant(rules: RetailRules, version: str, resolution: str) -> bool:
    """Whether ``resolution``'s effects read the price of a variant asked for (an exchange or
    a modification of items: the request names the variant each item becomes); per version."""
    declared = retail_kernel(rules).rulebook.declared[resolution]
    return any("item.new_price" in e.reads() for e in declared.effects)


@functools.lru_cache(maxsize=256)
def _weighted(
    rules: RetailRules, version: str, resolution: str, name: str
) -> tuple[tuple[str, ...], tuple[int, ...]]:
    """The values of a choice argument, and their cumulative weights (world.yaml's
    ``reasons``, else 1 each); per version. A ScenarioError when they cannot be drawn from
    (``rng.choices`` would refuse them: none, or weights not totalling a finite number above
    zero)."""
    declared = retail_kernel(rules).rulebook.declared[resolution].arguments[name].values
    values = tuple(dict.fromkeys(declared or ()))
    weights = world_spec(rules)["requests"]["reasons"]
    cumulative = tuple(itertools.accumulate(weights.get(v, 1) for v in values))
    if not values or not math.isfinite(cumulative[-1]) or cumulative[-1] <= 0:
        raise ScenarioError(
            f"world.yaml: requests.reasons must give {resolution}'s {name} "
            f"({', '.join(values) or 'no values'}) weights totalling a finite number above 0"
        )
    return values, cumulative


def _is_gift_card(customer: Customer, payment_id: object) -> bool:
    return customer.payment(str(payment_id)).method == "gift_card"


def _drawn_balance(spec: FieldSpec, amount: float, short: bool, rng: random.Random) -> float:
    """A gift card's balance below ``amount`` (``short``) or at least it, to the cent."""
    cents = round(amount * 100)
    if short:
        return rng.randint(0, cents - 1) / 100
    spread = spec.draw.range if spec.draw and spec.draw.range else (0.0, 0.0)
    return (cents + rng.randint(0, round(spread[1] * 100))) / 100


def _new_address(shape: dict[str, Any], rng: random.Random) -> str:
    """An address the customer has not used yet, from the world's streets and cities."""
    city = rng.choice(sorted(shape["cities"]))
    zip_code = f"{shape['cities'][city]}{rng.randint(0, 99):02d}"
    return f"{rng.randint(1, 999)} {rng.choice(shape['streets'])}, {city} {zip_code}"


def _route(world: World, request: Request) -> str:
    named = request.call.arguments.get("payment_method_id")
    if named is None:
        return "-"
    customer = world.customer(request.customer_id)
    if named == customer.order(request.order_id).paid_with:
        return "original"
    return "gift card" if customer.payment(str(named)).method == "gift_card" else "other"


def _other_variant(world: World, item: Item, available: bool = True) -> list[str]:
    """The variants of the item's product other than its own, available or not."""
    product = world.product(item.product_id)
    return [
        v.variant_id
        for v in product.variants
        if v.available == available and v.variant_id != item.variant_id
    ]


def _target(world: World, item: Item, rng: random.Random, unavailable: float) -> str:
    """The variant the customer asks for: an available one, or (chance ``unavailable``) one
    the catalogue no longer offers, when there is such a variant."""
    gone = _other_variant(world, item, available=False)
    if gone and rng.random() < unavailable:
        return rng.choice(gone)
    return rng.choice(_other_variant(world, item))


def _payment(
    customer: Customer, order: Order, resolution: str, rng: random.Random, routes: dict[str, float]
) -> str:
    """The payment method a request names: the one that paid, a gift card of the customer's
    (chance ``routes['gift card']``) or another of its methods (``routes['other']``); a change
    of payment names another method when one exists."""
    others = [p for p in customer.payments if p.payment_id != order.paid_with]
    if resolution == "modify_payment":
        return rng.choice(others).payment_id if others else order.paid_with
    gift_cards = [p.payment_id for p in others if p.method == "gift_card"]
    plain = [p.payment_id for p in others if p.method != "gift_card"]
    draw = rng.random()
    if gift_cards and draw < routes["gift card"]:
        return rng.choice(gift_cards)
    if plain and draw > 1 - routes["other"]:
        return rng.choice(plain)
    return order.paid_with


def entropy(labels: Iterable[object]) -> float:
    """Shannon entropy, in bits, of the labels' distribution."""
    counts = Counter(labels)
    total = sum(counts.values())
    return -sum(n / total * math.log2(n / total) for n in counts.values()) if total else 0.0


def _with_balance(world: World, customer_id: str, payment_id: str, balance: float) -> World:
    """``world`` with the balance of one of a customer's payment methods set."""
    customer = world.customer(customer_id)
    payments = tuple(
        replace(p, balance=balance) if p.payment_id == payment_id else p for p in customer.payments
    )
    return _with_customer(world, replace(customer, payments=payments))


def _with_customer(world: World, changed: Customer) -> World:
    """``world`` with one customer's record replaced."""
    customers = tuple(
        changed if c.customer_id == changed.customer_id else c for c in world.customers
    )
    return replace(world, customers=customers)
