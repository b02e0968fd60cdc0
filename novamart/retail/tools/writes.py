"""The retail write tools, generated from the rulebook's declared resolutions
(rules/retail/resolutions.yaml): one per resolution an agent asks for, named by its ``tool:``.

No tool knows what it does: a write builds the customer's request (the declared arguments,
plus the variants asked for when the resolution's effects swap variants), cuts the kernel's
case out of the world (retail_requests.case_facts) with the conversation's events (the
account authenticated owns the order; the customer's last yes answered a message listing this
write's details), decides it, and applies the declared effects to the world. Guided, the gate
carries out only what the kernel grants and refuses the rest with its reasons; closed book,
the tools are a shop's API and do as asked (the grader judges it). A declining resolution
declines the last request the gate did not carry out; a resolution declaring no call (a
manager's review) takes the order and a reason.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Annotated, Any

from pydantic import Field, create_model

from novamart.kernel import Rulebook, events
from novamart.kernel.declared import EVENT_KIND, Call, event_names
from novamart.kernel.effects import EffectError
from novamart.kernel.facts import Facts
from novamart.kernel.requests import Outcome, carried_out, settle_call
from novamart.kernel.rulebook import ResolutionSpec
from novamart.retail.session import Attempt, RetailSession
from novamart.retail.tools.base import (
    RetailTool,
    account_order,
    account_refusal,
    no_order,
    order_of,
)
from novamart.retail.tools.find_customer import NAME as IDENTIFYING_TOOL
from novamart.retail.trail import Step
from novamart.scenarios.retail_customer import details_missing
from novamart.scenarios.retail_requests import Request, absorb, case_facts, has_amount
from novamart.scenarios.retail_world import Customer, Order
from novamart.tools.args import EscalateArgs, ToolArgs
from novamart.tools.base import Result, fail, ok
from novamart.tools.declared import MAX_IDS, argument_field

VARIANTS = "new_variant_ids"
"""The argument naming, item by item, the variant each named item becomes."""
FINDING = "defect_found"
"""The item field only the defect check shows (novamart.retail.tools.check_defect)."""
SWAPS = "item.new_variant"
"""What a resolution's effects read when they swap an item's variant."""


_generated: dict[str, dict[str, RetailTool]] = {}


def write_tools(rulebook: Rulebook) -> dict[str, RetailTool]:
    """Tool name -> generated tool, for every resolution an agent asks for (a follow-up,
    ``then:`` of another, is carried out by the rules, not asked for); memoised per rulebook
    version (the tools change only when the rules do)."""
    found = _generated.get(rulebook.version)
    if found is None:
        found = _generated[rulebook.version] = _generate(rulebook)
    return found


def _generate(rulebook: Rulebook) -> dict[str, RetailTool]:
    follow_ups = {spec.then for spec in rulebook.resolutions.values()}
    return {
        spec.tool: _tool(name, spec)
        for name, spec in rulebook.resolutions.items()
        if name not in follow_ups
    }


def swaps_variants(spec: ResolutionSpec) -> bool:
    return any(SWAPS in effect for effect in spec.effects)


def _tool(resolution: str, spec: ResolutionSpec) -> RetailTool:
    if not spec.declares_call:
        return RetailTool(
            name=spec.tool,
            description=f"{spec.description} For a request the policies refuse and send to "
            "a manager; name the order and say why.",
            args=EscalateArgs,
            run=lambda session, args: review(session, resolution, args),
        )
    fields: dict[str, Any] = {
        name: argument_field(name, argument) for name, argument in spec.arguments.items()
    }
    if swaps_variants(spec):
        member = Annotated[str, Field(min_length=1, max_length=64)]
        fields[VARIANTS] = (
            Annotated[
                list[member],  # type: ignore[valid-type]
                Field(
                    min_length=1,
                    max_length=MAX_IDS,
                    description="The variant each named item becomes, in the order of item_ids "
                    "(variants of the same product: lookup_product)",
                ),
            ],
            ...,
        )
    model = create_model(  # type: ignore[call-overload]
        f"{spec.tool.title().replace('_', '')}Args", __base__=ToolArgs, **fields
    )
    if spec.declines:
        return RetailTool(
            name=spec.tool,
            description=f"{spec.description} Declines the last request the policies did not "
            "allow; tell the customer why.",
            args=model,
            run=lambda session, args: decline(session, resolution, args.model_dump()),
        )
    return RetailTool(
        name=spec.tool,
        description=f"{spec.description} Carries out {resolution} once the customer is "
        "authenticated and has said yes to its details (order, items, variants, amount, payment "
        "method).",
        args=model,
        run=lambda session, args: write(session, resolution, args.model_dump()),
    )


def write(session: RetailSession, resolution: str, given: dict[str, Any]) -> Result:
    """Carry out ``resolution`` with ``given`` (already of the declared types)."""
    arguments = dict(given)
    new_variants = arguments.pop(VARIANTS, None)
    found = order_of(session, str(arguments["order_id"]))
    if found is None:
        return no_order(str(arguments["order_id"]))
    owner, order = found
    arguments["order_id"] = order.order_id
    if problem := misfit(session, owner, order, arguments, new_variants):
        return fail("invalid_arguments", f"{resolution}: {problem}")
    request = request_of(owner, resolution, arguments, new_variants)
    attempt = write_step(session, resolution, order.order_id, owner.customer_id, given, False)
    another = session.identified not in (None, owner.customer_id)  # none yet: the kernel says
    if another and (refusal := account_refusal(session, owner.customer_id)):
        session.record(attempt)
        return refusal
    outcome, case, after, confirmed = _decide(session, request)
    if outcome.status != "carried out":
        after = None
    if after is None and session.mode == "closed_book":
        try:
            after = carried_out(session.kernel.rulebook, case, request.call)
        except EffectError as e:
            session.record(attempt)
            return fail("not_allowed", f"{resolution} cannot be carried out: {e}")
    if after is None:
        session.record(attempt)
        session.attempt = _attempt(request, outcome, ready=session.identified == owner.customer_id)
        return _refusal(outcome)
    session.world = absorb(session.world, owner.customer_id, after)
    if confirmed:
        session.record(Step(session.step, "confirmed", owner.customer_id))
    granted = outcome.grant.amount if outcome.grant else None
    session.record(replace(attempt, carried_out=True, amount=granted))
    session.yes_to, session.attempt = None, None
    amount = _amount(session, resolution, outcome)
    shown = {"policy": outcome.grant.policy} if session.mode == "guided" and outcome.grant else {}
    return ok(
        resolution=resolution,
        order_id=order.order_id,
        **shown,
        amount=amount,
        order_status=session.world.customer(owner.customer_id).order(order.order_id).status,
    )


Decided = tuple[Outcome, Facts, Facts]
"""The outcome, the case it was decided on, the state after it (the case when not granted)."""


def decided(session: RetailSession, request: Request, confirmed: bool) -> Decided:
    """``request`` decided on the world now, with the conversation's events: the identifying
    tool's hold when the account authenticated owns the order, the reply's when ``confirmed``;
    an item's fault only once check_defect found it in this conversation."""
    kernel = session.kernel
    schema = kernel.rulebook.facts
    by_tool = set(events.from_tool(schema, IDENTIFYING_TOOL))
    identity = session.identified == request.customer_id
    happened = {name: identity if name in by_tool else confirmed for name in event_names(schema)}
    id_field = schema.kinds[EVENT_KIND].id_field
    raw = case_facts(session.world, request, {id_field: events.CONVERSATION, **happened})
    for item in raw["item"]:  # a fault counts once the check found it (the agent knows it)
        item[FINDING] = item[FINDING] and item["item_id"] in session.checked
    case = schema.built(raw)
    outcome, after = settle_call(kernel, case, request.call)  # its status, grant, reasons
    return outcome, case, after


