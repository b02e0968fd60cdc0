"""The retail oracle: reads the hidden session (the customer's requests as it wants them now)
and settles each on the world as it stands, with the kernel's optimum: authenticate, look the
order up, list the write's details and get the yes, carry it out and report it; or say why
not, per request, declining or passing it to a manager where the policies say so. It is the
yardstick that shows every retail case is solvable; with ``voices`` it is the honest writer
(the same acts, its words drawn by the seed)."""

from __future__ import annotations

import random
from dataclasses import replace

from novamart.agents.base import Script, call
from novamart.agents.retail import talk
from novamart.models import NovamartObservation
from novamart.retail.session import RetailSession
from novamart.retail.tools.writes import VARIANTS
from novamart.scenarios.retail_requests import Request, has_amount, instead_of, settle
from novamart.scenarios.retail_world import RetailRules


def write_call(session: RetailSession, request: Request) -> tuple[str, dict[str, object]]:
    """The write tool that carries ``request`` out, with its arguments."""
    tool = session.kernel.rulebook.resolutions[request.call.resolution].tool
    arguments: dict[str, object] = dict(request.call.arguments)
    if request.targets:
        arguments[VARIANTS] = [variant for _, variant in request.targets]
    return tool, arguments


def faulty(session: RetailSession, request: Request) -> list[str]:
    """The items ``request`` names that have a fault the check has not yet found: what the
    gate counts only once check_defect ran (novamart.retail.tools.writes.decided)."""
    order = session.world.customer(request.customer_id).order(request.order_id)
    named = set(request.item_ids) - session.checked
    return [i.item_id for i in order.items if i.item_id in named and i.defect_found]


def oracle_play(
    first: NovamartObservation,
    session: RetailSession | None,
    seed: int,
    voices: bool = False,
    rules: RetailRules | None = None,
) -> Script:
    """``rules``: the rules it settles by (None: the session's). Other rules than the
    session's make an agent that learnt one set of numbers (the rules as written) and plays
    them under a policy variant."""
    assert session is not None, "the retail oracle reads the hidden session"
    believed = session.task.rules if rules is None else rules
    pick = random.Random(f"retail-honest:{seed}").choice if voices else talk.first
    customer = session.profile.customer
    guided = session.mode == "guided"
    rules = session.kernel.rulebook
    yield call("respond_to_customer", message=talk.IDENTITY)
    yield call("find_customer", email=customer.email)
    yield call("lookup_customer", customer_id=customer.customer_id)
    looked: set[str] = set()
    answered_other = False
    while not session.done and session.talk.open():
        request = session.talk.current[session.talk.open()[0]]
        if request.order_id not in looked:
            looked.add(request.order_id)
            yield call("lookup_order", order_id=request.order_id)
        for item_id in faulty(session, request):
            yield call("check_defect", order_id=request.order_id, item_id=item_id)
        settled, _ = settle(session.world, request, believed)
        aside = ""
        if session.talk.asked_other and not answered_other:
            answered_other, aside = True, f" {talk.OWN_ONLY}"
        tool, arguments = write_call(session, request)
        if settled.status == "carried out":
            amount = settled.amount if has_amount(rules, request.call.resolution) else None
            proposal = talk.proposal(session.world, request, amount, pick)
            yield call("respond_to_customer", message=proposal + aside)
            if session.yes_to is None:  # a change of mind, or a detail it asks for
                continue
            yield call(tool, **arguments)
            yield call(
                "respond_to_customer", message=talk.report(session.world, request, amount, pick)
            )
        elif settled.status == "declined":
            if guided:
                yield call(tool, **arguments)
                yield call(
                    rules.resolutions[settled.optimum].tool, explanation="; ".join(settled.reasons)
                )
            yield call(
                "respond_to_customer", message=talk.refusal(request, settled.reasons, pick) + aside
            )
        elif offer := instead_of(rules, request, settled.optimum):
            instead = replace(request, call=offer, targets=())
            amount = settled.amount if has_amount(rules, offer.resolution) else None
            message = talk.refusal(request, settled.reasons, pick)
            message += " " + talk.offer(session.world, instead, amount, pick)
            yield call("respond_to_customer", message=message + aside)
            if session.yes_to is None:
                continue
            yield call(rules.resolutions[offer.resolution].tool, **offer.arguments)
            yield call(
                "respond_to_customer", message=talk.report(session.world, instead, amount, pick)
            )
        else:
            escalate = settled.optimum in rules.resolutions
            if escalate:
                if guided:
                    yield call(tool, **arguments)
                review = rules.resolutions[settled.optimum].tool
                yield call(review, order_id=request.order_id, reason="; ".join(settled.reasons))
            message = talk.refusal(request, settled.reasons, pick, escalated=escalate)
            yield call("respond_to_customer", message=message + aside)
