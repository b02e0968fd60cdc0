"""What the kernel answers: the eligible resolutions, the best one, and why each policy
decided as it did. Plain pydantic types, so nothing of the engine leaks out."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict

ConditionStatus = Literal["pass", "fail", "unknown"]
PolicyStatus = Literal["eligible", "blocked", "undetermined"]


class _Frozen(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")


class Grant(_Frozen):
    """One resolution a policy allows, with its quality and amount."""

    resolution: str
    policy: str
    quality: float
    amount: float | None  # None when a fact the amount rule needs is not known yet


class ConditionResult(_Frozen):
    name: str
    status: ConditionStatus
    reason: str | None
    needs_tool: str | None


class PolicyVerdict(_Frozen):
    status: PolicyStatus
    clause: str
    grants: list[str]
    conditions: list[ConditionResult]

    def failed(self) -> list[ConditionResult]:
        return [c for c in self.conditions if c.status == "fail"]

    def unknown(self) -> list[ConditionResult]:
        return [c for c in self.conditions if c.status == "unknown"]


class Decision(_Frozen):
    """The kernel's verdict on one fact set (this is the `explain --json` contract)."""

    optimal: Grant | None
    eligible: list[Grant]
    policies: dict[str, PolicyVerdict]

    def grant_for(self, resolution: str) -> Grant | None:
        """The best grant of ``resolution``, or None when no policy allows it."""
        return next((g for g in self.eligible if g.resolution == resolution), None)

    def policies_granting(self, resolution: str) -> dict[str, PolicyVerdict]:
        """The verdicts of the policies that could grant ``resolution``."""
        return {n: v for n, v in self.policies.items() if resolution in v.grants}

    def blocking_reasons(self, resolution: str) -> list[str]:
        """Why ``resolution`` is not allowed: the failed conditions of the policies granting it."""
        return [
            c.reason
            for v in self.policies_granting(resolution).values()
            for c in v.failed()
            if c.reason
        ]

    def missing_tools(self, resolution: str | None = None) -> list[str]:
        """Tools that would settle an unknown condition (of the policies granting
        ``resolution``, or of all policies), in policy order, without repeats."""
        verdicts = self.policies_granting(resolution) if resolution else self.policies
        tools = [c.needs_tool for v in verdicts.values() for c in v.unknown() if c.needs_tool]
        return list(dict.fromkeys(tools))

    def explain(self) -> str:
        """A short, human-readable account of the decision."""
        lines = []
        if self.optimal:
            o = self.optimal
            amount = "unknown" if o.amount is None else f"{o.amount:.2f}"
            lines.append(
                f"Best resolution: {o.resolution} under {o.policy} "
                f"(quality {o.quality:.2f}, amount {amount})"
            )
        else:
            lines.append("Best resolution: none yet")
        for name, verdict in self.policies.items():
            lines.append(f"- {name}: {verdict.status}")
            for c in verdict.conditions:
                detail = f" ({c.reason})" if c.reason else ""
                tool = f" [ask {c.needs_tool}]" if c.needs_tool else ""
                lines.append(f"    {c.status:<7} {c.name}{detail}{tool}")
        return "\n".join(lines)
