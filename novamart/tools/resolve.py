"""The policy gate every write tool goes through.

A resolution is carried out only when the kernel, on the facts the agent has *established*,
grants it, and only for the rule's amount. Otherwise the refusal carries the kernel's
reasons, or the tools that would settle what is still unknown. Every call is recorded as an
attempt of that resolution type, whatever its outcome (the reward penalises wrong choices).
"""

from __future__ import annotations

from novamart.episode import Episode
from novamart.kernel.money import same_amount
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
    episode.executed = grant
    episode.executed_step = episode.step
    number = order_id.strip().upper().removeprefix("ORD-")
    return ok(
        resolution=resolution,
        policy=grant.policy,
        amount=grant.amount,
        reference=f"{REFERENCE_PREFIX.get(resolution, 'RS')}-{number}",
    )
