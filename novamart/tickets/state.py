"""The mutable state of one ticket episode: what the agent has done so far.

Graders are pure functions of this state, so the running grade can be recomputed after
every step and the step reward is the change in it.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from novamart.kernel import CompiledRulebook
from novamart.tickets.model import Scenario


@dataclass(frozen=True)
class Search:
    query: str
    hits: tuple[str, ...]


@dataclass
class TicketState:
    scenario: Scenario
    category: str | None = None
    priority: str | None = None
    extraction: dict[str, str | None] | None = None
    searches: list[Search] = field(default_factory=list)
    escalation_reason: str | None = None
    response: str | None = None
    errors: int = 0
    steps: int = 0
    verdict: dict[str, Any] | None = None
    """The kernel's explanation of the task's must-escalate policy (escalation_safety and
    account_recovery), shown once the agent has escalated."""
    rules: CompiledRulebook | None = None
    """The rules version the ticket is ruled and read under (the message reader takes its
    words for resolutions from it); the process-wide default when None."""

    @property
    def answered(self) -> bool:
        """Whether the reply was sent: credit for the searches counts from then on, so no step
        before it tells which search result was the answer."""
        return self.response is not None

    @property
    def retrieved(self) -> list[str]:
        """Every article id any search returned, first appearance first."""
        return list(dict.fromkeys(h for s in self.searches for h in s.hits))

    def best_rank(self, article_id: str | None) -> int | None:
        """The best (1-based) rank ``article_id`` reached in any search."""
        ranks = [s.hits.index(article_id) + 1 for s in self.searches if article_id in s.hits]
        return min(ranks) if ranks else None
