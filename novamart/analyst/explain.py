"""Explain a case or a set of facts: the decision, every condition traced, and "why not".

This is the ``explain --json`` contract, shared by the CLI and ``POST /policy/explain``:
the kernel's traced Explanation plus, for a generated case, which case it is.
"""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict

from novamart.analyst.cases import build_case, sources
from novamart.kernel import Facts
from novamart.kernel.examples import Decider
from novamart.kernel.items import decide_each
from novamart.kernel.trace import Explanation, explain


class CaseInfo(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")
    task: str
    seed: int | None
    opening: str
    """What the customer wrote (an order case's opening, a ticket's text)."""


class CaseExplanation(Explanation):
    case: CaseInfo | None = None


def explain_facts(
    rules: Decider, facts: Facts, resolution: str | None = None, case: CaseInfo | None = None
) -> CaseExplanation:
    """The traced decision on ``facts``; an unknown ``resolution`` is a ValueError."""
    rulebook = rules.rulebook
    traced = explain(rulebook, facts, rules.decide(facts), sources(rulebook), resolution)
    return CaseExplanation(**dict(traced), case=case)


def explain_case(
    rules: Decider, task: str, seed: int | None, resolution: str | None = None
) -> CaseExplanation:
    """The traced decision on every fact of a generated case (its ground truth)."""
    case = build_case(task, seed)
    info = CaseInfo(task=task, seed=seed, opening=case.opening)
    return explain_facts(rules, case.facts, resolution, info)


def explain_each(
    rules: Decider, facts: Facts, kind: str, resolution: str | None = None
) -> dict[str, CaseExplanation]:
    """The traced decision of each member of collection ``kind`` (by its id), each in focus
    in turn; a ValueError when ``kind`` is not a collection or ``resolution`` unknown."""
    checked = rules.rulebook.facts.check(facts)
    ids = [i.item for i in decide_each(rules, checked, kind).items]
    return {
        item: explain_facts(rules, checked.focus(kind, i), resolution) for i, item in enumerate(ids)
    }
