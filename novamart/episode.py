"""One episode's state: the hidden scenario, its ground truth, and what the agent did.

The ground truth is the kernel's decision on *all* of the scenario's facts, taken once at
reset. The agent's view is the facts its tools have established so far, each recorded with
the tool and step that revealed it; the write tools ask the kernel about those only. The
world changes only by the effects of declared resolutions carried out (``state``; what the
agent knows of a changed kind changes with it), and the conversation's events arrive in
order (``events``: from a tool, or from the customer's reply). The episode is the record the
reward reads: calls, messages, attempts, the resolutions carried out and the events.
"""

from __future__ import annotations

import itertools
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, Protocol

from novamart.kernel import CompiledRulebook, Decision, Facts, Grant
from novamart.kernel import events as conversation
from novamart.kernel.conditions import FieldTest
from novamart.kernel.declared import EVENT_KIND
from novamart.kernel.effects import REQUEST_KIND, SELECTED
from novamart.language import Reading
from novamart.scenarios import Mode, Scenario, TaskSpec

OPENING = "opening_message"
"""The provenance of what the customer's first message shows (the ticket fact)."""
TRANSIENT = "service_unavailable"
"""The error code of a tool that is temporarily unavailable (the same call works again)."""


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
    fault: bool = False
    """A transient failure the case injected (novamart.scenarios): not the agent's error."""


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


@dataclass(frozen=True, slots=True)
class CarriedOut:
    """A declared resolution carried out: what was asked, at which step, under which policy
    (none closed book) and for how much; ``truth`` is what the policies say of it on the
    whole world at that step (carried out, declined, refused), never shown to the agent."""

    step: int
    resolution: str
    arguments: Mapping[str, Any]
    amount: float
    policy: str
    truth: str


@dataclass(frozen=True, slots=True)
class Asked:
    """A call of a generated write tool, with the status the gate gave it (guided: on what
    the agent knew; closed book: on the world): what a declining resolution declines."""

    step: int
    resolution: str
    arguments: Mapping[str, Any]
    status: str


@dataclass(frozen=True, slots=True)
class EventRecord:
    """A conversation event that arrived: which, at which step, from what (a tool's name, or
    ``customer`` for a reply)."""

    step: int
    event: str
    source: str


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
    mode: Mode = "guided"
    offered: tuple[str, ...] = ()
    """The tools of the case in its mode (closed_book offers no check_policy)."""
    faults: set[str] = field(default_factory=set)
    """Tools whose next well-formed call fails as temporarily unavailable."""
    step: int = 0
    known: dict[str, Any] = field(default_factory=dict)
    """Kind -> the record (a list of them for a collection) the agent has established."""
    provenance: dict[str, Provenance] = field(default_factory=dict)
    calls: list[CallRecord] = field(default_factory=list)
    messages: list[MessageRecord] = field(default_factory=list)
    conversation: list[str] = field(default_factory=list)
    attempted: list[str] = field(default_factory=list)
    executed: Grant | None = None
    executed_step: int | None = None
    state: Facts | None = None
    """The hidden world now: ``facts`` changed by every effect carried out (set at start)."""
    changed: set[str] = field(default_factory=set)
    """The kinds an effect or an event changed (read from ``state``, not the scenario)."""
    carried: list[CarriedOut] = field(default_factory=list)
    asked: list[Asked] = field(default_factory=list)
    events: list[EventRecord] = field(default_factory=list)
    customer: CustomerMood = field(default_factory=CustomerMood)
    simulator: CustomerSimulator | None = None
    """Answers the agent's messages instead of the deterministic novamart.customer."""
    _facts: Facts | None = None
    _seen: dict[str, dict[str, Any]] = field(default_factory=dict)

    @classmethod
    def start(
        cls,
        task: TaskSpec,
        scenario: Scenario,
        rules: CompiledRulebook,
        mode: Mode = "guided",
        offered: tuple[str, ...] | None = None,
    ) -> Episode:
        facts = rules.rulebook.facts.check(scenario.facts())
        truth = rules.decide(facts)
        episode = cls(
            task=task,
            scenario=scenario,
            rules=rules,
            truth=truth,
            facts=facts,
            needed=needed_tools(rules, facts, truth),
            mode=mode,
            offered=task.tools if offered is None else offered,
            faults=set(scenario.faults),
            state=facts,
        )
        episode.conversation.append(f"customer: {scenario.opening}")
        for kind, spec in rules.rulebook.facts.kinds.items():
            if spec.revealed_by is None and kind != REQUEST_KIND:  # the first message shows
                episode.reveal(kind, scenario.record(kind), tool=OPENING)
        if EVENT_KIND in rules.rulebook.facts.kinds:  # the conversation, before anything
            episode._set_events(conversation.begun(rules.rulebook.facts, facts), OPENING)
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

    def hidden(self, kind: str) -> Any:
        """What the world holds of ``kind`` now, as a tool would show it: the scenario's
        record (a list for a collection) until an effect or event changed it."""
        if kind not in self.changed:
            raw = self.scenario.records.get(kind, {})
            return [dict(m) for m in raw] if isinstance(raw, list) else dict(raw)
        assert self.state is not None
        members = self.state.collection(kind)
        if members is not None:  # without what a request derives (selected)
            return [{k: v for k, v in m.items() if k != SELECTED} for m in members]
        return dict(self.state.record(kind) or {})

    def world(self) -> Facts:
        assert self.state is not None  # set by start
        return self.state

    def changes(self, state: Facts, kinds: set[str]) -> None:
        """The world is now ``state`` (effects carried out changed ``kinds``); what the agent
        knows of those kinds changes with it, as the tool that changed them says."""
        self.state = state
        self.changed |= kinds
        for kind in kinds & set(self.known):
            self.known[kind] = self.hidden(kind)
        self._facts = None

    def arrive(self, event: str, source: str) -> None:
        """A conversation event happens now (from the tool ``source``, or ``customer``)."""
        schema = self.rules.rulebook.facts
        self.events.append(EventRecord(step=self.step, event=event, source=source))
        self._set_events(conversation.arrive(schema, self.world(), event), source)

    def _set_events(self, state: Facts, source: str) -> None:
        """Events are the conversation's: the agent witnesses every one it takes part in."""
        self.reveal(EVENT_KIND, {}, source)
        self.changes(state, {EVENT_KIND})

    def record(self, tool: str, key: str, result: dict[str, Any], by_key: bool) -> CallRecord:
        """Log a finished call. It is a repeat (a loop) when the same call was made before
        and answered the same (or, when ``by_key``, was made before at all: a message)."""
        error = None if result["ok"] else result["error"]["code"]
        fault = error == TRANSIENT
        previous = self._seen.get(key)
        repeat = not fault and previous is not None and (by_key or previous == result)
        if not fault:  # retrying a transient failure is not a repeat
            self._seen[key] = result
        call = CallRecord(self.step, tool, key, error, repeat, fault)
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
    grantors, blockers = _grantors(rules, truth), _blockers(rules, truth)
    for size in range(len(kinds) + 1):
        found = []
        for subset in itertools.combinations(kinds, size):
            known = {*subset, *given}
            if not any(g <= known for g in grantors):
                continue  # no policy could grant the optimum on these facts
            if not all(any(b <= known for b in bs) for bs in blockers):
                continue  # some policy would stay undetermined: it cannot certify
            partial = facts.only(known)
            if _certifies(rules, rules.decide(partial), truth):
                found.append(frozenset(str(schema.source_tool(k)) for k in subset))
        if found:
            return tuple(found)
    return (frozenset(str(schema.source_tool(k)) for k in kinds),)


