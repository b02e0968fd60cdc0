"""The running grade's terms as an OpenEnv rubric tree, so a trainer can log each by name.

The grade is computed where it always was (novamart.reward for order cases, each ticket
family's grader); this tree reads it after every step. Each leaf scores the change of one
term of the grade at this step, and the root the change of the whole grade (the step
reward), so the leaves of a step are its ``reward_breakdown`` and the rewards are what they
were without the tree. The tree:

- one leaf per order-case term (``resolution``, ``tool_use``, ``communication`` and each
  penalty), named by novamart.reward's ``TERMS``;
- ``tickets``, a ``RubricDict`` with one rubric per ticket family, one leaf per component
  of that family's grade.

Term names are read at run time (the reward's ``TERMS``, the ticket graders' components):
a term added to a grader appears as a leaf without an edit here, also one that first shows
up mid-episode (extraction grades one component per requested field).
"""

from __future__ import annotations

from functools import cache
from typing import Any

from openenv.core.rubrics import Rubric, RubricDict

from novamart.retail.grade import WEIGHTS as RETAIL_COMPONENTS
from novamart.reward import TERMS
from novamart.server.retail_run import CAPPED
from novamart.server.runs import Run
from novamart.tickets import FAMILIES, TicketSession

CLIP = "clip"
"""The part of an order case's step reward that clipping the grade to [0, 1] absorbed."""


class _Bound:
    """The run the tree is scoring (set at every reset) and its grade as of this step."""

    def __init__(self) -> None:
        self.run: Run | None = None
        self.score = 0.0
        self.terms: dict[str, float] = {}

    def refresh(self) -> None:
        run = self.run
        self.score, self.terms = (0.0, {}) if run is None else (run.score, run.terms)


class TermChange(Rubric):
    """One term of the running grade; scores its change since the previous step."""

    def __init__(self, name: str, bound: _Bound) -> None:
        super().__init__()
        self.name = name
        self._bound = bound
        self._before = 0.0

    def _now(self) -> float:
        return self._bound.terms.get(self.name, 0.0)

    def forward(self, action: Any, observation: Any) -> float:
        now = self._now()
        change = now - self._before
        object.__setattr__(self, "_before", now)  # not a child: skip Rubric's registration
        return change

    def score(self, action: Any, observation: Any) -> None:
        """Score this step: through the hooks when someone registered one, else directly
        (a step scores every leaf; the hook machinery costs more than the subtraction)."""
        if self._forward_hooks or self._forward_pre_hooks:
            self(action, observation)
        else:
            object.__setattr__(self, "last_score", self.forward(action, observation))

    def reset(self) -> None:
        object.__setattr__(self, "_before", self._now())
        object.__setattr__(self, "last_score", None)


class GradeChange(Rubric):
    """A grade made of terms: scores the grade's change; its leaves, each term's."""

    def __init__(self, names: list[str], bound: _Bound) -> None:
        super().__init__()
        self._bound = bound
        self._before = 0.0
        for name in names:
            self._rubric_children[name] = TermChange(name, bound)

    def _leaves(self) -> dict[str, TermChange]:
        children = self._rubric_children
        for name in self._bound.terms:
            if name not in children:
                children[name] = TermChange(name, self._bound)
        return children

    def forward(self, action: Any, observation: Any) -> float:
        for leaf in self._leaves().values():
            leaf.score(action, observation)
        now = self._bound.score
        change = now - self._before
        object.__setattr__(self, "_before", now)
        return change

    def reset(self) -> None:
        object.__setattr__(self, "_before", self._bound.score)
        object.__setattr__(self, "last_score", None)
        for leaf in self._leaves().values():
            leaf.reset()

    def breakdown(self) -> dict[str, float]:
        return {
            name: leaf.last_score or 0.0
            for name, leaf in self._rubric_children.items()
            if leaf.last_score is not None
        }


@cache
def ticket_components(family: str) -> tuple[str, ...]:
    """The components of ``family``'s grade, as its canonical ticket starts."""
    return tuple(TicketSession(FAMILIES[family].canonical()).grade.components)


class NovamartRubric(Rubric):
    """The root: order-case terms as direct children, ticket families under ``tickets``, the
    retail grade's components under ``retail``."""

    def __init__(self) -> None:
        super().__init__()
        bound = _Bound()
        object.__setattr__(self, "_bound", bound)
        object.__setattr__(self, "_order", GradeChange(list(TERMS), bound))
        for name, leaf in self._order.named_children():
            self._rubric_children[name] = leaf
        self.tickets = RubricDict(
            {family: GradeChange(list(ticket_components(family)), bound) for family in FAMILIES}
        )
        self.retail = GradeChange([*RETAIL_COMPONENTS, CAPPED], bound)

    def bind(self, run: Run) -> None:
        """Score ``run`` from now on (call at reset, then reset the tree)."""
        self._bound.run = run

    def _active(self) -> GradeChange:
        run = self._bound.run
        if run is not None and run.task.is_ticket:
            return self.tickets[run.task.family]
        if run is not None and run.task.is_retail:
            return self.retail
        return self._order

    def forward(self, action: Any, observation: Any) -> float:
        self._bound.refresh()
        chosen = self._active()
        if chosen is self._order:  # its leaves are this rubric's own children too
            self._rubric_children.update(chosen._leaves())
        return chosen(action, observation)

    def reset(self) -> None:
        self._bound.refresh()
        self.last_score = None
        self._active().reset()

    def breakdown(self) -> dict[str, float]:
        """This step's reward split by term. Order cases: every term, plus ``clip``;
        tickets and retail cases: the components that changed (unweighted)."""
        chosen = self._active()
        parts = chosen.breakdown()
        if chosen is not self._order:
            return {name: change for name, change in parts.items() if change != 0.0}
        parts[CLIP] = (chosen.last_score or 0.0) - sum(parts.values())
        return parts
