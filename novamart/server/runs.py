"""The two kinds of episode behind one small interface, so the environment runs either alike.

An order case (novamart.episode + novamart.reward) and a support ticket (novamart.tickets)
differ in their tools, truth and grader, but the environment needs the same few things of
both: run a call, whether the episode is over, the running grade and its terms (what a call
earned is their change: novamart.server.rubrics), and the typed observation fields of the
kind.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any, Protocol

from novamart.episode import CustomerSimulator, Episode
from novamart.kb import default_kb
from novamart.kb.handbook import handbook
from novamart.kernel import CompiledRulebook, Grant
from novamart.models import GroundTruth, TerminationReason, TruthGrant
from novamart.retail.session import RetailCustomer, RetailSession
from novamart.reward import (
    ZERO,
    CommunicationJudge,
    Judgement,
    grade,
    grader_notes,
    judged,
    judged_notes,
)
from novamart.scenarios import Mode, TaskSpec, build_scenario
from novamart.scenarios.retail_world import RetailRules
from novamart.tickets import FAMILIES, TicketSession
from novamart.tickets.dataset import scenario_from_row
from novamart.tools.base import Result
from novamart.tools.registry import TOOLS, call_tool, offered

Hidden = Episode | TicketSession | RetailSession
"""What a privileged in-process agent (the oracle) may read: the episode, truth included."""
SNIPPET = 240


@dataclass(frozen=True)
class Ending:
    """What the terminal observation reveals: why it ended, the truth, the grader's notes."""

    termination: TerminationReason
    truncated: bool
    ground_truth: GroundTruth
    notes: dict[str, str]


class Run(Protocol):
    task: TaskSpec
    seed: int | None

    @property
    def tools(self) -> tuple[str, ...]:
        """The tools this episode offers (an order case's depend on its mode)."""
        ...

    @property
    def hidden(self) -> Hidden: ...

    @property
    def done(self) -> bool: ...

    @property
    def step(self) -> int: ...

    @property
    def score(self) -> float:
        """The running grade in [0, 1]: the sum of the rewards so far."""
        ...

    @property
    def terms(self) -> dict[str, float]:
        """The running grade's parts, for ``/state``."""
        ...

    @property
    def resolution(self) -> str | None: ...

    def call(self, name: str, arguments: dict[str, Any]) -> Result:
        """Run one tool call as one step (the episode is not over); regrade."""
        ...

    def fields(self) -> dict[str, Any]:
        """The observation fields of this kind of episode, facts not yet discovered empty."""
        ...

    def ending(self) -> Ending:
        """The reveal, once the episode is over."""
        ...


