"""One episode's state: the hidden scenario, its ground truth, and what the agent did.

The ground truth is the kernel's decision on *all* of the scenario's facts, taken once at
reset. The agent's view is the facts its tools have established so far, each recorded with
the tool and step that revealed it; the write tools ask the kernel about those only. The
episode is the record the reward reads: calls, messages, attempts and the resolution.
"""

from __future__ import annotations

import itertools
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, Protocol

from novamart.kernel import CompiledRulebook, Decision, Facts, Grant
from novamart.language import Reading
from novamart.scenarios import Scenario, TaskSpec

OPENING = "opening_message"
"""The provenance of what the customer's first message shows (the ticket fact)."""


@dataclass(frozen=True, slots=True)
class Provenance:
    tool: str
    step: int


@dataclass(frozen=True, slots=True)
class CallRecord:
    step: int
    tool: str
    key: str
    """The call's canonical form (tool + sorted arguments): equal keys are repeats."""
    error: str | None
    repeat: bool


@dataclass(frozen=True, slots=True)
class MessageRecord:
    """An agent message, read once when sent (novamart.language), with what stood then:
    the fact kinds established and the resolution carried out (novamart.statements checks
    its claims against them)."""

    step: int
    text: str
    reading: Reading
    established: frozenset[str]
    executed: Grant | None
    leaks: bool


@dataclass(slots=True)
class CustomerMood:
    pushed_back: bool = False
    accepted: bool = False
    closed: bool = False
    turns: int = 0


class CustomerSimulator(Protocol):
    """Who answers the agent's messages (novamart.customer when an episode names none):
    returns the reply and may close the conversation (``episode.customer.closed``)."""

    def reply(self, episode: Episode, record: MessageRecord) -> str: ...


@dataclass(slots=True)
class Episode:
    task: TaskSpec
    scenario: Scenario
    rules: CompiledRulebook
    truth: Decision
    facts: Facts
    """Every fact of the case (the hidden truth the tools reveal one kind at a time)."""
    needed: tuple[frozenset[str], ...]
    """The cheapest sets of investigation tools that certify the optimum (any one will do)."""
    step: int = 0
    known: dict[str, Mapping[str, Any]] = field(default_factory=dict)
    provenance: dict[str, Provenance] = field(default_factory=dict)
    calls: list[CallRecord] = field(default_factory=list)
    messages: list[MessageRecord] = field(default_factory=list)
    conversation: list[str] = field(default_factory=list)
    attempted: list[str] = field(default_factory=list)
    executed: Grant | None = None
    executed_step: int | None = None
    customer: CustomerMood = field(default_factory=CustomerMood)
    simulator: CustomerSimulator | None = None
    """Answers the agent's messages instead of the deterministic novamart.customer."""
    _facts: Facts | None = None
    _seen: dict[str, dict[str, Any]] = field(default_factory=dict)

    @classmethod
    def start(cls, task: TaskSpec, scenario: Scenario, rules: CompiledRulebook) -> Episode:
        facts = rules.rulebook.facts.check(scenario.facts())
        truth = rules.decide(facts)
        episode = cls(
            task=task,
            scenario=scenario,
            rules=rules,
            truth=truth,
            facts=facts,
            needed=needed_tools(rules, facts, truth),
        )
        episode.conversation.append(f"customer: {scenario.opening}")
        episode.reveal("ticket", scenario.ticket_fact(), tool=OPENING)
        return episode

    @property
    def done(self) -> bool:
        return self.customer.closed or self.step >= self.task.max_steps

    @property
    def needed_tools(self) -> frozenset[str]:
        """One cheapest certifying set (the first of ``needed``)."""
        return self.needed[0]

    def reveal(self, kind: str, fact: Mapping[str, Any], tool: str) -> None:
        """Establish a fact kind, remembering which tool at which step revealed it first."""
        if kind not in self.known:
            self.known[kind] = fact
            self.provenance[kind] = Provenance(tool=tool, step=self.step)
            self._facts = None

    def record(self, tool: str, key: str, result: dict[str, Any], by_key: bool) -> CallRecord:
        """Log a finished call. It is a repeat (a loop) when the same call was made before
        and answered the same (or, when ``by_key``, was made before at all: a message)."""
        previous = self._seen.get(key)
        repeat = previous is not None and (by_key or previous == result)
        self._seen[key] = result
        error = None if result["ok"] else result["error"]["code"]
        call = CallRecord(self.step, tool, key, error, repeat)
        self.calls.append(call)
        return call

    def established(self) -> Facts:
        if self._facts is None:
            self._facts = Facts(**self.known)
        return self._facts

    def decide(self) -> Decision:
        """The kernel's decision on the established facts (memoised by the kernel)."""
        return self.rules.decide(self.established())


def needed_tools(
    rules: CompiledRulebook, facts: Facts, truth: Decision
) -> tuple[frozenset[str], ...]:
    """The cheapest sets of investigation tools whose facts certify the true optimum.

    A set certifies it when the decision on its facts (and those known from the start)
    already picks the same resolution and amount, and no policy still undetermined could
    grant something better. Every set of the smallest size that certifies is returned, so
    which policy the optimum is credited to (and the rule files' order or names) never
    decides which tools were "needed".
    """
    schema = rules.rulebook.facts
    kinds = schema.investigated()
    present = facts.present()
    given = {k: v for k, v in present.items() if k not in kinds}  # known from the start
    for size in range(len(kinds) + 1):
        found = []
        for subset in itertools.combinations(kinds, size):
            partial = Facts(**given, **{k: present.get(k) for k in subset})
            if _certifies(rules, rules.decide(partial), truth):
                found.append(frozenset(str(schema.source_tool(k)) for k in subset))
        if found:
            return tuple(found)
    return (frozenset(str(schema.source_tool(k)) for k in kinds),)


def _certifies(rules: CompiledRulebook, decision: Decision, truth: Decision) -> bool:
    best, want = decision.optimal, truth.optimal
    if best is None or want is None:
        return False
    if (best.resolution, best.amount) != (want.resolution, want.amount):
        return False
    policies = rules.rulebook.policies
    return not any(
        grant.quality > want.quality
        for name, verdict in decision.policies.items()
        if verdict.status == "undetermined"
        for grant in policies[name].grants
    )
