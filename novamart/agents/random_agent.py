"""The random agent: a uniformly random available tool with plausible, often wrong, arguments.
Seeded, so its episodes are reproducible; a floor for comparison, not a strategy."""

from __future__ import annotations

import random

from novamart.agents.base import Agent, Script, call
from novamart.agents.exploits import POLICIES, claimed_price
from novamart.episode import Episode
from novamart.kernel.money import percent_of
from novamart.models import NovamartObservation
from novamart.tickets import agents as ticket_agents

MESSAGES = (
    "Thank you for contacting NovaMart.",
    "Could you describe the problem, please?",
    "I'm sorry for the trouble.",
    "We will look into this.",
)


class RandomAgent(Agent):
    name = "random"
    ticket_script = ticket_agents.random_agent

    def script(self, first: NovamartObservation, episode: Episode | None) -> Script:
        rng = random.Random(f"random-agent:{self.seed}")
        observation = first
        price = claimed_price(first.issue_description)
        while True:
            tool = rng.choice(observation.available_actions or ["respond_to_customer"])
            order_id = first.order_id if rng.random() < 0.8 else "ORD-000000"
            arguments: dict[str, object] = {
                "lookup_order": {"order_id": order_id},
                "verify_defect": {"order_id": order_id},
                "check_loyalty": {"customer_id": first.customer_id},
                "check_policy": {"policy": rng.choice(POLICIES), "order_id": order_id},
                "process_refund": {"order_id": order_id, "amount": price},
                "issue_store_credit": {"order_id": order_id, "amount": percent_of(price, 75)},
                "process_exchange": {"order_id": order_id},
                "escalate_to_manager": {"order_id": order_id, "reason": "unsure"},
                "respond_to_customer": {"message": rng.choice(MESSAGES)},
            }[tool]
            observation = yield call(tool, **arguments)