class PolicyRun:
    """An order case under the policies: novamart.episode, graded by novamart.reward."""

    def __init__(
        self,
        task: TaskSpec,
        seed: int | None,
        rules: CompiledRulebook,
        mode: Mode = "guided",
        customer: CustomerSimulator | None = None,
        judge: CommunicationJudge | None = None,
    ) -> None:
        """``judge`` grades the communication term once the episode is over (None: the
        reader's grade stands)."""
        self.task, self.seed = task, seed
        scenario = build_scenario(task.name, seed, rules.rulebook)
        self.episode = Episode.start(task, scenario, rules, mode, offered(task, mode))
        self.episode.simulator = customer
        self.grade = ZERO
        self.judge = judge
        self.judgement: Judgement | None = None

    @property
    def tools(self) -> tuple[str, ...]:
        return self.episode.offered

    @property
    def hidden(self) -> Hidden:
        return self.episode

    @property
    def done(self) -> bool:
        return self.episode.done

    @property
    def step(self) -> int:
        return self.episode.step

    @property
    def score(self) -> float:
        return self.grade.value

    @property
    def terms(self) -> dict[str, float]:
        return dict(self.grade.terms)

    @property
    def resolution(self) -> str | None:
        return self.episode.executed.resolution if self.episode.executed else None

    def call(self, name: str, arguments: dict[str, Any]) -> Result:
        episode = self.episode
        episode.step += 1
        key = call_key(name, arguments, episode.step)
        result = call_tool(episode, name, arguments)
        spec = TOOLS.get(name)
        episode.record(name, key, result, by_key=spec is not None and spec.kind == "communicate")
        self.grade = grade(episode)
        if self.judge is not None and episode.done:  # the last call: judged once
            self.judgement = self.judgement or self.judge.judge(episode)
            self.grade = judged(episode, self.grade, self.judgement)
        return result

    def fields(self) -> dict[str, Any]:
        episode = self.episode
        scenario = episode.scenario
        order, customer = episode.known.get("order", {}), episode.known.get("customer", {})
        closed = episode.mode == "closed_book"
        return {
            "family": self.task.family,
            "difficulty": self.task.difficulty,
            "instructions": handbook(episode.rules.rulebook) if closed else "",
            "customer_id": scenario.customer.customer_id,
            "customer_name": scenario.customer.name,
            "issue_description": scenario.opening,
            "order_id": scenario.order.order_id,
            "days_since_purchase": order.get("days_since_purchase"),
            "customer_tier": customer.get("tier"),
            "conversation_history": list(episode.conversation),
            "available_actions": self._available(),
            "tools_used": [call.tool for call in episode.calls],
        }

    def ending(self) -> Ending:
        episode = self.episode
        truth = episode.truth
        wish = episode.scenario.wish
        optimal = truth.optimal
        revealed = GroundTruth(
            optimal=_grant(optimal) if optimal else None,
            granted_by=[
                g.policy for g in truth.eligible if optimal and g.resolution == optimal.resolution
            ],
            eligible=[_grant(g) for g in truth.eligible],
            wish=wish,
            reasons=[] if truth.grant_for(wish) else truth.blocking_reasons(wish),
            needed_tools=[sorted(s) for s in episode.needed],
        )
        closed = episode.customer.closed
        notes = grader_notes(episode)
        return Ending(
            termination="resolved" if closed else "step_limit",
            truncated=not closed,
            ground_truth=revealed,
            notes=notes if self.judgement is None else judged_notes(notes, self.judgement),
        )

    def _available(self) -> list[str]:
        if self.episode.done:
            return []
        tools = self.episode.offered
        if self.episode.executed is not None:
            return [t for t in tools if TOOLS[t].kind != "resolve"]
        return list(tools)


def _grant(grant: Grant) -> TruthGrant:
    return TruthGrant(
        resolution=grant.resolution, policy=grant.policy, amount=grant.amount, quality=grant.quality
    )


def call_key(name: str, arguments: dict[str, Any], step: int) -> str:
    """A call's canonical form (tool + sorted arguments): equal keys are repeats. Arguments
    JSON cannot write (mixed-type keys, absurd nesting, huge integers) key by their step, so
    they are never taken for a repeat; the tool refuses them anyway."""
    try:
        return f"{name}:{json.dumps(arguments, sort_keys=True, default=str)}"
    except (TypeError, ValueError, RecursionError):
        return f"{name}:<unkeyable call at step {step}>"