def _decide(session: RetailSession, request: Request) -> tuple[Outcome, Facts, Facts, bool]:
    """The decision with the customer's yes when its last yes answered a message listing
    every detail of this very write (the amount the kernel computes for it), else without."""
    if session.yes_to is not None:
        outcome, case, after = decided(session, request, confirmed=True)
        amount = _amount(session, request.call.resolution, outcome)
        if not details_missing(session.world, request, amount, session.yes_to):
            return outcome, case, after, True
    return (*decided(session, request, confirmed=False), False)


def _amount(session: RetailSession, resolution: str, outcome: Outcome) -> float | None:
    """The amount a write of ``resolution`` shows: its grant's, when it has one."""
    shows = has_amount(session.kernel.rulebook, resolution)
    return outcome.grant.amount if outcome.grant and shows else None


def request_of(
    owner: Customer, resolution: str, arguments: dict[str, Any], new_variants: list[str] | None
) -> Request:
    """The customer's request a write's arguments make (each named item's new variant)."""
    items = tuple(arguments.get("item_ids", ()))
    targets = tuple(zip(items, new_variants, strict=True)) if new_variants else ()
    return Request(owner.customer_id, Call(resolution=resolution, arguments=arguments), targets)


def misfit(
    session: RetailSession,
    owner: Customer,
    order: Order,
    arguments: dict[str, Any],
    new_variants: list[str] | None,
) -> str | None:
    """What of the arguments names nothing of this order, this customer or the catalogue."""
    world = session.world
    items = {i.item_id: i for i in order.items}
    named = list(arguments.get("item_ids", ()))
    if stray := [i for i in named if i not in items]:
        return f"item {', '.join(stray)} is not in order {order.order_id} ({', '.join(items)})"
    payment = arguments.get("payment_method_id")
    if payment is not None and payment not in {p.payment_id for p in owner.payments}:
        methods = ", ".join(p.payment_id for p in owner.payments)
        return f"payment method {payment!r} is not one of the account's ({methods})"
    if new_variants is None:
        return None
    if len(new_variants) != len(named):
        return f"{VARIANTS} names one variant per item of item_ids ({len(named)})"
    for item_id, variant_id in zip(named, new_variants, strict=True):
        product = world.product(items[item_id].product_id)
        if variant_id not in {v.variant_id for v in product.variants}:
            return f"{variant_id!r} is not a variant of item {item_id}'s product ({product.name})"
    return None


