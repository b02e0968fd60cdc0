"""The policy gate every write tool goes through.

Guided, a resolution is carried out only when the kernel, on the facts the agent has
*established*, grants it, and only for the rule's amount. Otherwise the refusal carries the
kernel's reasons, or the tools that would settle what is still unknown. Closed book, the
tools are a shop's API: they carry out what they are asked for this case's order (the reward
judges it against the policies). Every call is recorded as an attempt of that resolution
type, whatever its outcome (the reward penalises wrong choices).

A tool carries out the resolution the catalogue names it for (``tool:``); none hard-codes
one. A built-in tool (``resolve``) carries out one resolution per case; a generic tool over
a declared resolution (``resolve_call``, novamart.tools.declared) one per call, each decided
on the state at its time, its effects changing the world and what the agent knows of it.
"""

from __future__ import annotations

from typing import Any

from novamart.episode import Asked, CarriedOut, Episode
from novamart.kernel import Grant, expressions
from novamart.kernel.declared import ArgumentError, Call
from novamart.kernel.effects import EffectError
from novamart.kernel.facts import Facts
from novamart.kernel.money import cents, same_amount
from novamart.kernel.requests import Outcome, carried_out, decide_call
from novamart.tools.base import Result, fail, ok, wrong_order

REFERENCE_PREFIX = {"full_refund": "RF", "store_credit": "SC", "exchange": "EX", "escalate": "ES"}


def resolution_of(episode: Episode, tool: str) -> str:
    """The resolution the rules being played carry out with ``tool`` (the tool's own name
    when none does: it is then refused as a resolution no policy grants)."""
    catalogue = episode.rules.rulebook.resolutions
    return next((name for name, spec in catalogue.items() if spec.tool == tool), tool)


def resolve(episode: Episode, tool: str, order_id: str, amount: float | None) -> Result:
    resolution = resolution_of(episode, tool)
    episode.attempted.append(resolution)
    if episode.executed is not None:
        done = episode.executed
        return fail(
            "already_resolved",
            f"this case was already resolved with {done.resolution} at step "
            f"{episode.executed_step}; a case gets one resolution",
        )
    if refusal := wrong_order(episode, order_id):
        return refusal
    if episode.mode == "closed_book":
        return _carry_out(episode, resolution, order_id, amount)
    decision = episode.decide()
    grant = decision.grant_for(resolution)
    if grant is None:
        return _refusal(
            resolution, decision.blocking_reasons(resolution), decision.missing_tools(resolution)
        )
    if amount is not None and not same_amount(amount, grant.amount):
        return fail(
            "wrong_amount",
            f"the {resolution} amount under {grant.policy} is {grant.amount:.2f}, not {amount:.2f}",
            expected_amount=grant.amount,
        )
    return _executed(episode, grant, order_id, policy=grant.policy)


def _refusal(resolution: str, reasons: list[str], missing: list[str]) -> Result:
    if missing:
        known = f" Blocked so far: {'; '.join(reasons)}." if reasons else ""
        return fail(
            "not_established",
            f"{resolution} cannot be decided yet: call {', '.join(missing)} first.{known}",
            missing_tools=missing,
            reasons=reasons,
        )
    return fail(
        "not_allowed",
        f"{resolution} is not allowed: {'; '.join(reasons)}",
        reasons=reasons,
    )


def _carry_out(episode: Episode, resolution: str, order_id: str, amount: float | None) -> Result:
    """Closed book: done as asked. The record keeps what the truth says of it (its policy
    and quality, when the policies allow it at all), never shown to the agent."""
    allowed = episode.truth.grant_for(resolution)
    listed = episode.rules.rulebook.resolutions.get(resolution)
    quality = listed.quality if listed else 0.0
    grant = Grant(
        resolution=resolution,
        policy=allowed.policy if allowed else "",
        quality=allowed.quality if allowed else quality,
        amount=cents(amount) if amount is not None else 0.0,
    )
    return _executed(episode, grant, order_id)


def _executed(episode: Episode, grant: Grant, order_id: str, **shown: str) -> Result:
    episode.executed = grant
    episode.executed_step = episode.step
    number = order_id.strip().upper().removeprefix("ORD-")
    return ok(
        resolution=grant.resolution,
        **shown,
        amount=grant.amount,
        reference=f"{REFERENCE_PREFIX.get(grant.resolution, 'RS')}-{number}",
    )


