"""The oracle: reads the ground truth, runs exactly the needed tools, executes the optimum
and explains it. It is the yardstick that shows every scenario is solvable."""

from __future__ import annotations

from novamart.agents.base import Agent, Script, attempt, call, closing_message
from novamart.episode import Episode
from novamart.models import NovamartObservation
from novamart.reward import declined
from novamart.tickets import agents as ticket_agents


class OracleAgent(Agent):
    name = "oracle"
    privileged = True
    ticket_script = ticket_agents.oracle

    def script(self, first: NovamartObservation, episode: Episode | None) -> Script:
        assert episode is not None, "the oracle needs the hidden episode"
        ids = {"order_id": first.order_id, "customer_id": first.customer_id}
        schema = episode.rules.rulebook.facts
        for kind in schema.investigated():
            tool = schema.source_tool(kind)
            if tool in episode.needed_tools:
                arg = "customer_id" if tool == "check_loyalty" else "order_id"
                yield from attempt(call(tool, **{arg: ids[arg]}))
        best = episode.truth.optimal
        assert best is not None
        tool = episode.rules.rulebook.resolutions[best.resolution].tool
        args = {"order_id": first.order_id}
        if tool in ("process_refund", "issue_store_credit"):
            args["amount"] = best.amount
        if tool == "escalate_to_manager":
            args["reason"] = episode.truth.policies[best.policy].clause
        yield from attempt(call(tool, **args))
        wish = episode.scenario.wish
        reasons = episode.truth.blocking_reasons(wish)[:1] if declined(episode) else []
        message = closing_message(first.customer_name, best.resolution, best.amount, reasons)
        yield call("respond_to_customer", message=message)