def _attempt(request: Request, outcome: Outcome, ready: bool) -> Attempt:
    """A refused write; what the kernel grants instead counts only once the events it needs
    could have been in place (a write refused for want of a yes is not a refusal to explain)."""
    instead = None
    if outcome.status == "declined" and outcome.grant is not None:
        instead = outcome.grant.resolution
    elif ready and outcome.decision.optimal is not None:
        instead = outcome.decision.optimal.resolution
    return Attempt(request.call.resolution, request.order_id, outcome.status, instead)


def _refusal(outcome: Outcome) -> Result:
    resolution = outcome.call.resolution
    reasons = list(outcome.reasons)
    if outcome.status == "declined" and outcome.grant is not None:
        return fail(
            "not_allowed",
            f"{resolution} is not allowed: {'; '.join(reasons)}; the policies decline it "
            f"({outcome.grant.resolution}): tell the customer why",
            reasons=reasons,
            instead=outcome.grant.resolution,
        )
    return fail(
        "not_allowed", f"{resolution} is not allowed: {'; '.join(reasons)}", reasons=reasons
    )


def decline(session: RetailSession, resolution: str, arguments: dict[str, Any]) -> Result:
    """Decline the last request the gate did not carry out (guided: only where the policies
    decline it with ``resolution``)."""
    attempt = session.attempt
    if attempt is None:
        return fail(
            "not_allowed",
            f"{resolution}: no request to decline: first ask for what the customer wants with "
            "its tool; where the policies rule it out, the refusal says so and why",
        )
    if session.mode == "guided" and attempt.instead != resolution:
        return fail(
            "not_allowed",
            f"{resolution} is not allowed: the policies do not decline {attempt.resolution} on "
            f"{attempt.order_id} (it was {attempt.status})",
        )
    found = order_of(session, attempt.order_id)
    owner = found[0].customer_id if found else None
    session.record(write_step(session, resolution, attempt.order_id, owner, arguments, True))
    session.attempt = None
    return ok(resolution=resolution, declines=attempt.resolution, order_id=attempt.order_id)


def review(session: RetailSession, resolution: str, args: EscalateArgs) -> Result:
    """Pass an order's request to a manager (guided: only a request the policies refused and
    answer with this resolution)."""
    if args.order_id is None:
        return fail("invalid_arguments", f"{resolution}: name the order (order_id)")
    found, refusal = account_order(session, args.order_id)
    if found is None:
        return refusal
    owner, order = found
    attempt = session.attempt
    fits = attempt is not None and attempt.order_id == order.order_id
    if session.mode == "guided" and not (fits and attempt and attempt.instead == resolution):
        return fail(
            "not_allowed",
            f"{resolution} is for a request on {order.order_id} the policies refuse and send to "
            "a manager; try the customer's request first: its refusal says what it is answered "
            "with",
        )
    reason = {"reason": args.reason}
    session.record(write_step(session, resolution, order.order_id, owner.customer_id, reason, True))
    session.attempt = None
    return ok(
        resolution=resolution, order_id=order.order_id, reference=f"{resolution}-{session.step}"
    )


def _frozen(value: Any) -> Any:
    return tuple(value) if isinstance(value, list) else value


def write_step(
    session: RetailSession,
    resolution: str,
    order_id: str,
    owner: str | None,
    arguments: dict[str, Any],
    carried_out: bool,
) -> Step:
    """The trail's record of a write of ``resolution`` on ``order_id`` at this step."""
    return Step(
        session.step,
        "write",
        owner,
        tool=session.kernel.rulebook.resolutions[resolution].tool,
        resolution=resolution,
        order_id=order_id,
        carried_out=carried_out,
        arguments=tuple(sorted((k, _frozen(v)) for k, v in arguments.items())),
    )
