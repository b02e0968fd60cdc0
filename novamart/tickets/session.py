"""One ticket episode, ready to wire into the environment: ``step`` runs a tool and
returns the step reward as the change of the running grade, so an episode's rewards sum
to its final score and a step that changes nothing earns nothing."""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, ConfigDict

from novamart.kernel import CompiledRulebook, default_kernel
from novamart.tickets.family import FAMILIES, FamilySpec
from novamart.tickets.model import Grade, Scenario, Ticket, ToolResult
from novamart.tickets.state import TicketState
from novamart.tickets.tools import MAX_SEARCHES, call_tool

MAX_STEPS = 6
ERROR_PENALTY = 0.05
MAX_ERROR_PENALTY = 0.2


class StepOutcome(BaseModel):
    model_config = ConfigDict(frozen=True)
    result: ToolResult
    reward: float
    score: float
    grade: Grade
    done: bool


class TicketView(BaseModel):
    """What the agent may see of the episode (never the truth): for the observation."""

    model_config = ConfigDict(frozen=True)
    task_id: str
    family: str
    difficulty: str
    instructions: str
    ticket: Ticket
    available_tools: list[str]
    retrieved_articles: list[str]
    step: int
    max_steps: int
    done: bool


class TicketSession:
    """One ticket episode. ``rules`` is the kernel version that rules policy truths (the
    process-wide default when not given); the scenario is settled with it at start."""

    def __init__(
        self,
        scenario: Scenario,
        max_steps: int = MAX_STEPS,
        rules: CompiledRulebook | None = None,
    ):
        self.family: FamilySpec = FAMILIES[scenario.family]
        verdict = None
        if self.family.settle is not None:
            scenario, verdict = self.family.settle(scenario, rules or default_kernel().snapshot())
        self.scenario = scenario
        self.state = TicketState(scenario=scenario, verdict=verdict)
        self.max_steps = max_steps
        self.grade = self._grade()
        self.done = False
        self.closed = False
        """Closed by the family's closing tool (not by the step limit)."""
        self.rewards: list[float] = []

    def _grade(self) -> Grade:
        """The family's grade less a small charge for failed calls (part of the grade, so
        rewards still sum to the final score)."""
        base = self.family.grade(self.state)
        charge = min(MAX_ERROR_PENALTY, ERROR_PENALTY * self.state.errors)
        if not charge:
            return base
        return base.model_copy(
            update={
                "score": round(max(0.0, base.score - charge), 4),
                "components": base.components | {"failed_calls": -charge},
            }
        )

    def view(self) -> TicketView:
        s = self.scenario
        return TicketView(
            task_id=s.task_id,
            family=s.family,
            difficulty=s.difficulty,
            instructions=self.family.instructions,
            ticket=s.ticket,
            available_tools=self._available(),
            retrieved_articles=self.state.retrieved,
            step=self.state.steps,
            max_steps=self.max_steps,
            done=self.done,
        )

    def _available(self) -> list[str]:
        """The family's tools still worth calling: none once closed, no second escalation,
        no search past the limit."""
        if self.done:
            return []
        spent = set()
        if self.state.escalation_reason is not None:
            spent.add("escalate_to_manager")
        if len(self.state.searches) >= MAX_SEARCHES:
            spent.add("search_kb")
        return [t for t in self.family.tools if t not in spent]

    def step(self, tool: str, arguments: dict[str, Any]) -> StepOutcome:
        if self.done:
            result = ToolResult.failure(tool, "episode_over", "the ticket is closed")
            return StepOutcome(
                result=result, reward=0.0, score=self.grade.score, grade=self.grade, done=True
            )
        self.state.steps += 1
        result = call_tool(self.state, tool, arguments, self.family.tools)
        if not result.ok:
            self.state.errors += 1
        before, self.grade = self.grade, self._grade()
        self.closed = self.closed or (result.ok and tool == self.family.closing_tool)
        self.done = self.closed or self.state.steps >= self.max_steps
        reward = self.grade.score - before.score
        self.rewards.append(reward)
        return StepOutcome(
            result=result, reward=reward, score=self.grade.score, grade=self.grade, done=self.done
        )
