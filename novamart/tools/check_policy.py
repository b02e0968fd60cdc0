"""check_policy: the kernel's verdict on one policy, on the facts established so far."""

from __future__ import annotations

from pydantic import Field

from novamart.episode import Episode
from novamart.tools.args import OrderId, ToolArgs
from novamart.tools.base import Result, ToolSpec, fail, ok, wrong_order


class CheckPolicyArgs(ToolArgs):
    policy: str = Field(
        min_length=1,
        max_length=64,
        description="The policy's name, as the rules being played call it (listed in this "
        "schema when the case is known; an unknown name is answered with the list)",
    )
    order_id: OrderId


def check_policy(episode: Episode, args: CheckPolicyArgs) -> Result:
    policies = episode.rules.rulebook.policies
    name = args.policy.strip().lower()
    if name not in policies:
        return fail(
            "unknown_policy",
            f"no policy called {args.policy!r}; policies: {', '.join(policies)}",
            policies=list(policies),
        )
    if refusal := wrong_order(episode, args.order_id):
        return refusal
    decision = episode.decide()
    verdict = decision.policies[name]
    return ok(
        policy=name,
        clause=verdict.clause,
        status=verdict.status,
        failed=[{"condition": c.name, "reason": c.reason} for c in verdict.failed()],
        unknown=[
            {"condition": c.name, "reason": c.reason, "needs_tool": c.needs_tool}
            for c in verdict.unknown()
        ],
        grants=[
            {"resolution": g.resolution, "amount": g.amount, "quality": g.quality}
            for g in decision.eligible
            if g.policy == name
        ],
    )


SPEC = ToolSpec(
    name="check_policy",
    kind="consult",
    description="Ask whether a policy applies, given what has been established so far: status "
    "(eligible, blocked, undetermined), failed conditions with reasons, what is still unknown "
    "and which tool would tell, and the resolutions it grants with their amounts.",
    args=CheckPolicyArgs,
    run=check_policy,
    choices=lambda rulebook: {"policy": tuple(rulebook.policies)},
)