def _grantors(rules: CompiledRulebook, truth: Decision) -> list[set[str]]:
    """The fact kinds each policy that grants the optimum (its resolution) on all the facts
    needs to grant it at all: every kind it tests (one passing condition's for a policy that
    needs only one), and the kinds its amount reads. A policy whose own conditions fail on all
    the facts fails on any part of them, so a subset holding none of these cannot certify."""
    want = truth.optimal
    if want is None:
        return []
    found = []
    for name, verdict in truth.policies.items():
        policy = rules.rulebook.policies[name]
        grant = next((g for g in policy.grants if g.resolution == want.resolution), None)
        if grant is None:
            continue
        status = {c.name: c.status for c in verdict.conditions}
        tested = [(c.name, c.test.kind) for c in policy.conditions if isinstance(c.test, FieldTest)]
        amount = {ref.partition(".")[0] for ref in (grant.amount.field, grant.amount.by) if ref}
        if policy.any_condition:  # its own conditions count, whatever an override set aside
            found += [{kind, *amount} for c, kind in tested if status.get(c) == "pass"]
        elif not any(status.get(c) == "fail" for c, _ in tested):
            found.append({kind for _, kind in tested} | amount)
    return found


def _blockers(rules: CompiledRulebook, truth: Decision) -> list[list[set[str]]]:
    """For each policy a certificate must see blocked (every other one for a fallback
    optimum, else those that could grant better), the fact kinds that would show it blocked:
    any one failed condition's, or all of them for a policy that needs only one to hold. A
    subset missing all of them leaves that policy undetermined, so it is not tried (this
    only saves rule-engine calls)."""
    want = truth.optimal
    if want is None:
        return []
    policies = rules.rulebook.policies
    fallback = policies[want.policy].is_fallback
    found = []
    for name, verdict in truth.policies.items():
        policy = policies[name]
        better = any(g.quality > want.quality for g in policy.grants)
        if name == want.policy or verdict.status != "blocked" or not (fallback or better):
            continue
        failed = {c.name for c in verdict.failed()}
        kinds = [
            {c.test.kind}
            for c in policy.conditions
            if c.name in failed and isinstance(c.test, FieldTest)
        ]
        if policy.any_condition:
            kinds = [set().union(*kinds)] if kinds else []
        if kinds:
            found.append(kinds)
    return found


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
