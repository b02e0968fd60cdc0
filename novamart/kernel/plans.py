"""The plan optimum: the best the rules allow for everything the customer asked.

A customer asks for several things (``Request``: a resolution, or a family of them, with
arguments fixed or open among choices). A plan carries them out in some order, each as one
of the calls it may become, each decided on the state the calls before it left (effects in
between; ``before_each`` events, such as the customer's yes, arrive before every call). The
optimum is the plan worth most to the customer: the most requests carried out, then the
highest sum of the resolutions' declared quality, then the largest sum of amounts; ties go
to the customer's own order, then to the resolutions and choices in the order written. A
request no plan can grant keeps the outcome of its first call where the plan puts it: a
decline or refusal with the kernel's reasons, per request.

Search is depth-first over the orders (a prefix decided once for all the plans sharing it),
so n requests cost at most n! leaves times the calls granted; decisions on equal states are
the kernel's memoised ones.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import Any

from pydantic import BaseModel, ConfigDict

from novamart.kernel import events
from novamart.kernel.declared import MAX_REQUESTS, ArgumentError, Call, Request
from novamart.kernel.effects import EffectError
from novamart.kernel.examples import Decider
from novamart.kernel.facts import Facts
from novamart.kernel.money import cents
from novamart.kernel.requests import Outcome, Plan, decide_call, same_amounts, state_mismatches
from novamart.kernel.rulebook import Example

CARRIED_OUT = "carried out"


class Optimum(BaseModel):
    """The best plan: the order it carries the requests out in, and every call's outcome."""

    model_config = ConfigDict(frozen=True, arbitrary_types_allowed=True)
    order: list[int]
    """The requests' indexes (0-based, as the customer gave them) in the plan's order."""
    plan: Plan
    """The outcomes in the plan's order, and the world after them."""

    def per_request(self) -> list[Outcome]:
        """Each request's outcome, in the customer's order."""
        return [o for _, o in sorted(zip(self.order, self.plan.outcomes, strict=True))]

    def labels(self) -> list[str]:
        """Per request, in the customer's order: what the plan carries out or declines with."""
        return [o.grant.resolution if o.grant else o.status for o in self.per_request()]

    def amounts(self) -> list[float | None]:
        return [o.grant.amount if o.grant else None for o in self.per_request()]

    def refused(self) -> dict[int, list[str]]:
        """Each request the plan does not carry out (0-based), and why."""
        return {i: o.reasons for i, o in enumerate(self.per_request()) if o.status != CARRIED_OUT}


Value = tuple[int, float, float]


def value(outcomes: Sequence[Outcome]) -> Value:
    """What a plan is worth to the customer: calls carried out, their quality, their amounts."""
    done = [o.grant for o in outcomes if o.status == CARRIED_OUT and o.grant is not None]
    quality = round(sum(g.quality for g in done), 9)
    return len(done), quality, cents(sum(g.amount or 0.0 for g in done))


def best_plan(
    rules: Decider, facts: Facts, requests: Sequence[Request], before_each: Sequence[str] = ()
) -> Optimum:
    """The optimum over every order of ``requests`` and every call each may become; an
    ArgumentError when a request fits none of its calls or there are too many requests."""
    if not requests or len(requests) > MAX_REQUESTS:
        raise ArgumentError(f"a plan orders 1 to {MAX_REQUESTS} requests, not {len(requests)}")
    search = _Search(rules, requests, before_each)
    state = rules.rulebook.facts.check(facts)
    best: tuple[Value, list[int], list[Outcome], Facts] | None = None
    for order, outcomes, after in search.plans(state, tuple(range(len(requests))), []):
        worth = value(outcomes)
        if best is None or worth > best[0]:
            best = (worth, order, outcomes, after)
    assert best is not None  # every order yields a plan
    _, order, outcomes, after = best
    return Optimum(order=order, plan=Plan(outcomes=outcomes, state=after))


class _Search:
    """One search: each request's calls, and the decisions made so far by state."""

    def __init__(self, rules: Decider, requests: Sequence[Request], before_each: Sequence[str]):
        self.rules = rules
        self.before_each = tuple(before_each)
        declared = rules.rulebook.declared
        self.calls = [r.calls(declared) for r in requests]
        self._decided: dict[tuple[Facts, int, int], tuple[Outcome, Facts] | None] = {}

    def plans(
        self, state: Facts, remaining: tuple[int, ...], taken: list[tuple[int, Outcome]]
    ) -> Iterator[tuple[list[int], list[Outcome], Facts]]:
        """Every plan completing ``taken`` with the ``remaining`` requests, in search order."""
        if not remaining:
            yield [i for i, _ in taken], [o for _, o in taken], state
            return
        for i in remaining:
            rest = tuple(j for j in remaining if j != i)
            for outcome, after in self._branches(state, i):
                yield from self.plans(after, rest, [*taken, (i, outcome)])

    def _branches(self, state: Facts, request: int) -> list[tuple[Outcome, Facts]]:
        """Each call of ``request`` carried out on ``state``; else the first call's outcome."""
        ready = state
        for event in self.before_each:
            ready = events.arrive(self.rules.rulebook.facts, ready, event)
        decided = [self._decide(ready, request, n) for n in range(len(self.calls[request]))]
        fitting = [d for d in decided if d is not None]
        if not fitting:
            first = self.calls[request][0]
            raise ArgumentError(
                f"request {request + 1} ({first.resolution}) fits none of its calls"
            )
        granted = [d for d in fitting if d[0].status == CARRIED_OUT]
        return granted or fitting[:1]

    def _decide(self, state: Facts, request: int, n: int) -> tuple[Outcome, Facts] | None:
        key = (state, request, n)
        if key not in self._decided:
            call: Call = self.calls[request][n]
            try:
                self._decided[key] = decide_call(self.rules, state, call, request + 1)
            except (ArgumentError, EffectError):
                self._decided[key] = None  # a choice that does not fit this case
        return self._decided[key]


def optimum_mismatches(rules: Decider, example: Example) -> tuple[Facts, list[str], list[Outcome]]:
    """An example's requests searched, and what differs from its ``best``, ``best_order``,
    ``best_amounts``, ``best_because`` and ``best_after``; with the facts its other
    expectations speak of (the first call of the best plan) and each call's outcome."""
    try:
        best = best_plan(rules, example.facts, example.requests, example.before_each)
    except (ArgumentError, ValueError) as e:
        return example.facts, [f"requests: {e}"], []
    expect: dict[str, Any] = example.expect
    found: list[str] = []
    if "best" in expect and best.labels() != list(expect["best"]):
        found.append(f"best: expected {expect['best']}, got {best.labels()}")
    order = [i + 1 for i in best.order]
    if "best_order" in expect and order != list(expect["best_order"]):
        found.append(f"best_order: expected {expect['best_order']}, got {order}")
    wanted = list(expect.get("best_amounts", best.amounts()))
    if not same_amounts(wanted, best.amounts()):
        found.append(f"best_amounts: expected {wanted}, got {best.amounts()}")
    per_request = best.per_request()
    for i, text in enumerate(expect.get("best_because", ())):
        said = "; ".join(per_request[i].reasons) if i < len(per_request) else ""
        if text is not None and str(text) not in said:
            found.append(
                f"best_because: request {i + 1} expected {text!r}, got {said or 'no reason'!r}"
            )
    after = expect.get("best_after", {})
    found += [
        m.replace("after:", "best_after:", 1)
        for m in state_mismatches(rules.rulebook, best.plan.state, after)
    ]
    return best.plan.outcomes[0].facts, found, best.plan.outcomes
