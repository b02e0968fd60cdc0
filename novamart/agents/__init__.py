"""Reference agents: the oracle, the honest writer, a heuristic, a random agent and the
exploits; each plays both kinds of task (order cases and support tickets)."""

from __future__ import annotations

from novamart.agents.base import Agent
from novamart.agents.exploits import (
    DoNothingAgent,
    EscalateEverythingAgent,
    MostCommonCategoryAgent,
    PasteArticlesAgent,
    PromiseEverythingAgent,
    RefundEverythingAgent,
    RespondSpamAgent,
    StuffFieldsAgent,
    ToolSpamAgent,
    WholeKbAgent,
)
from novamart.agents.heuristic import HeuristicAgent
from novamart.agents.honest import HonestAgent
from novamart.agents.oracle import OracleAgent
from novamart.agents.random_agent import RandomAgent
from novamart.agents.tricks import TRICKS

AGENTS: dict[str, type[Agent]] = {
    cls.name: cls
    for cls in (
        OracleAgent,
        HonestAgent,
        HeuristicAgent,
        RandomAgent,
        DoNothingAgent,
        RefundEverythingAgent,
        EscalateEverythingAgent,
        PromiseEverythingAgent,
        ToolSpamAgent,
        RespondSpamAgent,
        MostCommonCategoryAgent,
        WholeKbAgent,
        PasteArticlesAgent,
        StuffFieldsAgent,
        *TRICKS,
    )
}
EXPLOITS = (
    "do_nothing",
    "refund_everything",
    "escalate_everything",
    "promise_everything",
    "tool_spam",
    "respond_spam",
    "most_common_category",
    "whole_kb",
    "paste_articles",
    "stuff_fields",
)
"""Cheap tricks without reasoning: each must score at most 0.3 on every task."""
MESSAGE_TRICKS = tuple(trick.name for trick in TRICKS)
"""Text tricks after the right actions (and two cheats on the actions): see
novamart.agents.tricks for what each must score at most."""

__all__ = ["AGENTS", "EXPLOITS", "MESSAGE_TRICKS", "Agent"]
