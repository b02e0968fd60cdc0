"""The policy gate every write tool goes through.

Guided, a resolution is carried out only when the kernel, on the facts the agent has
*established*, grants it, and only for the rule's amount. Otherwise the refusal carries the
kernel's reasons, or the tools that would settle what is still unknown. Closed book, the
tools are a shop's API: they carry out what they are asked for this case's order (the reward
judges it against the policies). Every call is recorded as an attempt of that resolution
type, whatever its outcome (the reward penalises wrong choices).
"""

from __future__ import annotations

from novamart.episode import Episode
from novamart.kernel import Grant
from novamart.kernel.money import cents, same_amount
from novamart.tools.base import Result, fail, ok, wrong_order

REFERENCE_PREFIX = {"full_refund": "RF", "store_credit": "SC", "exchange": "EX", "escalate": "ES"}


def resolve(episode: Episode, resolution: str, order_id: str, amount: float | None) -> Result:
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
        reasons = decision.blocking_reasons(resolution)
        missing = decision.missing_tools(resolution)
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
    if amount is not None and not same_amount(amount, grant.amount):
        return fail(
            "wrong_amount",
            f"the {resolution} amount under {grant.policy} is {grant.amount:.2f}, not {amount:.2f}",
            expected_amount=grant.amount,
        )
    return _executed(episode, grant, order_id, policy=grant.policy)


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