def resolve_call(episode: Episode, resolution: str, arguments: dict[str, Any]) -> Result:
    """A declared resolution asked for with ``arguments`` (already of their declared types):
    guided, decided on what the agent knows (ids must be ones it has seen) and refused with
    the kernel's reasons (a missing event named) unless granted; closed book, carried out as
    asked on the world. Carried out, its effects change the world and the agent's view."""
    episode.attempted.append(resolution)
    rules = episode.rules
    if rules.rulebook.declared[resolution].declines:
        return _decline(episode, resolution, arguments)
    call = Call(resolution=resolution, arguments=arguments)
    number = len(episode.carried) + 1
    try:
        grant = None
        if episode.mode == "guided":
            seen, _ = decide_call(rules, episode.established(), call, number)
            if seen.status != "carried out":
                episode.asked.append(Asked(episode.step, resolution, arguments, seen.status))
                return _not_granted(seen)
            grant = seen.grant
        truth, _ = decide_call(rules, episode.world(), call, number)
        after = carried_out(rules.rulebook, episode.world(), call, number)
    except (ArgumentError, EffectError) as e:
        return fail("invalid_arguments", f"{resolution}: {e}")
    status = "carried out" if episode.mode == "guided" else truth.status
    episode.asked.append(Asked(episode.step, resolution, arguments, status))
    if grant is None and truth.status == "carried out":
        grant = truth.grant  # closed book: the grant the truth gives it
    amount = grant.amount if grant is not None else _worth(episode, truth)
    episode.changes(after, _changed_kinds(episode, after))
    record = CarriedOut(
        step=episode.step,
        resolution=resolution,
        arguments=dict(arguments),
        amount=amount,
        policy=grant.policy if grant is not None else "",
        truth=truth.status,
    )
    episode.carried.append(record)
    shown = {"policy": record.policy} if episode.mode == "guided" else {}
    return ok(
        resolution=resolution, **shown, amount=record.amount, reference=f"{resolution}-{number}"
    )


def _decline(episode: Episode, resolution: str, arguments: dict[str, Any]) -> Result:
    """A declining resolution declines the customer's last request, when the gate did not
    carry it out and nothing declined it yet: guided, only where the policies decline that
    request with it (on what the agent knows); recorded with the request it declines."""
    last = episode.asked[-1] if episode.asked else None
    declined = bool(episode.carried) and last is not None and episode.carried[-1].step > last.step
    if last is None or last.status == "carried out" or declined:
        return fail(
            "not_allowed",
            f"{resolution}: no request to decline: first ask for what the customer wants with "
            "its tool; where the policies rule it out, the refusal says so and why",
        )
    call = Call(resolution=last.resolution, arguments=dict(last.arguments))
    rules = episode.rules
    truth, _ = decide_call(rules, episode.world(), call)
    policy = ""
    if episode.mode == "guided":
        seen, _ = decide_call(rules, episode.established(), call)
        if seen.status != "declined" or seen.grant is None or seen.grant.resolution != resolution:
            return fail(
                "not_allowed",
                f"{resolution} is not allowed: the policies do not decline {last.resolution} "
                f"on what is established ({seen.status}): {'; '.join(seen.reasons)}",
                reasons=seen.reasons,
            )
        policy = seen.grant.policy
    request = {"resolution": last.resolution, **last.arguments}
    record = CarriedOut(
        step=episode.step,
        resolution=resolution,
        arguments={**arguments, "declines": request},
        amount=0.0,
        policy=policy,
        truth=truth.status,
    )
    episode.carried.append(record)
    shown = {"policy": policy} if episode.mode == "guided" else {}
    number = len(episode.carried)
    return ok(
        resolution=resolution, declines=last.resolution, **shown, reference=f"{resolution}-{number}"
    )


def _worth(episode: Episode, outcome: Outcome) -> float:
    """What a call no policy grants is worth when carried out anyway (closed book): its
    resolution's declared ``amount:`` on the facts it was decided on (0 without one, or
    while a fact it reads is unknown)."""
    rulebook = episode.rules.rulebook
    text = rulebook.resolutions[outcome.call.resolution].amount
    if text is None:
        return 0.0
    value = expressions.value_of(expressions.parse(text, rulebook.facts), outcome.facts)
    return 0.0 if value is None else cents(value)


def _not_granted(outcome: Outcome) -> Result:
    """The gate's refusal, with the kernel's reasons; a declined call also names the
    declining resolution the policies grant instead (the agent tells the customer why)."""
    resolution = outcome.call.resolution
    if outcome.status == "declined":
        assert outcome.grant is not None
        return fail(
            "not_allowed",
            f"{resolution} is not allowed: {'; '.join(outcome.reasons)}; the policies grant "
            f"{outcome.grant.resolution} instead (under {outcome.grant.policy})",
            reasons=outcome.reasons,
            instead=outcome.grant.resolution,
        )
    return _refusal(resolution, outcome.reasons, outcome.missing_tools)


def _changed_kinds(episode: Episode, after: Facts) -> set[str]:
    """The kinds whose facts differ between the world now and ``after``."""
    before = episode.world()
    return {
        kind
        for kind in episode.rules.rulebook.facts.kinds
        if (before.record(kind), before.collection(kind))
        != (after.record(kind), after.collection(kind))
    }