@dataclass
class TicketRun:
    """A support ticket of one of the families: novamart.tickets, graded by its family."""

    task: TaskSpec
    seed: int | None
    session: TicketSession
    tools_used: list[str] = field(default_factory=list)

    @classmethod
    def start(
        cls,
        task: TaskSpec,
        seed: int | None,
        rules: CompiledRulebook,
        row: dict[str, Any] | None = None,
    ) -> TicketRun:
        """The family's canonical ticket, its generated variant ``seed``, or a dataset row."""
        family = FAMILIES[task.family]
        if row is not None:
            scenario = scenario_from_row(task.family, row)
        else:
            scenario = family.canonical() if seed is None else family.generate(seed)
        return cls(task, seed, TicketSession(scenario, task.max_steps, rules))

    @property
    def hidden(self) -> Hidden:
        return self.session

    @property
    def tools(self) -> tuple[str, ...]:
        return self.task.tools

    @property
    def done(self) -> bool:
        return self.session.done

    @property
    def step(self) -> int:
        return self.session.state.steps

    @property
    def score(self) -> float:
        return self.session.grade.score

    @property
    def terms(self) -> dict[str, float]:
        return dict(self.session.grade.components)

    @property
    def resolution(self) -> str | None:
        return None

    def call(self, name: str, arguments: dict[str, Any]) -> Result:
        outcome = self.session.step(name, arguments)
        self.tools_used.append(name)
        return outcome.result.as_dict()

    def ending(self) -> Ending:
        truth = self.session.scenario.truth
        labels = truth.model_dump(
            include={"category", "priority", "kb_id", "requires_escalation", "fields"},
            exclude_none=True,
        )
        if not labels.get("fields"):
            labels.pop("fields", None)
        if truth.situations:
            labels["situations"] = list(truth.situations)
        if truth.must_mention:
            labels["must_convey"] = [c.name for c in truth.must_mention]
        grade_ = self.session.grade
        notes = {
            name: f"{value:.2f}" + (f": {grade_.why[name]}" if name in grade_.why else "")
            for name, value in grade_.components.items()
        }
        notes |= {name: why for name, why in grade_.why.items() if name not in notes}
        if grade_.notes:
            notes["notes"] = "; ".join(grade_.notes)
        closed = self.session.closed
        return Ending(
            termination="ticket_closed" if closed else "step_limit",
            truncated=not closed,
            ground_truth=GroundTruth(expected=labels),
            notes=notes,
        )

    def fields(self) -> dict[str, Any]:
        view = self.session.view()
        ticket, kb = view.ticket, default_kb()
        conversation = [f"customer: {ticket.text}"]
        if self.session.state.response is not None:
            conversation.append(f"agent: {self.session.state.response}")
        return {
            "family": view.family,
            "difficulty": self.task.difficulty,
            "instructions": view.instructions,
            "customer_name": ticket.customer_name,
            "issue_description": ticket.text,
            "ticket_id": ticket.ticket_id,
            "ticket_subject": ticket.subject,
            "requested_fields": list(ticket.requested_fields),
            "account_on_file": dict(ticket.account_on_file),
            "kb_results": [
                {
                    "article_id": i,
                    "title": kb.articles[i].title,
                    "snippet": kb.articles[i].body[:SNIPPET],
                }
                for i in view.retrieved_articles
            ],
            "conversation_history": conversation,
            "available_actions": view.available_tools,
            "tools_used": list(self.tools_used),
        }


def start_run(
    task: TaskSpec,
    seed: int | None,
    rules: CompiledRulebook,
    ticket: dict[str, Any] | None,
    mode: Mode = "guided",
    customer: CustomerSimulator | None = None,
    judge: CommunicationJudge | None = None,
    retail_customer: RetailCustomer | None = None,
    variant: int | None = None,
) -> Run:
    """The run of ``task``; ``ticket`` (one dataset row) only for ticket tasks, a ``mode``
    other than guided only for order cases; ``customer`` answers an order case's messages
    (None: the deterministic simulator) and ``judge`` grades their communication (None: the
    reader); a retail case plays policy ``variant`` of the retail rules (an order case's
    variant comes compiled in ``rules``)."""
    if task.is_retail:
        from novamart.server.retail_run import RetailRun  # it builds on this module's Ending

        if ticket is not None:
            raise ValueError(f"the ticket argument is for ticket tasks, not {task.name}")
        return RetailRun(task, seed, mode, retail_customer, RetailRules(variant=variant))
    if task.is_ticket:
        if mode != "guided":
            raise ValueError(f"mode {mode!r} is for order cases; {task.name} plays guided only")
        return TicketRun.start(task, seed, rules, ticket)
    if ticket is not None:
        raise ValueError(
            f"the ticket argument is for ticket tasks ({', '.join(FAMILIES)}), not {task.name}"
        )
    return PolicyRun(task, seed, rules, mode, customer, judge)
