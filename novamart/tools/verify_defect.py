"""verify_defect: a technician's check of the claimed defect (the truth, not the claim)."""

from __future__ import annotations

from novamart.episode import Episode
from novamart.tools.args import OrderId, ToolArgs
from novamart.tools.base import Result, ToolSpec, ok, reveal_kinds, wrong_order


class VerifyDefectArgs(ToolArgs):
    order_id: OrderId


def verify_defect(episode: Episode, args: VerifyDefectArgs) -> Result:
    if refusal := wrong_order(episode, args.order_id):
        return refusal
    scenario = episode.scenario
    facts = reveal_kinds(episode, "verify_defect")
    if scenario.defect_real:
        finding = f"Defect confirmed: the unit {scenario.symptom}."
    else:
        finding = "No defect found: the unit passed all diagnostics."
    return ok(**{"order_id": scenario.order.order_id, **facts, "finding": finding})


SPEC = ToolSpec(
    name="verify_defect",
    kind="investigate",
    description="Have the item checked for a defect; says whether a defect is verified.",
    args=VerifyDefectArgs,
    run=verify_defect,
)
