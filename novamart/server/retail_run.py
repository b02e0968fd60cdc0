"""A retail case behind the environment's run interface (novamart.server.runs.Run).

The case is the task's request family drawn at the seed (the world, the customer, its
requests and their optimum: novamart.scenarios), played as a conversation over the retail
tools (novamart.retail.tools) and graded on the final world and the trail
(novamart.retail.grade) after every call, so the running grade a trainer reads when a rollout
stops is the grade of the state it stopped in.
"""

from __future__ import annotations

from typing import Any

from novamart.kb.handbook import handbook
from novamart.models import GroundTruth
from novamart.retail import tools
from novamart.retail.diff import plan
from novamart.retail.grade import WEIGHTS, RetailGrade, grade
from novamart.retail.session import RetailCustomer, RetailSession
from novamart.scenarios import Mode, TaskSpec
from novamart.scenarios.retail_customer import case
from novamart.scenarios.retail_world import AS_WRITTEN, RetailRules
from novamart.server.runs import Ending
from novamart.tools.base import Result

CAPPED = "capped"
NOTHING_YET = RetailGrade(0.0, dict.fromkeys(WEIGHTS, 0.0), (), ())
"""The grade before the first step (the step rewards then sum to the final score)."""


class RetailRun:
    def __init__(
        self,
        task: TaskSpec,
        seed: int | None,
        mode: Mode = "guided",
        customer: RetailCustomer | None = None,
        rules: RetailRules = AS_WRITTEN,
    ) -> None:
        self.task, self.seed = task, seed
        drawn, profile = case(task.name, seed or 0, rules)
        self.session = RetailSession.start(drawn, profile, mode, task.max_steps, customer)
        self.grade = NOTHING_YET

    def _graded(self) -> RetailGrade:
        s = self.session
        return grade(s.task, s.talk.current, s.world, s.trail, s.talk.closed)

    @property
    def tools(self) -> tuple[str, ...]:
        return tools.offered(self.session.kernel.rulebook, self.session.mode)

    @property
    def hidden(self) -> RetailSession:
        return self.session

    @property
    def done(self) -> bool:
        return self.session.done

    @property
    def step(self) -> int:
        return self.session.step

    @property
    def score(self) -> float:
        return self.grade.score

    @property
    def terms(self) -> dict[str, float]:
        """The components, and what the caps took off their weighted sum (a never-pass
        condition: an extra write, a skipped yes, no reply, ...; the notes say which)."""
        parts = self.grade.components
        weighted = sum(WEIGHTS[name] * value for name, value in parts.items())
        return {**parts, CAPPED: round(max(0.0, weighted - self.grade.score), 4)}

    @property
    def resolution(self) -> str | None:
        return None

    def call(self, name: str, arguments: dict[str, Any]) -> Result:
        result = tools.call(self.session, name, arguments)
        self.grade = self._graded()
        return result

    def fields(self) -> dict[str, Any]:
        s = self.session
        closed = s.mode == "closed_book"
        return {
            "family": self.task.family,
            "difficulty": self.task.difficulty,
            "instructions": handbook(s.kernel.rulebook) if closed else "",
            "customer_id": s.identified or "",
            "issue_description": s.opening,
            "conversation_history": list(s.conversation),
            "available_actions": [] if s.done else list(self.tools),
            "tools_used": list(s.tools_used),
        }

    def ending(self) -> Ending:
        s = self.session
        expected = {
            "requests": [
                {
                    "resolution": settled.request.call.resolution,
                    "arguments": dict(settled.request.call.arguments),
                    "new_variants": dict(settled.request.targets),
                    "outcome": settled.status,
                    "optimum": settled.optimum,
                    "amount": settled.amount,
                    "reasons": list(settled.reasons),
                }
                for settled in plan(s.task.world, s.talk.current, s.task.rules).settled
            ]
        }
        notes = {name: f"{value:.2f}" for name, value in self.grade.components.items()}
        notes |= {f"request {r.number}": r.line() for r in self.grade.requests}
        if self.grade.notes:
            notes["notes"] = "; ".join(self.grade.notes)
        closed = s.talk.closed
        return Ending(
            termination="resolved" if closed else "step_limit",
            truncated=not closed,
            ground_truth=GroundTruth(expected=expected),
            notes=notes,
        )
