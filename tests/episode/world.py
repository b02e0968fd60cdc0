"""A fixture-world episode (tests/kernel/fixtures/retail_world) played through the real tools.

The world's case is built here from a fact set (issue 20 draws them); the customer is a
script of replies, answering through the episode's simulator hook as any simulator does.
"""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path
from typing import Any

from novamart.analyst.checks import check_rules
from novamart.episode import Episode, MessageRecord
from novamart.kernel import CompiledRulebook
from novamart.scenarios import Mode, TaskSpec
from novamart.scenarios.scenario import CustomerRecord, OrderRecord, Scenario
from novamart.scenarios.tasks import WORLD_TOOLS
from novamart.tools.base import Result
from novamart.tools.declared import declared_tools
from novamart.tools.registry import call_tool

WORLD = Path(__file__).parents[1] / "kernel" / "fixtures" / "retail_world"
USER = {"user_id": "U1", "email": "ada@example.com", "name": "Ada Lovelace", "zip": "02139"}
DELIVERED = {
    "order": {"order_id": "#W1", "status": "delivered"},
    "item": [
        {"item_id": "I1", "order_id": "#W1", "price": 50, "new_price": 60, "status": "delivered"},
        {"item_id": "I2", "order_id": "#W1", "price": 30, "new_price": 25, "status": "delivered"},
        {
            "item_id": "I3",
            "order_id": "#W1",
            "price": 20,
            "new_price": 20,
            "status": "delivered",
            "final_sale": True,
        },
    ],
    "payment": {"payment_id": "gift_card_1", "method": "gift_card", "balance": 100},
    "user": USER,
}
PENDING = {
    "order": {"order_id": "#W2", "status": "pending"},
    "item": [
        {"item_id": "P1", "order_id": "#W2", "price": 40, "new_price": 45, "status": "ordered"},
        {"item_id": "P2", "order_id": "#W2", "price": 10, "new_price": 12, "status": "ordered"},
    ],
    "payment": {"payment_id": "gift_card_2", "method": "gift_card", "balance": 20},
    "user": USER,
}

_rules: CompiledRulebook | None = None


def world_rules() -> CompiledRulebook:
    """The fixture world, loaded with every check the running system makes (once)."""
    global _rules
    if _rules is None:
        _rules = CompiledRulebook(check_rules(WORLD))
    return _rules


class Script:
    """A customer who answers each message with the next line of a script."""

    def __init__(self, replies: Iterable[str]) -> None:
        self.replies = list(replies)

    def reply(self, episode: Episode, record: MessageRecord) -> str:
        return self.replies.pop(0) if self.replies else "ok"


def world_episode(facts: dict[str, Any], replies: Iterable[str] = (), mode: Mode = "guided"):
    rules = world_rules()
    tools = (
        "lookup_order",
        *WORLD_TOOLS,
        *declared_tools(rules.rulebook),
        "escalate_to_manager",
        "respond_to_customer",
    )
    task = TaskSpec(
        name="retail_world", difficulty="hard", max_steps=40, description="", tools=tools
    )
    order = facts["order"]
    scenario = Scenario(
        task="retail_world",
        seed=None,
        customer=CustomerRecord(
            customer_id=USER["user_id"], name=USER["name"], email=USER["email"], tier=None
        ),
        order=OrderRecord(
            order_id=order["order_id"],
            product="",
            category=None,
            price=None,
            days_since_purchase=None,
            opened=None,
            status=order["status"],
        ),
        records=facts,
        claimed_tier=None,
        defect_claimed=False,
        defect_real=False,
        symptom="",
        wish="return_items",
        persona="calm",
        pushes_back=False,
        other=None,
        opening="Hi, I want to change something about my order.",
    )
    episode = Episode.start(task, scenario, rules, mode=mode, offered=tools)
    episode.simulator = Script(replies)
    return episode


def play(episode: Episode, tool: str, **arguments: Any) -> Result:
    """One step, as the environment plays it: counted, dispatched, recorded."""
    episode.step += 1
    result = call_tool(episode, tool, arguments)
    episode.record(tool, f"{tool}{sorted(arguments.items())}", result, by_key=False)
    return result
