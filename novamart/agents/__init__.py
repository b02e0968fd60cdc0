"""Reference agents: the oracle, a heuristic, a random agent and the exploits."""

from __future__ import annotations

from novamart.agents.base import Agent
from novamart.agents.exploits import (
    DoNothingAgent,
    EscalateEverythingAgent,
    PromiseEverythingAgent,
    RefundEverythingAgent,
    RespondSpamAgent,
    ToolSpamAgent,
)
from novamart.agents.heuristic import HeuristicAgent
from novamart.agents.oracle import OracleAgent
from novamart.agents.random_agent import RandomAgent

AGENTS: dict[str, type[Agent]] = {
    cls.name: cls
    for cls in (
        OracleAgent,
        HeuristicAgent,
        RandomAgent,
        DoNothingAgent,
        RefundEverythingAgent,
        EscalateEverythingAgent,
        PromiseEverythingAgent,
        ToolSpamAgent,
        RespondSpamAgent,
    )
}
EXPLOITS = (
    "do_nothing",
    "refund_everything",
    "escalate_everything",
    "promise_everything",
    "tool_spam",
    "respond_spam",
)

__all__ = ["AGENTS", "EXPLOITS", "Agent"]
