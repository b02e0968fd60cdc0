"""The oracle: reads the ground truth, runs exactly the needed tools, executes the optimum
and explains it. It is the yardstick that shows every scenario is solvable."""

from __future__ import annotations

from collections.abc import Iterable

from openenv.core.env_server.mcp_types import CallToolAction

from novamart.agents.base import Agent, Script, attempt, call, closing_message
from novamart.agents.retail.oracle import oracle_play
from novamart.episode import Episode
from novamart.kernel import Grant
from novamart.kernel.conditions import FieldTest
from novamart.models import NovamartObservation
from novamart.reward import declined
from novamart.tickets import agents as ticket_agents


def investigations(first: NovamartObservation, episode: Episode, tools: Iterable[str]) -> Script:
    """Calls of the investigation ``tools``, in the fact declaration's order (each retried
    while the service is temporarily unavailable)."""
    ids = {"order_id": first.order_id, "customer_id": first.customer_id}
    schema = episode.rules.rulebook.facts
    wanted = set(tools)
    for kind in schema.investigated():
        tool = schema.source_tool(kind)
        if tool in wanted:
            arg = "customer_id" if tool == "check_loyalty" else "order_id"
            yield from attempt(call(tool, **{arg: ids[arg]}))


def resolution_call(first: NovamartObservation, episode: Episode, grant: Grant) -> CallToolAction:
    """The write tool that carries ``grant`` out, with its amount."""
    tool = episode.rules.rulebook.resolutions[grant.resolution].tool
    args: dict[str, object] = {"order_id": first.order_id}
    if tool in ("process_refund", "issue_store_credit"):
        args["amount"] = grant.amount
    if tool == "escalate_to_manager":
        args["reason"] = episode.truth.policies[grant.policy].clause
    return call(tool, **args)


def optimal_actions(first: NovamartObservation, episode: Episode) -> Script:
    """The needed investigation tools, then the optimal resolution with its amount: what
    every privileged reference agent does before it writes to the customer."""
    yield from investigations(first, episode, episode.needed_tools)
    best = episode.truth.optimal
    assert best is not None
    yield from attempt(resolution_call(first, episode, best))


class OracleAgent(Agent):
    name = "oracle"
    privileged = True
    ticket_script = ticket_agents.oracle
    retail_script = oracle_play

    def script(self, first: NovamartObservation, episode: Episode | None) -> Script:
        assert episode is not None, "the oracle needs the hidden episode"
        yield from optimal_actions(first, episode)
        best = episode.truth.optimal
        assert best is not None
        yield call("respond_to_customer", message=self.closing(episode, first, best))

    def closing(self, episode: Episode, first: NovamartObservation, best: Grant) -> str:
        """Thank, give the kernel's reasons when the wish is declined (on the facts the
        episode established: nothing else may be stated), confirm what was done."""
        wish = episode.scenario.wish
        reasons = []
        if declined(episode):
            reasons = [*signs(episode, best), *episode.decide().blocking_reasons(wish)]
        return closing_message(first.customer_name, best.resolution, best.amount, reasons, wish)


def signs(episode: Episode, best: Grant) -> list[str]:
    """What the customer's message showed that makes an overriding policy apply ("you
    reported a swollen battery"): the reason for every refusal when it does."""
    policy = episode.rules.rulebook.policies[best.policy]
    if not policy.overrides:
        return []
    schema = episode.rules.rulebook.facts
    passed = {c.name for c in episode.truth.policies[best.policy].conditions if c.status == "pass"}
    said = []
    for condition in policy.conditions:
        if not isinstance(condition.test, FieldTest):
            continue
        spec = schema.field(condition.test.kind, condition.test.field)
        if condition.name in passed and spec is not None and spec.says_true:
            said.append(f"you reported {spec.says_true[0]}")
    return said
